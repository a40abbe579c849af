#include "tables/game_replay.hpp"

#include <spdlog/spdlog.h>

namespace gcor::server {

std::optional<GameReplay> replay_stored(const engine::Rules& rules, const LoadedTable& stored,
                                        std::uint64_t moves) {
    GameReplay replay;
    engine::State state = rules.new_game(stored.table.seed, &replay.events);
    int round = state.round;
    if (round > 0) replay.round_starts.push_back(0);
    for (std::size_t i = 0; i < stored.moves.size(); ++i) {
        if (i == moves) replay.state = state;
        const StoredMove& stored_move = stored.moves[i];
        const auto move = engine::Move::parse(stored_move.move);
        if (!move || stored_move.seat < 0 || stored_move.seat >= rules.options().players ||
            state.apply(static_cast<engine::Seat>(stored_move.seat), *move,
                        i < moves ? &replay.events : nullptr) != engine::MoveError::none) {
            spdlog::error("table {}: stored move {} does not replay", stored.table.id,
                          stored_move.seq);
            return std::nullopt;
        }
        for (; round < state.round; ++round)
            replay.round_starts.push_back(i + 1);
    }
    if (moves >= stored.moves.size()) {
        replay.state = std::move(state);
        // Forfeits are not moves: the stored seats say who forfeited, as Table::restore reads them.
        for (std::size_t seat = 0; seat < stored.table.seats.size(); ++seat)
            if (stored.table.seats[seat].forfeited)
                replay.state.forfeited =
                    static_cast<std::uint8_t>(replay.state.forfeited | 1u << seat);
    }
    return replay;
}

std::vector<std::string> log_lines(std::span<const engine::Event> events,
                                   std::optional<engine::Seat> viewer,
                                   std::span<const std::string> names) {
    std::vector<std::string> lines;
    lines.reserve(events.size());
    for (const engine::Event& event : events)
        lines.push_back(engine::describe(event, viewer, names));
    return lines;
}

}  // namespace gcor::server
