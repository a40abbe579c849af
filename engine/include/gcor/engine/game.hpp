#pragma once
// A game being played: its state, and what the seat to act may still take back (docs/rules.md,
// "Taking moves back"). A player may undo their own latest moves of the turn under way, one by
// one, up to the information horizon: the last moment the turn revealed something (a school's
// draw, a build of a card that others had not seen) or its start. Undoing restores the state
// exactly as it was, its generator included, because it is the state kept from before the move.
#include <cstdint>
#include <string_view>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::engine {

// Why a seat may not take back a move now.
enum class UndoError : std::uint8_t {
    none,
    not_allowed,      // the table does not allow taking moves back
    game_over,        // nothing is taken back once the game is over
    not_your_turn,    // only the seat to act, during its own action turn
    nothing_to_undo,  // the turn has no move of this seat since its start
    horizon,          // the latest move revealed something, or was made for the seat
};
std::string_view undo_error_message(UndoError error);

class Game {
  public:
    // `undo`: whether this table lets players take moves back.
    Game(State state, bool undo) : state_(std::move(state)), undo_(undo) {}

    const State& state() const { return state_; }

    // Applies a move as State::apply does. `by_player`: the seat's own player chose it (not a bot
    // or a timeout), so it may be taken back if it revealed nothing. `waits_for_end`: the end of
    // the turn waits for the player's own end move (State::apply), so such a move stays
    // undoable; only for a player's move.
    MoveError apply(Seat seat, const Move& move, std::vector<Event>* events = nullptr,
                    bool by_player = true, bool waits_for_end = false);
    UndoError can_undo(Seat seat) const;
    // Takes back `seat`'s latest move with the automatic moves that followed it, and appends an
    // `undone` event; a refused undo changes nothing.
    UndoError undo(Seat seat, std::vector<Event>* events = nullptr);
    // The seat ran out of time and forfeits: it plays on by bot and never wins.
    void forfeit(Seat seat);
    // How many moves may be taken back one after the other now (0 when can_undo refuses).
    std::size_t undo_depth() const { return history_.size(); }

  private:
    struct Undoable {
        State before;
        Move move;
        bool horizon_before;  // horizon_ before the move
    };
    State state_;
    bool undo_;
    // The moves of the turn under way since its horizon, oldest first, with the state before
    // each. Only the seat to act has moves here: a turn that ends clears it.
    std::vector<Undoable> history_;
    // The turn under way reached a horizon after its start: why nothing is left to undo.
    bool horizon_ = false;
};

// What `viewer` (nullopt: a spectator) may see, with whether it may take back a move now.
void view_for(const Game& game, std::optional<Seat> viewer, View& view);
// The same with the public part copied from `shared`, any viewer's view of `game` (view.hpp).
void view_for(const Game& game, std::optional<Seat> viewer, const View& shared, View& view);

}  // namespace gcor::engine
