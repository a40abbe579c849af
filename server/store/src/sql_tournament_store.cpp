#include "sql_tournament_store.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace gcor::server {

namespace {

constexpr const char* kTournamentSelect =
    "SELECT t.id, t.name, t.creator, u.name, t.settings, t.starts_at, t.status, t.round, "
    "t.created FROM tournaments t JOIN users u ON u.id = t.creator";

std::vector<StoredTournament> tournaments_from(const SqlRows& rows) {
    std::vector<StoredTournament> tournaments;
    for (int i = 0; i < rows.rows(); ++i)
        tournaments.push_back(StoredTournament{rows.uint64(i, 0), rows.text(i, 1),
                                               User{rows.uint64(i, 2), rows.text(i, 3), false},
                                               rows.text(i, 4), rows.int64(i, 5), rows.text(i, 6),
                                               rows.int32(i, 7), rows.int64(i, 8)});
    return tournaments;
}

std::optional<StoredTournament> select_tournament(Sql& db, std::uint64_t id) {
    return first_of(tournaments_from(
        db.query(std::string(kTournamentSelect) + " WHERE t.id = $1", sql_params(id))));
}

}  // namespace

StoredTournament SqlTournamentStore::create_tournament(const std::string& name,
                                                       std::uint64_t creator,
                                                       const std::string& settings,
                                                       UnixMs starts_at) {
    std::optional<StoredTournament> made;
    access_.write_and_wait(
        [&](Sql& db) {
            const SqlRows row = db.query(
                "INSERT INTO tournaments (name, creator, settings, starts_at, status, round, "
                "created) VALUES ($1, $2, $3, $4, 'signup', 0, $5) RETURNING id",
                sql_params(name, creator, settings, starts_at, unix_now_ms()));
            made = select_tournament(db, row.uint64(0, 0));
        },
        "create a tournament");
    return *made;
}

std::vector<StoredTournament> SqlTournamentStore::tournaments(std::size_t limit) {
    return access_.read_one([&](Sql& db) {
        return tournaments_from(db.query(
            std::string(kTournamentSelect) + " ORDER BY t.created DESC, t.id DESC LIMIT $1",
            sql_params(limit)));
    });
}

std::vector<StoredTournament> SqlTournamentStore::unfinished_tournaments() {
    return access_.read_one([&](Sql& db) {
        return tournaments_from(db.query(std::string(kTournamentSelect) +
                                         " WHERE t.status <> 'finished' ORDER BY t.id"));
    });
}

std::optional<StoredTournament> SqlTournamentStore::tournament(std::uint64_t id) {
    return access_.read_one([&](Sql& db) { return select_tournament(db, id); });
}

std::vector<TournamentPlayer> SqlTournamentStore::tournament_players(std::uint64_t id) {
    return access_.read_one([&](Sql& db) {
        // Seeds are 0 before the start: sign-up order then.
        const SqlRows rows = db.query(
            "SELECT p.user_id, u.name, u.name_key IS NULL, p.signed_up, p.seed, p.rating, "
            "p.withdrawn FROM tournament_players p JOIN users u ON u.id = p.user_id "
            "WHERE p.tournament = $1 ORDER BY p.seed, p.signed_up, p.user_id",
            sql_params(id));
        std::vector<TournamentPlayer> players;
        for (int i = 0; i < rows.rows(); ++i)
            players.push_back(TournamentPlayer{
                User{rows.uint64(i, 0), rows.text(i, 1), rows.boolean(i, 2)}, rows.int64(i, 3),
                rows.int32(i, 4), rows.real(i, 5), rows.boolean(i, 6)});
        return players;
    });
}

