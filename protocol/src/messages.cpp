#include "gcor/protocol/messages.hpp"

#include <array>
#include <cassert>
#include <memory>

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
    "limit_reached",   "mail_unavailable", "token_expired",
    "seat_reserved",   "cannot_invite",    "not_finished",
    "analysis_busy",
};

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
    // Room for the ids (a request id of up to 32 bytes), so that the text is allocated once.
    std::string text;
    text.reserve(patch_message.size() + move_id.size() + 64);
    text.append(patch_message.substr(0, patch_message.size() - 1));
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

}  // namespace gcor::protocol
