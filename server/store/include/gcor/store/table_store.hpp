#pragma once
// Tables, their seats and move logs. Writes are grouped; a move's is the hot path.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gcor/store/chat_store.hpp"
#include "gcor/store/store_basics.hpp"

namespace gcor::server {

// Turned into text only by a store's own code (SQLite keeps "waiting", "playing", "finished").
enum class TableStatus : std::uint8_t { waiting, playing, finished };
// A reserved seat is kept for an invited user (`user`), whom `invited_by` invited at
// `invited_at`; only they may take it.
enum class SeatKind : std::uint8_t { open, human, bot, reserved };
// Who made a stored move: the seat's player, its bot, a bot for a seat out of time, or the seat's
// player with the end of the turn then waiting for their own end move (player_waiting: the
// engine's `waits_for_end`, which a replay must know, as it makes the automatic moves again).
// Only players wait: one mover more rather than a flag that a bot's move could hold.
enum class MovedBy : std::uint8_t { player, bot, timeout, player_waiting };
// The seat's own player chose the move: it may be taken back.
inline bool by_player(MovedBy by) {
    return by == MovedBy::player || by == MovedBy::player_waiting;
}
// Never JSON numbers by accident (nlohmann would write an enum as its number): messages name a
// status in words (status_id in table_record.hpp).
void to_json(nlohmann::ordered_json&, TableStatus) = delete;
void to_json(nlohmann::ordered_json&, SeatKind) = delete;
void to_json(nlohmann::ordered_json&, MovedBy) = delete;

struct StoredSeat {
    SeatKind kind = SeatKind::open;
    std::uint64_t user = 0;
    std::string name;  // the user's name, or the bot's
    std::string bot;   // bot kind for a bot seat ("random", "greedy")
    bool forfeited = false;
    std::uint64_t invited_by = 0;  // a reserved seat's host
    UnixMs invited_at = 0;         // when a reserved seat's invitation was made

    bool operator==(const StoredSeat&) const = default;
};

// A table without its moves.
struct StoredTable {
    std::string id;
    UnixMs created = 0;
    // The table's settings as JSON text (options, public, spectators, time control, timeout
    // policy); the store keeps them but reads only the columns below.
    std::string settings;
    int players = 0;
    std::string rules;  // "yucata" or "publisher", for the lobby's filter
    bool is_public = true;
    std::uint64_t seed = 0;  // secret until the game is over
    std::string nonce;       // secret until the game is over (hex)
    std::string commitment;  // public: SHA-256 of the seed and nonce (hex)
    TableStatus status = TableStatus::waiting;
    std::uint64_t version = 0;
    std::optional<int> to_act;       // the seat whose turn it is while playing
    std::optional<UnixMs> deadline;  // when that seat's time runs out
    std::string result;              // JSON text once finished; empty before
    std::vector<StoredSeat> seats;   // one per seat, in seat order
    bool rated = false;              // the result changes the players' ratings
    // Who created it: their blocks keep users away from it (docs/protocol.md, "Friends and
    // blocks"). 0: nobody (a league's table, or one stored before it was kept).
    std::uint64_t creator = 0;
    // How many changes the row has had (each save and move counts one): a write names the
    // revision it makes, and is refused unless the stored row is at the one before. 0 writes the
    // row whatever it holds (tools, tests), and leaves it at 0.
    std::uint64_t revision = 0;

