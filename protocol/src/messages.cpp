#include "gcor/protocol/messages.hpp"

#include <algorithm>
#include <cassert>
#include <initializer_list>
#include <limits>
#include <memory>
#include <vector>

#include "gcor/protocol/events.hpp"
#include "gcor/protocol/json_text.hpp"
#include "gcor/protocol/view_json.hpp"
#include "json_reader.hpp"

namespace gcor::protocol {
namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(kLastErrorCode) + 1> kErrorIds{
    "bad_json",        "too_deep",         "unknown_type",
    "bad_field",       "hello_first",      "bad_token",
    "not_found",       "table_full",       "seat_taken",
    "already_seated",  "not_seated",       "not_started",
    "already_started", "not_full",         "spectators_not_allowed",
    "not_your_turn",   "illegal_move",     "stale_version",
    "game_over",       "rate_limited",     "too_many_connections",
    "internal",        "bad_credentials",  "name_taken",
    "storage_failed",  "forbidden",        "registered_only",
    "wrong_state",     "cannot_undo",      "chat_not_allowed",
    "limit_reached",   "mail_unavailable",
};

constexpr std::array<std::pair<std::string_view, RequestType>, 19> kTypes{{
    {"hello", RequestType::hello},
    {"list_tables", RequestType::list_tables},
    {"subscribe_lobby", RequestType::subscribe_lobby},
    {"unsubscribe_lobby", RequestType::unsubscribe_lobby},
    {"create_table", RequestType::create_table},
    {"sit", RequestType::sit},
    {"leave", RequestType::leave},
    {"start", RequestType::start},
    {"watch", RequestType::watch},
    {"sync", RequestType::sync},
    {"move", RequestType::move},
    {"my_games", RequestType::my_games},
    {"log", RequestType::log},
    {"undo", RequestType::undo},
    {"chat", RequestType::chat},
    {"chat_history", RequestType::chat_history},
    {"delete_chat", RequestType::delete_chat},
    {"mute", RequestType::mute},
    {"unmute", RequestType::unmute},
}};

void read_table(Reader& r, Request& request, bool with_seat) {
    request.table = r.string("table", 32, true);
    if (!r.error && !valid_table_id(request.table)) r.fail("\"table\" is not a table id");
    if (with_seat)
        if (auto seat = r.integer("seat", 0, engine::kMaxPlayers - 1, false))
            request.seat = static_cast<int>(*seat);
}

void read_create(Reader& r, Request& request) {
    r.only({"options", "bots", "public", "spectators", "sit", "time_control", "rated", "undo",
            "chat"});
    read_table_settings(r, request.settings);
    request.sit = r.boolean("sit", true);
}

// A move's or an undo's table, version and move_id.
void read_change(Reader& r, Request& request) {
    read_table(r, request, false);
    if (auto version = r.integer("version", 0, 1'000'000'000, true))
        request.version = static_cast<std::uint64_t>(*version);
    request.move_id = r.string("move_id", 64, true);
    if (!r.error && request.move_id.empty()) r.fail("\"move_id\" must not be empty");
}

// A page of a table's log or chat: its table, the line it ends before, and its size.
void read_page(Reader& r, Request& request, long long first_line, int default_limit,
               int max_limit) {
    r.only({"table", "before", "limit"});
    read_table(r, request, false);
    if (auto before = r.integer("before", first_line, 1'000'000'000, false))
        request.before = static_cast<std::uint64_t>(*before);
    request.limit = default_limit;
    if (auto limit = r.integer("limit", 1, max_limit, false))
        request.limit = static_cast<int>(*limit);
}

void read_move(Reader& r, Request& request) {
    r.only({"table", "version", "move_id", "move"});
    read_change(r, request);
    const std::string text = r.string("move", 64, true);
    if (r.error) return;
    const auto move = engine::Move::parse(text);
    if (!move)
        return r.fail("\"move\" is not a move: \"" + text +
                      "\" (see the moves listed in your view)");
    request.move = *move;
}

}  // namespace

std::string_view error_id(ErrorCode code) {
    return kErrorIds[static_cast<std::size_t>(code)];
}

Json error_json(ErrorCode code, std::string_view message, const Json& request_id,
                std::string_view table) {
    Json json{{"type", "error"}, {"code", error_id(code)}, {"message", message}};
    if (!request_id.is_null()) json["id"] = request_id;
    if (!table.empty()) json["table"] = table;
    return json;
}

Expected<Json> parse_json_document(std::string_view text, int max_depth) {
    if (nesting_depth(text) > max_depth)
        return Error{ErrorCode::too_deep,
                     "the JSON nests deeper than " + std::to_string(max_depth)};
    std::unique_ptr<simdjson::dom::parser> own_parser;
    Element document;
    if (parser_for(text.size(), own_parser).parse(text.data(), text.size()).get(document) !=
        simdjson::SUCCESS)
        return Error{ErrorCode::bad_json, "not valid JSON"};
    auto json = to_json(document);
    if (!json) return Error{ErrorCode::bad_field, "an object gives the same member twice"};
    return std::move(*json);
}

// As the server makes them: "t" and 16 lower-case hex digits.
bool valid_table_id(std::string_view id) {
    return id.size() == 17 && id[0] == 't' && std::all_of(id.begin() + 1, id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

bool valid_chat_text(std::string_view text) {
    int characters = 0;
    bool visible = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7F) return false;
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        const auto third = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 2]) : 0;
        if (c == 0xC2 && next >= 0x80 && next <= 0x9F) return false;  // C1 controls
        // U+2028/2029 (line breaks), U+202A–202E and U+2066–2069 (bidirectional overrides and
        // isolates, which could make a line read as somebody else's).
        if (c == 0xE2 && next == 0x80 && third >= 0xA8 && third <= 0xAE) return false;
        if (c == 0xE2 && next == 0x81 && third >= 0xA6 && third <= 0xA9) return false;
        characters += (c & 0xC0) != 0x80;
        visible |= c != ' ';
    }
    return characters >= 1 && characters <= kChatMaxCharacters && visible;
}

bool valid_name(std::string_view name, int max_characters) {
    // Characters, not bytes: the text is valid UTF-8 (the JSON parser checks), so every byte but
    // a continuation byte starts a character.
    int characters = 0;
    bool visible = false;
    for (unsigned char c : name) {
        if (c < 0x20 || c == 0x7F) return false;
        characters += (c & 0xC0) != 0x80;
        visible |= c != ' ';
    }
    return characters >= 1 && characters <= max_characters && visible;
}

void open_patch_message(std::string& out, std::string_view table_json, std::uint64_t to) {
    out += R"({"type":"patch","table":)";
    out += table_json;
    out += R"(,"from":)";
    append_json_number(out, to - 1);
    out += R"(,"to":)";
    append_json_number(out, to);
    out += R"(,"ops":)";
}

void close_patch_message(std::string& out, std::string_view events) {
    out += R"(,"log":)";
    out += events;
    out += '}';
}

std::string acknowledging_patch(std::string_view patch_message, std::string_view move_id,
                                const Json& request_id) {
    // close_patch_message ended the message with its object's brace: the ids go before it.
    assert(patch_message.ends_with("]}"));
    std::string text(patch_message.substr(0, patch_message.size() - 1));
    text += R"(,"move_id":)";
    append_json_string(text, move_id);
    if (!request_id.is_null()) {
        text += R"(,"id":)";
        append_json(text, request_id);
    }
    text.push_back('}');
    return text;
}

std::string snapshot_message(const Snapshot& snapshot, const Json& request_id) {
    std::string text;
    // A 4-seat game's snapshot: 2 KB at the start, 4 to 5 KB once the log holds its 64 events.
    text.reserve(4096);
    text += R"({"type":"snapshot","table":)";
    append_json_string(text, snapshot.table);
    text += R"(,"version":)";
    append_json_number(text, snapshot.version);
    text += R"(,"seat":)";
    if (snapshot.seat)
        append_json_number(text, static_cast<int>(*snapshot.seat));
    else
        text += "null";
    text += R"(,"summary":)";
    append_json(text, snapshot.summary);
    text += R"(,"view":)";
    append_view_json(text, snapshot.view);
    text += R"(,"log":)";
    append_events_json(text, snapshot.log, snapshot.seat);
    text += R"(,"chat":)";
    append_json(text, snapshot.chat);
    if (!request_id.is_null()) {
        text += R"(,"id":)";
        append_json(text, request_id);
    }
    text.push_back('}');
    return text;
}

std::variant<Request, RequestError> parse_request(std::string_view text, const Limits& limits) {
    if (nesting_depth(text) > limits.max_depth)
        return RequestError{{ErrorCode::too_deep,
                             "the message nests deeper than " + std::to_string(limits.max_depth)},
                            {}};
    // An empty message may have no storage at all, which simdjson would copy from.
    if (text.empty()) return RequestError{{ErrorCode::bad_json, "the message is empty"}, {}};
    // simdjson checks that the text is valid UTF-8 throughout; the object lives in the parser.
    std::unique_ptr<simdjson::dom::parser> own_parser;
    simdjson::dom::object message;
    if (const auto error =
            parser_for(text.size(), own_parser).parse(text.data(), text.size()).get(message);
        error != simdjson::SUCCESS)
        return RequestError{{ErrorCode::bad_json, error == simdjson::INCORRECT_TYPE
                                                      ? "a message is a JSON object"
                                                      : "the message is not valid JSON"},
                            {}};
    Request request;
    if (Element id; message.at_key("id").get(id) == simdjson::SUCCESS) {
        std::string_view text_id;
        std::int64_t number_id = 0;
        std::uint64_t unsigned_id = 0;
        if (id.get(text_id) == simdjson::SUCCESS && text_id.size() <= 64)
            request.id = text_id;
        else if (id.get(number_id) == simdjson::SUCCESS)
            request.id = number_id;
        else if (id.get(unsigned_id) == simdjson::SUCCESS)
            request.id = unsigned_id;
        else
            return RequestError{
                {ErrorCode::bad_field, "\"id\" must be a whole number or a short string"}, {}};
    }
    std::string_view type;
    if (message.at_key("type").get(type) != simdjson::SUCCESS)
        return RequestError{{ErrorCode::bad_field, "a message needs a \"type\""}, request.id};
    const auto known = std::find_if(kTypes.begin(), kTypes.end(),
                                    [&](const auto& entry) { return entry.first == type; });
    if (known == kTypes.end())
        return RequestError{
            {ErrorCode::unknown_type, "unknown message type \"" + std::string(type) + "\""},
            request.id};
    request.type = known->second;

    Reader r(message);
    switch (request.type) {
        case RequestType::hello:
            r.only({"name", "token"});
            request.name = r.string("name", 128, false);  // 32 characters of up to 4 bytes
            request.token = r.string("token", 128, false);
            if (!r.error && request.name.empty() == request.token.empty())
                r.fail("hello takes a \"name\" (a new guest) or a \"token\" (to resume), not both");
            if (!r.error && !request.name.empty() && !valid_name(request.name))
                r.fail("a name has 1 to 32 characters, no control characters");
            break;
        case RequestType::list_tables:
            r.only({"open", "players", "rules", "limit", "after"});
            if (auto limit = r.integer("limit", 1, kListPageMax, false))
                request.limit = static_cast<int>(*limit);
            if (r.find("after")) {
                request.after = r.string("after", 32, true);
                if (!r.error && !valid_table_id(request.after))
                    r.fail("\"after\" is not a table id");
            }
            request.open_only = r.boolean("open", false);
            if (auto players = r.integer("players", 2, engine::kMaxPlayers, false))
                request.players = static_cast<int>(*players);
            if (r.find("rules")) {
                const std::string rules = r.string("rules", 16, true);
                request.rules = engine::variant_from_id(rules);
                if (!r.error && !request.rules)
                    r.fail("\"rules\" must be \"yucata\" or \"publisher\"");
            }
            break;
        case RequestType::subscribe_lobby:
        case RequestType::unsubscribe_lobby:
            r.only({});
            break;
        case RequestType::create_table:
            read_create(r, request);
            break;
        case RequestType::sit:
            r.only({"table", "seat"});
            read_table(r, request, true);
            break;
        case RequestType::leave:
        case RequestType::start:
        case RequestType::watch:
        case RequestType::sync:
            r.only({"table"});
            read_table(r, request, false);
            break;
        case RequestType::move:
            read_move(r, request);
            break;
        case RequestType::undo:
            r.only({"table", "version", "move_id"});
            read_change(r, request);
            break;
        case RequestType::my_games:
            r.only({});
            break;
        case RequestType::chat:
            r.only({"table", "text"});
            read_table(r, request, false);
            request.text = r.string("text", 4 * kChatMaxCharacters, true);
            if (!r.error && !valid_chat_text(request.text))
                r.fail("a chat line has 1 to " + std::to_string(kChatMaxCharacters) +
                       " characters, not only spaces, and no control characters");
            break;
        case RequestType::chat_history:
            read_page(r, request, 1, kChatPageDefault, kChatPageMax);  // lines count from 1
            break;
        case RequestType::delete_chat:
            r.only({"table", "n"});
            read_table(r, request, false);
            if (auto line = r.integer("n", 1, 1'000'000'000, true))
                request.line = static_cast<std::uint64_t>(*line);
            break;
        case RequestType::mute:
        case RequestType::unmute:
            r.only({"user"});
            if (auto user = r.integer("user", 1, std::numeric_limits<std::int64_t>::max(), true))
                request.user = static_cast<std::uint64_t>(*user);
            break;
        case RequestType::log:
            read_page(r, request, 0, kLogPageDefault, kLogPageMax);  // lines count from 0
            break;
    }
    if (r.error)
        return RequestError{{ErrorCode::bad_field, *r.error},
                            request.id,
                            valid_table_id(request.table) ? request.table : std::string()};
    return request;
}

}  // namespace gcor::protocol
