#pragma once
// A connection as tables and the lobby see it: something to send shared, serialized messages to.
#include <cstdint>
#include <memory>
#include <string>

namespace gcor::server {

using Message = std::shared_ptr<const std::string>;

inline Message make_message(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

class Peer {
  public:
    virtual ~Peer() = default;
    // Thread-safe: queues the message on the peer's own strand.
    virtual void send(Message message) = 0;
};

struct User {
    std::uint64_t id = 0;
    std::string name;
};

}  // namespace gcor::server
