#pragma once
// Client requests over the WebSocket, parsed strictly, and the stable error codes of replies.
// docs/protocol.md documents every message.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "gcor/engine/event.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/protocol/table_settings.hpp"

namespace gcor::protocol {

// The protocol's version, which `welcome` names (docs/protocol.md, "Versions"). 2: logs are events,
// hands list null for unknown cards, cells and turns leave out what is absent.
inline constexpr int kProtocolVersion = 2;

// {"type":"error","code":…,"message":…,"id":…,"table":…}: id when the request had one, table
// when it named one (empty: none).
Json error_json(ErrorCode code, std::string_view message, const Json& request_id,
                std::string_view table = {});

enum class RequestType : std::uint8_t {
    hello,
    list_tables,
    subscribe_lobby,
    unsubscribe_lobby,
    create_table,
    sit,
    leave,
    start,
    watch,
    sync,
    move,
    my_games,
    log,
    undo,
    chat,
    chat_history,
    delete_chat,
    mute,
    unmute,
};

// Tables in one page of list_tables (the default and the most).
constexpr int kListPageMax = 50;
// Lines in one page of a table's log: the default, and the most.
constexpr int kLogPageDefault = 100;
constexpr int kLogPageMax = 200;
// Chat (docs/protocol.md, "Chat"): a line's length in characters; lines in one page of a table's
// chat history, the default and the most.
constexpr int kChatMaxCharacters = 500;
constexpr int kChatPageDefault = 50;
constexpr int kChatPageMax = 200;

struct Request {
    RequestType type{};
    Json id;  // echoed in the reply; null when absent
    // hello
    std::string name;
    std::string token;
    // list_tables (and subscribe_lobby, which takes no filter and lists the first page)
    bool open_only = false;
    int players = 0;  // 0: any
    std::optional<engine::Variant> rules;
    int limit = kListPageMax;  // tables per page (log: lines per page)
    std::string after;         // a table id: the page starts after it; empty: at the oldest
    // create_table
    TableSettings settings;
    bool sit = true;  // the creator takes the first seat no bot takes
    // sit, leave, start, watch, sync, move, log, undo
    std::string table;
    std::optional<int> seat;
    // move and undo
    std::uint64_t version = 0;
    std::string move_id;
    engine::Move move;
    // log: the lines before this index; chat_history: before this line number; nullopt: up to
    // the newest
    std::optional<std::uint64_t> before;
    // chat
    std::string text;
    // delete_chat: the line's number
    std::uint64_t line = 0;
    // mute, unmute: the other user
    std::uint64_t user = 0;
};

// A refused request: its error, and what the reply needs from the request.
struct RequestError : Error {
    Json id;
    std::string table = {};  // the table the request named, read before the error; or empty
};

struct Limits {
    int max_depth = 16;  // nesting of JSON objects and arrays
};

std::variant<Request, RequestError> parse_request(std::string_view text, const Limits& limits);

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

// A table id as the server makes them: "t" and 16 lowercase hex digits.
bool valid_table_id(std::string_view id);

// A chat line: 1 to kChatMaxCharacters characters, not only spaces, no control characters (C0,
// DEL, C1), line separators or bidirectional overrides.
bool valid_chat_text(std::string_view text);

// Display names: 1 to `max_characters` characters, no control characters, not only spaces.
bool valid_name(std::string_view name, int max_characters = 32);

}  // namespace gcor::protocol
