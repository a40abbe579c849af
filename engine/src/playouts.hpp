#pragma once
// The strong bot's judgement of moves, shared by the bot (strong_bot.cpp) and the game review
// (analysis.cpp): moves played out to the end in worlds sampled from one seat's view.
#include <functional>
#include <span>
#include <vector>

#include "gcor/engine/rng.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::engine {

// What the play-outs of one move added up to over the worlds.
struct Outcome {
    double reward = 0.0;  // the strong bot's reward: a win, and then the margin (in [0, 1] a world)
    double wins = 0.0;    // 1 a world the seat won alone, 1/k a world it shared with k winners
};

// Samples worlds consistent with `view` (determinize.hpp) while `more(worlds sampled so far)`,
// and in each plays every one of `moves` (legal for the viewer, the seat to act) out to the end,
// every seat then playing greedily, all moves with the same play-out seed (common random numbers:
// the moves are compared on equal luck). Adds each move's outcome to `totals` (resized to one per
// move); returns how many worlds it sampled, fewer than `more` asked when the view has none.
int play_out_in_worlds(const View& view, std::span<const Move> moves, Rng& rng,
                       const std::function<bool(int worlds)>& more, std::vector<Outcome>& totals);

}  // namespace gcor::engine
