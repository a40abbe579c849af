#include "leagues/leagues.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <future>
#include <map>

#include "crypto.hpp"
#include "leagues/game_outcome.hpp"
#include "leagues/league_schedule.hpp"
#include "leagues/league_settings.hpp"
#include "leagues/standings.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

constexpr int kMaxLeagueName = 64;  // characters

protocol::Error refuse(ErrorCode code, std::string message) {
    return protocol::Error{code, std::move(message)};
}

// The settings a league was stored with (written by settings_json).
LeagueSettings settings_of(const StoredLeague& league) {
    return settings_from_json(Json::parse(league.settings, nullptr, false));
}

Json user_json(const User& user) {
    return Json{{"id", user.id}, {"name", user.name}};
}

Json season_summary_json(const StoredSeason& season) {
    Json json{{"season", season.number}, {"status", season.status}, {"opened", season.opened}};
    if (season.started) json["started"] = *season.started;
    if (season.finished) json["finished"] = *season.finished;
    return json;
}

Json league_json(const StoredLeague& league, const std::vector<StoredSeason>& seasons) {
    Json json{{"id", league.id},
              {"name", league.name},
              {"organizer", user_json(league.organizer)},
              {"created", league.created}};
    json.update(settings_json(settings_of(league)));
    Json list = Json::array();
    for (const StoredSeason& season : seasons)
        list.push_back(season_summary_json(season));
    json["seasons"] = std::move(list);
    return json;
}

// `away`: the seats whose players are on vacation (Vacations::seats_away).
Json table_json(const StoredTable& table, const std::map<std::uint64_t, User>& users,
                const SeatsAway& away) {
    Json players = Json::array();
    for (std::size_t seat = 0; seat < table.seats.size(); ++seat) {
        const StoredSeat& stored = table.seats[seat];
        Json player = user_json(users.contains(stored.user) ? users.at(stored.user)
                                                            : User{stored.user, stored.name});
        if (seat < away.size() && away[seat]) player["away_until"] = *away[seat];
        players.push_back(std::move(player));
    }
    Json json{{"id", table.id},
              {"status", status_id(table.status)},
              {"version", table.version},
              {"players", std::move(players)}};
    if (table.to_act) json["to_act"] = *table.to_act;
    if (table.deadline) json["deadline"] = *table.deadline;
    if (const auto outcome = outcome_of(table)) {
        json["places"] = outcome->places;
        json["scores"] = outcome->scores;
    }
    return json;
}

Json standing_json(const StandingRow& row, const std::map<std::uint64_t, User>& users) {
    return Json{{"rank", row.rank},         {"user", user_json(users.at(row.user))},
                {"played", row.played},     {"wins", row.wins},
                {"forfeits", row.forfeits}, {"points", row.points},
                {"score", row.score},       {"influence", row.influence},
                {"coins", row.coins}};
}

}  // namespace

bool Leagues::is_admin(const User& user) const {
    const std::string key = name_key(user.name);
    return !user.guest &&
           std::any_of(services_.config.admins.begin(), services_.config.admins.end(),
                       [&](const std::string& admin) { return name_key(admin) == key; });
}

std::optional<protocol::Error> Leagues::may_manage(const User& by,
                                                   const StoredLeague& league) const {
    if (by.id == league.organizer.id || is_admin(by)) return std::nullopt;
    return refuse(ErrorCode::forbidden, "only the league's organizer (" + league.organizer.name +
                                            ") or an admin may "
                                            "manage its seasons");
}

Json Leagues::list() {
    Json leagues = Json::array();
    for (const StoredLeague& league : services_.store.leagues())
        leagues.push_back(league_json(league, services_.store.seasons(league.id)));
    return Json{{"leagues", std::move(leagues)}};
}

Reply Leagues::create(const User& by, const Json& body) {
    if (by.guest)
        return refuse(ErrorCode::registered_only, "only registered players create leagues");
    const auto name = body.find("name");
    if (name == body.end() || !name->is_string() ||
        !protocol::valid_name(name->get<std::string>(), kMaxLeagueName))
        return refuse(ErrorCode::bad_field,
                      "\"name\" must be a name of 1 to 64 characters, no control characters");
    auto settings = parse_settings(body);
    if (!settings) return settings.error();
    const auto league = services_.store.create_league(name->get<std::string>(), by.id,
                                                      settings_json(*settings).dump());
    if (!league) return refuse(ErrorCode::name_taken, "a league has this name already");
    spdlog::info("user {} created league {}", by.id, league->id);
    return league_json(*league, {});
}

