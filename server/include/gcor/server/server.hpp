#pragma once
// The whole server: one io_context, worker threads, the lobby and its tables, the listener.
#include <cstdint>
#include <memory>

#include "gcor/server/config.hpp"

namespace gcor::server {

class Server {
  public:
    // Binds the listening socket; throws std::exception (e.g. the port is in use).
    explicit Server(const Config& config);
    ~Server();

    std::uint16_t port() const;
    // Serves until stop() or SIGINT/SIGTERM; then stops accepting, lets queued messages go out,
    // closes the WebSockets with 1001 and returns.
    void run();
    void stop();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gcor::server
