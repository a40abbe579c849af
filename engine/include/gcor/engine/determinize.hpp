#pragma once
// A whole game rebuilt from what one seat sees: the hidden parts (other players' unknown hand
// cards, the decks' contents and order, a draft packet or school draw in other hands, the strips
// below the one in play, the generator) are drawn at random among the ones consistent with the
// view. The strong bot plays its samples out; it never sees the real state.
#include <optional>

#include "gcor/engine/rng.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::engine {

// A state whose view for `*view.viewer` is `view` (but for `undo`, which only a Game sets).
// nullopt for a spectator's view, a finished game (who forfeited is not in the view), and a view
// that no game can show (hidden cards that do not fit the cards left). The view says nothing of
// what its seat may remember (the bottom of a deck it put cards under, earlier strips), so the
// sample does not use it either.
std::optional<State> determinize(const View& view, Rng& rng);

}  // namespace gcor::engine
