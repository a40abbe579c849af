#pragma once
// The greedy bot's judgement, shared by the greedy bot (from its view) and by the strong bot's
// playouts (from a sampled state, whose every seat it plays).
#include <array>
#include <span>

#include "gcor/engine/rng.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::engine::greedy {

// What the greedy bot reads of the table besides its own player.
struct Table {
    std::array<Symbol, kStripSpaces> strip{};
    int bricks = 0;  // of the turn under way
    int cogs = 0;
    std::array<int, kDeckCount> deck_sizes{};  // buildings left
};

// Final score if the game ended now, with brick tokens at what a brick costs in coins.
double estimate(const Player& player);
// How much `move` improves `me`'s estimate, roughly.
double move_value(const Table& table, const Player& me, const Move& move);
// The best of `moves` (not empty) by move_value; ties are broken at random.
Move choose(const Table& table, const Player& me, std::span<const Move> moves, Rng& rng);

}  // namespace gcor::engine::greedy

namespace gcor::engine {

// A bot's own player, rebuilt from what its view shows of it (it sees all of its own data).
Player own_player(const View& view);
// What the greedy bot reads of the table, from a view.
greedy::Table greedy_table(const View& view);

}  // namespace gcor::engine
