#pragma once
// What the parts of the server share. Each member is safe to use from any thread.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <boost/asio/thread_pool.hpp>

#include "gcor/server/config.hpp"
#include "metrics.hpp"

namespace gcor::server {

class Accounts;
class Lobby;
class Leagues;
class Notifier;
class Ratings;
class Store;
class WsSession;

// Open WebSocket connections, for the graceful shutdown.
class SessionList {
  public:
    void add(const std::shared_ptr<WsSession>& session) {
        std::lock_guard lock(mutex_);
        std::erase_if(sessions_, [](const auto& s) { return s.expired(); });
        sessions_.push_back(session);
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
    std::vector<std::weak_ptr<WsSession>> sessions_;
};

class ConnectionLimiter;

// One open connection of an address; gives its place back when destroyed.
class ConnectionCount {
  public:
    ConnectionCount(ConnectionLimiter& limiter, std::string address)
        : limiter_(limiter), address_(std::move(address)) {}
    ~ConnectionCount();
    const std::string& address() const { return address_; }

  private:
    ConnectionLimiter& limiter_;
    std::string address_;
};

// Open WebSocket connections per client address.
class ConnectionLimiter {
  public:
    explicit ConnectionLimiter(int limit) : limit_(limit) {}
    // nullptr when the address has `limit` connections open already.
    std::shared_ptr<ConnectionCount> acquire(const std::string& address) {
        std::lock_guard lock(mutex_);
        int& count = counts_[address];
        if (count >= limit_) return nullptr;
        ++count;
        return std::make_shared<ConnectionCount>(*this, address);
    }
    void release(const std::string& address) {
        std::lock_guard lock(mutex_);
        if (--counts_[address] <= 0) counts_.erase(address);
    }

  private:
    const int limit_;
    std::mutex mutex_;
    std::unordered_map<std::string, int> counts_;
};

inline ConnectionCount::~ConnectionCount() {
    limiter_.release(address_);
}

struct Services {
    const Config& config;
    Metrics& metrics;
    Store& store;
    Accounts& accounts;
    Notifier& notifier;
    Lobby& lobby;
    Ratings& ratings;
    Leagues& leagues;
    SessionList& sessions;
    ConnectionLimiter& limiter;
    // For work that blocks (password hashing, creating users): never on the I/O threads.
    boost::asio::thread_pool& blocking;
};

}  // namespace gcor::server
