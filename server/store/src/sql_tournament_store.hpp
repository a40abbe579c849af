#pragma once
// Tournaments written once for both databases. A round's start also stores its tables, which each
// backend writes its own way: start_round and tournament_tables are the backend's, on top of
// claim_round and write_round_start.
#include "gcor/store/tournament_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlTournamentStore : public virtual TournamentStore {
  public:
    explicit SqlTournamentStore(StoreAccess& access) : access_(access) {}

    StoredTournament create_tournament(const std::string& name, std::uint64_t creator,
                                       const std::string& settings, UnixMs starts_at) override;
    std::vector<StoredTournament> tournaments(std::size_t limit) override;
    std::vector<StoredTournament> unfinished_tournaments() override;
    std::optional<StoredTournament> tournament(std::uint64_t id) override;
    std::vector<TournamentPlayer> tournament_players(std::uint64_t id) override;
    JoinOutcome join_tournament(std::uint64_t id, std::uint64_t user, int max_players) override;
    bool leave_tournament(std::uint64_t id, std::uint64_t user) override;
    std::vector<StoredRound> tournament_rounds(std::uint64_t id) override;
    bool finish_tournament(std::uint64_t id, int round) override;

  private:
    StoreAccess& access_;
};

// The claim of a round's start: moves the tournament's latest round from the one before to this
// one; false (and nothing changed) when another transaction moved it first.
bool claim_round(Sql& db, const RoundStart& start);
// The start's rows other than the tables': the round, its tables' round, and the first round's
// seeds (in the transaction that claimed the round and stored the tables).
void write_round_start(Sql& db, const RoundStart& start);

}  // namespace gcor::server
