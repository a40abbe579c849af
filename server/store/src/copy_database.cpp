// The copy is made row by row below the Store interface, which has no way to list every user,
// session or mail, nor to keep ids: each table's rows go over with their ids as they are, so that
// every reference between them (seats, chat, ratings, mails) stays right. The check then reads
// through the interface, as the server will.
#include "gcor/store/copy_database.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "gcor/store/open_store.hpp"
#include "gcor/store/postgres_store.hpp"
#include "gcor/store/store.hpp"
#include "postgres_connection.hpp"

namespace gcor::server {

namespace {

// A table and its columns, as both schemas name them (SQLite's since its version 9).
struct CopiedTable {
    std::string_view name;
    std::string_view columns;
    std::string_view identity;  // the id column whose sequence must go on after the copy; or ""
};

// In the order their foreign keys need.
constexpr std::array<CopiedTable, 22> kCopiedTables{{
    {"users", "id, name, name_key, password_hash, created, webhook, name_released, confirm_turn",
     "id"},
    {"sessions", "token_hash, user_id, created, expires", ""},
    {"tables",
     "id, created, settings, players, rules, public, seed, nonce, commitment, status, version, "
     "to_act, deadline, result, rated, revision, created_by",
     ""},
    {"table_seats", "table_id, seat, kind, user_id, name, bot, forfeited, invited_by, invited_at",
     ""},
    {"moves", "table_id, seq, seat, move, move_id, at, moved_by", ""},
    {"leagues", "id, name, name_key, organizer, settings, created", "id"},
    {"seasons", "league, number, status, opened, started, finished, final_table", ""},
    {"season_members", "league, season, user_id, signed_up, tier", ""},
    {"season_tables", "table_id, league, season, tier", ""},
    {"ratings", "user_id, value, games", ""},
    {"rating_history", "table_id, user_id, at, rating_before, rating_after, games, place, players",
     ""},
    {"chat", "table_id, n, user_id, name, seat, text, at, deleted", ""},
    {"mutes", "user_id, muted", ""},
    {"emails",
     "user_id, address, confirmed, frequency, token_hash, token_expires, digest_due, language, "
     "invitation_mails",
     ""},
    {"mail_queue",
     "id, key, kind, user_id, recipient, message, table_id, seat, version, due, attempts, ended, "
     "outcome",
     "id"},
    {"secrets", "name, value", ""},
    {"vacations", "user_id, starts, ends", ""},
    {"friends", "user_id, friend_id, added", ""},
    {"blocks", "user_id, blocked_id, added", ""},
    {"password_resets", "user_id, token_hash, expires", ""},
    {"analyses", "table_id, user_id, claim, started, held_until, done, total, result", ""},
    {"analysis_starts", "user_id, started", ""},
}};

std::string count_sql(std::string_view table) {
    return "SELECT count(*) FROM " + std::string(table);
}

// One SQLite value as a PostgreSQL text parameter. Integers 0 and 1 read as booleans where the
// column is one; doubles as their shortest exact text.
void add_value(pg::Params& params, const SQLite::Column& column) {
    switch (column.getType()) {
        case SQLITE_NULL:
            params.add(std::nullopt);
            break;
        case SQLITE_INTEGER:
            params.add(static_cast<std::int64_t>(column.getInt64()));
            break;
        case SQLITE_FLOAT:
            params.add(column.getDouble());
            break;
        default:
            params.add(column.getString());
            break;
    }
}

std::string placeholders(std::size_t count) {
    std::string text;
    for (std::size_t i = 1; i <= count; ++i)
        text += (i > 1 ? ", $" : "$") + std::to_string(i);
    return text;
}

std::uint64_t copy_rows(SQLite::Database& from, pg::Connection& to, const CopiedTable& table) {
    SQLite::Statement select(
        from, "SELECT " + std::string(table.columns) + " FROM " + std::string(table.name));
    const std::size_t columns = static_cast<std::size_t>(select.getColumnCount());
    const std::string insert = "INSERT INTO " + std::string(table.name) + " (" +
                               std::string(table.columns) + ") VALUES (" + placeholders(columns) +
                               ")";
    std::uint64_t rows = 0;
    while (select.executeStep()) {
        pg::Params params;
        for (int i = 0; i < static_cast<int>(columns); ++i)
            add_value(params, select.getColumn(i));
        to.query(insert, params);
        ++rows;
    }
    if (!table.identity.empty()) {
        // New rows take ids after the copied ones.
        to.execute("SELECT setval(pg_get_serial_sequence('" + std::string(table.name) + "', '" +
                   std::string(table.identity) + "'), coalesce(max(" + std::string(table.identity) +
                   "), 0) + 1, false) FROM " + std::string(table.name));
    }
    return rows;
}

void check(bool holds, const std::string& what) {
    if (!holds) throw std::runtime_error("the copy differs: " + what);
}

bool same_moves(const std::vector<StoredMove>& a, const std::vector<StoredMove>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const StoredMove& x, const StoredMove& y) {
                          return x.seq == y.seq && x.seat == y.seat && x.move == y.move &&
                                 x.move_id == y.move_id && x.at == y.at && x.by == y.by;
                      });
}

