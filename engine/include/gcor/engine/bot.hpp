#pragma once
// Bots decide from their own seat's view only: a bot that read the state would see hidden cards.
#include <optional>
#include <string_view>

#include "gcor/engine/rng.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::engine {

enum class BotKind : std::uint8_t {
    random,  // uniform among the legal moves
    greedy,  // the move that most improves an estimate of its own final score
};
std::string_view bot_id(BotKind kind);
std::optional<BotKind> bot_from_id(std::string_view id);

// One of view.legal_moves, which must not be empty (the viewer is the seat to act).
Move choose_move(BotKind kind, const View& view, Rng& rng);

}  // namespace gcor::engine
