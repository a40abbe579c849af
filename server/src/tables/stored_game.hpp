#pragma once
// A game as the store keeps it: the table's row, its settings read from their stored text once,
// and its moves. The one place that reads a stored table's settings, that replays a stored game (a
// table being loaded, a page of its log, the replay endpoint) and that writes the record documents
// the HTTP API serves (docs/protocol.md, "Game records" and "Replays"). protocol::GameRecord is
// the record as `cor replay` reads it back.
//
// The server keeps no table's whole log in memory (thousands of tables are loaded at once); a
// replay costs microseconds, so older log lines and a finished game's positions are made again
// from the store when somebody asks for them.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gcor/engine/event.hpp"
#include "gcor/engine/game.hpp"
#include "gcor/protocol/expected.hpp"
#include "gcor/protocol/table_settings.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

// The stored text of an undo: a seat took back its latest move (docs/rules.md, "Taking moves
// back"). The move log keeps undos, so that versions count every change and the log replays the
// game as it was played; a game record lists only the moves that stand.
inline constexpr std::string_view kUndoText = "undo";

// The event that starts a move made because `seat` ran out of time (a stored move `by` timeout).
engine::Event timed_out(engine::Seat seat);

class StoredGame {
  public:
    // The game after some of its stored changes (moves and undos).
    struct Replay {
        engine::Game game;
        std::vector<engine::Event> events;        // the deal's and those changes' events, in order
        std::vector<std::uint64_t> round_starts;  // per round of the whole game: the changes made
                                                  // when it started
    };
    static constexpr std::uint64_t kAllChanges = std::numeric_limits<std::uint64_t>::max();

    // The settings in `row`'s stored text. An error (internal) saying why when the text is not
    // settings this server plays: a row written by a newer server, or damaged.
    static protocol::Expected<protocol::TableSettings> read_settings(const StoredTable& row);
    // A stored table with its moves, its settings read once (errors as read_settings').
    static protocol::Expected<StoredGame> read(StoredTable row, std::vector<StoredMove> moves = {});
    // A new table that `creator` made, waiting, with open seats (new_table_record): its settings
    // are given.
    StoredGame(std::string id, const protocol::TableSettings& settings, std::uint64_t seed,
               std::string nonce, std::uint64_t creator);

    // The row as it was read or made; a table in memory keeps its seats and progress itself.
    const StoredTable& row() const { return row_; }
    const std::string& id() const { return row_.id; }
    const protocol::TableSettings& settings() const { return settings_; }
    const engine::Rules& rules() const { return rules_; }
    const std::vector<StoredMove>& moves() const { return moves_; }
    // Hands the moves over, and keeps the record without them: a table in memory, once it
    // replayed them, needs them no more.
    std::vector<StoredMove> take_moves() { return std::exchange(moves_, {}); }

    // The game as the seed deals it, before any change.
    Replay deal() const;
    // The game after its first `changes` stored changes (all of them when there are fewer; the
    // stored seats' forfeits after the last), with their events; round_starts cover the whole
    // game. An error (internal) naming the first stored change the engine does not accept.
    protocol::Expected<Replay> replay(std::uint64_t changes = kAllChanges) const;

    // GET /api/tables/{id}/record: a finished game's whole record, which `cor replay` checks;
    // before the end only what is public (no seed, no moves: moves name cards that some seats
    // have not seen). An error (internal) when a finished game does not replay.
    protocol::Expected<protocol::Json> record_json() const;
    // A game's moves that stand (GET /api/tables/{id}/record's, in a GameRecord with the options
    // and the seed), and for each of them the stored change that made it: the replay's `move`
    // before it (undos make the two differ). Only for a log that replays (replay()).
    struct Standing {
        protocol::GameRecord record;
        std::vector<std::uint64_t> changes;
    };
    Standing standing() const;
    // GET /api/tables/{id}/replay?move=N: the game after `move` of its changes (at most all of
    // them) as a spectator saw it, with the log up to there and where each round started.
    protocol::Expected<protocol::Json> replay_json(std::uint64_t move) const;

  private:
    StoredGame(StoredTable row, protocol::TableSettings settings, engine::Rules rules,
               std::vector<StoredMove> moves);

    StoredTable row_;
    protocol::TableSettings settings_;
    engine::Rules rules_;
    std::vector<StoredMove> moves_;
};

}  // namespace gcor::server
