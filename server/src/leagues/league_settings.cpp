#include "leagues/league_settings.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "leagues/standings.hpp"

namespace gcor::server {

using protocol::Json;

namespace {

// Divisions hold at most this many players, so that a last division merged into the one above
// (assign_divisions) stays within what schedule_division plans for.
constexpr int kMaxDivisionSize = 12;

}  // namespace

protocol::Expected<LeagueSettings> parse_settings(const Json& body) {
    auto bad = [](std::string why) {
        return protocol::Error{protocol::ErrorCode::bad_field, std::move(why)};
    };
    for (const auto& [key, value] : body.items())
        if (key != "name" && key != "options" && key != "days" && key != "division_size" &&
            key != "games_per_pairing" && key != "points" && key != "promote" &&
            key != "relegate" && key != "undo" && key != "chat")
            return bad("unknown field \"" + key + "\"");
    LeagueSettings settings;
    const auto options = body.find("options");
    if (options == body.end()) return bad("\"options\" is required");
    auto parsed = protocol::parse_options(*options);
    if (!parsed) return bad(parsed.error().message);
    settings.options = *parsed;
    const int players = settings.options.players;
    auto member = [&](const char* key, long long low, long long high, long long fallback) {
        return protocol::read_integer(body, key, low, high, fallback, "the league's");
    };
    const auto days = member("days", 1, protocol::kMaxCorrespondenceDays, 3);
    if (!days) return days.error();
    const auto size = member("division_size", players, kMaxDivisionSize, 2 * players);
    if (!size) return size.error();
    const auto games = member("games_per_pairing", 1, 4, 1);
    if (!games) return games.error();
    const auto promote = member("promote", 0, *size / 2, 1);
    if (!promote) return promote.error();
    const auto relegate = member("relegate", 0, *size / 2, 1);
    if (!relegate) return relegate.error();
    settings.days = static_cast<int>(*days);
    settings.division_size = static_cast<int>(*size);
    settings.games_per_pairing = static_cast<int>(*games);
    settings.promote = static_cast<int>(*promote);
    settings.relegate = static_cast<int>(*relegate);
    if (const auto undo = body.find("undo"); undo != body.end()) {
        if (!undo->is_boolean()) return bad("\"undo\" must be true or false");
        settings.undo = undo->get<bool>();
    }
    if (const auto chat = body.find("chat"); chat != body.end()) {
        const auto* text = chat->get_ptr<const std::string*>();
        const auto chosen = text ? protocol::chat_setting_from_id(*text) : std::nullopt;
        if (!chosen) return bad("\"chat\" must be \"all\", \"players\" or \"off\"");
        settings.chat = *chosen;
    }
    settings.points = default_league_points(players);
    if (const auto points = body.find("points"); points != body.end()) {
        const std::string rule = "\"points\" must list " + std::to_string(players) +
                                 " whole numbers from 0 to 100, one per place, none more than "
                                 "the place before";
        if (!points->is_array() || points->size() != static_cast<std::size_t>(players))
            return bad(rule);
        settings.points.clear();
        for (const Json& point : *points) {
            if (!point.is_number_integer() || point.get<std::int64_t>() < 0 ||
                point.get<std::int64_t>() > 100)
                return bad(rule);
            settings.points.push_back(point.get<int>());
        }
        if (!std::is_sorted(settings.points.rbegin(), settings.points.rend())) return bad(rule);
    }
    return settings;
}

protocol::TimeControl clock_of(const LeagueSettings& settings) {
    protocol::TimeControl clock;
    clock.kind = protocol::TimeControl::Kind::correspondence;
    clock.days = settings.days;
    // Standings count a timeout as a loss: the seat forfeits.
    clock.on_timeout = protocol::TimeControl::OnTimeout::forfeit;
    return clock;
}

Json settings_json(const LeagueSettings& settings) {
    return Json{{"options", protocol::options_to_json(settings.options)},
                {"time_control", protocol::time_control_to_json(clock_of(settings))},
                {"division_size", settings.division_size},
                {"games_per_pairing", settings.games_per_pairing},
                {"points", settings.points},
                {"promote", settings.promote},
                {"relegate", settings.relegate},
                {"undo", settings.undo},
                {"chat", protocol::chat_setting_id(settings.chat)}};
}

LeagueSettings settings_from_json(const Json& json) {
    LeagueSettings settings;
    settings.options = *protocol::parse_options(json.at("options"));
    settings.days = json.at("time_control").at("days").get<int>();
    settings.division_size = json.at("division_size").get<int>();
    settings.games_per_pairing = json.at("games_per_pairing").get<int>();
    settings.points = json.at("points").get<std::vector<int>>();
    settings.promote = json.at("promote").get<int>();
    settings.relegate = json.at("relegate").get<int>();
    // Leagues stored before undo existed let players take back moves, as tables do by default.
    settings.undo = json.value("undo", true);
    // Leagues stored before chat existed have it open to all, as tables do by default.
    settings.chat = protocol::chat_setting_from_id(json.value("chat", "all"))
                        .value_or(protocol::ChatSetting::all);
    return settings;
}

}  // namespace gcor::server
