#pragma once
// The review of a finished game (issue #46): every decision of every seat judged from that seat's
// view at that moment only, as the strong bot would judge it (docs/analysis.md).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "gcor/engine/state.hpp"

namespace gcor::engine {

// A fixed number of sampled worlds rather than a time, so that a game reviewed twice, on any
// machine, gives the same review.
struct AnalysisBudget {
    // Worlds in which the bot picks its move (every candidate played out in each), and as many
    // again, other ones, in which the chances of its move and of the move played are measured.
    int worlds = 128;
    std::uint64_t seed = 1;
};
inline constexpr int kMaxAnalysisWorlds = 10'000;

struct DecisionReview {
    std::size_t move;         // index of the decision in the game's move list
    Seat seat;                // who decided
    Move played;              // what it played
    double before;            // its chance to win before the move (0..1): with the bot's move
    double after;             // its chance with the move played
    Move preferred;           // the strong bot's move
    double preferred_chance;  // its chance: the same as `before`

    friend bool operator==(const DecisionReview&, const DecisionReview&) = default;
};

struct GameAnalysis {
    int worlds = 0;   // the budget's
    int players = 0;  // seats of the game
    // The decisions in the order they were made; those with a single legal move are left out.
    std::vector<DecisionReview> decisions;

    friend bool operator==(const GameAnalysis&, const GameAnalysis&) = default;
};

// Reviews the game that `moves` (the players' moves, as a record holds them; each legal) play
// from `start`; `waited` are the indexes of the moves after which the turn waited for its player's
// end move (State::apply). `progress` is called with (0, total) before the first decision and
// with (done, total) after each, total being the decisions to review; when it returns false the
// review stops and returns nullopt. Forfeits are not read: the seat's worlds have none (the view
// does not show them), so a chance is the one the board alone gives.
std::optional<GameAnalysis> analyse(
    const State& start, std::span<const Move> moves, std::span<const std::size_t> waited,
    const AnalysisBudget& budget,
    const std::function<bool(std::size_t done, std::size_t total)>& progress);

}  // namespace gcor::engine
