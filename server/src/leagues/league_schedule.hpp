#pragma once
// A division's tables for a season: who sits with whom, and in which seat. Pure computation.
#include <cstdint>
#include <vector>

namespace gcor::server {

// The tables of one division for a season: each table lists member indexes (0..members-1) in seat
// order. Requires per_table in 2..4, members in per_table..16, games_per_pairing (g) in 1..4;
// throws std::invalid_argument otherwise.
//
// Guarantee, checked by a test over every valid (members, per_table, g):
// - every pair of members sits together g or g + 1 times; the one exception is 5 members at
//   tables of 4 with g = 1 or g = 4, where pairs meet g + 1 or g + 2 times (every table leaves
//   one member out, and fewer tables would leave pair counts 2 apart);
// - the members' numbers of games differ by at most 1;
// - each member holds each seat position floor(games / per_table) or ceil(games / per_table)
//   times;
// - with 2 per table, every pair meets exactly g times and, when g is even, each of the two sits
//   first g / 2 times.
// The table count is the smallest for which the search finds pair counts and games each within 1
// (docs/leagues.md lists them). It depends only on (members, per_table, g): the seed decides who
// is which member and the tables' order. About 10 ms at most for any shape.
std::vector<std::vector<int>> schedule_division(int members, int per_table, int games_per_pairing,
                                                std::uint64_t seed);

}  // namespace gcor::server
