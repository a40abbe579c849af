#include "sql_league_store.hpp"

#include <string>

#include "gcor/store/user.hpp"

namespace gcor::server {

namespace {

constexpr const char* kLeagueSelect =
    "SELECT l.id, l.name, l.organizer, u.name, l.settings, l.created";
constexpr const char* kLeagueFrom = " FROM leagues l JOIN users u ON u.id = l.organizer";

// The first six columns are kLeagueSelect's.
StoredLeague league_from_row(const SqlRows& rows, int row) {
    StoredLeague league;
    league.id = rows.uint64(row, 0);
    league.name = rows.text(row, 1);
    league.organizer = User{rows.uint64(row, 2), rows.text(row, 3), false};
    league.settings = rows.text(row, 4);
    league.created = rows.int64(row, 5);
    return league;
}

// All leagues, or the one with this id. CAST, as both read it: PostgreSQL must know the type of
// a parameter that is only compared with NULL.
std::vector<StoredLeague> select_leagues(Sql& db, std::optional<std::uint64_t> id) {
    const SqlRows rows = db.query(std::string(kLeagueSelect) + kLeagueFrom +
                                      " WHERE CAST($1 AS bigint) IS NULL OR "
                                      "l.id = CAST($1 AS bigint) ORDER BY l.created, l.id",
                                  sql_params(id));
    std::vector<StoredLeague> leagues;
    for (int i = 0; i < rows.rows(); ++i)
        leagues.push_back(league_from_row(rows, i));
    return leagues;
}

std::vector<StoredSeason> select_seasons(Sql& db, std::uint64_t league, std::optional<int> number) {
    const SqlRows rows = db.query(
        "SELECT league, number, status, opened, started, finished, final_table FROM seasons "
        "WHERE league = $1 AND (CAST($2 AS integer) IS NULL OR number = CAST($2 AS integer)) "
        "ORDER BY number",
        sql_params(league, number));
    std::vector<StoredSeason> seasons;
    for (int i = 0; i < rows.rows(); ++i)
        seasons.push_back(StoredSeason{rows.uint64(i, 0), rows.int32(i, 1), rows.text(i, 2),
                                       rows.int64(i, 3), rows.optional_int64(i, 4),
                                       rows.optional_int64(i, 5), rows.text(i, 6)});
    return seasons;
}

void insert_season(Sql& db, std::uint64_t league, int number) {
    db.query("INSERT INTO seasons (league, number, status, opened) VALUES ($1, $2, 'signup', $3)",
             sql_params(league, number, unix_now_ms()));
}

// Everybody's ratings, or one user's.
std::vector<StoredRating> select_ratings(Sql& db, std::optional<std::uint64_t> user,
                                         std::size_t limit) {
    const SqlRows rows = db.query(
        "SELECT r.user_id, u.name, r.value, r.games FROM ratings r JOIN users u "
        "ON u.id = r.user_id WHERE CAST($1 AS bigint) IS NULL OR r.user_id = CAST($1 AS bigint) "
        "ORDER BY r.value DESC, r.user_id LIMIT $2",
        sql_params(user, limit));
    std::vector<StoredRating> ratings;
    for (int i = 0; i < rows.rows(); ++i)
        ratings.push_back(StoredRating{User{rows.uint64(i, 0), rows.text(i, 1), false},
                                       rows.real(i, 2), rows.int32(i, 3)});
    return ratings;
}

}  // namespace

std::optional<StoredLeague> SqlLeagueStore::create_league(const std::string& name,
                                                          std::uint64_t organizer,
                                                          const std::string& settings) {
    std::optional<StoredLeague> league;
    access_.write_and_wait(
        [&](Sql& db) {
            league.reset();
            const SqlRows made = db.query(
                "INSERT INTO leagues (name, name_key, organizer, settings, created) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                sql_params(name, name_key(name), organizer, settings, unix_now_ms()));
            if (!made.empty()) league = first_of(select_leagues(db, made.uint64(0, 0)));
        },
        "create a league");
    return league;
}

std::vector<StoredLeague> SqlLeagueStore::leagues() {
    return access_.read_one([](Sql& db) { return select_leagues(db, std::nullopt); });
}

std::optional<StoredLeague> SqlLeagueStore::league(std::uint64_t id) {
    return first_of(access_.read_one([&](Sql& db) { return select_leagues(db, id); }));
}

std::vector<StoredSeason> SqlLeagueStore::seasons(std::uint64_t league) {
    return access_.read_one([&](Sql& db) { return select_seasons(db, league, std::nullopt); });
}

std::optional<StoredSeason> SqlLeagueStore::season(std::uint64_t league, int number) {
    return first_of(access_.read_one([&](Sql& db) { return select_seasons(db, league, number); }));
}

void SqlLeagueStore::open_season(std::uint64_t league, int number) {
    access_.write_and_wait([&](Sql& db) { insert_season(db, league, number); }, "open a season");
}

bool SqlLeagueStore::sign_up(std::uint64_t league, int number, std::uint64_t user) {
    bool added = false;
    access_.write_and_wait(
        [&](Sql& db) {
            added = db.query(
                          "INSERT INTO season_members (league, season, user_id, signed_up) "
                          "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                          sql_params(league, number, user, unix_now_ms()))
                        .affected() > 0;
        },
        "sign up");
    return added;
}

bool SqlLeagueStore::withdraw(std::uint64_t league, int number, std::uint64_t user) {
    bool removed = false;
    access_.write_and_wait(
        [&](Sql& db) {
            removed = db.query(
                            "DELETE FROM season_members WHERE league = $1 AND season = $2 "
                            "AND user_id = $3",
                            sql_params(league, number, user))
                          .affected() > 0;
        },
        "withdraw");
    return removed;
}

std::vector<SeasonMember> SqlLeagueStore::members(std::uint64_t league, int number) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            "SELECT m.user_id, u.name, u.name_key IS NULL, m.signed_up, m.tier "
            "FROM season_members m JOIN users u ON u.id = m.user_id "
            "WHERE m.league = $1 AND m.season = $2 ORDER BY m.signed_up, m.user_id",
            sql_params(league, number));
        std::vector<SeasonMember> members;
        for (int i = 0; i < rows.rows(); ++i)
            members.push_back(
                SeasonMember{User{rows.uint64(i, 0), rows.text(i, 1), rows.boolean(i, 2)},
                             rows.int64(i, 3), rows.int32(i, 4)});
        return members;
    });
}

