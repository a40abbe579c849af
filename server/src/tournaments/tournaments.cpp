#include "tournaments/tournaments.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <future>
#include <map>
#include <set>

#include "crypto.hpp"
#include "leagues/game_outcome.hpp"
#include "leagues/leagues.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "ratings/rating.hpp"
#include "ratings/ratings.hpp"
#include "tables/table_record.hpp"
#include "tournaments/standings.hpp"

namespace gcor::server {

namespace net = boost::asio;
using protocol::ErrorCode;
using protocol::Json;

namespace {

constexpr std::size_t kListed = 200;  // tournaments GET /api/tournaments lists, newest first

protocol::Error refuse(ErrorCode code, std::string message) {
    return protocol::Error{code, std::move(message)};
}

protocol::Error no_tournament(std::uint64_t id) {
    return refuse(ErrorCode::not_found, "no tournament " + std::to_string(id));
}

TournamentSettings settings_of(const StoredTournament& tournament) {
    TournamentSettings settings =
        tournament_settings_from_json(Json::parse(tournament.settings, nullptr, false));
    settings.name = tournament.name;
    return settings;
}

// Rounds a knockout of this many players takes; a Swiss tournament's are its setting.
int rounds_of(const TournamentSettings& settings, std::size_t players) {
    if (settings.format == TournamentFormat::swiss) return settings.rounds;
    return knockout_rounds(static_cast<int>(players), settings.per_table, settings.advance);
}

}  // namespace

// A tournament as the store holds it, with its games and standings worked out.
struct Tournaments::Loaded {
    std::vector<TournamentPlayer> players;  // seed order once started
    std::vector<StoredRound> rounds;
    std::vector<TournamentTable> tables;
    std::vector<TournamentBye> byes;
    std::vector<TournamentRow> standings;

    Loaded(Store& store, const StoredTournament& tournament, const TournamentSettings& settings)
        : players(store.tournament_players(tournament.id)),
          rounds(store.tournament_rounds(tournament.id)),
          tables(store.tournament_tables(tournament.id)) {
        std::vector<TournamentEntrant> entrants;
        for (const TournamentPlayer& player : players)
            entrants.push_back(TournamentEntrant{player.user.id, player.withdrawn});
        for (const StoredRound& round : rounds)
            for (const std::uint64_t user : round.byes)
                byes.push_back(TournamentBye{round.number, user});
        std::vector<TournamentGame> games;
        std::vector<TournamentBye> seated;
        for (const TournamentTable& table : tables)
            for (const StoredSeat& seat : table.table.seats)
                seated.push_back(TournamentBye{table.round, seat.user});
        for (const TournamentTable& table : tables)
            if (const auto outcome = outcome_of(table.table))
                games.push_back(TournamentGame{table.round, outcome->users, outcome->places,
                                               outcome->scores, outcome->forfeited});
        standings = settings.format == TournamentFormat::swiss
                        ? swiss_standings(entrants, games, byes, settings.points)
                        : knockout_standings(entrants, games, byes, seated, settings.points,
                                             tournament.round, tournament.status == "finished");
    }

    const TournamentRow* row_of(std::uint64_t user) const {
        const auto found = std::find_if(standings.begin(), standings.end(),
                                        [&](const TournamentRow& row) { return row.user == user; });
        return found == standings.end() ? nullptr : &*found;
    }
    // Before the first round: the players seeded, the best rated first, then by sign-up; the
    // standings (all even) in that order.
    void seed_by_rating(Store& store) {
        for (TournamentPlayer& player : players) {
            const auto rating = store.rating(player.user.id);
            player.rating = rating ? rating->value : kInitialRating;
        }
        std::stable_sort(players.begin(), players.end(),
                         [](const TournamentPlayer& a, const TournamentPlayer& b) {
                             return a.rating > b.rating;
                         });
        std::vector<TournamentRow> seeded;
        for (std::size_t i = 0; i < players.size(); ++i) {
            players[i].seed = static_cast<int>(i) + 1;
            seeded.push_back(*row_of(players[i].user.id));
        }
        standings = std::move(seeded);
    }

