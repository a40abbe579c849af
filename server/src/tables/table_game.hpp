#pragma once
// The game a table plays and what it remembers of the changes made to it: the engine's game, the
// version (every change applied: moves, the automatic ones among them, and undos), the events of
// the change just applied (the patches are made from them) and the move memory (MoveMemory). It
// applies a change, or refuses it and changes nothing; the table stores it and tells its
// followers. A value on the table's strand.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/game.hpp"
#include "gcor/store/store.hpp"
#include "tables/move_memory.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {

class TableGame {
  public:
    // `undo`: whether the table lets players take moves back (the game it begins with is dealt
    // or replayed with the same setting).
    explicit TableGame(bool undo) : game_(engine::State(), undo) {}

    const engine::Game& game() const { return game_; }
    const engine::State& state() const { return game_.state(); }
    std::uint64_t version() const { return version_; }
    const MoveMemory& moves() const { return moves_; }
    // The events of the change just applied (a timeout's first).
    const std::vector<engine::Event>& events() const { return events_; }

    // The game begins as `replayed`: dealt (no changes), or restored after its stored `changes`,
    // which make its version and the move ids it answers again.
    void begin(StoredGame::Replay replayed, const std::vector<StoredMove>& changes = {});
    // The seat to act if it could take back its move now (its view says so), before a change.
    std::optional<engine::Seat> could_undo() const;
    // Applies `seat`'s move, or takes back its latest move (`move` nullopt), as the next version.
    // `by` player_waiting: the end of the player's turn waits for their end move (their
    // preference, or a stored move that waited). The mover as stored: `by`, but a plain player
    // when nothing waits (the rules had no end to make, or it ended the turn); nullopt, and
    // nothing changed, when the engine refuses it.
    std::optional<MovedBy> apply(engine::Seat seat, const std::optional<engine::Move>& move,
                                 MovedBy by, const std::string& move_id);
    // The seat ran out of time: a bot plays it from now on, and it never wins.
    void forfeit(engine::Seat seat) { game_.forfeit(seat); }

  private:
    engine::Game game_;
    std::uint64_t version_ = 0;
    // Reused from change to change: a move's events are a few, made on every move.
    std::vector<engine::Event> events_;
    MoveMemory moves_;
};

}  // namespace gcor::server
