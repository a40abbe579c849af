#pragma once
// Ratings: Elo over the pairwise results of a table, faster while a player is provisional.
#include <vector>

namespace gcor::server {

constexpr double kInitialRating = 1500.0;
// A player with fewer rated games than this is provisional.
constexpr int kProvisionalGames = 10;
constexpr double kK = 32.0;
// Twice kK: a new player's rating reaches its level in a few games.
constexpr double kProvisionalK = 64.0;

struct Rating {
    double value = kInitialRating;
    int games = 0;  // rated games played
};

// The new ratings of a table's players after a game, in seat order. `places` are 1-based (ties
// share a place; the caller places forfeiters last). For each pair (i, j): S = 1 if i placed
// better, 0.5 if equal, 0 if worse; E = 1 / (1 + 10^((Rj - Ri) / 400)).
// Ri' = Ri + K_i / (n - 1) * sum_j (S_ij - E_ij), with K_i = kProvisionalK while i has fewer than
// kProvisionalGames games, else kK; games += 1.
// Throws std::invalid_argument unless there are two players or more, with a place each.
std::vector<Rating> rate_game(const std::vector<Rating>& before, const std::vector<int>& places);

bool provisional(const Rating& rating);

}  // namespace gcor::server
