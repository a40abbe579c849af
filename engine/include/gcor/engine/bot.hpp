#pragma once
// Bots decide from their own seat's view only: a bot that read the state would see hidden cards.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "gcor/engine/rng.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::engine {

enum class BotKind : std::uint8_t {
    random,  // uniform among the legal moves
    greedy,  // the move that most improves an estimate of its own final score
    strong,  // greedy's best candidates, played out in sampled worlds (choose_strong)
};
std::string_view bot_id(BotKind kind);
std::optional<BotKind> bot_from_id(std::string_view id);

// How long the strong bot may think about one move: it stops at the first limit it reaches (0: no
// such limit; with neither, it samples one world). With only `worlds` its move depends on the
// view and the seed alone, on any machine: what tests and benchmarks use.
struct BotBudget {
    int worlds = 0;  // sampled worlds, in each of which every candidate move is played out
    std::chrono::milliseconds time{200};
};
inline constexpr int kMaxBotWorlds = 100'000;

// One of view.legal_moves, which must not be empty (the viewer is the seat to act). Only the
// strong bot reads `budget`.
Move choose_move(BotKind kind, const View& view, Rng& rng, const BotBudget& budget = {});

// The strong bot: it takes the greedy bot's best candidates (all moves when there are few), and
// in each world it samples consistently with the view (determinize.hpp) plays every candidate
// out to the end, every seat then playing greedily; the candidate with the best total reward
// (a win, and then the margin over the best other player) is its move. Its input is the view, a
// seed and a budget and nothing else: it cannot peek.
Move choose_strong(const View& view, std::uint64_t seed, const BotBudget& budget);

}  // namespace gcor::engine
