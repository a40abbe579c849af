#include "tables/stored_game.hpp"

#include <cassert>
#include <optional>

#include "gcor/engine/view.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/view_json.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

// Applies one stored change, a move or an undo, as it was applied when it was made; appends its
// events. Why it does not apply (a stored log this engine cannot replay), or nullopt.
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
    const engine::MoveError refused =
        game.apply(seat, *move, events, by_player(stored.by), stored.by == MovedBy::player_waiting);
    if (refused == engine::MoveError::none) return std::nullopt;
    return "\"" + stored.move + "\" is refused: " + std::string(engine::error_message(refused));
}

Json seat_names(const StoredTable& row) {
    Json names = Json::array();
    for (const StoredSeat& seat : row.seats)
        names.push_back(seat.name);
    return names;
}

}  // namespace

engine::Event timed_out(engine::Seat seat) {
    return engine::Event{.type = engine::EventType::timed_out, .seat = seat};
}

protocol::Expected<protocol::TableSettings> StoredGame::read_settings(const StoredTable& row) {
    auto settings = protocol::parse_table_settings(row.settings);
    if (!settings)
        return protocol::Error{ErrorCode::internal,
                               "its settings are refused: " + settings.error().message};
    return settings;
}

protocol::Expected<StoredGame> StoredGame::read(StoredTable row, std::vector<StoredMove> moves) {
    auto settings = read_settings(row);
    if (!settings) return settings.error();
    auto rules = engine::Rules::make(settings->options);
    assert(rules);  // the settings' parser accepts only options that make rules
    return StoredGame(std::move(row), std::move(*settings), *rules, std::move(moves));
}

StoredGame::StoredGame(std::string id, const protocol::TableSettings& settings, std::uint64_t seed,
                       std::string nonce, std::uint64_t creator)
    : StoredGame(new_table_record(std::move(id), settings, seed, std::move(nonce), creator),
                 settings, *engine::Rules::make(settings.options), {}) {}

StoredGame::StoredGame(StoredTable row, protocol::TableSettings settings, engine::Rules rules,
                       std::vector<StoredMove> moves)
    : row_(std::move(row)),
      settings_(std::move(settings)),
      rules_(rules),
      moves_(std::move(moves)) {}

StoredGame::Replay StoredGame::deal() const {
    std::vector<engine::Event> events;
    engine::Game game(rules_.new_game(row_.seed, &events), settings_.undo);
    return Replay{std::move(game), std::move(events), {}};
}

protocol::Expected<StoredGame::Replay> StoredGame::replay(std::uint64_t changes) const {
    Replay replay = deal();
    engine::Game& playing = replay.game;
    std::optional<engine::Game> at_changes;  // when `changes` is before the end
    int round = playing.state().round;
    if (round > 0) replay.round_starts.push_back(0);
    for (std::size_t i = 0; i < moves_.size(); ++i) {
        if (i == changes) at_changes = playing;
        if (const auto broken =
                apply_stored(playing, moves_[i], i < changes ? &replay.events : nullptr))
            return protocol::Error{ErrorCode::internal, "move " + std::to_string(moves_[i].seq) +
                                                            " does not replay: " + *broken};
        for (; round < playing.state().round; ++round)
            replay.round_starts.push_back(i + 1);
    }
    if (at_changes) {
        replay.game = std::move(*at_changes);
    } else {
        // Forfeits are not moves: the stored seats say who forfeited.
        for (std::size_t seat = 0; seat < row_.seats.size(); ++seat)
            if (row_.seats[seat].forfeited) playing.forfeit(static_cast<engine::Seat>(seat));
    }
    return replay;
}

StoredGame::Standing StoredGame::standing() const {
    Standing standing;
    protocol::GameRecord& record = standing.record;
    record.options = settings_.options;
    record.seed = row_.seed;
    std::vector<engine::Move>& moves = record.moves;
    moves.reserve(moves_.size());
    for (std::uint64_t change = 0; change < moves_.size(); ++change) {
        const StoredMove& stored = moves_[change];
        // An undo takes back its seat's latest move, which is the latest move of the game: it is
        // made in that seat's own turn, before anybody else moves.
        if (stored.move == kUndoText) {
            assert(!moves.empty());
            moves.pop_back();
            standing.changes.pop_back();
            if (!record.waited.empty() && record.waited.back() == moves.size())
                record.waited.pop_back();
            continue;
        }
        const auto move = engine::Move::parse(stored.move);
        assert(move);
        if (stored.by == MovedBy::player_waiting) record.waited.push_back(moves.size());
        moves.push_back(*move);
        standing.changes.push_back(change);
    }
    return standing;
}

protocol::Expected<Json> StoredGame::record_json() const {
    if (row_.status != TableStatus::finished) {
        Json record{{"table", row_.id},
                    {"options", protocol::options_to_json(settings_.options)},
                    {"names", seat_names(row_)},
                    {"status", status_id(row_.status)},
                    {"version", row_.version}};
        if (row_.status == TableStatus::playing) record["commitment"] = row_.commitment;
        return record;
    }
    const auto replayed = replay();
    if (!replayed) return replayed.error();
    // The record lists the moves that stand: undos and the moves they took back are left out.
    protocol::GameRecord game = standing().record;
    game.commitment = row_.commitment;
    game.nonce = row_.nonce;
    for (std::size_t seat = 0; seat < row_.seats.size(); ++seat)
        if (row_.seats[seat].forfeited)
            game.forfeited = static_cast<std::uint8_t>(game.forfeited | 1u << seat);
    Json record{{"table", row_.id}, {"names", seat_names(row_)}};
    record.update(protocol::record_to_json(game, &replayed->game.state()));
    return record;
}

protocol::Expected<Json> StoredGame::replay_json(std::uint64_t move) const {
    const auto replayed = replay(move);
    if (!replayed) return replayed.error();
    Json seats = Json::array();
    for (const StoredSeat& seat : row_.seats)
        seats.push_back(seat_json(seat));
    Json json{
        {"table", row_.id},
        {"names", seat_names(row_)},
        {"seats", seats},
        {"move", move},
        {"moves", moves_.size()},
        {"rounds", replayed->round_starts},
        {"view", protocol::view_to_json(engine::view_for(replayed->game.state(), std::nullopt))},
        {"log", protocol::events_json(replayed->events, std::nullopt)}};
    if (!settings_.name.empty()) json["name"] = settings_.name;
    return json;
}

}  // namespace gcor::server
