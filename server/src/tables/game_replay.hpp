#pragma once
// A stored game replayed from its seed and moves. The server keeps no table's whole log in memory
// (thousands of tables are loaded at once); a replay costs microseconds, so older log lines and a
// finished game's positions are made again from the store when somebody asks for them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/event.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

struct GameReplay {
    engine::State state;                      // after `moves` moves
    std::vector<engine::Event> events;        // the deal's and those moves' events, in order
    std::vector<std::uint64_t> round_starts;  // per round: the moves made when it started
};

// Replays the first `moves` stored moves (all of them when there are fewer); round_starts cover
// the whole game. nullopt (logged) when a stored move is not one the engine accepts.
std::optional<GameReplay> replay_stored(const engine::Rules& rules, const LoadedTable& stored,
                                        std::uint64_t moves);

// One log line per event, as `viewer` may read it (nullopt: a spectator).
std::vector<std::string> log_lines(std::span<const engine::Event> events,
                                   std::optional<engine::Seat> viewer,
                                   std::span<const std::string> names);

}  // namespace gcor::server
