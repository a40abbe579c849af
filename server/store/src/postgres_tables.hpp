#pragma once
// The SQL of tables, their seats and move logs, for the PostgreSQL store (postgres_store.cpp):
// reads run on a reader's connection inside its read transaction, writes on the writer's inside
// its transaction.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"
#include "postgres_connection.hpp"

namespace gcor::server::postgres_tables {

// Reads. A table comes with its seats.
std::optional<StoredTable> select_table(pg::Connection& db, const std::string& id);
// The table's moves after version `after` (0: all), in order.
std::vector<StoredMove> select_moves(pg::Connection& db, const std::string& id,
                                     std::uint64_t after = 0);
std::vector<StoredTable> select_listed(pg::Connection& db, const TableFilter& filter);
std::vector<std::string> select_ids(pg::Connection& db, TableStatus status);
std::vector<std::string> select_due(pg::Connection& db, UnixMs now);
std::vector<std::string> select_deadlines_between(pg::Connection& db, UnixMs from, UnixMs to);
std::vector<UserTable> select_tables_of(pg::Connection& db, std::uint64_t user, std::size_t limit);
std::vector<SeasonTable> select_season_tables(pg::Connection& db, std::uint64_t league, int number);
std::uint64_t count_tables(pg::Connection& db);

// Writes.
// The table's row and its seats; throws WriteConflict when the row is not at the revision before.
void save(pg::Connection& db, const StoredTable& table);
// The move and the table's row: the hot path, one prepared statement.
void append(pg::Connection& db, const TableProgress& table, const StoredMove& move);
// A waiting table's chat, seats and row; throws WriteConflict when it is not at `revision`.
void remove_waiting(pg::Connection& db, const std::string& id, std::uint64_t revision);

}  // namespace gcor::server::postgres_tables