    // Whether it is this seat's turn: the game is on, the seat is to act and has not forfeited.
    bool turn_of(int seat) const {
        return status == TableStatus::playing && to_act == seat &&
               !seats.at(static_cast<std::size_t>(seat)).forfeited;
    }
    bool operator==(const StoredTable&) const = default;
};

struct StoredMove {
    std::uint64_t seq = 0;  // the table's version after this move (1, 2, ...)
    int seat = 0;
    std::string move;     // engine text form ("draft 17")
    std::string move_id;  // the client's move id; empty for bots and timeouts
    UnixMs at = 0;
    MovedBy by = MovedBy::player;
};

// What a move changes in a table's row (its seats change only with save_table).
struct TableProgress {
    std::string id;
    std::uint64_t revision = 0;  // the row's after this move (StoredTable::revision)
    TableStatus status = TableStatus::playing;
    std::uint64_t version = 0;
    std::optional<int> to_act;
    std::optional<UnixMs> deadline;
    std::string result;  // JSON text once finished; empty before
    // Status, deadline and result are those of the stored row: only version and to_act change,
    // and the indexes on the others are left alone (most moves of a table without a clock).
    bool turn_only = false;
};

inline TableProgress progress_of(const StoredTable& table) {
    TableProgress progress;
    progress.id = table.id;
    progress.revision = table.revision;
    progress.status = table.status;
    progress.version = table.version;
    progress.to_act = table.to_act;
    progress.deadline = table.deadline;
    progress.result = table.result;
    return progress;
}

// Writes a move's changes into a whole table row (the inverse of progress_of).
inline void set_progress(StoredTable& table, TableProgress progress) {
    table.revision = progress.revision;
    table.status = std::move(progress.status);
    table.version = progress.version;
    table.to_act = progress.to_act;
    table.deadline = progress.deadline;
    table.result = std::move(progress.result);
}

// A table with its whole move log, in order, and the end of its chat.
struct LoadedTable {
    StoredTable table;
    std::vector<StoredMove> moves;
    std::vector<StoredChatLine> chat;  // the latest kRecentChatLines not deleted, oldest first
    std::uint64_t chat_lines = 0;      // the highest line number given (deleted lines count)
};

// One of a user's tables for "my games".
struct UserTable {
    StoredTable table;
    int seat = 0;  // the user's seat
};

// An open invitation to a user: the table (waiting), the seat kept, who invited them and when.
struct StoredInvitation {
    StoredTable table;
    int seat = 0;
    std::uint64_t host = 0;
    std::string host_name;
    UnixMs at = 0;
};

// A user's finished game, for their profile: the table with its seats, the user's seat, and when
// it finished (its last move's time; its creation's for a game that ended without moves).
struct FinishedGame {
    StoredTable table;
    int seat = 0;
    UnixMs finished = 0;
};

// Which of a user's finished games to read: newest first, those finished before the cursor
// (finished earlier, or at the same time with a smaller table id), with the filters.
struct FinishedGamesQuery {
    std::uint64_t user = 0;
    UnixMs before = std::numeric_limits<UnixMs>::max();  // the cursor: the last game read
    std::string before_table;                            // with `before`; empty: none read yet
    int players = 0;                                     // 0: any
    std::string rules;                                   // empty: any
    std::optional<bool> rated;                           // nullopt: either
    bool unlisted = false;  // also the tables not listed in the lobby (the user's own view)
    std::size_t limit = 20;
};

// A finished game's result as a user's figures count it: its rules, the user's seat, the
// result's JSON text.
struct UserResult {
    std::string rules;
    int seat = 0;
    std::string result;
};

// The lobby's filter for public tables that are not finished.
struct TableFilter {
    int players = 0;         // 0: any
    std::string rules;       // empty: any
    bool open_only = false;  // waiting, with an open seat
    std::size_t limit = 200;
};

class TableStore {
  public:
    using TableDone = gcor::server::TableDone;
    virtual ~TableStore() = default;

    // --- Tables (writes are grouped) ---
    // Inserts the table or replaces it (with its seats); its moves stay. A conflict when the
    // stored row is not at the revision before `table.revision` (see StoredTable::revision).
    virtual void save_table(const StoredTable& table, TableDone done) = 0;
    // Removes a waiting table (its row and seats) at `revision` (0: at any); a table that started
    // stays.
    virtual void remove_table(const std::string& id, std::uint64_t revision, TableDone done) = 0;
    // Appends a move and updates the table's row (version, to_act, deadline, status, result) in
    // the same transaction: the hot path of every move. A conflict when the table has a move at
    // this version already, or its row is not at the revision before `table.revision`.
    virtual void append_move(const TableProgress& table, const StoredMove& move,
                             TableDone done) = 0;
    // Waits until every write queued so far has committed (or failed).
    virtual void flush() = 0;

    virtual std::optional<LoadedTable> load_table(const std::string& id) = 0;
    // The table and only its moves after version `after` (no chat): what another process added
    // to a table this one has in memory.
    virtual std::optional<LoadedTable> load_table_since(const std::string& id,
                                                        std::uint64_t after) = 0;
    virtual std::optional<StoredTable> find_table(const std::string& id) = 0;
    virtual std::vector<StoredTable> list_tables(const TableFilter& filter) = 0;
    // Ids of the tables with this status (the server loads the waiting ones at start).
    virtual std::vector<std::string> table_ids(TableStatus status) = 0;
    // Ids of unfinished tables whose deadline is at or before `now`: a playing table's turn, or
    // a waiting table's first invitation to expire.
    virtual std::vector<std::string> due_tables(UnixMs now) = 0;
    // Ids of playing tables whose deadline is after `from` and at or before `to`.
    virtual std::vector<std::string> deadlines_between(UnixMs from, UnixMs to) = 0;
    // The user's tables, unfinished first, newest first; at most `limit`.
    virtual std::vector<UserTable> tables_of(std::uint64_t user, std::size_t limit) = 0;
    // The user's open invitations (reserved seats at waiting tables), newest first; at most
    // `limit`.
    virtual std::vector<StoredInvitation> invitations_of(std::uint64_t user, std::size_t limit) = 0;
    virtual std::vector<FinishedGame> finished_games_of(const FinishedGamesQuery& query) = 0;
    // Every finished game's result of the user, for their figures.
    virtual std::vector<UserResult> results_of(std::uint64_t user) = 0;
    virtual std::uint64_t count_tables() = 0;
};
}  // namespace gcor::server
