#pragma once
// The SQL of tables, their seats and their move logs for the SQLite store (sqlite_store.cpp):
// reads run on the reader's connection inside its read transaction, writes on the writer's inside
// its transaction. Statuses, seat kinds and movers become text here and nowhere else.
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server::sqlite_tables {

// Reads. A table comes with its seats.
std::optional<StoredTable> select_table(SQLite::Database& db, const std::string& id);
// The table's moves after version `after` (0: all), in order.
std::vector<StoredMove> select_moves(SQLite::Database& db, const std::string& id,
                                     std::uint64_t after = 0);
std::vector<StoredTable> select_listed(SQLite::Database& db, const TableFilter& filter);
std::vector<std::string> select_ids(SQLite::Database& db, TableStatus status);
std::vector<std::string> select_due(SQLite::Database& db, UnixMs now);
std::vector<std::string> select_deadlines_between(SQLite::Database& db, UnixMs from, UnixMs to);
std::vector<UserTable> select_tables_of(SQLite::Database& db, std::uint64_t user,
                                        std::size_t limit);
std::vector<SeasonTable> select_season_tables(SQLite::Database& db, std::uint64_t league,
                                              int number);
std::uint64_t count_tables(SQLite::Database& db);

// Writes: the statements of every move, prepared once on the writer's connection. Each is reset
// before it is bound, as its last use may have failed half-way.
class TableWrites {
  public:
    explicit TableWrites(SQLite::Database& db);

    void save(const StoredTable& table);  // the table's row and its seats
    void append(const TableProgress& table, const StoredMove& move);
    // Whether a waiting table is stored (false: started, or gone); throws WriteConflict when it is
    // not at `revision` (0: at any).
    bool removable(const std::string& id, std::uint64_t revision);
    void remove(const std::string& id);  // a waiting table's row and seats

  private:
    void save_seats(const StoredTable& table);

    SQLite::Statement upsert_table_;
    SQLite::Statement update_table_;
    SQLite::Statement update_turn_;  // a move that changes only version and to_act
    SQLite::Statement delete_seats_;
    SQLite::Statement insert_seat_;
    SQLite::Statement insert_move_;
    SQLite::Statement delete_waiting_seats_;
    SQLite::Statement delete_waiting_table_;
    SQLite::Statement select_waiting_;
};

}  // namespace gcor::server::sqlite_tables
