#pragma once
// What the parts of the server share. Each member is safe to use from any thread.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "gcor/server/config.hpp"
#include "metrics.hpp"

namespace gcor::server {

class Accounts;
class ChatLimiter;
class Mutes;
class Lobby;
class Leagues;
class Mailer;
class Notifier;
class PasswordAttempts;
class Ratings;
class Store;
class Vacations;
class WsSession;

// Open WebSocket connections, for the graceful shutdown.
class SessionList {
  public:
    // False once the shutdown began: the caller closes the session itself.
    bool add(const std::shared_ptr<WsSession>& session) {
        std::lock_guard lock(mutex_);
        if (closed_) return false;
        std::erase_if(sessions_, [](const auto& s) { return s.expired(); });
        sessions_.push_back(session);
        return true;
    }
    // The shutdown: no session is added after this; returns those open.
    std::vector<std::shared_ptr<WsSession>> close() {
        {
            std::lock_guard lock(mutex_);
            closed_ = true;
        }
        return open();
    }
    bool closed() const {
        std::lock_guard lock(mutex_);
        return closed_;
    }
    std::vector<std::shared_ptr<WsSession>> open() const {
        std::lock_guard lock(mutex_);
        std::vector<std::shared_ptr<WsSession>> result;
        for (const auto& session : sessions_)
            if (auto locked = session.lock()) result.push_back(std::move(locked));
        return result;
    }

  private:
    mutable std::mutex mutex_;
    bool closed_ = false;
    std::vector<std::weak_ptr<WsSession>> sessions_;
};

class ConnectionLimiter;

// One open connection of an address; gives its place back when destroyed. A value, moved from the
// HTTP session to the WebSocket's: as a block of its own it would be one more on every connection.
class ConnectionCount {
  public:
    ConnectionCount() = default;  // no place: refused
    ConnectionCount(ConnectionLimiter& limiter, std::string address)
        : limiter_(&limiter), address_(std::move(address)) {}
    ConnectionCount(ConnectionCount&& other) noexcept
        : limiter_(std::exchange(other.limiter_, nullptr)), address_(std::move(other.address_)) {}
    ConnectionCount& operator=(ConnectionCount&&) = delete;
    ~ConnectionCount();
    // Whether this holds a place (not refused, not moved from).
    explicit operator bool() const { return limiter_ != nullptr; }
    const std::string& address() const { return address_; }

  private:
    ConnectionLimiter* limiter_ = nullptr;
    std::string address_;
};

// Open connections, plain HTTP and WebSocket alike, per client address and in all. A connection
// counts from its accept, so peers that never send a byte cannot use up the file descriptors.
class ConnectionLimiter {
  public:
    enum class Refusal { none, address_full, server_full };

    ConnectionLimiter(int per_address, int total) : per_address_(per_address), total_(total) {}
    // A place for one connection from `address`, or none and why not.
    ConnectionCount acquire(const std::string& address, Refusal& refusal) {
        std::lock_guard lock(mutex_);
        refusal = open_ >= total_ ? Refusal::server_full : Refusal::none;
        int& count = counts_[address];
        if (refusal == Refusal::none && count >= per_address_) refusal = Refusal::address_full;
        if (refusal != Refusal::none) {
            if (count == 0) counts_.erase(address);
            return {};
        }
        ++count;
        ++open_;
        return ConnectionCount(*this, address);
    }
    void release(const std::string& address) {
        std::lock_guard lock(mutex_);
        --open_;
        if (--counts_[address] <= 0) counts_.erase(address);
    }
    int open() const {
        std::lock_guard lock(mutex_);
        return open_;
    }
    int total() const { return total_; }

  private:
    const int per_address_;
    const int total_;
    mutable std::mutex mutex_;
    int open_ = 0;
    std::unordered_map<std::string, int> counts_;
};

inline ConnectionCount::~ConnectionCount() {
    if (limiter_) limiter_->release(address_);
}

struct Services {
    const Config& config;
    Metrics& metrics;
    Store& store;
    Accounts& accounts;
    Notifier& notifier;
    Mailer& mailer;
    Lobby& lobby;
    Ratings& ratings;
    Leagues& leagues;
    SessionList& sessions;
    ConnectionLimiter& limiter;
    PasswordAttempts& password_attempts;
    ChatLimiter& chat_limiter;
    Mutes& mutes;
    Vacations& vacations;
    // For work that blocks (store reads and writes, creating users): never on the I/O threads.
    boost::asio::io_context& blocking;
    // Password hashing (register, login) only: a flood of attempts cannot delay other work.
    boost::asio::io_context& hashing;
    // Bots think here (the strong one for a while): never on a table's strand or the I/O threads.
    boost::asio::io_context& bots;
};

}  // namespace gcor::server
