#pragma once
// What the SQLite and PostgreSQL stores share above their connections: the reads of tables
// (sql_table_reads.cpp), over the backend's StoreAccess. The concerns written once (accounts,
// chat, mail, leagues) are mixed in by each backend; a table's writes are each backend's own.
#include "gcor/store/store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlStore : public Store {
  public:
    explicit SqlStore(StoreAccess& access) : access_(access) {}

    std::optional<LoadedTable> load_table(const std::string& id) override;
    std::optional<LoadedTable> load_table_since(const std::string& id,
                                                std::uint64_t after) override;
    std::optional<StoredTable> find_table(const std::string& id) override;
    std::vector<StoredTable> list_tables(const TableFilter& filter) override;
    std::vector<std::string> table_ids(TableStatus status) override;
    std::vector<std::string> deadlines_between(UnixMs from, UnixMs to) override;
    std::vector<UserTable> tables_of(std::uint64_t user, std::size_t limit) override;
    std::vector<StoredInvitation> invitations_of(std::uint64_t user, std::size_t limit) override;
    std::vector<FinishedGame> finished_games_of(const FinishedGamesQuery& query) override;
    std::vector<UserResult> results_of(std::uint64_t user) override;
    std::uint64_t count_tables() override;
    std::vector<SeasonTable> season_tables(std::uint64_t league, int number) override;
    std::vector<TournamentTable> tournament_tables(std::uint64_t tournament) override;

  private:
    StoreAccess& access_;
};

}  // namespace gcor::server