Reply Leagues::league(std::uint64_t id) {
    const auto league = services_.store.league(id);
    if (!league) return refuse(ErrorCode::not_found, "no league " + std::to_string(id));
    return league_json(*league, services_.store.seasons(id));
}

protocol::Expected<std::pair<StoredLeague, StoredSeason>> Leagues::find_season(
    std::uint64_t league_id, int number) {
    const auto league = services_.store.league(league_id);
    if (!league) return refuse(ErrorCode::not_found, "no league " + std::to_string(league_id));
    const auto season = services_.store.season(league_id, number);
    if (!season)
        return refuse(ErrorCode::not_found, "league " + std::to_string(league_id) +
                                                " has no season " + std::to_string(number));
    return std::pair{*league, *season};
}

protocol::Expected<std::pair<StoredLeague, StoredSeason>> Leagues::season_to_manage(
    const User& by, std::uint64_t league_id, int number) {
    auto found = find_season(league_id, number);
    if (found)
        if (auto refused = may_manage(by, found->first)) return *refused;
    return found;
}

std::optional<StoredSeason> Leagues::open_for_signup(std::uint64_t league) {
    const auto seasons = services_.store.seasons(league);
    if (seasons.empty() || seasons.back().status != "signup") return std::nullopt;
    return seasons.back();
}

Reply Leagues::open_season(const User& by, std::uint64_t league_id) {
    std::lock_guard lock(mutex_);
    const auto league = services_.store.league(league_id);
    if (!league) return refuse(ErrorCode::not_found, "no league " + std::to_string(league_id));
    if (auto refused = may_manage(by, *league)) return *refused;
    if (!services_.store.seasons(league_id).empty())
        return refuse(ErrorCode::wrong_state,
                      "the league has its seasons already: the next one opens for sign-up when "
                      "the current one is closed");
    services_.store.open_season(league_id, 1);
    return season(league_id, 1);
}

Reply Leagues::sign_up(const User& by, std::uint64_t league_id) {
    if (by.guest)
        return refuse(ErrorCode::registered_only, "only registered players sign up for leagues");
    std::lock_guard lock(mutex_);
    if (!services_.store.league(league_id))
        return refuse(ErrorCode::not_found, "no league " + std::to_string(league_id));
    const auto open = open_for_signup(league_id);
    if (!open)
        return refuse(ErrorCode::wrong_state, "no season of this league is open for sign-up");
    services_.store.sign_up(league_id, open->number, by.id);  // signing up twice changes nothing
    return season(league_id, open->number);
}

Reply Leagues::withdraw(const User& by, std::uint64_t league_id) {
    std::lock_guard lock(mutex_);
    if (!services_.store.league(league_id))
        return refuse(ErrorCode::not_found, "no league " + std::to_string(league_id));
    const auto open = open_for_signup(league_id);
    if (!open)
        return refuse(ErrorCode::wrong_state,
                      "no season of this league is open for sign-up: once a season has started, "
                      "its games are played or forfeited");
    if (!services_.store.withdraw(league_id, open->number, by.id))
        return refuse(ErrorCode::not_found, "you are not signed up for this season");
    return season(league_id, open->number);
}

Json Leagues::divisions_json(const StoredLeague& league, const StoredSeason& season,
                             std::optional<UnixMs> away_at) {
    if (season.status == "finished") {
        const Json final_table = Json::parse(season.final_table, nullptr, false);
        if (final_table.is_object() && final_table.contains("divisions"))
            return final_table["divisions"];
    }
    const LeagueSettings settings = settings_of(league);
    const auto members = services_.store.members(league.id, season.number);
    const auto tables = services_.store.season_tables(league.id, season.number);
    std::map<std::uint64_t, User> users;
    std::map<int, std::vector<std::uint64_t>> tiers;
    for (const SeasonMember& member : members) {
        users.emplace(member.user.id, member.user);
        if (member.tier > 0) tiers[member.tier].push_back(member.user.id);
    }
    Json divisions = Json::array();
    for (const auto& [tier, players] : tiers) {
        Json players_json = Json::array();
        for (const std::uint64_t user : players) {
            Json player = user_json(users.at(user));
            if (const auto until =
                    away_at ? services_.vacations.away_until(user, *away_at) : std::nullopt)
                player["away_until"] = *until;
            players_json.push_back(std::move(player));
        }
        Json tables_json = Json::array();
        std::vector<GameOutcome> outcomes;
        for (const SeasonTable& table : tables) {
            if (table.tier != tier) continue;
            tables_json.push_back(
                table_json(table.table, users,
                           away_at ? services_.vacations.seats_away(table.table.seats, *away_at)
                                   : SeatsAway{}));
            if (auto outcome = outcome_of(table.table)) outcomes.push_back(std::move(*outcome));
        }
        Json standings_json = Json::array();
        for (const StandingRow& row : standings(players, outcomes, settings.points))
            standings_json.push_back(standing_json(row, users));
        divisions.push_back(Json{{"division", tier},
                                 {"players", std::move(players_json)},
                                 {"standings", std::move(standings_json)},
                                 {"tables", std::move(tables_json)}});
    }
    return divisions;
}

