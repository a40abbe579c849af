#include "tables/game_replay.hpp"

#include <spdlog/spdlog.h>

#include "gcor/protocol/table_settings.hpp"

namespace gcor::server {

std::optional<std::string> apply_stored(engine::Game& game, const StoredMove& stored,
                                        std::vector<engine::Event>* events) {
    const engine::State& state = game.state();
    if (stored.seat < 0 || stored.seat >= state.player_count())
        return "its seat " + std::to_string(stored.seat) + " is not a seat of this game";
    const auto seat = static_cast<engine::Seat>(stored.seat);
    if (stored.move == kUndoText) {
        const engine::UndoError refused = game.undo(seat, events);
        if (refused == engine::UndoError::none) return std::nullopt;
        return "its undo is refused: " + std::string(engine::undo_error_message(refused));
    }
    const auto move = engine::Move::parse(stored.move);
    if (!move) return "\"" + stored.move + "\" is not a move";
    if (events && stored.by == MovedBy::timeout) events->push_back(timed_out(seat));
    const engine::MoveError refused = game.apply(seat, *move, events, stored.by == MovedBy::player);
    if (refused == engine::MoveError::none) return std::nullopt;
    return "\"" + stored.move + "\" is refused: " + std::string(engine::error_message(refused));
}

std::optional<std::vector<engine::Move>> standing_moves(const std::vector<StoredMove>& stored) {
    std::vector<engine::Move> moves;
    moves.reserve(stored.size());
    for (const StoredMove& change : stored) {
        // An undo takes back its seat's latest move, which is the latest move of the game: it is
        // made in that seat's own turn, before anybody else moves.
        if (change.move == kUndoText) {
            if (moves.empty()) return std::nullopt;
            moves.pop_back();
            continue;
        }
        const auto move = engine::Move::parse(change.move);
        if (!move) return std::nullopt;
        moves.push_back(*move);
    }
    return moves;
}

std::optional<GameReplay> replay_stored(const engine::Rules& rules, const LoadedTable& stored,
                                        std::uint64_t moves) {
    GameReplay replay;
    const auto settings = protocol::parse_table_settings(stored.table.settings);
    engine::Game game(rules.new_game(stored.table.seed, &replay.events),
                      !settings || settings->undo);
    int round = game.state().round;
    if (round > 0) replay.round_starts.push_back(0);
    for (std::size_t i = 0; i < stored.moves.size(); ++i) {
        if (i == moves) replay.state = game.state();
        if (const auto broken =
                apply_stored(game, stored.moves[i], i < moves ? &replay.events : nullptr)) {
            spdlog::error("table {}: stored move {} does not replay: {}", stored.table.id,
                          stored.moves[i].seq, *broken);
            return std::nullopt;
        }
        for (; round < game.state().round; ++round)
            replay.round_starts.push_back(i + 1);
    }
    if (moves >= stored.moves.size()) {
        // Forfeits are not moves: the stored seats say who forfeited, as Table::restore reads them.
        for (std::size_t seat = 0; seat < stored.table.seats.size(); ++seat)
            if (stored.table.seats[seat].forfeited) game.forfeit(static_cast<engine::Seat>(seat));
        replay.state = game.state();
    }
    return replay;
}

engine::Event timed_out(engine::Seat seat) {
    return engine::Event{.type = engine::EventType::timed_out, .seat = seat};
}

}  // namespace gcor::server