void write_season_start(Sql& db, std::uint64_t league, int number,
                        const std::vector<SeasonMember>& members,
                        const std::vector<SeasonTable>& tables) {
    for (const SeasonMember& member : members)
        db.query(
            "UPDATE season_members SET tier = $1 WHERE league = $2 AND season = $3 "
            "AND user_id = $4",
            sql_params(member.tier, league, number, member.user.id));
    for (const SeasonTable& table : tables)
        db.query(
            "INSERT INTO season_tables (table_id, league, season, tier) VALUES ($1, $2, $3, $4)",
            sql_params(table.table.id, league, number, table.tier));
    db.query(
        "UPDATE seasons SET status = 'playing', started = $1 WHERE league = $2 AND number = $3",
        sql_params(unix_now_ms(), league, number));
}

void SqlLeagueStore::finish_season(std::uint64_t league, int number,
                                   const std::string& final_table) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query(
                "UPDATE seasons SET status = 'finished', finished = $1, final_table = $2 "
                "WHERE league = $3 AND number = $4",
                sql_params(unix_now_ms(), final_table, league, number));
            insert_season(db, league, number + 1);
        },
        "finish a season");
}

std::vector<UserSeason> SqlLeagueStore::seasons_of(std::uint64_t user, std::size_t limit) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            std::string(kLeagueSelect) + ", m.season, s.status, m.tier" + kLeagueFrom +
                " JOIN season_members m ON m.league = l.id JOIN seasons s ON s.league = m.league "
                "AND s.number = m.season WHERE m.user_id = $1 ORDER BY m.signed_up DESC LIMIT $2",
            sql_params(user, limit));
        std::vector<UserSeason> seasons;
        for (int i = 0; i < rows.rows(); ++i)
            seasons.push_back(UserSeason{league_from_row(rows, i), rows.int32(i, 6),
                                         rows.text(i, 7), rows.int32(i, 8)});
        return seasons;
    });
}

std::vector<std::string> SqlLeagueStore::unrated_tables() {
    return access_.read_one([](Sql& db) {
        // NULLS FIRST (SQLite's order of NULL, not PostgreSQL's): a table without moves first.
        const SqlRows rows = db.query(
            "SELECT t.id FROM tables t WHERE t.rated = 1 AND t.status = 'finished' "
            "ORDER BY (SELECT max(m.at) FROM moves m WHERE m.table_id = t.id) NULLS FIRST, t.id");
        std::vector<std::string> ids;
        for (int i = 0; i < rows.rows(); ++i)
            ids.push_back(rows.text(i, 0));
        return ids;
    });
}

std::optional<StoredRating> SqlLeagueStore::rating(std::uint64_t user) {
    return first_of(access_.read_one([&](Sql& db) { return select_ratings(db, user, 1); }));
}

void SqlLeagueStore::save_ratings(const std::vector<RatingChange>& changes, Done done) {
    access_.enqueue(
        [changes](Sql& db) {
            for (const RatingChange& change : changes) {
                db.query(
                    "INSERT INTO ratings (user_id, value, games) VALUES ($1, $2, $3) "
                    "ON CONFLICT (user_id) DO UPDATE SET value = excluded.value, "
                    "games = excluded.games",
                    sql_params(change.user, change.after, change.games));
                // Refused (primary key) when the table was rated already.
                db.query(
                    "INSERT INTO rating_history (table_id, user_id, at, rating_before, "
                    "rating_after, games, place, players) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    sql_params(change.table, change.user, change.at, change.before, change.after,
                               change.games, change.place, change.players));
                db.query("UPDATE tables SET rated = 2 WHERE id = $1", sql_params(change.table));
            }
        },
        std::move(done));
}

std::vector<StoredRating> SqlLeagueStore::leaderboard(std::size_t limit) {
    return access_.read_one([&](Sql& db) { return select_ratings(db, std::nullopt, limit); });
}

std::vector<RatingChange> SqlLeagueStore::rating_history(std::uint64_t user, std::size_t limit) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            "SELECT table_id, at, rating_before, rating_after, games, place, players "
            "FROM rating_history WHERE user_id = $1 ORDER BY at DESC, games DESC LIMIT $2",
            sql_params(user, limit));
        std::vector<RatingChange> changes;
        for (int i = 0; i < rows.rows(); ++i)
            changes.push_back(RatingChange{user, rows.text(i, 0), rows.int64(i, 1), rows.real(i, 2),
                                           rows.real(i, 3), rows.int32(i, 4), rows.int32(i, 5),
                                           rows.int32(i, 6)});
        return changes;
    });
}

}  // namespace gcor::server
