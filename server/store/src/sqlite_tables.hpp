#pragma once
// The writes of tables, their seats and their move logs for the SQLite store (sqlite_store.cpp),
// on the writer's connection inside its transaction: a move's append is the hot path. The reads
// are written once for both databases (sql_table_reads.cpp).
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server::sqlite_tables {

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
