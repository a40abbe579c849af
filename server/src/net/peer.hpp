#pragma once
// A connection as tables and the lobby see it: something to send shared, serialized messages to.
#include <cstdint>
#include <memory>
#include <string>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/user.hpp"

namespace gcor::server {

class Metrics;

using Message = std::shared_ptr<const std::string>;

inline Message make_message(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

class Peer {
  public:
    virtual ~Peer() = default;
    // Thread-safe: queues the message on the peer's own strand. A slow reader may lose it (and
    // get the state of what it follows again later).
    virtual void send(Message message) = 0;
    // Thread-safe: the reply to the peer's request with this id (null: it had none), which is
    // never dropped with the news; one too large to fit is answered rate_limited (docs/protocol.md,
    // "Limits").
    virtual void send_reply(Message message, const protocol::Json& id) = 0;
    // Thread-safe: the session with this key (session_key) was logged out; a connection that
    // said hello with its token closes.
    virtual void end_session(std::uint64_t session_key) = 0;
};

// An error reply ({"type":"error",…}), counted by its code in the metrics and logged at debug
// level. `id`: the request's (null: none); `table`: the table the request named, or empty;
// `reason`: the engine's finer code of a refused move, or null.
Message error_message(Metrics& metrics, protocol::ErrorCode code, std::string_view message,
                      const protocol::Json& id, std::string_view table = {},
                      const char* reason = nullptr);

// Sends `json` to `peer` as the reply to its request `id` (null: it had none), with that id.
inline void send_json_reply(Peer& peer, protocol::Json json, const protocol::Json& id) {
    if (!id.is_null()) json["id"] = id;
    peer.send_reply(make_message(json.dump()), id);
}

// Sends error_message(…) to `peer` as the reply to its request `id` (thread-safe).
inline void send_error(Peer& peer, Metrics& metrics, protocol::ErrorCode code,
                       std::string_view message, const protocol::Json& id,
                       std::string_view table = {}, const char* reason = nullptr) {
    peer.send_reply(error_message(metrics, code, message, id, table, reason), id);
}

}  // namespace gcor::server
