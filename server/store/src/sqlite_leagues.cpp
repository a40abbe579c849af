#include "sqlite_leagues.hpp"

#include <SQLiteCpp/Statement.h>

#include <string>

#include "gcor/store/user.hpp"
#include "sqlite_support.hpp"

namespace gcor::server::sqlite_leagues {
namespace {

constexpr const char* kLeagueColumns = "l.id, l.name, l.organizer, u.name, l.settings, l.created";
constexpr const char* kLeagueFrom = "leagues l JOIN users u ON u.id = l.organizer";

// The first six columns are kLeagueColumns.
StoredLeague league_from_row(const SQLite::Statement& row) {
    StoredLeague league;
    league.id = from_sql(row.getColumn(0).getInt64());
    league.name = row.getColumn(1).getString();
    league.organizer =
        User{from_sql(row.getColumn(2).getInt64()), row.getColumn(3).getString(), false};
    league.settings = row.getColumn(4).getString();
    league.created = row.getColumn(5).getInt64();
    return league;
}

std::optional<UnixMs> optional_time(const SQLite::Statement& row, int column) {
    if (row.isColumnNull(column)) return std::nullopt;
    return row.getColumn(column).getInt64();
}

}  // namespace

std::vector<StoredLeague> select_leagues(SQLite::Database& db, std::optional<std::uint64_t> id) {
    SQLite::Statement select(db, std::string("SELECT ") + kLeagueColumns + " FROM " + kLeagueFrom +
                                     " WHERE ?1 IS NULL OR l.id = ?1 ORDER BY l.created, l.id");
    if (id) select.bind(1, to_sql(*id));
    std::vector<StoredLeague> leagues;
    while (select.executeStep())
        leagues.push_back(league_from_row(select));
    return leagues;
}

std::vector<StoredSeason> select_seasons(SQLite::Database& db, std::uint64_t league,
                                         std::optional<int> number) {
    SQLite::Statement select(db,
                             "SELECT league, number, status, opened, started, finished, "
                             "final_table FROM seasons WHERE league = ?1 AND (?2 IS NULL OR "
                             "number = ?2) ORDER BY number");
    select.bind(1, to_sql(league));
    if (number) select.bind(2, *number);
    std::vector<StoredSeason> seasons;
    while (select.executeStep()) {
        StoredSeason season;
        season.league = from_sql(select.getColumn(0).getInt64());
        season.number = select.getColumn(1).getInt();
        season.status = select.getColumn(2).getString();
        season.opened = select.getColumn(3).getInt64();
        season.started = optional_time(select, 4);
        season.finished = optional_time(select, 5);
        season.final_table = select.getColumn(6).getString();
        seasons.push_back(std::move(season));
    }
    return seasons;
}

std::vector<SeasonMember> select_members(SQLite::Database& db, std::uint64_t league, int number) {
    SQLite::Statement select(db,
                             "SELECT m.user, u.name, u.name_key IS NULL, m.signed_up, m.tier "
                             "FROM season_members m JOIN users u ON u.id = m.user "
                             "WHERE m.league = ? AND m.season = ? ORDER BY m.signed_up, m.user");
    select.bind(1, to_sql(league));
    select.bind(2, number);
    std::vector<SeasonMember> members;
    while (select.executeStep())
        members.push_back(
            SeasonMember{User{from_sql(select.getColumn(0).getInt64()),
                              select.getColumn(1).getString(), select.getColumn(2).getInt() != 0},
                         select.getColumn(3).getInt64(), select.getColumn(4).getInt()});
    return members;
}

std::vector<UserSeason> select_seasons_of(SQLite::Database& db, std::uint64_t user,
                                          std::size_t limit) {
    SQLite::Statement select(
        db, std::string("SELECT ") + kLeagueColumns + ", m.season, s.status, m.tier FROM " +
                kLeagueFrom +
                " JOIN season_members m ON m.league = l.id JOIN seasons s ON s.league = m.league "
                "AND s.number = m.season WHERE m.user = ? ORDER BY m.signed_up DESC LIMIT ?");
    select.bind(1, to_sql(user));
    select.bind(2, static_cast<std::int64_t>(limit));
    std::vector<UserSeason> seasons;
    while (select.executeStep())
        seasons.push_back(UserSeason{league_from_row(select), select.getColumn(6).getInt(),
                                     select.getColumn(7).getString(),
                                     select.getColumn(8).getInt()});
    return seasons;
}

std::vector<std::string> select_unrated(SQLite::Database& db) {
    SQLite::Statement select(db,
                             "SELECT t.id FROM tables t WHERE t.rated = 1 AND t.status = "
                             "'finished' ORDER BY (SELECT max(m.at) FROM moves m WHERE "
                             "m.table_id = t.id), t.id");
    std::vector<std::string> ids;
    while (select.executeStep())
        ids.push_back(select.getColumn(0).getString());
    return ids;
}

std::vector<StoredRating> select_ratings(SQLite::Database& db, std::optional<std::uint64_t> user,
                                         std::size_t limit) {
    SQLite::Statement select(db,
                             "SELECT r.user, u.name, r.value, r.games FROM ratings r JOIN users u "
                             "ON u.id = r.user WHERE ?1 IS NULL OR r.user = ?1 "
                             "ORDER BY r.value DESC, r.user LIMIT ?2");
    if (user) select.bind(1, to_sql(*user));
    select.bind(2, static_cast<std::int64_t>(limit));
    std::vector<StoredRating> ratings;
    while (select.executeStep())
        ratings.push_back(StoredRating{
            User{from_sql(select.getColumn(0).getInt64()), select.getColumn(1).getString(), false},
            select.getColumn(2).getDouble(), select.getColumn(3).getInt()});
    return ratings;
}

std::vector<RatingChange> select_rating_history(SQLite::Database& db, std::uint64_t user,
                                                std::size_t limit) {
    SQLite::Statement select(db,
                             "SELECT table_id, at, rating_before, rating_after, games, place, "
                             "players FROM rating_history WHERE user = ? "
                             "ORDER BY at DESC, games DESC LIMIT ?");
    select.bind(1, to_sql(user));
    select.bind(2, static_cast<std::int64_t>(limit));
    std::vector<RatingChange> changes;
    while (select.executeStep())
        changes.push_back(
            RatingChange{user, select.getColumn(0).getString(), select.getColumn(1).getInt64(),
                         select.getColumn(2).getDouble(), select.getColumn(3).getDouble(),
                         select.getColumn(4).getInt(), select.getColumn(5).getInt(),
                         select.getColumn(6).getInt()});
    return changes;
}

std::optional<StoredLeague> insert_league(SQLite::Database& db, const std::string& name,
                                          std::uint64_t organizer, const std::string& settings) {
    SQLite::Statement insert(db,
                             "INSERT INTO leagues (name, name_key, organizer, settings, created) "
                             "VALUES (?, ?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING");
    const UnixMs now = unix_now_ms();
    insert.bind(1, name);
    insert.bind(2, name_key(name));
    insert.bind(3, to_sql(organizer));
    insert.bind(4, settings);
    insert.bind(5, now);
    if (insert.exec() == 0) return std::nullopt;
    const auto made = select_leagues(db, from_sql(db.getLastInsertRowid()));
    return made.empty() ? std::nullopt : std::optional<StoredLeague>(made.front());
}

void insert_season(SQLite::Database& db, std::uint64_t league, int number) {
    SQLite::Statement insert(db,
                             "INSERT INTO seasons (league, number, status, opened) "
                             "VALUES (?, ?, 'signup', ?)");
    insert.bind(1, to_sql(league));
    insert.bind(2, number);
    insert.bind(3, unix_now_ms());
    insert.exec();
}

bool insert_member(SQLite::Database& db, std::uint64_t league, int number, std::uint64_t user) {
    SQLite::Statement insert(db,
                             "INSERT INTO season_members (league, season, user, signed_up) "
                             "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING");
    insert.bind(1, to_sql(league));
    insert.bind(2, number);
    insert.bind(3, to_sql(user));
    insert.bind(4, unix_now_ms());
    return insert.exec() > 0;
}

bool delete_member(SQLite::Database& db, std::uint64_t league, int number, std::uint64_t user) {
    SQLite::Statement remove(db,
                             "DELETE FROM season_members WHERE league = ? AND season = ? AND "
                             "user = ?");
    remove.bind(1, to_sql(league));
    remove.bind(2, number);
    remove.bind(3, to_sql(user));
    return remove.exec() > 0;
}

void write_start(SQLite::Database& db, std::uint64_t league, int number,
                 const std::vector<SeasonMember>& members, const std::vector<SeasonTable>& tables) {
    SQLite::Statement tier(db,
                           "UPDATE season_members SET tier = ? WHERE league = ? AND season = ? "
                           "AND user = ?");
    for (const SeasonMember& member : members) {
        tier.reset();
        tier.bind(1, member.tier);
        tier.bind(2, to_sql(league));
        tier.bind(3, number);
        tier.bind(4, to_sql(member.user.id));
        tier.exec();
    }
    SQLite::Statement link(db,
                           "INSERT INTO season_tables (table_id, league, season, tier) "
                           "VALUES (?, ?, ?, ?)");
    for (const SeasonTable& table : tables) {
        link.reset();
        link.bind(1, table.table.id);
        link.bind(2, to_sql(league));
        link.bind(3, number);
        link.bind(4, table.tier);
        link.exec();
    }
    SQLite::Statement start(db,
                            "UPDATE seasons SET status = 'playing', started = ? WHERE league = ? "
                            "AND number = ?");
    start.bind(1, unix_now_ms());
    start.bind(2, to_sql(league));
    start.bind(3, number);
    start.exec();
}

void write_finish(SQLite::Database& db, std::uint64_t league, int number,
                  const std::string& final_table) {
    SQLite::Statement finish(db,
                             "UPDATE seasons SET status = 'finished', finished = ?, final_table = "
                             "? WHERE league = ? AND number = ?");
    finish.bind(1, unix_now_ms());
    finish.bind(2, final_table);
    finish.bind(3, to_sql(league));
    finish.bind(4, number);
    finish.exec();
    insert_season(db, league, number + 1);
}

void write_ratings(SQLite::Database& db, const std::vector<RatingChange>& changes) {
    SQLite::Statement rating(db,
                             "INSERT INTO ratings (user, value, games) VALUES (?1, ?2, ?3) "
                             "ON CONFLICT (user) DO UPDATE SET value = ?2, games = ?3");
    SQLite::Statement history(db,
                              "INSERT INTO rating_history (table_id, user, at, rating_before, "
                              "rating_after, games, place, players) VALUES (?, ?, ?, ?, ?, ?, ?, "
                              "?)");
    SQLite::Statement done(db, "UPDATE tables SET rated = 2 WHERE id = ?");
    for (const RatingChange& change : changes) {
        rating.reset();
        rating.bind(1, to_sql(change.user));
        rating.bind(2, change.after);
        rating.bind(3, change.games);
        rating.exec();
        history.reset();
        history.bind(1, change.table);
        history.bind(2, to_sql(change.user));
        history.bind(3, change.at);
        history.bind(4, change.before);
        history.bind(5, change.after);
        history.bind(6, change.games);
        history.bind(7, change.place);
        history.bind(8, change.players);
        history.exec();  // refused (primary key) when the table was rated already
        done.reset();
        done.bind(1, change.table);
        done.exec();
    }
}

}  // namespace gcor::server::sqlite_leagues
