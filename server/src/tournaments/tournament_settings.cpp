#include "tournaments/tournament_settings.hpp"

#include <algorithm>

#include "gcor/protocol/requests.hpp"
#include "leagues/standings.hpp"

namespace gcor::server {

using protocol::Json;

namespace {

constexpr int kMaxTournamentName = 64;                   // characters
constexpr long long kLatestStart = 253'402'300'799'999;  // the last millisecond of 9999
constexpr int kMaxRoundDeadlineHours = 24 * protocol::kMaxCorrespondenceDays;

protocol::Error bad(std::string why) {
    return protocol::Error{protocol::ErrorCode::bad_field, std::move(why)};
}

// The tables' clock, read by the table settings' own parser; a timeout forfeits, so that a
// player who does not play is dropped instead of holding up the round.
protocol::Expected<protocol::TimeControl> clock_from(const Json& time_control) {
    const Json probe{{"options", {{"players", 2}}}, {"time_control", time_control}};
    const auto settings = protocol::parse_table_settings(probe.dump());
    if (!settings) return bad(settings.error().message);
    protocol::TimeControl clock = settings->clock;
    if (clock.kind == protocol::TimeControl::Kind::none)
        return bad(
            "\"time_control\": a tournament's tables need a clock (realtime or "
            "correspondence), so that a player who does not play drops out");
    clock.on_timeout = protocol::TimeControl::OnTimeout::forfeit;
    return clock;
}

}  // namespace

std::string_view format_id(TournamentFormat format) {
    return format == TournamentFormat::swiss ? "swiss" : "knockout";
}

protocol::Expected<TournamentSettings> parse_tournament_settings(const Json& body) {
    static constexpr std::string_view kFields[] = {
        "name",        "format",       "players_per_table",
        "rounds",      "advance",      "rules",
        "shrine",      "time_control", "starts_at",
        "max_players", "rated",        "round_deadline_hours"};
    for (const auto& [key, value] : body.items())
        if (std::find(std::begin(kFields), std::end(kFields), key) == std::end(kFields))
            return bad("unknown field \"" + key + "\"");
    TournamentSettings settings;
    const auto name = body.find("name");
    if (name == body.end() || !name->is_string() ||
        !protocol::valid_name(name->get<std::string>(), kMaxTournamentName))
        return bad("\"name\" must be a name of 1 to 64 characters, no control characters");
    settings.name = name->get<std::string>();
    const auto format = body.find("format");
    if (format == body.end() || (*format != "swiss" && *format != "knockout"))
        return bad("\"format\" must be \"swiss\" or \"knockout\"");
    settings.format = *format == "swiss" ? TournamentFormat::swiss : TournamentFormat::knockout;
    auto member = [&](const char* key, long long low, long long high,
                      std::optional<long long> fallback) {
        return protocol::read_integer(body, key, low, high, fallback, "the tournament's");
    };
    const auto per_table = member("players_per_table", 2, 4, std::nullopt);
    if (!per_table) return per_table.error();
    settings.per_table = static_cast<int>(*per_table);
    const auto rounds = member("rounds", 1, kMaxSwissRounds, 3);
    if (!rounds) return rounds.error();
    const bool knockout = settings.format == TournamentFormat::knockout;
    settings.rounds = knockout ? 0 : static_cast<int>(*rounds);
    const auto advance = member("advance", 1, knockout ? settings.per_table - 1 : 1, 1);
    if (!advance) return advance.error();
    settings.advance = static_cast<int>(*advance);
    Json options{{"players", settings.per_table}};
    if (body.contains("rules")) options["rules"] = body["rules"];
    if (body.contains("shrine")) options["shrine"] = body["shrine"];
    const auto parsed_options = protocol::parse_options(options);
    if (!parsed_options) return bad(parsed_options.error().message);
    settings.options = *parsed_options;
    const auto time_control = body.find("time_control");
    if (time_control == body.end()) return bad("\"time_control\" is required");
    const auto clock = clock_from(*time_control);
    if (!clock) return clock.error();
    settings.clock = *clock;
    if (const auto starts = body.find("starts_at"); starts != body.end() && !starts->is_null()) {
        const auto at = member("starts_at", 0, kLatestStart, std::nullopt);
        if (!at) return at.error();
        settings.starts_at = *at;
    }
    const auto max_players = member("max_players", settings.per_table, kMaxTournamentPlayers, 64);
    if (!max_players) return max_players.error();
    settings.max_players = static_cast<int>(*max_players);
    if (const auto rated = body.find("rated"); rated != body.end()) {
        if (!rated->is_boolean()) return bad("\"rated\" must be true or false");
        settings.rated = rated->get<bool>();
    }
    if (const auto hours = body.find("round_deadline_hours");
        hours != body.end() && !hours->is_null()) {
        const auto deadline = member("round_deadline_hours", 1, kMaxRoundDeadlineHours, 1);
        if (!deadline) return deadline.error();
        settings.round_deadline_hours = static_cast<int>(*deadline);
    }
    settings.points = default_league_points(settings.per_table);
    return settings;
}

Json tournament_settings_json(const TournamentSettings& settings) {
    const Json options = protocol::options_to_json(settings.options);
    return Json{{"format", format_id(settings.format)},
                {"players_per_table", settings.per_table},
                {"rounds", settings.rounds},
                {"advance", settings.advance},
                {"rules", options.at("rules")},
                {"shrine", options.at("shrine")},
                {"time_control", protocol::time_control_to_json(settings.clock)},
                {"starts_at", settings.starts_at ? Json(*settings.starts_at) : Json()},
                {"max_players", settings.max_players},
                {"rated", settings.rated},
                {"round_deadline_hours",
                 settings.round_deadline_hours ? Json(*settings.round_deadline_hours) : Json()},
                {"points", settings.points}};
}

TournamentSettings tournament_settings_from_json(const Json& json) {
    TournamentSettings settings;
    settings.format =
        json.at("format") == "swiss" ? TournamentFormat::swiss : TournamentFormat::knockout;
    settings.per_table = json.at("players_per_table").get<int>();
    settings.rounds = json.at("rounds").get<int>();
    settings.advance = json.at("advance").get<int>();
    settings.options = *protocol::parse_options(Json{{"players", settings.per_table},
                                                     {"rules", json.at("rules")},
                                                     {"shrine", json.at("shrine")}});
    settings.clock = *clock_from(json.at("time_control"));
    if (!json.at("starts_at").is_null()) settings.starts_at = json.at("starts_at").get<long long>();
    settings.max_players = json.at("max_players").get<int>();
    settings.rated = json.at("rated").get<bool>();
    if (!json.at("round_deadline_hours").is_null())
        settings.round_deadline_hours = json.at("round_deadline_hours").get<int>();
    settings.points = json.at("points").get<std::vector<int>>();
    return settings;
}

protocol::TableSettings table_settings_of(const TournamentSettings& settings, std::uint64_t id,
                                          int round, std::optional<std::int64_t> deadline,
                                          int players) {
    protocol::TableSettings table;
    table.options = settings.options;
    table.options.players = players;
    table.is_public = false;  // listed on the tournament's page, not in the lobby
    table.spectators = true;
    table.rated = settings.rated;
    table.clock = settings.clock;
    table.tournament = protocol::TableTournament{id, settings.name, round, deadline};
    return table;
}

}  // namespace gcor::server