    std::string name_of(std::uint64_t user) const {
        for (const TournamentPlayer& player : players)
            if (player.user.id == user) return player.user.name;
        return {};
    }
};

Tournaments::Tournaments(net::io_context& io, Services& services)
    : services_(services), strand_(net::make_strand(io)), timer_(strand_) {}

bool Tournaments::may_start(const User& user, const StoredTournament& tournament) const {
    return user.id == tournament.creator.id || services_.leagues.is_admin(user);
}

Json Tournaments::summary_json(const StoredTournament& tournament,
                               const TournamentSettings& settings,
                               const std::vector<TournamentPlayer>& players,
                               const std::optional<User>& asking) const {
    Json json{{"id", tournament.id}, {"name", tournament.name}};
    json.update(tournament_settings_json(settings));
    json.erase("points");
    // The detail's "rounds" lists the rounds paired; both name the number planned so.
    json["rounds"] = rounds_of(settings, players.size());
    json["rounds_planned"] = json["rounds"];
    json["points"] = settings.points;
    json["status"] = tournament.status;
    json["player_count"] = players.size();
    json["round"] = tournament.round;
    json["creator"] = Json{{"user", tournament.creator.id}, {"name", tournament.creator.name}};
    json["joined"] =
        asking && std::any_of(players.begin(), players.end(), [&](const TournamentPlayer& player) {
            return player.user.id == asking->id;
        });
    json["created"] = tournament.created;
    return json;
}

Json Tournaments::list(const std::optional<User>& asking) {
    Json upcoming = Json::array();
    Json running = Json::array();
    Json finished = Json::array();
    for (const StoredTournament& tournament : services_.store.tournaments(kListed)) {
        const Json summary =
            summary_json(tournament, settings_of(tournament),
                         services_.store.tournament_players(tournament.id), asking);
        (tournament.status == "signup"    ? upcoming
         : tournament.status == "running" ? running
                                          : finished)
            .push_back(summary);
    }
    return Json{{"upcoming", std::move(upcoming)},
                {"running", std::move(running)},
                {"finished", std::move(finished)}};
}

Tournaments::Reply Tournaments::create(const User& by, const Json& body) {
    if (by.guest)
        return refuse(ErrorCode::registered_only, "only registered players create tournaments");
    auto settings = parse_tournament_settings(body);
    if (!settings) return settings.error();
    Json stored = tournament_settings_json(*settings);
    const StoredTournament tournament = services_.store.create_tournament(
        settings->name, by.id, stored.dump(), settings->starts_at.value_or(0));
    spdlog::info("user {} created tournament {}", by.id, tournament.id);
    return detail(tournament.id, by);
}

Tournaments::Reply Tournaments::detail(std::uint64_t id, const std::optional<User>& asking) {
    const auto tournament = services_.store.tournament(id);
    if (!tournament) return no_tournament(id);
    const TournamentSettings settings = settings_of(*tournament);
    const Loaded loaded(services_.store, *tournament, settings);
    Json json = summary_json(*tournament, settings, loaded.players, asking);

    Json players = Json::array();
    for (const TournamentPlayer& player : loaded.players) {
        // The seed's rating once started; the rating as it stands before.
        double rating = player.rating;
        if (player.seed == 0) {
            const auto now = services_.store.rating(player.user.id);
            rating = now ? now->value : kInitialRating;
        }
        const TournamentRow* row = loaded.row_of(player.user.id);
        players.push_back(Json{{"user", player.user.id},
                               {"name", player.user.name},
                               {"rating", rounded_rating(rating)},
                               {"seed", player.seed},
                               {"withdrawn", player.withdrawn},
                               {"dropped", row && row->dropped}});
    }
    json["players"] = std::move(players);

    Json rounds = Json::array();
    for (const StoredRound& round : loaded.rounds) {
        Json tables = Json::array();
        for (const TournamentTable& table : loaded.tables) {
            if (table.round != round.number) continue;
            const auto outcome = outcome_of(table.table);
            Json seats = Json::array();
            for (std::size_t seat = 0; seat < table.table.seats.size(); ++seat) {
                const StoredSeat& stored = table.table.seats[seat];
                Json seat_json{{"user", stored.user}, {"name", stored.name},
                               {"place", Json()},     {"score", 0},
                               {"points", 0},         {"forfeited", stored.forfeited}};
                if (outcome) {
                    seat_json["place"] = outcome->places[seat];
                    seat_json["score"] = outcome->scores[seat];
                    seat_json["points"] = tournament_points(settings.points, outcome->places[seat],
                                                            outcome->forfeited[seat]);
                }
                seats.push_back(std::move(seat_json));
            }
            tables.push_back(Json{{"table", table.table.id},
                                  {"status", status_id(table.table.status)},
                                  {"seats", std::move(seats)}});
        }
        Json byes = Json::array();
        for (const std::uint64_t user : round.byes)
            byes.push_back(Json{{"user", user}, {"name", loaded.name_of(user)}});
        rounds.push_back(Json{{"number", round.number},
                              {"started_at", round.started},
                              {"deadline", round.deadline ? Json(*round.deadline) : Json()},
                              {"tables", std::move(tables)},
                              {"byes", std::move(byes)}});
    }
    json["rounds"] = std::move(rounds);

    Json standings = Json::array();
    for (const TournamentRow& row : loaded.standings)
        standings.push_back(Json{{"rank", row.rank},
                                 {"user", row.user},
                                 {"name", loaded.name_of(row.user)},
                                 {"points", row.points},
                                 {"buchholz", row.buchholz},
                                 {"score_sum", row.score_sum},
                                 {"games", row.games},
                                 {"byes", row.byes},
                                 {"withdrawn", row.withdrawn},
                                 {"dropped", row.dropped},
                                 {"eliminated", row.eliminated}});
    json["standings"] = std::move(standings);
    json["can_start"] = asking && tournament->status == "signup" && may_start(*asking, *tournament);
    return json;
}

Tournaments::Reply Tournaments::join(const User& by, std::uint64_t id) {
    if (by.guest)
        return refuse(ErrorCode::registered_only, "only registered players join tournaments");
    const auto tournament = services_.store.tournament(id);
    if (!tournament) return no_tournament(id);
    const TournamentSettings settings = settings_of(*tournament);
    switch (services_.store.join_tournament(id, by.id, settings.max_players)) {
        case JoinOutcome::closed:
            return refuse(ErrorCode::wrong_state, "the tournament's sign-up has closed");
        case JoinOutcome::full:
            return refuse(ErrorCode::wrong_state,
                          "the tournament is full: " + std::to_string(settings.max_players) +
                              " players have signed up");
        case JoinOutcome::already:
        case JoinOutcome::joined:
            break;  // signing up twice changes nothing
    }
    return detail(id, by);
}

Tournaments::Reply Tournaments::leave(const User& by, std::uint64_t id) {
    std::lock_guard lock(mutex_);
    const auto tournament = services_.store.tournament(id);
    if (!tournament) return no_tournament(id);
    if (tournament->status == "finished")
        return refuse(ErrorCode::wrong_state, "the tournament has finished");
    if (!services_.store.leave_tournament(id, by.id))
        return refuse(ErrorCode::not_found, "you are not playing in this tournament");
    return detail(id, by);
}

Tournaments::Reply Tournaments::start(const User& by, std::uint64_t id) {
    std::lock_guard lock(mutex_);
    const auto tournament = services_.store.tournament(id);
    if (!tournament) return no_tournament(id);
    if (!may_start(by, *tournament))
        return refuse(ErrorCode::forbidden, "only the tournament's creator (" +
                                                tournament->creator.name +
                                                ") or an admin may start it");
    if (tournament->status != "signup")
        return refuse(ErrorCode::wrong_state, "the tournament has started already");
    const TournamentSettings settings = settings_of(*tournament);
    const auto players = services_.store.tournament_players(id).size();
    if (players < static_cast<std::size_t>(settings.per_table))
        return refuse(ErrorCode::wrong_state,
                      "a tournament at tables of " + std::to_string(settings.per_table) +
                          " needs at least " + std::to_string(settings.per_table) + " players; " +
                          std::to_string(players) + " signed up");
    advance(*tournament, settings);
    return detail(id, by);
}

void Tournaments::advance(const StoredTournament& tournament, const TournamentSettings& settings) {
    Loaded loaded(services_.store, tournament, settings);
    if (tournament.round == 0) loaded.seed_by_rating(services_.store);
    for (const TournamentTable& table : loaded.tables)
        if (table.round == tournament.round && table.table.status != TableStatus::finished)
            return;  // the round goes on
    auto in = [&](std::uint64_t user) {
        const TournamentRow* row = loaded.row_of(user);
        return row && !row->withdrawn && !row->dropped;
    };
    std::optional<PairedRound> next;
    if (settings.format == TournamentFormat::swiss) {
        std::vector<SwissEntrant> ranked;
        for (const TournamentRow& row : loaded.standings)
            if (in(row.user)) ranked.push_back(SwissEntrant{row.user, row.byes > 0});
        Meetings meetings;
        for (const TournamentTable& table : loaded.tables) {
            std::vector<std::uint64_t> users;
            for (const StoredSeat& seat : table.table.seats)
                users.push_back(seat.user);
            add_table(meetings, users);
        }
        if (tournament.round < settings.rounds && ranked.size() >= 2)
            next = pair_swiss(ranked, settings.per_table, meetings);
    } else {
        std::vector<std::uint64_t> seeded;
        for (const TournamentPlayer& player : loaded.players)
            seeded.push_back(player.user.id);
        std::set<std::uint64_t> going_on;
        bool final_played = false;
        if (tournament.round == 0) {
            going_on.insert(seeded.begin(), seeded.end());
        } else {
            const StoredRound& last = loaded.rounds.back();
            going_on.insert(last.byes.begin(), last.byes.end());
            std::size_t tables = 0;
            for (const TournamentTable& table : loaded.tables) {
                if (table.round != tournament.round) continue;
                ++tables;
                const auto outcome = outcome_of(table.table);
                if (!outcome) continue;
                for (const std::uint64_t user :
                     knockout_advancing(outcome->users, outcome->places, settings.advance, seeded))
                    going_on.insert(user);
            }
            final_played = tables == 1 && last.byes.empty();
        }
        std::vector<std::uint64_t> players;
        for (const std::uint64_t user : seeded)
            if (going_on.contains(user) && in(user)) players.push_back(user);
        if (!final_played && players.size() >= 2)
            next = pair_knockout(players, settings.per_table, settings.advance);
    }
    if (!next) {
        if (services_.store.finish_tournament(tournament.id, tournament.round))
            spdlog::info("tournament {} finished after round {}", tournament.id, tournament.round);
        return;
    }
    store_round(tournament, settings, loaded, *next);
}

bool Tournaments::store_round(const StoredTournament& tournament,
                              const TournamentSettings& settings, const Loaded& loaded,
                              const PairedRound& round) {
    const UnixMs now = unix_now_ms();
    RoundStart start;
    start.tournament = tournament.id;
    start.round.number = tournament.round + 1;
    start.round.started = now;
    if (settings.round_deadline_hours)
        start.round.deadline = now + UnixMs{*settings.round_deadline_hours} * 3'600'000;
    start.round.byes = round.byes;
    if (tournament.round == 0) start.seeds = loaded.players;
    const auto& test_seed = services_.config.test_seed;
    std::uint64_t next_test_seed = test_seed ? *test_seed + services_.store.count_tables() : 0;
    for (const std::vector<std::uint64_t>& table : round.tables) {
        std::vector<User> seated;
        for (const std::uint64_t user : table)
            seated.push_back(User{user, loaded.name_of(user), false});
        const std::uint64_t seed = test_seed ? next_test_seed++ : secure_random_seed();
        start.tables.push_back(started_table_record(
            "t" + secure_random_hex(8),
            table_settings_of(settings, tournament.id, start.round.number, start.round.deadline,
                              static_cast<int>(seated.size())),
            seated, seed, services_.vacations));
    }
    std::promise<bool> stored;
    services_.store.start_round(start, [&stored](bool ok) { stored.set_value(ok); });
    if (!stored.get_future().get()) {
        spdlog::debug("tournament {} round {} not stored: another server paired it, or no write",
                      tournament.id, start.round.number);
        return false;
    }
    spdlog::info("tournament {} round {}: {} tables, {} byes", tournament.id, start.round.number,
                 start.tables.size(), start.round.byes.size());

    for (const StoredTable& table : start.tables) {
        const Json message{
            {"type", "tournament_table"},
            {"table", gcor::server::summary_json(
                          table, services_.vacations.seats_away(table.seats, unix_now_ms()))}};
        const int first = *table.to_act;
        const std::uint64_t first_user =
            table.turn_of(first) ? table.seats[static_cast<std::size_t>(first)].user : 0;
        SeasonTableNotice notice{table.id, {}, table.deadline};
        for (const StoredSeat& seat : table.seats)
            notice.players.push_back(seat.name);
        for (const StoredSeat& seat : table.seats) {
            services_.notifier.tell(seat.user, message);
            services_.mailer.tournament_round(seat.user, seat.name, tournament.name, tournament.id,
                                              start.round.number, notice, seat.user == first_user);
        }
        // The table is not loaded yet: nothing else tells its first player.
        if (first_user != 0)
            services_.notifier.your_turn(first_user, [&table, first] {
                return your_turn_json(table.id, first, table.version, table.deadline);
            });
    }
    return true;
}

void Tournaments::sweep() {
    std::lock_guard lock(mutex_);
    const UnixMs now = unix_now_ms();
    for (const StoredTournament& tournament : services_.store.unfinished_tournaments()) {
        try {
            const TournamentSettings settings = settings_of(tournament);
            if (tournament.status == "signup") {
                const bool due = settings.starts_at && *settings.starts_at <= now;
                const auto players = services_.store.tournament_players(tournament.id).size();
                if (!due) continue;
                if (players < static_cast<std::size_t>(settings.per_table)) {
                    // Nobody can play it: it ends without rounds rather than wait for ever.
                    if (services_.store.finish_tournament(tournament.id, 0))
                        spdlog::info("tournament {} ended at its start time: {} players",
                                     tournament.id, players);
                    continue;
                }
            }
            advance(tournament, settings);
        } catch (const StorageFailure& failure) {
            spdlog::error("tournament {}: the sweep could not use the store: {}", tournament.id,
                          failure.what());
        }
    }
}

void Tournaments::start_scheduler() {
    net::post(strand_, [this] { schedule(); });
}

void Tournaments::stop() {
    net::post(strand_, [this] {
        stopped_ = true;
        timer_.cancel();
    });
}

void Tournaments::schedule() {
    if (stopped_) return;
    timer_.expires_after(
        services_.config.tournament_sweep.value_or(services_.config.deadline_sweep));
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || stopped_) return;
        net::post(services_.blocking, [this] {
            try {
                sweep();
            } catch (const std::exception& error) {
                spdlog::error("the tournaments' sweep failed: {}", error.what());
            }
            net::post(strand_, [this] { schedule(); });
        });
    });
}

}  // namespace gcor::server
