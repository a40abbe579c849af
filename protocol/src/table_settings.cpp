#include "gcor/protocol/table_settings.hpp"

#include <algorithm>
#include <limits>

#include "gcor/protocol/requests.hpp"
#include "json_reader.hpp"

namespace gcor::protocol {
namespace {

// Stored settings nest two levels (options, time control, bots, league); more is not settings.
constexpr int kMaxSettingsDepth = 8;

// Reads `json` as an object with `read(reader, value)`; errors are bad_field, led by `what`.
template <typename T, typename Read>
Expected<T> read_object(Element json, std::string_view what, Read read) {
    auto bad = [what](std::string message) {
        return Error{ErrorCode::bad_field, std::string(what) + ": " + message};
    };
    simdjson::dom::object object;
    if (json.get(object) != simdjson::SUCCESS) return bad("must be an object");
    Reader r(object);
    T value;
    read(r, value);
    if (r.error) return bad(*r.error);
    return value;
}

// {"kind":"none"} | {"kind":"realtime","seconds":N} | {"kind":"correspondence","days":N},
// with "on_timeout": "bot" (default) or "forfeit".
Expected<TimeControl> parse_time_control(Element json) {
    return read_object<TimeControl>(json, "time_control", [](Reader& r, TimeControl& clock) {
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
    });
}

// {"id":…,"name":…,"season":…,"division":…}
Expected<TableLeague> parse_league(Element json) {
    return read_object<TableLeague>(json, "league", [](Reader& r, TableLeague& league) {
        r.only({"id", "name", "season", "division"});
        if (const auto id = r.integer("id", 1, std::numeric_limits<std::int64_t>::max(), true))
            league.id = static_cast<std::uint64_t>(*id);
        league.name = r.string("name", 256, true);
        if (const auto season = r.integer("season", 1, std::numeric_limits<int>::max(), true))
            league.season = static_cast<int>(*season);
        if (const auto division = r.integer("division", 1, std::numeric_limits<int>::max(), true))
            league.division = static_cast<int>(*division);
    });
}

// {"id":…,"name":…,"round":…} and, for a round with a deadline, "deadline":…
Expected<TableTournament> parse_tournament(Element json) {
    return read_object<TableTournament>(
        json, "tournament", [](Reader& r, TableTournament& tournament) {
            r.only({"id", "name", "round", "deadline"});
            if (const auto id = r.integer("id", 1, std::numeric_limits<std::int64_t>::max(), true))
                tournament.id = static_cast<std::uint64_t>(*id);
            tournament.name = r.string("name", 256, true);
            if (const auto round = r.integer("round", 1, std::numeric_limits<int>::max(), true))
                tournament.round = static_cast<int>(*round);
            tournament.deadline =
                r.integer("deadline", 0, std::numeric_limits<std::int64_t>::max(), false);
        });
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

void read_table_settings(Reader& r, TableSettings& settings) {
    const auto options = r.find("options");
    if (!options) return r.fail("\"options\" is required");
    const auto options_json = to_json(*options);
    if (!options_json) return r.fail("\"options\" gives a member twice");
    auto parsed = parse_options(*options_json);
    if (!parsed) return r.fail(parsed.error().message);
    settings.options = *parsed;
    if (const auto bots_member = r.find("bots")) {
        simdjson::dom::array bots;
        if (bots_member->get(bots) != simdjson::SUCCESS ||
            bots.size() > static_cast<std::size_t>(settings.options.players))
            return r.fail("\"bots\" must be an array with one entry per seat (null or a bot name)");
        std::size_t seat = 0;
        for (const Element bot : bots) {
            if (!bot.is_null()) {
                std::string_view name;
                const auto kind =
                    bot.get(name) == simdjson::SUCCESS ? engine::bot_from_id(name) : std::nullopt;
                if (!kind) return r.fail("bots: \"random\", \"greedy\", \"strong\" or null");
                settings.bots[seat] = kind;
            }
            ++seat;
        }
    }
    settings.is_public = r.boolean("public", true);
    settings.spectators = r.boolean("spectators", true);
    settings.rated = r.boolean("rated", false);
    settings.undo = r.boolean("undo", true);
    settings.start_when_full = r.boolean("start_when_full", false);
    if (r.find("chat")) {
        const auto chat = chat_setting_from_id(r.string("chat", 16, true));
        if (!chat && !r.error) return r.fail("\"chat\" must be \"all\", \"players\" or \"off\"");
        if (chat) settings.chat = *chat;
    }
    if (const auto member = r.find("name")) {
        const std::string rule = "\"name\" is a string of 1 to " +
                                 std::to_string(kMaxTableNameCharacters) +
                                 " characters, not only spaces, and no control characters";
        std::string_view name;
        if (member->get(name) != simdjson::SUCCESS) return r.fail(rule);
        // Trimmed first, so that " Friday " and "Friday" are one name and "  " is none.
        const auto first = name.find_first_not_of(' ');
        name = first == std::string_view::npos
                   ? std::string_view()
                   : name.substr(first, name.find_last_not_of(' ') - first + 1);
        if (!valid_chat_text(name, kMaxTableNameCharacters)) return r.fail(rule);
        settings.name = name;
    }
    if (settings.rated && std::any_of(settings.bots.begin(), settings.bots.end(),
                                      [](const auto& bot) { return bot.has_value(); }))
        return r.fail("a rated table has no bots: every seat is a registered player");
    if (const auto clock = r.find("time_control")) {
        auto parsed_clock = parse_time_control(*clock);
        if (!parsed_clock) return r.fail(parsed_clock.error().message);
        settings.clock = *parsed_clock;
    }
}

std::string_view chat_setting_id(ChatSetting chat) {
    switch (chat) {
        case ChatSetting::players:
            return "players";
        case ChatSetting::off:
            return "off";
        case ChatSetting::all:
            break;
    }
    return "all";
}

std::optional<ChatSetting> chat_setting_from_id(std::string_view id) {
    for (const ChatSetting chat : {ChatSetting::all, ChatSetting::players, ChatSetting::off})
        if (chat_setting_id(chat) == id) return chat;
    return std::nullopt;
}

Json table_settings_json(const TableSettings& settings) {
    Json json{{"options", options_to_json(settings.options)},
              {"public", settings.is_public},
              {"spectators", settings.spectators},
              {"time_control", time_control_to_json(settings.clock)},
              {"undo", settings.undo},
              {"chat", chat_setting_id(settings.chat)}};
    if (settings.rated) json["rated"] = true;
    if (settings.start_when_full) json["start_when_full"] = true;
    if (!settings.name.empty()) json["name"] = settings.name;
    if (std::any_of(settings.bots.begin(), settings.bots.end(),
                    [](const auto& bot) { return bot.has_value(); })) {
        Json bots = Json::array();
        for (int seat = 0; seat < settings.options.players; ++seat) {
            const auto& bot = settings.bots[static_cast<std::size_t>(seat)];
            bots.push_back(bot ? Json(engine::bot_id(*bot)) : Json());
        }
        json["bots"] = std::move(bots);
    }
    if (settings.league)
        json["league"] = Json{{"id", settings.league->id},
                              {"name", settings.league->name},
                              {"season", settings.league->season},
                              {"division", settings.league->division}};
    if (settings.tournament) {
        json["tournament"] = Json{{"id", settings.tournament->id},
                                  {"name", settings.tournament->name},
                                  {"round", settings.tournament->round}};
        if (settings.tournament->deadline)
            json["tournament"]["deadline"] = *settings.tournament->deadline;
    }
    return json;
}

Expected<TableSettings> parse_table_settings(std::string_view text) {
    if (nesting_depth(text) > kMaxSettingsDepth)
        return Error{ErrorCode::too_deep,
                     "table settings nest deeper than " + std::to_string(kMaxSettingsDepth)};
    std::unique_ptr<simdjson::dom::parser> own_parser;
    simdjson::dom::object object;
    if (text.empty() ||
        parser_for(text.size(), own_parser).parse(text.data(), text.size()).get(object) !=
            simdjson::SUCCESS)
        return Error{ErrorCode::bad_json, "table settings are a JSON object"};
    TableSettings settings;
    Reader r(object);
    r.only({"options", "bots", "public", "spectators", "time_control", "rated", "undo", "chat",
            "start_when_full", "name", "league", "tournament"});
    read_table_settings(r, settings);
    if (const auto league = r.find("league"); league && !r.error) {
        auto parsed = parse_league(*league);
        if (!parsed) return parsed.error();
        settings.league = std::move(*parsed);
    }
    if (const auto tournament = r.find("tournament"); tournament && !r.error) {
        auto parsed = parse_tournament(*tournament);
        if (!parsed) return parsed.error();
        settings.tournament = std::move(*parsed);
    }
    if (r.error) return Error{ErrorCode::bad_field, *r.error};
    return settings;
}

}  // namespace gcor::protocol
