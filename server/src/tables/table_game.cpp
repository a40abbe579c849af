#include "tables/table_game.hpp"

namespace gcor::server {

void TableGame::begin(StoredGame::Replay replayed, const std::vector<StoredMove>& changes) {
    game_ = std::move(replayed.game);
    moves_.begin(replayed.events);
    version_ = 0;
    for (const StoredMove& change : changes)
        moves_.record(static_cast<engine::Seat>(change.seat), ++version_, change.by, change.move_id,
                      {});
}

std::optional<engine::Seat> TableGame::could_undo() const {
    const engine::Seat to_act = game_.state().to_act();
    return game_.can_undo(to_act) == engine::UndoError::none ? std::optional(to_act) : std::nullopt;
}

std::optional<MovedBy> TableGame::apply(engine::Seat seat, const std::optional<engine::Move>& move,
                                        MovedBy by, const std::string& move_id) {
    events_.clear();
    if (by == MovedBy::timeout) events_.push_back(timed_out(seat));
    const bool waits = by == MovedBy::player_waiting;
    const bool applied =
        move ? game_.apply(seat, *move, &events_, by_player(by), waits) == engine::MoveError::none
             : game_.undo(seat, &events_) == engine::UndoError::none;
    if (!applied) return std::nullopt;
    // The record names only the waits that held an end (docs/protocol.md, "Game records").
    if (waits && !(move && game_.state().turn_waits_for_end())) by = MovedBy::player;
    ++version_;
    moves_.record(seat, version_, by, move_id, events_);
    return by;
}

}  // namespace gcor::server
