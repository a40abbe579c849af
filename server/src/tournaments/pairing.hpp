#pragma once
// A tournament's rounds (docs/tournaments.md): who sits with whom in a Swiss round or a knockout
// round, and who goes on from a knockout round. Pure computation: the caller reads the standings
// and the past rounds from the store and writes the tables.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace gcor::server {

// A round's tables, each its players in seat order, and the players who sit it out.
struct PairedRound {
    std::vector<std::vector<std::uint64_t>> tables;
    std::vector<std::uint64_t> byes;
};

// How often each two players sat together: keys are (smaller id, larger id).
using Meetings = std::map<std::pair<std::uint64_t, std::uint64_t>, int>;
int times_met(const Meetings& meetings, std::uint64_t a, std::uint64_t b);
void add_table(Meetings& meetings, const std::vector<std::uint64_t>& table);

// The table sizes of a Swiss round of `players` (>= 2) at tables of `per_table` (2..4), largest
// first, and how many sit out (0 or 1). All tables are full when they can be; otherwise some
// are one seat smaller; tables of 2 leave one out of an odd count, and 5 at tables of 4 are one
// table of 4 and one out (3 + 2 would make a table two seats smaller). A single table seats
// everybody (2..per_table).
struct SwissShape {
    std::vector<int> sizes;
    int byes = 0;
};
SwissShape swiss_shape(int players, int per_table);

struct SwissEntrant {
    std::uint64_t user = 0;
    bool had_bye = false;
};

// A Swiss round for `ranked` (the players still in, best first by the standings). The bye goes to
// the lowest-ranked player who has had none (everybody had one: the lowest-ranked). The tables
// are filled from the top of the ranking, each with the best-ranked players who have not met
// anyone already at it; the search is exhaustive up to a budget of steps that small fields
// never reach, so that no two players meet again while a grouping without a repeat exists, and
// when none exists the round seats the fewest repeat meetings (each earlier meeting of two
// players at a table counts). When the budget runs out first, a local search swaps players
// between tables to seat fewer repeats, then players of the closest ranks together. The tables
// are listed top first.
PairedRound pair_swiss(const std::vector<SwissEntrant>& ranked, int per_table,
                       const Meetings& meetings);

// A knockout round for `seeded` (the players still in, best seed first): as few tables as seat
// everybody, each of `advance` + 1 to `per_table` players; when that many tables cannot give
// every table more than `advance` players, one table fewer and the best seeds who do not fit
// sit out (they go on). Seeds are dealt to the tables in a snake (1, 2, 3, 3, 2, 1, ...), so the
// best seeds meet last. Fewer than `per_table` + 1 players: one final table. Requires
// 1 <= advance < per_table <= 4 and at least 2 players.
PairedRound pair_knockout(const std::vector<std::uint64_t>& seeded, int per_table, int advance);

// The players of a finished knockout table who go on: the `advance` best places; players tied at
// the cut are taken by `seed_order` (the better seed goes on). `places` per seat (1 = first).
std::vector<std::uint64_t> knockout_advancing(const std::vector<std::uint64_t>& table,
                                              const std::vector<int>& places, int advance,
                                              const std::vector<std::uint64_t>& seed_order);

// How many rounds a knockout of `players` takes, the final included (0 for fewer than 2).
int knockout_rounds(int players, int per_table, int advance);

}  // namespace gcor::server