JoinOutcome SqlTournamentStore::join_tournament(std::uint64_t id, std::uint64_t user,
                                                int max_players) {
    JoinOutcome outcome = JoinOutcome::closed;
    access_.write_and_wait(
        [&](Sql& db) {
            // Changing the row locks it (PostgreSQL): joins of one tournament on several
            // servers count one after the other, so the limit holds.
            const SqlRows open = db.query(
                "UPDATE tournaments SET round = round WHERE id = $1 AND status = 'signup' "
                "RETURNING id",
                sql_params(id));
            if (open.empty()) {
                outcome = JoinOutcome::closed;
                return;
            }
            if (!db.query("SELECT 1 FROM tournament_players WHERE tournament = $1 AND "
                          "user_id = $2",
                          sql_params(id, user))
                     .empty()) {
                outcome = JoinOutcome::already;
                return;
            }
            if (db.query("SELECT count(*) FROM tournament_players WHERE tournament = $1",
                         sql_params(id))
                    .int64(0, 0) >= max_players) {
                outcome = JoinOutcome::full;
                return;
            }
            db.query(
                "INSERT INTO tournament_players (tournament, user_id, signed_up) "
                "VALUES ($1, $2, $3)",
                sql_params(id, user, unix_now_ms()));
            outcome = JoinOutcome::joined;
        },
        "join a tournament");
    return outcome;
}

bool SqlTournamentStore::leave_tournament(std::uint64_t id, std::uint64_t user) {
    bool left = false;
    access_.write_and_wait(
        [&](Sql& db) {
            left = db.query(
                         "DELETE FROM tournament_players WHERE tournament = $1 AND user_id = $2 "
                         "AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND "
                         "status = 'signup')",
                         sql_params(id, user))
                       .affected() > 0;
            if (left) return;
            left = db.query(
                         "UPDATE tournament_players SET withdrawn = $3 WHERE tournament = $1 AND "
                         "user_id = $2 AND withdrawn = $4 AND EXISTS (SELECT 1 FROM tournaments "
                         "WHERE id = $1 AND status = 'running')",
                         sql_params(id, user, true, false))
                       .affected() > 0;
        },
        "leave a tournament");
    return left;
}

std::vector<StoredRound> SqlTournamentStore::tournament_rounds(std::uint64_t id) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            "SELECT number, started, deadline, byes FROM tournament_rounds "
            "WHERE tournament = $1 ORDER BY number",
            sql_params(id));
        std::vector<StoredRound> rounds;
        for (int i = 0; i < rows.rows(); ++i) {
            StoredRound round{rows.int32(i, 0), rows.int64(i, 1), rows.optional_int64(i, 2), {}};
            const auto byes = nlohmann::json::parse(rows.text(i, 3), nullptr, false);
            if (byes.is_array())
                for (const auto& user : byes)
                    if (user.is_number_unsigned()) round.byes.push_back(user.get<std::uint64_t>());
            rounds.push_back(std::move(round));
        }
        return rounds;
    });
}

bool SqlTournamentStore::finish_tournament(std::uint64_t id, int round) {
    bool finished = false;
    access_.write_and_wait(
        [&](Sql& db) {
            finished = db.query(
                             "UPDATE tournaments SET status = 'finished' WHERE id = $1 AND "
                             "round = $2 AND status <> 'finished'",
                             sql_params(id, round))
                           .affected() > 0;
        },
        "finish a tournament");
    return finished;
}

bool claim_round(Sql& db, const RoundStart& start) {
    return db.query(
                 "UPDATE tournaments SET round = $1, status = 'running' WHERE id = $2 AND "
                 "round = $3 AND status <> 'finished'",
                 sql_params(start.round.number, start.tournament, start.round.number - 1))
               .affected() > 0;
}

void write_round_start(Sql& db, const RoundStart& start) {
    db.query(
        "INSERT INTO tournament_rounds (tournament, number, started, deadline, byes) "
        "VALUES ($1, $2, $3, $4, $5)",
        sql_params(start.tournament, start.round.number, start.round.started, start.round.deadline,
                   nlohmann::json(start.round.byes).dump()));
    for (const StoredTable& table : start.tables)
        db.query("INSERT INTO tournament_tables (table_id, tournament, round) VALUES ($1, $2, $3)",
                 sql_params(table.id, start.tournament, start.round.number));
    for (const TournamentPlayer& player : start.seeds)
        db.query(
            "UPDATE tournament_players SET seed = $1, rating = $2 WHERE tournament = $3 AND "
            "user_id = $4",
            sql_params(player.seed, player.rating, start.tournament, player.user.id));
}

}  // namespace gcor::server
