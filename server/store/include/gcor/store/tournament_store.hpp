#pragma once
// Tournaments, their players, rounds and tables (docs/tournaments.md).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store_basics.hpp"
#include "gcor/store/table_store.hpp"
#include "gcor/store/user.hpp"

namespace gcor::server {

struct StoredTournament {
    std::uint64_t id = 0;
    std::string name;
    User creator;
    // JSON text: format, players per table, rounds, advance, options, time control, player limit,
    // rated, round deadline; the store keeps it, the server reads it.
    std::string settings;
    UnixMs starts_at = 0;
    std::string status;  // "signup", "running" or "finished"
    int round = 0;       // the latest round paired; 0 before the start
    UnixMs created = 0;
};

struct TournamentPlayer {
    User user;
    UnixMs signed_up = 0;
    int seed = 0;       // 1 = the best rated at the start; 0 before it
    double rating = 0;  // the rating the seed was made from
    bool withdrawn = false;
};

struct StoredRound {
    int number = 0;
    UnixMs started = 0;
    std::optional<UnixMs> deadline;
    std::vector<std::uint64_t> byes;
};

struct TournamentTable {
    int round = 0;
    StoredTable table;
};

// A round to store: its tables (started, as started_table_record makes them) and byes; for the
// first, the players' seeds.
struct RoundStart {
    std::uint64_t tournament = 0;
    StoredRound round;
    std::vector<StoredTable> tables;
    std::vector<TournamentPlayer> seeds;  // round 1 only: each player's seed and rating
};

enum class JoinOutcome : std::uint8_t { joined, already, full, closed };

class TournamentStore {
  public:
    virtual ~TournamentStore() = default;

    // Synchronous: rare, and the caller needs the answer.
    virtual StoredTournament create_tournament(const std::string& name, std::uint64_t creator,
                                               const std::string& settings, UnixMs starts_at) = 0;
    // Newest first.
    virtual std::vector<StoredTournament> tournaments(std::size_t limit) = 0;
    // In sign-up or running: what the scheduler looks at.
    virtual std::vector<StoredTournament> unfinished_tournaments() = 0;
    virtual std::optional<StoredTournament> tournament(std::uint64_t id) = 0;
    // Seed order once started, sign-up order before.
    virtual std::vector<TournamentPlayer> tournament_players(std::uint64_t id) = 0;
    // Signs `user` up while the tournament is in sign-up and has fewer than `max_players`.
    virtual JoinOutcome join_tournament(std::uint64_t id, std::uint64_t user, int max_players) = 0;
    // In sign-up: the sign-up is removed; running: the player is marked withdrawn. false when
    // the user was not signed up (or had withdrawn, or the tournament is finished).
    virtual bool leave_tournament(std::uint64_t id, std::uint64_t user) = 0;
    virtual std::vector<StoredRound> tournament_rounds(std::uint64_t id) = 0;
    virtual std::vector<TournamentTable> tournament_tables(std::uint64_t id) = 0;
    // In one transaction, and only when the tournament's latest round is still the one before
    // `start.round.number` (the claim: of several servers pairing the same round, one stores
    // it): the tournament running at that round, its tables, byes and deadline, and the first
    // round's seeds. `done(true)` once stored; false when the claim was lost or the write failed.
    virtual void start_round(const RoundStart& start, StoreDone done) = 0;
    // The tournament finished after `round` (0: it ended at its start time without rounds);
    // false when another server finished it or paired a round first.
    virtual bool finish_tournament(std::uint64_t id, int round) = 0;
};

}  // namespace gcor::server