Reply Leagues::season(std::uint64_t league_id, int number) {
    auto found = find_season(league_id, number);
    if (!found) return found.error();
    const auto& [league, current] = *found;
    Json json{{"league", {{"id", league.id}, {"name", league.name}}}};
    json.update(season_summary_json(current));
    Json signups = Json::array();
    for (const SeasonMember& member : services_.store.members(league_id, number))
        signups.push_back(user_json(member.user));
    json["signups"] = std::move(signups);
    json["divisions"] = divisions_json(league, current, unix_now_ms());
    return json;
}

Reply Leagues::start_season(const User& by, std::uint64_t league_id, int number) {
    std::lock_guard lock(mutex_);
    auto found = season_to_manage(by, league_id, number);
    if (!found) return found.error();
    const auto& [league, current] = *found;
    if (current.status != "signup")
        return refuse(ErrorCode::wrong_state, "season " + std::to_string(number) + " has started");
    const LeagueSettings settings = settings_of(league);
    const int players = settings.options.players;
    std::vector<SeasonMember> members = services_.store.members(league_id, number);
    if (members.size() < static_cast<std::size_t>(players))
        return refuse(ErrorCode::wrong_state, "a season needs at least " + std::to_string(players) +
                                                  " players signed up; " +
                                                  std::to_string(members.size()) + " are");

    // Returning players are placed by where the last season sent them, newcomers at the bottom.
    std::map<std::uint64_t, NextTier> last_season;
    if (const auto previous = services_.store.season(league_id, number - 1)) {
        const Json final_table = Json::parse(previous->final_table, nullptr, false);
        if (final_table.is_object())
            for (const Json& next : final_table.value("next", Json::array()))
                last_season.emplace(
                    next.at("user").get<std::uint64_t>(),
                    NextTier{next.at("user").get<std::uint64_t>(), next.at("from").get<int>(),
                             next.at("position").get<int>(), next.at("to").get<int>()});
    }
    std::vector<NextTier> returning;
    std::vector<std::uint64_t> newcomers;
    std::map<std::uint64_t, SeasonMember*> by_id;
    for (SeasonMember& member : members) {
        by_id.emplace(member.user.id, &member);
        if (const auto it = last_season.find(member.user.id); it != last_season.end())
            returning.push_back(it->second);
        else
            newcomers.push_back(member.user.id);
    }
    const auto divisions = assign_divisions(returning, newcomers, settings.division_size, players);

    protocol::TableSettings table_settings;
    table_settings.options = settings.options;
    table_settings.is_public = false;  // listed on the league's pages, not in the lobby
    table_settings.spectators = true;
    table_settings.rated = true;
    table_settings.clock = clock_of(settings);
    table_settings.undo = settings.undo;
    table_settings.chat = settings.chat;
    const auto& test_seed = services_.config.test_seed;
    std::uint64_t next_test_seed = test_seed ? *test_seed + services_.store.count_tables() : 0;

    std::vector<SeasonTable> tables;
    for (std::size_t index = 0; index < divisions.size(); ++index) {
        const int tier = static_cast<int>(index) + 1;
        const auto& division = divisions[index];
        for (const std::uint64_t user : division)
            by_id.at(user)->tier = tier;
        table_settings.league = protocol::TableLeague{league.id, league.name, number, tier};
        const auto schedule = schedule_division(static_cast<int>(division.size()), players,
                                                settings.games_per_pairing, secure_random_seed());
        for (const std::vector<int>& seats : schedule) {
            std::vector<User> seated;
            for (const int member : seats)
                seated.push_back(by_id.at(division[static_cast<std::size_t>(member)])->user);
            const std::uint64_t seed = test_seed ? next_test_seed++ : secure_random_seed();
            tables.push_back(
                SeasonTable{tier, started_table_record("t" + secure_random_hex(8), table_settings,
                                                       seated, seed, services_.vacations)});
        }
    }
    std::promise<bool> stored;
    services_.store.start_season(league_id, number, members, tables,
                                 [&stored](bool ok) { stored.set_value(ok); });
    if (!stored.get_future().get())
        return refuse(ErrorCode::storage_failed,
                      "the server could not save the season's start; nothing changed");
    spdlog::info("league {} season {} started: {} players, {} divisions, {} tables", league_id,
                 number, members.size(), divisions.size(), tables.size());

    for (const SeasonTable& table : tables) {
        Json message{{"type", "league_table"},
                     {"table", summary_json(table.table, services_.vacations.seats_away(
                                                             table.table.seats, unix_now_ms()))}};
        for (const StoredSeat& seat : table.table.seats)
            services_.notifier.tell(seat.user, message);
        // The table is not loaded yet: nothing else tells its first player. Their mail is the
        // season's (below), which says where they are to move.
        if (const int first = *table.table.to_act; table.table.turn_of(first))
            services_.notifier.your_turn(
                table.table.seats[static_cast<std::size_t>(first)].user, [&table, first] {
                    return your_turn_json(table.table.id, first, table.table.version,
                                          table.table.deadline);
                });
    }
    if (services_.mailer.enabled()) mail_season_start(league, number, members, tables);
    return season(league_id, number);
}

