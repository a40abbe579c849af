#include "gcor/engine/game.hpp"

#include <cassert>
#include <numeric>
#include <optional>

namespace gcor::engine {
namespace {

int cards_in_decks(const State& state) {
    return std::accumulate(
        state.decks.begin(), state.decks.end(), 0,
        [](int sum, const auto& deck) { return sum + static_cast<int>(deck.size()); });
}

// The moves of an action turn that can be taken back when they reveal nothing: placing an
// emissary, a draft pick and ending the turn hand the turn on, and a school's choice of deck
// draws cards.
bool may_be_undoable(const State& state, const Move& move) {
    if (state.phase != Phase::actions) return false;
    switch (move.type) {
        case MoveType::take:
        case MoveType::build:
        case MoveType::produce:
        case MoveType::school_keep:
            return true;
        default:
            return false;
    }
}

// Whether building `move.card` shows someone a card they had not seen: a card kept from the draft
// or a school is known to few seats and to no spectator, and a city is public.
bool build_shows_hidden_card(const State& state, Seat seat, const Move& move) {
    if (move.type != MoveType::build || seat != state.to_act()) return false;
    for (const HandCard& held : state.players[seat].hand)
        if (held.card == move.card) return held.known_to != kEveryone;
    return false;
}

}  // namespace

std::string_view undo_error_message(UndoError error) {
    switch (error) {
        case UndoError::none:
            return "";
        case UndoError::not_allowed:
            return "this table does not allow taking moves back";
        case UndoError::game_over:
            return "the game is over";
        case UndoError::not_your_turn:
            return "only the player whose turn it is may take back a move, during that turn";
        case UndoError::nothing_to_undo:
            return "you have made no move in this turn yet";
        case UndoError::horizon:
            return "your latest move revealed cards or was made for you: nothing before it can "
                   "be taken back";
    }
    return "";
}

MoveError Game::apply(Seat seat, const Move& move, std::vector<Event>* events, bool by_player,
                      bool waits_for_end) {
    assert(by_player || !waits_for_end);
    const bool candidate = undo_ && by_player && may_be_undoable(state_, move);
    // Kept only for a move that may turn out undoable: a copy of a few kilobytes.
    std::optional<State> before;
    if (candidate) before = state_;
    const Phase phase = state_.phase;
    const Turn turn = state_.turn;
    const int round = state_.round;
    const int decked = candidate ? cards_in_decks(state_) : 0;
    const bool shows_card = candidate && build_shows_hidden_card(state_, seat, move);
    if (const MoveError error = state_.apply(seat, move, events, waits_for_end);
        error != MoveError::none)
        return error;
    const bool same_turn = phase == Phase::actions && state_.phase == Phase::actions &&
                           state_.round == round && state_.turn.seat == turn.seat &&
                           state_.turn.space == turn.space;
    if (!same_turn) {
        history_.clear();
        horizon_ = false;
        return MoveError::none;
    }
    // A card left a deck (a school drew, perhaps keeping its only card automatically), a school's
    // draw is about to be made, or a build showed a card others had not seen: the turn's horizon.
    const bool reveals = !candidate || shows_card || cards_in_decks(state_) < decked ||
                         state_.step == Step::school_deck;
    if (reveals) {
        history_.clear();
        horizon_ = true;
        return MoveError::none;
    }
    history_.push_back({std::move(*before), move, horizon_});
    return MoveError::none;
}

UndoError Game::can_undo(Seat seat) const {
    if (!undo_) return UndoError::not_allowed;
    if (state_.over()) return UndoError::game_over;
    if (state_.phase != Phase::actions || state_.to_act() != seat) return UndoError::not_your_turn;
    if (!history_.empty()) return UndoError::none;
    return horizon_ ? UndoError::horizon : UndoError::nothing_to_undo;
}

UndoError Game::undo(Seat seat, std::vector<Event>* events) {
    if (const UndoError error = can_undo(seat); error != UndoError::none) return error;
    Undoable last = std::move(history_.back());
    history_.pop_back();
    state_ = std::move(last.before);
    horizon_ = last.horizon_before;
    if (events) {
        Event event{EventType::undone};
        event.seat = seat;
        event.undone = last.move.type;
        event.card = last.move.card;
        event.x = last.move.x;
        event.y = last.move.y;
        // The card a school kept is known to its keeper only.
        if (last.move.type == MoveType::school_keep)
            event.known_to = static_cast<std::uint8_t>(1u << seat);
        events->push_back(event);
    }
    return UndoError::none;
}

void view_for(const Game& game, std::optional<Seat> viewer, View& view) {
    view_for(game.state(), viewer, view);
    view.undo = viewer && game.can_undo(*viewer) == UndoError::none;
}

void view_for(const Game& game, std::optional<Seat> viewer, const View& shared, View& view) {
    view_for(game.state(), viewer, shared, view);
    view.undo = viewer && game.can_undo(*viewer) == UndoError::none;
}

void Game::forfeit(Seat seat) {
    state_.forfeited = static_cast<std::uint8_t>(state_.forfeited | 1u << seat);
    // Its bot never takes back the moves its player made.
    if (state_.to_act() == seat) {
        history_.clear();
        horizon_ = false;
    }
}

}  // namespace gcor::engine
