#include "postgres_leagues.hpp"

#include "gcor/store/user.hpp"

namespace gcor::server::postgres_leagues {

namespace {

constexpr const char* kPgLeagueSelect =
    "SELECT l.id, l.name, l.organizer, u.name, l.settings, l.created";
constexpr const char* kPgLeagueFrom = " FROM leagues l JOIN users u ON u.id = l.organizer";

// The first six columns are kPgLeagueSelect's.
StoredLeague pg_league_from_row(const pg::Result& rows, int row) {
    StoredLeague league;
    league.id = rows.uint64(row, 0);
    league.name = rows.text(row, 1);
    league.organizer = User{rows.uint64(row, 2), rows.text(row, 3), false};
    league.settings = rows.text(row, 4);
    league.created = rows.int64(row, 5);
    return league;
}

}  // namespace

std::vector<StoredLeague> select_leagues(pg::Connection& db, std::optional<std::uint64_t> id) {
    const pg::Result rows =
        db.query(std::string(kPgLeagueSelect) + kPgLeagueFrom +
                     " WHERE $1::bigint IS NULL OR l.id = $1::bigint ORDER BY l.created, l.id",
                 pg::params(id));
    std::vector<StoredLeague> leagues;
    for (int i = 0; i < rows.rows(); ++i)
        leagues.push_back(pg_league_from_row(rows, i));
    return leagues;
}

std::vector<StoredSeason> select_seasons(pg::Connection& db, std::uint64_t league,
                                         std::optional<int> number) {
    const pg::Result rows = db.query(
        "SELECT league, number, status, opened, started, finished, final_table FROM seasons "
        "WHERE league = $1 AND ($2::integer IS NULL OR number = $2::integer) ORDER BY number",
        pg::params(league, number));
    std::vector<StoredSeason> seasons;
    for (int i = 0; i < rows.rows(); ++i)
        seasons.push_back(StoredSeason{rows.uint64(i, 0), rows.int32(i, 1), rows.text(i, 2),
                                       rows.int64(i, 3), rows.optional_int64(i, 4),
                                       rows.optional_int64(i, 5), rows.text(i, 6)});
    return seasons;
}

std::vector<SeasonMember> select_members(pg::Connection& db, std::uint64_t league, int number) {
    const pg::Result rows = db.query(
        "SELECT m.user_id, u.name, u.name_key IS NULL, m.signed_up, m.tier "
        "FROM season_members m JOIN users u ON u.id = m.user_id "
        "WHERE m.league = $1 AND m.season = $2 ORDER BY m.signed_up, m.user_id",
        pg::params(league, number));
    std::vector<SeasonMember> members;
    for (int i = 0; i < rows.rows(); ++i)
        members.push_back(SeasonMember{User{rows.uint64(i, 0), rows.text(i, 1), rows.boolean(i, 2)},
                                       rows.int64(i, 3), rows.int32(i, 4)});
    return members;
}

std::vector<UserSeason> select_seasons_of(pg::Connection& db, std::uint64_t user,
                                          std::size_t limit) {
    const pg::Result rows = db.query(
        std::string(kPgLeagueSelect) + ", m.season, s.status, m.tier" + kPgLeagueFrom +
            " JOIN season_members m ON m.league = l.id JOIN seasons s ON s.league = m.league "
            "AND s.number = m.season WHERE m.user_id = $1 ORDER BY m.signed_up DESC LIMIT $2",
        pg::params(user, limit));
    std::vector<UserSeason> seasons;
    for (int i = 0; i < rows.rows(); ++i)
        seasons.push_back(UserSeason{pg_league_from_row(rows, i), rows.int32(i, 6), rows.text(i, 7),
                                     rows.int32(i, 8)});
    return seasons;
}

std::vector<std::string> select_unrated(pg::Connection& db) {
    // NULLS FIRST: a table without moves comes first, as SQLite sorts a NULL.
    const pg::Result rows = db.query(
        "SELECT t.id FROM tables t WHERE t.rated = 1 AND t.status = 'finished' "
        "ORDER BY (SELECT max(m.at) FROM moves m WHERE m.table_id = t.id) NULLS FIRST, t.id");
    std::vector<std::string> ids;
    for (int i = 0; i < rows.rows(); ++i)
        ids.push_back(rows.text(i, 0));
    return ids;
}

std::vector<StoredRating> select_ratings(pg::Connection& db, std::optional<std::uint64_t> user,
                                         std::size_t limit) {
    const pg::Result rows = db.query(
        "SELECT r.user_id, u.name, r.value, r.games FROM ratings r JOIN users u "
        "ON u.id = r.user_id WHERE $1::bigint IS NULL OR r.user_id = $1::bigint "
        "ORDER BY r.value DESC, r.user_id LIMIT $2",
        pg::params(user, limit));
    std::vector<StoredRating> ratings;
    for (int i = 0; i < rows.rows(); ++i)
        ratings.push_back(StoredRating{User{rows.uint64(i, 0), rows.text(i, 1), false},
                                       rows.real(i, 2), rows.int32(i, 3)});
    return ratings;
}

std::vector<RatingChange> select_rating_history(pg::Connection& db, std::uint64_t user,
                                                std::size_t limit) {
    const pg::Result rows = db.query(
        "SELECT table_id, at, rating_before, rating_after, games, place, players "
        "FROM rating_history WHERE user_id = $1 ORDER BY at DESC, games DESC LIMIT $2",
        pg::params(user, limit));
    std::vector<RatingChange> changes;
    for (int i = 0; i < rows.rows(); ++i)
        changes.push_back(RatingChange{user, rows.text(i, 0), rows.int64(i, 1), rows.real(i, 2),
                                       rows.real(i, 3), rows.int32(i, 4), rows.int32(i, 5),
                                       rows.int32(i, 6)});
    return changes;
}

std::optional<StoredLeague> insert_league(pg::Connection& db, const std::string& name,
                                          std::uint64_t organizer, const std::string& settings) {
    const pg::Result made = db.query(
        "INSERT INTO leagues (name, name_key, organizer, settings, created) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING RETURNING id",
        pg::params(name, name_key(name), organizer, settings, unix_now_ms()));
    if (made.empty()) return std::nullopt;
    auto leagues = select_leagues(db, made.uint64(0, 0));
    if (leagues.empty()) return std::nullopt;
    return std::move(leagues.front());
}

void insert_season(pg::Connection& db, std::uint64_t league, int number) {
    db.query("INSERT INTO seasons (league, number, status, opened) VALUES ($1, $2, 'signup', $3)",
             pg::params(league, number, unix_now_ms()));
}

bool insert_member(pg::Connection& db, std::uint64_t league, int number, std::uint64_t user) {
    return db.query(
                 "INSERT INTO season_members (league, season, user_id, signed_up) "
                 "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                 pg::params(league, number, user, unix_now_ms()))
               .affected() > 0;
}

bool delete_member(pg::Connection& db, std::uint64_t league, int number, std::uint64_t user) {
    return db.query("DELETE FROM season_members WHERE league = $1 AND season = $2 AND user_id = $3",
                    pg::params(league, number, user))
               .affected() > 0;
}

void write_start(pg::Connection& db, std::uint64_t league, int number,
                 const std::vector<SeasonMember>& members, const std::vector<SeasonTable>& tables) {
    for (const SeasonMember& member : members)
        db.query(
            "UPDATE season_members SET tier = $1 WHERE league = $2 AND season = $3 "
            "AND user_id = $4",
            pg::params(member.tier, league, number, member.user.id));
    for (const SeasonTable& table : tables)
        db.query(
            "INSERT INTO season_tables (table_id, league, season, tier) VALUES ($1, $2, $3, $4)",
            pg::params(table.table.id, league, number, table.tier));
    db.query(
        "UPDATE seasons SET status = 'playing', started = $1 WHERE league = $2 AND number = $3",
        pg::params(unix_now_ms(), league, number));
}

void write_finish(pg::Connection& db, std::uint64_t league, int number,
                  const std::string& final_table) {
    db.query(
        "UPDATE seasons SET status = 'finished', finished = $1, final_table = $2 "
        "WHERE league = $3 AND number = $4",
        pg::params(unix_now_ms(), final_table, league, number));
    insert_season(db, league, number + 1);
}

void write_ratings(pg::Connection& db, const std::vector<RatingChange>& changes) {
    for (const RatingChange& change : changes) {
        db.query(
            "INSERT INTO ratings (user_id, value, games) VALUES ($1, $2, $3) "
            "ON CONFLICT (user_id) DO UPDATE SET value = EXCLUDED.value, games = EXCLUDED.games",
            pg::params(change.user, change.after, change.games));
        // Refused (primary key) when the table was rated already.
        db.query(
            "INSERT INTO rating_history (table_id, user_id, at, rating_before, rating_after, "
            "games, place, players) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            pg::params(change.table, change.user, change.at, change.before, change.after,
                       change.games, change.place, change.players));
        db.query("UPDATE tables SET rated = 2 WHERE id = $1", pg::params(change.table));
    }
}

}  // namespace gcor::server::postgres_leagues