void Leagues::mail_season_start(const StoredLeague& league, int number,
                                const std::vector<SeasonMember>& members,
                                const std::vector<SeasonTable>& tables) {
    for (const SeasonMember& member : members) {
        std::vector<SeasonTableNotice> mine;
        std::vector<std::string> your_turn;
        for (const SeasonTable& table : tables) {
            const auto& seats = table.table.seats;
            const auto seat = std::ranges::find_if(
                seats, [&](const StoredSeat& each) { return each.user == member.user.id; });
            if (seat == seats.end()) continue;
            SeasonTableNotice notice{table.table.id, {}, table.table.deadline};
            for (const StoredSeat& each : seats)
                notice.players.push_back(each.name);
            mine.push_back(std::move(notice));
            if (table.table.turn_of(static_cast<int>(seat - seats.begin())))
                your_turn.push_back(table.table.id);
        }
        services_.mailer.season_started(member.user.id, member.user.name, league.name, league.id,
                                        number, member.tier, mine, your_turn);
    }
}

Reply Leagues::close_season(const User& by, std::uint64_t league_id, int number) {
    std::lock_guard lock(mutex_);
    auto found = season_to_manage(by, league_id, number);
    if (!found) return found.error();
    const auto& [league, current] = *found;
    if (current.status != "playing")
        return refuse(ErrorCode::wrong_state,
                      current.status == "signup"
                          ? "season " + std::to_string(number) + " has not started"
                          : "season " + std::to_string(number) + " is closed already");
    const auto tables = services_.store.season_tables(league_id, number);
    const auto unfinished = std::count_if(tables.begin(), tables.end(), [](const auto& table) {
        return table.table.status != TableStatus::finished;
    });
    if (unfinished > 0)
        return refuse(ErrorCode::wrong_state,
                      std::to_string(unfinished) + " of the season's " +
                          std::to_string(tables.size()) +
                          " games are not finished (a seat out of time forfeits)");

    const LeagueSettings settings = settings_of(league);
    // The final table is kept: without who was on vacation when it was closed.
    Json divisions = divisions_json(league, current, std::nullopt);
    std::vector<FinishedDivision> finished;
    for (const Json& division : divisions) {
        FinishedDivision result{division.at("division").get<int>(), {}};
        for (const Json& row : division.at("standings"))
            result.order.push_back(row.at("user").at("id").get<std::uint64_t>());
        finished.push_back(std::move(result));
    }
    const auto next = promotion_and_relegation(finished, settings.promote, settings.relegate);
    Json next_json = Json::array();
    for (const NextTier& move : next) {
        next_json.push_back(Json{{"user", move.user},
                                 {"from", move.from_tier},
                                 {"position", move.position},
                                 {"to", move.to_tier}});
        Json& division = divisions.at(static_cast<std::size_t>(move.from_tier - 1));
        if (move.to_tier < move.from_tier) division["promoted"].push_back(move.user);
        if (move.to_tier > move.from_tier) division["relegated"].push_back(move.user);
    }
    for (Json& division : divisions) {
        if (!division.contains("promoted")) division["promoted"] = Json::array();
        if (!division.contains("relegated")) division["relegated"] = Json::array();
    }
    const Json final_table{{"divisions", std::move(divisions)}, {"next", std::move(next_json)}};
    services_.store.finish_season(league_id, number, final_table.dump());
    spdlog::info("league {} season {} closed; season {} open for sign-up", league_id, number,
                 number + 1);
    return season(league_id, number);
}

}  // namespace gcor::server
