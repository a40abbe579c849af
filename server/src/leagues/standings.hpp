#pragma once
// A division's standings from its finished games, promotion and relegation at a season's end,
// and the next season's divisions. Pure computation: the caller reads and writes the store.
#include <cstdint>
#include <vector>

namespace gcor::server {

// One finished game of a division, from its stored result.
struct GameOutcome {
    std::vector<std::uint64_t> users;  // per seat
    // Per seat, 1 = first; tied seats share the better place; forfeited seats come after all
    // others.
    std::vector<int> places;
    std::vector<int> scores;      // final points per seat
    std::vector<int> influence;   // influence tokens per seat (the game's first tie-breaker)
    std::vector<int> coins;       // coins per seat (the second tie-breaker)
    std::vector<bool> forfeited;  // per seat: the seat forfeited (timeout): counts as a loss
};

struct StandingRow {
    std::uint64_t user = 0;
    int rank = 0;  // 1-based; equal rows share a rank
    int played = 0;
    int wins = 0;  // first places, shared ones included; never a forfeited seat
    int forfeits = 0;
    int points = 0;  // league points
    int score = 0;   // the sums over the games played, forfeited ones included
    int influence = 0;
    int coins = 0;
};

// `points_by_place[p - 1]` are the league points for place p at a table (its size is the players
// per table; a place beyond it gets 0). A forfeited seat gets 0 points whatever its place. Tied
// seats share the better place (standard competition ranking: 1, 2, 2, 4) and each gets that
// place's points.
// Order: points, then total score, then influence tokens, then coins (all descending), then user
// id ascending (only for the display order; equal rows keep the same rank). Every member appears
// once, also with no game played; seats of users who are not members are not counted. A seat's
// missing entries (shorter vectors) count as 0 and not forfeited.
std::vector<StandingRow> standings(const std::vector<std::uint64_t>& members,
                                   const std::vector<GameOutcome>& games,
                                   const std::vector<int>& points_by_place);

// Default league points: players per table 2: {1, 0}; 3: {2, 1, 0}; 4: {3, 2, 1, 0}.
std::vector<int> default_league_points(int per_table);

// A division at the season's end. Tier 1 is the top; order: final standings, best first.
struct FinishedDivision {
    int tier = 1;
    std::vector<std::uint64_t> order;
};

// Where a player of a finished season goes. `position` is 1-based in the final standings.
struct NextTier {
    std::uint64_t user = 0;
    int from_tier = 0;
    int position = 0;
    int to_tier = 0;
};

// The top `promote` of every division but the top tier's move up a tier, the bottom `relegate`
// of every division but the lowest tier's move down; the rest stay. In a division the promoted and
// the relegated never overlap: when promote + relegate exceeds its size, fewer are relegated.
// One entry per player, divisions in the given order, each in standings order.
std::vector<NextTier> promotion_and_relegation(const std::vector<FinishedDivision>& divisions,
                                               int promote, int relegate);

// The next season's divisions, tier 1 first, each a list of users. Returning players, sorted by
// (to_tier, from_tier, position) — so that where a tier has room, the players relegated from
// the tier above stay up first — then newcomers in sign-up order (the lowest tier), cut into
// divisions of `division_size`; a last division smaller than `per_table` joins the one above it
// (a single division is kept whatever its size). Returning = players of the finished season who
// signed up again (the caller filters); a newcomer who is also returning is placed once, as
// returning.
std::vector<std::vector<std::uint64_t>> assign_divisions(
    const std::vector<NextTier>& returning, const std::vector<std::uint64_t>& newcomers,
    int division_size, int per_table);

}  // namespace gcor::server
