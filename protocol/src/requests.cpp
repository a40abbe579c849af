#include "gcor/protocol/requests.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <utility>

#include "json_reader.hpp"

namespace gcor::protocol {
namespace {

using Parsed = std::variant<Request, RequestError>;

// The members of each kind of request, in the order they are read: the first problem found is
// the one reported.

void read_table(Reader& r, std::string& table) {
    table = r.string("table", 32, true);
    if (!r.error && !valid_table_id(table)) r.fail("\"table\" is not a table id");
}

// The requests that name only a table.
void read_table_only(Reader& r, std::string& table) {
    r.only({"table"});
    read_table(r, table);
}

// A move's or an undo's table, version and move_id.
void read_change(Reader& r, requests::Change& change) {
    read_table(r, change.table);
    if (auto version = r.integer("version", 0, 1'000'000'000, true))
        change.version = static_cast<std::uint64_t>(*version);
    change.move_id = r.string("move_id", 64, true);
    if (!r.error && change.move_id.empty()) r.fail("\"move_id\" must not be empty");
}

// A page of a table's log or chat: its table, the line it ends before, and its size.
template <typename Page>
void read_page(Reader& r, Page& page, long long first_line, int max_limit) {
    r.only({"table", "before", "limit"});
    read_table(r, page.table);
    if (auto before = r.integer("before", first_line, 1'000'000'000, false))
        page.before = static_cast<std::uint64_t>(*before);
    if (auto limit = r.integer("limit", 1, max_limit, false)) page.limit = static_cast<int>(*limit);
}

void read(Reader& r, requests::Hello& hello) {
    r.only({"name", "token"});
    hello.name = r.string("name", 128, false);  // 32 characters of up to 4 bytes
    hello.token = r.string("token", 128, false);
    if (!r.error && hello.name.empty() == hello.token.empty())
        r.fail("hello takes a \"name\" (a new guest) or a \"token\" (to resume), not both");
    if (!r.error && !hello.name.empty() && !valid_name(hello.name))
        r.fail("a name has 1 to 32 characters, no control characters");
}

void read(Reader& r, requests::ListTables& list) {
    r.only({"open", "players", "rules", "limit", "after"});
    if (auto limit = r.integer("limit", 1, kListPageMax, false))
        list.limit = static_cast<int>(*limit);
    if (r.find("after")) {
        list.after = r.string("after", 32, true);
        if (!r.error && !valid_table_id(list.after)) r.fail("\"after\" is not a table id");
    }
    list.open_only = r.boolean("open", false);
    if (auto players = r.integer("players", 2, engine::kMaxPlayers, false))
        list.players = static_cast<int>(*players);
    if (r.find("rules")) {
        const std::string rules = r.string("rules", 16, true);
        list.rules = engine::variant_from_id(rules);
        if (!r.error && !list.rules) r.fail("\"rules\" must be \"yucata\" or \"publisher\"");
    }
}

void read(Reader& r, requests::SubscribeLobby&) {
    r.only({});
}

void read(Reader& r, requests::UnsubscribeLobby&) {
    r.only({});
}

void read(Reader& r, requests::MyGames&) {
    r.only({});
}

// "invite": names or ids of registered players, each once; at most the seats that neither a bot
// nor the creator takes.
void read_invitees(Reader& r, requests::CreateTable& create) {
    const auto member = r.find("invite");
    if (!member) return;
    const auto& settings = create.settings;
    const auto bots = std::count_if(settings.bots.begin(), settings.bots.end(),
                                    [](const auto& bot) { return bot.has_value(); });
    const auto free_seats = settings.options.players - bots - (create.sit ? 1 : 0);
    simdjson::dom::array invitees;
    if (member->get(invitees) != simdjson::SUCCESS)
        return r.fail("\"invite\" must be an array of player names or user ids");
    if (static_cast<long long>(invitees.size()) > free_seats)
        return r.fail("\"invite\" names more players than the table has free seats (" +
                      std::to_string(std::max<long long>(free_seats, 0)) + ")");
    for (const Element invitee : invitees) {
        requests::Invitee named;
        std::string_view name;
        std::int64_t user = 0;
        if (invitee.get(name) == simdjson::SUCCESS && valid_name(name))
            named.name = std::string(name);
        else if (invitee.get(user) == simdjson::SUCCESS && user >= 1)
            named.user = static_cast<std::uint64_t>(user);
        else
            return r.fail("\"invite\": each is a player's name or a user id");
        if (std::ranges::find(create.invite, named) != create.invite.end())
            return r.fail("\"invite\" names a player twice");
        create.invite.push_back(std::move(named));
    }
}

void read(Reader& r, requests::CreateTable& create) {
    r.only({"options", "bots", "public", "spectators", "sit", "time_control", "rated", "undo",
            "chat", "name", "start_when_full", "invite"});
    read_table_settings(r, create.settings);
    if (r.error) return;
    create.sit = r.boolean("sit", true);
    read_invitees(r, create);
    // A table of invited players starts when the last of them accepts, unless told otherwise.
    if (!create.invite.empty() && !r.find("start_when_full"))
        create.settings.start_when_full = true;
}

void read(Reader& r, requests::Sit& sit) {
    r.only({"table", "seat"});
    read_table(r, sit.table);
    if (auto seat = r.integer("seat", 0, engine::kMaxPlayers - 1, false))
        sit.seat = static_cast<int>(*seat);
}

void read(Reader& r, requests::Leave& leave) {
    read_table_only(r, leave.table);
}

void read(Reader& r, requests::Start& start) {
    read_table_only(r, start.table);
}

void read(Reader& r, requests::Decline& decline) {
    read_table_only(r, decline.table);
}

void read(Reader& r, requests::Withdraw& withdraw) {
    r.only({"table", "user"});
    read_table(r, withdraw.table);
    if (auto user = r.integer("user", 1, std::numeric_limits<std::int64_t>::max(), true))
        withdraw.user = static_cast<std::uint64_t>(*user);
}

void read(Reader& r, requests::Watch& watch) {  // and Sync
    read_table_only(r, watch.table);
}

void read(Reader& r, requests::Move& move) {
    r.only({"table", "version", "move_id", "move"});
    read_change(r, move);
    const std::string text = r.string("move", 64, true);
    if (r.error) return;
    move.move = engine::Move::parse(text);
    if (!move.move)
        r.fail("\"move\" is not a move: \"" + text + "\" (see the moves listed in your view)");
}

void read(Reader& r, requests::Undo& undo) {
    r.only({"table", "version", "move_id"});
    read_change(r, undo);
}

void read(Reader& r, requests::Log& log) {
    read_page(r, log, 0, kLogPageMax);  // lines count from 0
}

void read(Reader& r, requests::Chat& chat) {
    r.only({"table", "text"});
    read_table(r, chat.table);
    chat.text = r.string("text", 4 * kChatMaxCharacters, true);
    if (!r.error && !valid_chat_text(chat.text))
        r.fail("a chat line has 1 to " + std::to_string(kChatMaxCharacters) +
               " characters, not only spaces, and no control characters");
}

void read(Reader& r, requests::ChatHistory& history) {
    read_page(r, history, 1, kChatPageMax);  // lines count from 1
}

void read(Reader& r, requests::DeleteChat& deletion) {
    r.only({"table", "n"});
    read_table(r, deletion.table);
    if (auto line = r.integer("n", 1, 1'000'000'000, true))
        deletion.line = static_cast<std::uint64_t>(*line);
}

void read(Reader& r, requests::Mute& mute) {  // and Unmute
    r.only({"user"});
    if (auto user = r.integer("user", 1, std::numeric_limits<std::int64_t>::max(), true))
        mute.user = static_cast<std::uint64_t>(*user);
}

template <typename Kind>
Parsed parse_kind(Reader& r, Json id) {
    Kind request{};
    request.id = std::move(id);
    read(r, request);
    if (!r.error) return Request(std::move(request));
    // A refusal names the table the request named, when it named one.
    std::string table;
    if constexpr (requires { request.table; })
        if (valid_table_id(request.table)) table = std::move(request.table);
    return RequestError{{ErrorCode::bad_field, *r.error}, std::move(request.id), std::move(table)};
}

constexpr std::array<std::pair<std::string_view, Parsed (*)(Reader&, Json)>,
                     std::variant_size_v<Request>>
    kKinds{{
        {"hello", &parse_kind<requests::Hello>},
        {"list_tables", &parse_kind<requests::ListTables>},
        {"subscribe_lobby", &parse_kind<requests::SubscribeLobby>},
        {"unsubscribe_lobby", &parse_kind<requests::UnsubscribeLobby>},
        {"create_table", &parse_kind<requests::CreateTable>},
        {"sit", &parse_kind<requests::Sit>},
        {"leave", &parse_kind<requests::Leave>},
        {"start", &parse_kind<requests::Start>},
        {"watch", &parse_kind<requests::Watch>},
        {"sync", &parse_kind<requests::Sync>},
        {"move", &parse_kind<requests::Move>},
        {"my_games", &parse_kind<requests::MyGames>},
        {"log", &parse_kind<requests::Log>},
        {"undo", &parse_kind<requests::Undo>},
        {"chat", &parse_kind<requests::Chat>},
        {"chat_history", &parse_kind<requests::ChatHistory>},
        {"delete_chat", &parse_kind<requests::DeleteChat>},
        {"mute", &parse_kind<requests::Mute>},
        {"unmute", &parse_kind<requests::Unmute>},
        {"decline", &parse_kind<requests::Decline>},
        {"withdraw", &parse_kind<requests::Withdraw>},
    }};

}  // namespace

Parsed parse_request(std::string_view text, const Limits& limits) {
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
    Json id;
    if (Element member; message.at_key("id").get(member) == simdjson::SUCCESS) {
        std::string_view text_id;
        std::int64_t number_id = 0;
        std::uint64_t unsigned_id = 0;
        if (member.get(text_id) == simdjson::SUCCESS && text_id.size() <= 64)
            id = text_id;
        else if (member.get(number_id) == simdjson::SUCCESS)
            id = number_id;
        else if (member.get(unsigned_id) == simdjson::SUCCESS)
            id = unsigned_id;
        else
            return RequestError{
                {ErrorCode::bad_field, "\"id\" must be a whole number or a short string"}, {}};
    }
    std::string_view type;
    if (message.at_key("type").get(type) != simdjson::SUCCESS)
        return RequestError{{ErrorCode::bad_field, "a message needs a \"type\""}, std::move(id)};
    const auto kind = std::ranges::find(kKinds, type, &decltype(kKinds)::value_type::first);
    if (kind == kKinds.end())
        return RequestError{
            {ErrorCode::unknown_type, "unknown message type \"" + std::string(type) + "\""},
            std::move(id)};
    Reader r(message);
    return kind->second(r, std::move(id));
}

// As the server makes them: "t" and 16 lower-case hex digits.
bool valid_table_id(std::string_view id) {
    return id.size() == 17 && id[0] == 't' && std::all_of(id.begin() + 1, id.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

bool valid_chat_text(std::string_view text, int max_characters) {
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
    return characters >= 1 && characters <= max_characters && visible;
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

}  // namespace gcor::protocol
