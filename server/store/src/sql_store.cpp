#include "sql_store.hpp"

#include "sql_chat_store.hpp"
#include "sql_table_reads.hpp"

namespace gcor::server {

std::optional<LoadedTable> SqlStore::load_table(const std::string& id) {
    return access_.read([&](Sql& db) -> std::optional<LoadedTable> {
        auto table = table_reads::select_table(db, id);
        if (!table) return std::nullopt;
        return LoadedTable{std::move(*table), table_reads::select_moves(db, id),
                           select_chat_lines(db, id, std::nullopt, kRecentChatLines),
                           select_last_chat_line(db, id)};
    });
}

std::optional<LoadedTable> SqlStore::load_table_since(const std::string& id, std::uint64_t after) {
    return access_.read([&](Sql& db) -> std::optional<LoadedTable> {
        auto table = table_reads::select_table(db, id);
        if (!table) return std::nullopt;
        return LoadedTable{std::move(*table), table_reads::select_moves(db, id, after), {}, 0};
    });
}

std::optional<StoredTable> SqlStore::find_table(const std::string& id) {
    return access_.read([&](Sql& db) { return table_reads::select_table(db, id); });
}

std::vector<StoredTable> SqlStore::list_tables(const TableFilter& filter) {
    return access_.read([&](Sql& db) { return table_reads::select_listed(db, filter); });
}

std::vector<std::string> SqlStore::table_ids(TableStatus status) {
    return access_.read_one([&](Sql& db) { return table_reads::select_ids(db, status); });
}

std::vector<std::string> SqlStore::deadlines_between(UnixMs from, UnixMs to) {
    return access_.read_one(
        [&](Sql& db) { return table_reads::select_deadlines_between(db, from, to); });
}

std::vector<UserTable> SqlStore::tables_of(std::uint64_t user, std::size_t limit) {
    return access_.read([&](Sql& db) { return table_reads::select_tables_of(db, user, limit); });
}

std::vector<StoredInvitation> SqlStore::invitations_of(std::uint64_t user, std::size_t limit) {
    return access_.read(
        [&](Sql& db) { return table_reads::select_invitations_of(db, user, limit); });
}

std::vector<FinishedGame> SqlStore::finished_games_of(const FinishedGamesQuery& query) {
    return access_.read([&](Sql& db) { return table_reads::select_finished_games(db, query); });
}

std::vector<UserResult> SqlStore::results_of(std::uint64_t user) {
    return access_.read_one([&](Sql& db) { return table_reads::select_results(db, user); });
}

std::uint64_t SqlStore::count_tables() {
    return access_.read_one([](Sql& db) { return table_reads::count_tables(db); });
}

std::vector<SeasonTable> SqlStore::season_tables(std::uint64_t league, int number) {
    return access_.read(
        [&](Sql& db) { return table_reads::select_season_tables(db, league, number); });
}

std::vector<TournamentTable> SqlStore::tournament_tables(std::uint64_t tournament) {
    return access_.read(
        [&](Sql& db) { return table_reads::select_tournament_tables(db, tournament); });
}

}  // namespace gcor::server
