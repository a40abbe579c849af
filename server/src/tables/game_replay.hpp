#pragma once
// A stored game replayed from its seed and moves. The server keeps no table's whole log in memory
// (thousands of tables are loaded at once); a replay costs microseconds, so older log lines and a
// finished game's positions are made again from the store when somebody asks for them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/event.hpp"
#include "gcor/engine/game.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

// The stored text of an undo: a seat took back its latest move (docs/rules.md, "Taking moves
// back"). The move log keeps undos, so that versions count every change and the log replays the
// game as it was played; a game record lists only the moves that stand (standing_moves).
inline constexpr std::string_view kUndoText = "undo";

// Applies one stored change, a move or an undo, as it was applied when it was made; appends its
// events. Why it does not apply (a stored log this engine cannot replay), or nullopt.
std::optional<std::string> apply_stored(engine::Game& game, const StoredMove& stored,
                                        std::vector<engine::Event>* events);

// The moves that stand: the stored moves without the ones taken back, nor the undos. nullopt
// when a stored move is not a move's text.
std::optional<std::vector<engine::Move>> standing_moves(const std::vector<StoredMove>& stored);

struct GameReplay {
    engine::State state;                      // after `moves` stored changes
    std::vector<engine::Event> events;        // the deal's and those changes' events, in order
    std::vector<std::uint64_t> round_starts;  // per round: the changes made when it started
};

// Replays the first `moves` stored changes (all of them when there are fewer); round_starts cover
// the whole game. nullopt (logged) when a stored move is not one the engine accepts.
std::optional<GameReplay> replay_stored(const engine::Rules& rules, const LoadedTable& stored,
                                        std::uint64_t moves);

// The event that starts a move made because `seat` ran out of time (a stored move `by` timeout).
engine::Event timed_out(engine::Seat seat);

}  // namespace gcor::server
