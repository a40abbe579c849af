#pragma once
// The writes of tables, their seats and move logs for the PostgreSQL store (postgres_store.cpp),
// on the writer's connection inside its transaction: a move's append is the hot path. The reads
// are written once for both databases (sql_table_reads.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"
#include "postgres_connection.hpp"

namespace gcor::server::postgres_tables {

// Writes.
// The table's row and its seats; throws WriteConflict when the row is not at the revision before,
// or another process's write in flight holds it (it is not waited for).
void save(pg::Connection& db, const StoredTable& table);
// The same as a write of its own (Store::save_table): refused, it leaves nothing written, not
// even a lock, and throws a WriteConflict that says so (the rest of its group commits).
void save_on_its_own(pg::Connection& db, const StoredTable& table);
// The move and the table's row: the hot path, one prepared statement, sent without waiting
// for its result inside a pipeline; a conflict then fails the transaction as WriteConflict.
void append(pg::Connection& db, const TableProgress& table, const StoredMove& move);
// A waiting table's chat, seats and row; throws WriteConflict when it is not at `revision`.
void remove_waiting(pg::Connection& db, const std::string& id, std::uint64_t revision);
// The due tables that `node` takes until `held_until` (Store::take_due_tables), earliest first.
std::vector<std::string> take_due(pg::Connection& db, UnixMs now, const std::string& node,
                                  UnixMs held_until);

}  // namespace gcor::server::postgres_tables
