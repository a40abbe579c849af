#include "gcor/protocol/messages.hpp"

#include <algorithm>
#include <cassert>
#include <initializer_list>
#include <memory>
#include <vector>

#include <simdjson.h>

namespace gcor::protocol {
namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(kLastErrorCode) + 1> kErrorIds{
    "bad_json",        "too_deep",        "unknown_type",
    "bad_field",       "hello_first",     "bad_token",
    "not_found",       "table_full",      "seat_taken",
    "already_seated",  "not_seated",      "not_started",
    "already_started", "not_full",        "spectators_not_allowed",
    "not_your_turn",   "illegal_move",    "stale_version",
    "game_over",       "rate_limited",    "too_many_connections",
    "internal",        "bad_credentials", "name_taken",
    "storage_failed",  "forbidden",       "registered_only",
    "wrong_state",
};

constexpr std::array<std::pair<std::string_view, RequestType>, 12> kTypes{{
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
}};

constexpr int kMaxRealtimeSeconds = 24 * 3600;
constexpr int kMaxCorrespondenceDays = 60;

// Nesting depth of a JSON text, counted before parsing so that a deeply nested message costs
// nothing to refuse.
int nesting_depth(std::string_view text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

using Element = simdjson::dom::element;

// Messages up to this size are parsed by a parser kept by each thread, which keeps its buffers
// between messages; a larger one (the limit is configurable) gets one of its own, so that a
// thread does not hold on to the memory of the largest message it ever saw.
constexpr std::size_t kReusedParserBytes = 64 * 1024;

// The parser for a message of `bytes`: the thread's own, or else a new one held by `own`.
simdjson::dom::parser& parser_for(std::size_t bytes, std::unique_ptr<simdjson::dom::parser>& own) {
    thread_local simdjson::dom::parser reused;
    if (bytes <= kReusedParserBytes) return reused;
    own = std::make_unique<simdjson::dom::parser>();
    return *own;
}

// Whether an object at any depth of `element` gives a member twice: nlohmann would keep the last
// one silently, where the protocol refuses it.
bool repeats_a_member(Element element) {
    if (simdjson::dom::array array; element.get(array) == simdjson::SUCCESS)
        return std::ranges::any_of(array, repeats_a_member);
    simdjson::dom::object object;
    if (element.get(object) != simdjson::SUCCESS) return false;
    std::vector<std::string_view> keys;
    for (const auto field : object) {
        if (std::ranges::find(keys, field.key) != keys.end() || repeats_a_member(field.value))
            return true;
        keys.push_back(field.key);
    }
    return false;
}

// A nested member (an object or an array) as a Json value, for the readers that take one: only
// create_table has nested members, so only it pays for the conversion. nullopt when it gives a
// member twice.
std::optional<Json> to_json(Element element) {
    if (repeats_a_member(element)) return std::nullopt;
    return Json::parse(simdjson::minify(element), nullptr, false);
}

// Reads the members of one JSON object, recording the first problem.
class Reader {
  public:
    explicit Reader(simdjson::dom::object object) : object_(object) {}

    std::optional<std::string> error;

    // Refuses members other than "type", "id" and `allowed`, and any member given twice.
    void only(std::initializer_list<std::string_view> allowed) {
        assert(allowed.size() + 2 <= kNoBit);
        std::uint32_t seen = 0;  // bit i: allowed[i]; the last two bits: "type" and "id"
        for (const auto field : object_) {
            const auto known = std::find(allowed.begin(), allowed.end(), field.key);
            const std::size_t bit = known != allowed.end() ? known - allowed.begin()
                                    : field.key == "type"  ? allowed.size()
                                    : field.key == "id"    ? allowed.size() + 1
                                                           : kNoBit;
            if (bit == kNoBit) return fail("unknown field \"" + std::string(field.key) + "\"");
            if (seen & (1u << bit))
                return fail("\"" + std::string(field.key) + "\" is given twice");
            seen |= 1u << bit;
        }
    }
    std::optional<Element> find(std::string_view key) const {
        Element value;
        if (object_.at_key(key).get(value) != simdjson::SUCCESS) return std::nullopt;
        return value;
    }
    std::string string(const char* key, std::size_t max_length, bool required) {
        const auto value = find(key);
        if (!value) {
            if (required) fail(std::string("\"") + key + "\" is required");
            return {};
        }
        std::string_view text;
        if (value->get(text) != simdjson::SUCCESS || text.size() > max_length)
            return fail(std::string("\"") + key + "\" must be a string of at most " +
                        std::to_string(max_length) + " characters"),
                   std::string();
        return std::string(text);
    }
    bool boolean(const char* key, bool fallback) {
        const auto value = find(key);
        if (!value) return fallback;
        bool flag = fallback;
        if (value->get(flag) != simdjson::SUCCESS)
            return fail(std::string("\"") + key + "\" must be true or false"), fallback;
        return flag;
    }
    std::optional<long long> integer(const char* key, long long min, long long max, bool required) {
        const auto value = find(key);
        if (!value) {
            if (required) fail(std::string("\"") + key + "\" is required");
            return std::nullopt;
        }
        std::int64_t number = 0;
        if (value->get(number) != simdjson::SUCCESS || number < min || number > max)
            return fail(std::string("\"") + key + "\" must be a whole number from " +
                        std::to_string(min) + " to " + std::to_string(max)),
                   std::nullopt;
        return number;
    }
    void fail(std::string message) {
        if (!error) error = std::move(message);
    }

  private:
    static constexpr std::size_t kNoBit = 32;
    simdjson::dom::object object_;
};

// {"kind":"none"} | {"kind":"realtime","seconds":N} | {"kind":"correspondence","days":N},
// with "on_timeout": "bot" (default) or "forfeit".
Expected<TimeControl> parse_time_control(Element json) {
    auto bad = [](std::string message) { return Error{"bad_field", "time_control: " + message}; };
    simdjson::dom::object object;
    if (json.get(object) != simdjson::SUCCESS) return bad("must be an object");
    TimeControl clock;
    Reader r(object);
    const std::string kind = r.string("kind", 16, true);
    if (kind == "none") {
        r.only({"kind"});
    } else if (kind == "realtime") {
        r.only({"kind", "seconds", "on_timeout"});
        clock.kind = TimeControl::Kind::realtime;
        if (auto seconds = r.integer("seconds", 1, kMaxRealtimeSeconds, true))
            clock.seconds = static_cast<int>(*seconds);
    } else if (kind == "correspondence") {
        r.only({"kind", "days", "on_timeout"});
        clock.kind = TimeControl::Kind::correspondence;
        if (auto days = r.integer("days", 1, kMaxCorrespondenceDays, true))
            clock.days = static_cast<int>(*days);
    } else if (!r.error) {
        r.fail("\"kind\" must be \"none\", \"realtime\" or \"correspondence\"");
    }
    if (r.find("on_timeout")) {
        const std::string policy = r.string("on_timeout", 16, true);
        if (policy == "forfeit")
            clock.on_timeout = TimeControl::OnTimeout::forfeit;
        else if (policy != "bot" && !r.error)
            r.fail("\"on_timeout\" must be \"bot\" or \"forfeit\"");
    }
    if (r.error) return bad(*r.error);
    return clock;
}

void read_table(Reader& r, Request& request, bool with_seat) {
    request.table = r.string("table", 32, true);
    if (!r.error && !valid_table_id(request.table)) r.fail("\"table\" is not a table id");
    if (with_seat)
        if (auto seat = r.integer("seat", 0, engine::kMaxPlayers - 1, false))
            request.seat = static_cast<int>(*seat);
}

void read_create(Reader& r, Request& request) {
    r.only({"options", "bots", "public", "spectators", "sit", "time_control", "rated"});
    const auto options = r.find("options");
    if (!options) return r.fail("\"options\" is required");
    const auto options_json = to_json(*options);
    if (!options_json) return r.fail("\"options\" gives a member twice");
    auto parsed = parse_options(*options_json);
    if (!parsed) return r.fail(parsed.error().message);
    request.options = *parsed;
    if (const auto bots_member = r.find("bots")) {
        simdjson::dom::array bots;
        if (bots_member->get(bots) != simdjson::SUCCESS ||
            bots.size() > static_cast<std::size_t>(request.options.players))
            return r.fail("\"bots\" must be an array with one entry per seat (null or a bot name)");
        std::size_t seat = 0;
        for (const Element bot : bots) {
            if (!bot.is_null()) {
                std::string_view name;
                const auto kind =
                    bot.get(name) == simdjson::SUCCESS ? engine::bot_from_id(name) : std::nullopt;
                if (!kind) return r.fail("bots: \"random\", \"greedy\" or null");
                request.bots[seat] = kind;
            }
            ++seat;
        }
    }
    request.is_public = r.boolean("public", true);
    request.spectators = r.boolean("spectators", true);
    request.sit = r.boolean("sit", true);
    request.rated = r.boolean("rated", false);
    if (request.rated &&
        std::any_of(request.bots.begin(), request.bots.end(), [](const auto& bot) { return bot; }))
        return r.fail("a rated table has no bots: every seat is a registered player");
    if (const auto clock = r.find("time_control")) {
        auto parsed_clock = parse_time_control(*clock);
        if (!parsed_clock) return r.fail(parsed_clock.error().message);
        request.clock = *parsed_clock;
    }
}

void read_move(Reader& r, Request& request) {
    r.only({"table", "version", "move_id", "move"});
    read_table(r, request, false);
    if (auto version = r.integer("version", 0, 1'000'000'000, true))
        request.version = static_cast<std::uint64_t>(*version);
    request.move_id = r.string("move_id", 64, true);
    if (!r.error && request.move_id.empty()) r.fail("\"move_id\" must not be empty");
    const std::string text = r.string("move", 64, true);
    if (r.error) return;
    const auto move = engine::Move::parse(text);
    if (!move)
        return r.fail("\"move\" is not a move: \"" + text +
                      "\" (see the moves listed in your view)");
    request.move = *move;
}

}  // namespace

std::chrono::milliseconds TimeControl::per_move() const {
    switch (kind) {
        case Kind::none:
            return std::chrono::milliseconds::zero();
        case Kind::realtime:
            return std::chrono::seconds(seconds);
        case Kind::correspondence:
            return std::chrono::hours(24 * days);
    }
    return std::chrono::milliseconds::zero();
}

Json time_control_to_json(const TimeControl& clock) {
    const char* policy = clock.on_timeout == TimeControl::OnTimeout::bot ? "bot" : "forfeit";
    switch (clock.kind) {
        case TimeControl::Kind::none:
            return Json{{"kind", "none"}};
        case TimeControl::Kind::realtime:
            return Json{{"kind", "realtime"}, {"seconds", clock.seconds}, {"on_timeout", policy}};
        case TimeControl::Kind::correspondence:
            return Json{{"kind", "correspondence"}, {"days", clock.days}, {"on_timeout", policy}};
    }
    return Json{{"kind", "none"}};
}

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
        return Error{"too_deep", "the JSON nests deeper than " + std::to_string(max_depth)};
    std::unique_ptr<simdjson::dom::parser> own_parser;
    Element document;
    if (parser_for(text.size(), own_parser).parse(text.data(), text.size()).get(document) !=
        simdjson::SUCCESS)
        return Error{"bad_json", "not valid JSON"};
    auto json = to_json(document);
    if (!json) return Error{"bad_field", "an object gives the same member twice"};
    return std::move(*json);
}

// As the server makes them: "t" and 16 lower-case hex digits.
bool valid_table_id(std::string_view id) {
    return id.size() == 17 && id[0] == 't' && std::all_of(id.begin() + 1, id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
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

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    std::size_t plain = 0;  // where the characters not yet appended begin
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(text.substr(plain, i - plain));
        plain = i + 1;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                out += "\\u00";
                out.push_back(kHex[c >> 4]);
                out.push_back(kHex[c & 0xF]);
        }
    }
    out.append(text.substr(plain));
    out.push_back('"');
}

std::variant<Request, RequestError> parse_request(std::string_view text, const Limits& limits) {
    if (nesting_depth(text) > limits.max_depth)
        return RequestError{ErrorCode::too_deep,
                            "the message nests deeper than " + std::to_string(limits.max_depth),
                            {}};
    // An empty message may have no storage at all, which simdjson would copy from.
    if (text.empty()) return RequestError{ErrorCode::bad_json, "the message is empty", {}};
    // simdjson checks that the text is valid UTF-8 throughout; the object lives in the parser.
    std::unique_ptr<simdjson::dom::parser> own_parser;
    simdjson::dom::object message;
    if (const auto error =
            parser_for(text.size(), own_parser).parse(text.data(), text.size()).get(message);
        error != simdjson::SUCCESS)
        return RequestError{ErrorCode::bad_json,
                            error == simdjson::INCORRECT_TYPE ? "a message is a JSON object"
                                                              : "the message is not valid JSON",
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
                ErrorCode::bad_field, "\"id\" must be a whole number or a short string", {}};
    }
    std::string_view type;
    if (message.at_key("type").get(type) != simdjson::SUCCESS)
        return RequestError{ErrorCode::bad_field, "a message needs a \"type\"", request.id};
    const auto known = std::find_if(kTypes.begin(), kTypes.end(),
                                    [&](const auto& entry) { return entry.first == type; });
    if (known == kTypes.end())
        return RequestError{ErrorCode::unknown_type,
                            "unknown message type \"" + std::string(type) + "\"", request.id};
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
        case RequestType::my_games:
            r.only({});
            break;
    }
    if (r.error)
        return RequestError{ErrorCode::bad_field, *r.error, request.id,
                            valid_table_id(request.table) ? request.table : std::string()};
    return request;
}

}  // namespace gcor::protocol
