#pragma once
// Client requests over the WebSocket as typed values: one small struct per kind of request, and
// `Request`, the variant of them all, which parse_request makes once and the server dispatches
// once with std::visit. docs/protocol.md documents every request.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gcor/engine/move.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/protocol/expected.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/protocol/table_settings.hpp"

namespace gcor::protocol {

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

// Every request has `id`, echoed in its reply (null when absent); those about one table have
// `table`, a valid table id.
namespace requests {

// A new guest named `name`, or the session of `token` resumed: exactly one of them is given.
struct Hello {
    Json id;
    std::string name;
    std::string token;
};

// One page of the public tables that are not finished.
struct ListTables {
    Json id;
    bool open_only = false;
    int players = 0;  // 0: any
    std::optional<engine::Variant> rules;
    int limit = kListPageMax;
    std::string after;  // a table id: the page starts after it; empty: at the oldest
};

// Subscribes to the lobby's updates; answered with the first page of list_tables, unfiltered.
struct SubscribeLobby {
    Json id;
};

struct UnsubscribeLobby {
    Json id;
};

// A registered player invited by create_table: by id (`user`), or by name (`user` 0).
struct Invitee {
    std::uint64_t user = 0;
    std::string name;

    bool operator==(const Invitee&) const = default;
};

struct CreateTable {
    Json id;
    TableSettings settings;
    bool sit = true;  // the creator takes the first seat no bot takes
    // Each keeps a seat for the player; at most the seats left by the bots and the creator.
    std::vector<Invitee> invite;
};

struct MyGames {
    Json id;
};

struct Sit {
    Json id;
    std::string table;
    std::optional<int> seat;  // nullopt: the first open one
};

struct Leave {
    Json id;
    std::string table;
};

struct Start {
    Json id;
    std::string table;
};

// The invited user turns down their invitation to the table: the seat is free again.
struct Decline {
    Json id;
    std::string table;
};

// The host takes back the invitation of `user` to the table.
struct Withdraw {
    Json id;
    std::string table;
    std::uint64_t user = 0;
};

// Follows the table (as the user's seat, or as a spectator) and gets its state.
struct Watch {
    Json id;
    std::string table;
};

// Gets the table's state again: a watch by another name.
struct Sync : Watch {};

// A change the user's seat makes on the table's `version`: a move, or an undo (no `move`).
struct Change {
    Json id;
    std::string table;
    std::uint64_t version = 0;
    std::string move_id;
    std::optional<engine::Move> move;  // nullopt: an undo
};

struct Move : Change {};
struct Undo : Change {};

// A page of a table's log: the lines before index `before` (nullopt: up to the newest).
struct Log {
    Json id;
    std::string table;
    std::optional<std::uint64_t> before;
    int limit = kLogPageDefault;
};

struct Chat {
    Json id;
    std::string table;
    std::string text;
};

// A page of a table's chat: the lines before number `before` (nullopt: up to the newest).
struct ChatHistory {
    Json id;
    std::string table;
    std::optional<std::uint64_t> before;
    int limit = kChatPageDefault;
};

// An admin's deletion of chat line number `line` ("n").
struct DeleteChat {
    Json id;
    std::string table;
    std::uint64_t line = 0;
};

// Mutes (or, as Unmute, unmutes) another user's chat.
struct Mute {
    Json id;
    std::uint64_t user = 0;
};

struct Unmute : Mute {};

}  // namespace requests

using Request =
    std::variant<requests::Hello, requests::ListTables, requests::SubscribeLobby,
                 requests::UnsubscribeLobby, requests::CreateTable, requests::MyGames,
                 requests::Sit, requests::Leave, requests::Start, requests::Watch, requests::Sync,
                 requests::Move, requests::Undo, requests::Log, requests::Chat,
                 requests::ChatHistory, requests::DeleteChat, requests::Mute, requests::Unmute,
                 requests::Decline, requests::Withdraw>;

// The overloaded visitor of std::visit: one lambda per kind of request.
template <typename... Handlers>
struct Overloaded : Handlers... {
    using Handlers::operator()...;
};

// Any request's id.
inline const Json& request_id(const Request& request) {
    return std::visit([](const auto& kind) -> const Json& { return kind.id; }, request);
}

// The table a request names, or empty.
inline std::string_view request_table(const Request& request) {
    return std::visit(
        [](const auto& kind) -> std::string_view {
            if constexpr (requires { kind.table; })
                return kind.table;
            else
                return {};
        },
        request);
}

// A refused request: its error, and what the reply needs from the request.
struct RequestError : Error {
    Json id;
    std::string table = {};  // the table the request named, read before the error; or empty
};

struct Limits {
    int max_depth = 16;  // nesting of JSON objects and arrays
};

std::variant<Request, RequestError> parse_request(std::string_view text, const Limits& limits);

// A table id as the server makes them: "t" and 16 lowercase hex digits.
bool valid_table_id(std::string_view id);

// A chat line: 1 to `max_characters` characters, not only spaces, no control characters (C0,
// DEL, C1), line separators or bidirectional overrides. Table names follow the same rules.
bool valid_chat_text(std::string_view text, int max_characters = kChatMaxCharacters);

// Display names: 1 to `max_characters` characters, no control characters, not only spaces.
bool valid_name(std::string_view name, int max_characters = 32);

}  // namespace gcor::protocol
