#pragma once
// What the parts of the server share. Each member is safe to use from any thread.
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "gcor/server/config.hpp"
#include "metrics.hpp"
#include "net/connection_limiter.hpp"

namespace gcor::server {

class Accounts;
class Blocks;
class GameReviews;
class ChatLimiter;
class Mutes;
class Lobby;
class Leagues;
class Mailer;
class Notifier;
class PasswordAttempts;
class PasswordResets;
class Preferences;
class Ratings;
class StaticFiles;
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
    PasswordResets& password_resets;
    ChatLimiter& chat_limiter;
    Mutes& mutes;
    Vacations& vacations;
    Blocks& blocks;
    Preferences& preferences;
    const StaticFiles& web;  // the browser client's files
    // For work that blocks (store reads and writes, creating users): never on the I/O threads,
    // but for the one indexed read of a listing (list_tables, my_games) and the creation of a
    // table in test mode: a connection gets those replies and its refusals in the order it asked
    // (read elsewhere, a listing would overtake a rate_limited answer to the request before it).
    boost::asio::io_context& blocking;
    // Password hashing (register, login) only: a flood of attempts cannot delay other work.
    boost::asio::io_context& hashing;
    // Bots think here (the strong one for a while): never on a table's strand or the I/O threads.
    boost::asio::io_context& bots;
    // Tables load here (a store read, then a replay of every move): a burst of loads never queues
    // the short reads and writes of the blocking pool (docs/benchmarks.md, "Lobby requests").
    boost::asio::io_context& loading;
    // Reviews of finished games, computed on the bot pool.
    GameReviews& reviews;
};

}  // namespace gcor::server
