#pragma once
// The reads of tables, their seats and move logs, written once for both databases; each store runs
// them in its read snapshot. A table's writes (a move's append: the hot path) stay each
// database's own (sqlite_tables.cpp, postgres_tables.cpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"
#include "sql.hpp"

namespace gcor::server::table_reads {

// A table comes with its seats.
std::optional<StoredTable> select_table(Sql& db, const std::string& id);
// The table's moves after version `after` (0: all), in order.
std::vector<StoredMove> select_moves(Sql& db, const std::string& id, std::uint64_t after = 0);
std::vector<StoredTable> select_listed(Sql& db, const TableFilter& filter);
std::vector<std::string> select_ids(Sql& db, TableStatus status);
std::vector<std::string> select_due(Sql& db, UnixMs now);
std::vector<std::string> select_deadlines_between(Sql& db, UnixMs from, UnixMs to);
std::vector<UserTable> select_tables_of(Sql& db, std::uint64_t user, std::size_t limit);
std::vector<StoredInvitation> select_invitations_of(Sql& db, std::uint64_t user, std::size_t limit);
std::vector<FinishedGame> select_finished_games(Sql& db, const FinishedGamesQuery& query);
std::vector<UserResult> select_results(Sql& db, std::uint64_t user);
std::vector<SeasonTable> select_season_tables(Sql& db, std::uint64_t league, int number);
// A tournament's tables, by round, then as they were made.
std::vector<TournamentTable> select_tournament_tables(Sql& db, std::uint64_t tournament);
std::uint64_t count_tables(Sql& db);

}  // namespace gcor::server::table_reads
