#include "gcor/server/server.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <thread>

#include "http_session.hpp"
#include "lobby.hpp"
#include "ws_session.hpp"

namespace gcor::server {

struct Server::Impl {
    explicit Impl(const Config& c)
        : config(c),
          limiter(c.connections_per_address),
          lobby(io, services),
          services{config, metrics, users, lobby, sessions, limiter},
          signals(io, SIGINT, SIGTERM),
          shutdown_timer(io),
          listener(std::make_shared<Listener>(
              io, tcp::endpoint(net::ip::make_address(c.bind), c.port), services)) {}

    // Closes every WebSocket with 1001 once its queue is written, then stops when all are gone
    // (or after a few seconds, for clients that never answer the close).
    void stop() {
        net::post(io, [this] {
            if (stopping) return;
            stopping = true;
            spdlog::info("shutting down");
            listener->stop();
            signals.cancel();
            for (const auto& session : sessions.open())
                session->go_away();
            shutdown_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
            wait_for_sessions();
        });
    }
    void wait_for_sessions() {
        if (sessions.open().empty() || std::chrono::steady_clock::now() > shutdown_deadline)
            return io.stop();
        shutdown_timer.expires_after(std::chrono::milliseconds(20));
        shutdown_timer.async_wait([this](const beast::error_code&) { wait_for_sessions(); });
    }

    // Declared before the io_context, so that they outlive the connections its pending handlers
    // still hold when it is destroyed.
    Config config;
    Metrics metrics;
    Users users;
    SessionList sessions;
    ConnectionLimiter limiter;
    net::io_context io;
    Lobby lobby;
    Services services;
    net::signal_set signals;
    net::steady_timer shutdown_timer;
    std::shared_ptr<Listener> listener;
    bool stopping = false;
    std::chrono::steady_clock::time_point shutdown_deadline;
};

Server::Server(const Config& config) : impl_(std::make_unique<Impl>(config)) {}
Server::~Server() = default;

std::uint16_t Server::port() const {
    return impl_->listener->port();
}

void Server::run() {
    impl_->signals.async_wait([this](const beast::error_code& ec, int) {
        if (!ec) stop();
    });
    impl_->listener->run();
    std::vector<std::thread> threads;
    for (int i = 1; i < impl_->config.threads; ++i)
        threads.emplace_back([this] { impl_->io.run(); });
    impl_->io.run();
    for (std::thread& thread : threads)
        thread.join();
}

void Server::stop() {
    impl_->stop();
}

}  // namespace gcor::server