// Loads every table with its moves and chat through both stores and compares them.
std::size_t compare_tables(Store& from, Store& to) {
    std::size_t compared = 0;
    for (TableStatus status : {TableStatus::waiting, TableStatus::playing, TableStatus::finished}) {
        const std::vector<std::string> ids = from.table_ids(status);
        check(ids == to.table_ids(status), "the lists of tables");
        for (const std::string& id : ids) {
            const auto a = from.load_table(id);
            const auto b = to.load_table(id);
            check(a && b, "table " + id + " is missing");
            check(a->table == b->table, "table " + id);
            check(same_moves(a->moves, b->moves), "the moves of table " + id);
            check(a->chat == b->chat && a->chat_lines == b->chat_lines, "the chat of table " + id);
            ++compared;
        }
    }
    return compared;
}

}  // namespace

void copy_database(const std::string& from, const std::string& to, std::ostream& out) {
    if (is_postgres_url(from) || !is_postgres_url(to))
        throw std::runtime_error(
            "--copy-database copies an SQLite file into a PostgreSQL database (a "
            "postgresql:// URL)");
    if (!std::filesystem::is_regular_file(from))
        throw std::runtime_error("there is no SQLite file " + from);
    const std::string shown = pg::redacted(to);
    // Opening each as a store migrates both to the current schema.
    open_sqlite_store({.path = from}).reset();
    open_postgres_store({.url = to}).reset();

    SQLite::Database source(from, SQLite::OPEN_READONLY);
    pg::Connection target(to);
    for (const CopiedTable& table : kCopiedTables) {
        const std::int64_t rows = target.query(count_sql(table.name)).int64(0, 0);
        if (rows != 0)
            throw std::runtime_error(shown + " is not empty (" + std::string(table.name) + " has " +
                                     std::to_string(rows) +
                                     " rows): it copies only into an empty database");
    }

    out << "copying " << from << " to " << shown << '\n';
    std::vector<std::uint64_t> copied;
    // One transaction: a copy that fails leaves the target as empty as it was.
    SQLite::Transaction snapshot(source);
    target.execute("BEGIN");
    try {
        for (const CopiedTable& table : kCopiedTables) {
            copied.push_back(copy_rows(source, target, table));
            out << "  " << table.name << ": " << copied.back() << " rows" << std::endl;
        }
        target.execute("COMMIT");
    } catch (...) {
        target.rollback();
        throw;
    }

    out << "checking: rows of every kind counted in both" << std::endl;
    for (std::size_t i = 0; i < kCopiedTables.size(); ++i) {
        const std::string sql = count_sql(kCopiedTables[i].name);
        const auto in_source = static_cast<std::uint64_t>(source.execAndGet(sql).getInt64());
        const auto in_target = target.query(sql).uint64(0, 0);
        check(in_source == copied[i] && in_target == copied[i],
              std::string(kCopiedTables[i].name) + ": " + std::to_string(in_source) +
                  " rows in the file, " + std::to_string(in_target) + " copied");
    }
    out << "checking: every table loaded with its moves and chat from both" << std::endl;
    const std::size_t compared =
        compare_tables(*open_sqlite_store({.path = from}), *open_postgres_store({.url = to}));

    std::uint64_t rows = 0;
    for (std::uint64_t count : copied)
        rows += count;
    out << "copied " << rows << " rows in " << kCopiedTables.size() << " kinds; " << compared
        << " tables with their moves compared: the same in both" << std::endl;
}

}  // namespace gcor::server
