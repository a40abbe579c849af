#pragma once
// The server's messages over the WebSocket that are written as text, and its error replies
// (requests.hpp has the requests). docs/protocol.md documents every message.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gcor/engine/event.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/protocol/requests.hpp"

namespace gcor::protocol {

// The protocol's version, which `welcome` names (docs/protocol.md, "Versions"). 2: logs are events,
// hands list null for unknown cards, cells and turns leave out what is absent.
inline constexpr int kProtocolVersion = 2;

// {"type":"error","code":…,"message":…,"id":…,"table":…}: id when the request had one, table
// when it named one (empty: none).
Json error_json(ErrorCode code, std::string_view message, const Json& request_id,
                std::string_view table = {});

// A whole JSON document from outside the process (an HTTP body, a file), read by the same rules
// as a request: errors "too_deep" (nested deeper than `max_depth`), "bad_json", and "bad_field"
// when an object gives a member twice (nlohmann alone would keep the last one silently).
Expected<Json> parse_json_document(std::string_view text, int max_depth);
// The nesting a game record or a city file may have (`cor replay`, `cor score`): they nest a few
// levels, more is not one of them.
constexpr int kMaxFileJsonDepth = 32;

// A patch message as text, written around operations that a table appends in place:
// open_patch_message writes {"type":"patch","table":<table_json>,"from":<to - 1>,"to":<to>,"ops":
// then the caller appends the operations' array, and close_patch_message writes
// ,"log":<events>} (`events`: a JSON array of events, append_events_json).
void open_patch_message(std::string& out, std::string_view table_json, std::uint64_t to);
void close_patch_message(std::string& out, std::string_view events);
// The mover's copy of a patch message, which is also the answer to its move: the same members,
// then "move_id", and "id" when the request had one.
std::string acknowledging_patch(std::string_view patch_message, std::string_view move_id,
                                const Json& request_id);

// A table's state for one viewer, as text: {"type":"snapshot","table":…,"version":…,"seat":…,
// "summary":…,"view":…,"log":…,"chat":…}, then "id" when it answers a request. Written without
// making the view and the log as Json values: every join and reconnection asks for one.
struct Snapshot {
    std::string_view table;
    std::uint64_t version = 0;
    std::optional<engine::Seat> seat;  // none: a spectator's
    const Json& summary;
    const engine::View& view;
    std::span<const engine::Event> log;
    const Json& chat;
};
std::string snapshot_message(const Snapshot& snapshot, const Json& request_id);

}  // namespace gcor::protocol
