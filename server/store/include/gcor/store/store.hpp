#pragma once
// What the server keeps across restarts: users, sessions, tables and their move logs. The server
// talks to this interface only, so that another backend (PostgreSQL, for several processes) can
// replace the embedded SQLite one (sqlite_store.hpp).
//
// Reads are synchronous and may be called from any thread. Writes are queued and committed in
// groups; each write's `Done` runs once its transaction has committed (`ok`) or failed, on the
// store's own thread, so it must only post work elsewhere. Writes commit in the order they were
// queued.
//
// Several server processes may share one database (PostgreSQL): a table's writes then name the
// revision of its row that they change, so that the database refuses a change made on a table
// another process changed first (`Written::conflict`), and each process hears of the others'
// changes (`listen`).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gcor/store/user.hpp"

namespace gcor::server {

// What a store throws when it cannot read or write (a full disk, an I/O error): the request that
// needed it is refused with storage_failed and nothing has changed.
struct StorageFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// How a table's write ended: committed, failed (the database could not write it), or refused
// because the table's stored row is no longer the one the write was made on (another process
// changed the table first, or removed it).
enum class Written : std::uint8_t { committed, failed, conflict };

// Milliseconds since the Unix epoch: what the store keeps for every time.
using UnixMs = std::int64_t;
UnixMs unix_now_ms();

struct StoredUser {
    std::uint64_t id = 0;
    std::string name;
    bool guest = true;
    std::string password_hash;  // argon2id string (crypto_pwhash_str); empty for a guest
    std::string webhook;        // URL called when it becomes the user's turn; empty: none
    UnixMs created = 0;
};

// A time a user is away (docs/protocol.md, "Vacations"): from `starts` until `ends`, excluded.
struct StoredVacation {
    UnixMs starts = 0;
    UnixMs ends = 0;

    bool operator==(const StoredVacation&) const = default;
};

struct UserVacation {
    std::uint64_t user = 0;
    StoredVacation vacation;

    bool operator==(const UserVacation&) const = default;
};

// Turned into text only by a store's own code (SQLite keeps "waiting", "playing", "finished").
enum class TableStatus : std::uint8_t { waiting, playing, finished };
enum class SeatKind : std::uint8_t { open, human, bot };
// Who made a stored move: the seat's player, its bot, or a bot for a seat out of time.
enum class MovedBy : std::uint8_t { player, bot, timeout };
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

// A line of a table's chat. Numbers count from 1 per table; a deleted line keeps its number.
struct StoredChatLine {
    std::uint64_t n = 0;
    std::uint64_t user = 0;
    std::string name;         // the user's name when they wrote it
    std::optional<int> seat;  // the writer's seat then; nullopt: a spectator
    std::string text;
    UnixMs at = 0;

    bool operator==(const StoredChatLine&) const = default;
};

// What another server process sharing the database changed, heard once it committed (see
// Store::listen). Only what deciding who must hear of it needs; the rest is read from the store.
struct StoreNews {
    enum class Kind : std::uint8_t {
        table,     // the table's row: created, changed (a move, seats, a deadline) or removed
        move,      // a move stored (`move`); its row's news follows
        chat,      // a chat line written (`chat_line`) or deleted (`chat_deleted`)
        vacation,  // `user`'s vacations
        missed,    // news may have been lost (the listening connection was down): check all
    };
    Kind kind = Kind::table;
    std::string table;
    bool removed = false;        // the row is gone (a waiting table closed)
    std::uint64_t revision = 0;  // the row's, after the change
    std::uint64_t version = 0;
    TableStatus status = TableStatus::waiting;
    bool is_public = false;
    bool listing_changed = false;  // what the lobby shows may have changed (not a mere move)
    bool turn_changed = false;     // another seat is to act now, or the game began or ended
    std::optional<int> to_act;
    std::uint64_t to_act_user = 0;  // the seat's human, 0 for a bot or an open seat
    std::optional<UnixMs> deadline;
    std::uint64_t chat_line = 0;
    bool chat_deleted = false;
    std::uint64_t user = 0;  // whose vacations
    StoredMove move;
};

// The chat lines a loaded table keeps at hand: what a snapshot carries.
constexpr std::size_t kRecentChatLines = 50;

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

// The lobby's filter for public tables that are not finished.
struct TableFilter {
    int players = 0;         // 0: any
    std::string rules;       // empty: any
    bool open_only = false;  // waiting, with an open seat
    std::size_t limit = 200;
};

// --- Leagues and ratings (docs/leagues.md) ---

struct StoredLeague {
    std::uint64_t id = 0;
    std::string name;
    User organizer;
    // JSON text: options, time control, division size, games per pairing, points, promote,
    // relegate; the store keeps it, the server reads it.
    std::string settings;
    UnixMs created = 0;
};

struct StoredSeason {
    std::uint64_t league = 0;
    int number = 0;      // 1, 2, ...
    std::string status;  // "signup", "playing" or "finished"
    UnixMs opened = 0;
    std::optional<UnixMs> started;
    std::optional<UnixMs> finished;
    std::string final_table;  // JSON text once finished: standings, promotions, relegations
};

// A player signed up for a season, with the division the start put them in.
struct SeasonMember {
    User user;
    UnixMs signed_up = 0;
    int tier = 0;  // 0 until the season starts; 1 is the top division
};

// One of a season's tables, as stored.
struct SeasonTable {
    int tier = 0;
    StoredTable table;
};

// A season a user signed up for.
struct UserSeason {
    StoredLeague league;
    int season = 0;
    std::string status;  // the season's
    int tier = 0;        // 0 until the season starts
};

// A rating as it stands.
struct StoredRating {
    User user;
    double value = 0;
    int games = 0;
};

// What one rated game did to one player's rating.
struct RatingChange {
    std::uint64_t user = 0;
    std::string table;
    UnixMs at = 0;
    double before = 0;
    double after = 0;
    int games = 0;  // the player's rated games, this one included
    int place = 0;
    int players = 0;
};

class LeagueStore {
  public:
    using Done = std::function<void(bool ok)>;
    virtual ~LeagueStore() = default;

    // Synchronous: rare, and the caller needs the answer. nullopt when the name is taken
    // (names compare case-insensitively).
    virtual std::optional<StoredLeague> create_league(const std::string& name,
                                                      std::uint64_t organizer,
                                                      const std::string& settings) = 0;
    virtual std::vector<StoredLeague> leagues() = 0;
    virtual std::optional<StoredLeague> league(std::uint64_t id) = 0;
    virtual std::vector<StoredSeason> seasons(std::uint64_t league) = 0;
    virtual std::optional<StoredSeason> season(std::uint64_t league, int number) = 0;
    // A new season open for sign-up.
    virtual void open_season(std::uint64_t league, int number) = 0;
    // false when the user had signed up already (sign_up) or had not (withdraw).
    virtual bool sign_up(std::uint64_t league, int number, std::uint64_t user) = 0;
    virtual bool withdraw(std::uint64_t league, int number, std::uint64_t user) = 0;
    // In sign-up order.
    virtual std::vector<SeasonMember> members(std::uint64_t league, int number) = 0;
    // The start, in one transaction: each member's division, every table with its seats, and
    // the season's status.
    virtual void start_season(std::uint64_t league, int number,
                              const std::vector<SeasonMember>& members,
                              const std::vector<SeasonTable>& tables, Done done) = 0;
    virtual std::vector<SeasonTable> season_tables(std::uint64_t league, int number) = 0;
    // The end, in one transaction: the final table kept, and the next season open for sign-up.
    virtual void finish_season(std::uint64_t league, int number,
                               const std::string& final_table) = 0;
    // The seasons a user signed up for, newest first.
    virtual std::vector<UserSeason> seasons_of(std::uint64_t user, std::size_t limit) = 0;

    // Finished rated tables whose ratings are not stored yet, in the order they finished.
    virtual std::vector<std::string> unrated_tables() = 0;
    // nullopt for a player with no rated game yet.
    virtual std::optional<StoredRating> rating(std::uint64_t user) = 0;
    // One rated game's changes, in one transaction; a table is rated at most once.
    virtual void save_ratings(const std::vector<RatingChange>& changes, Done done) = 0;
    // Best first.
    virtual std::vector<StoredRating> leaderboard(std::size_t limit) = 0;
    // Newest first.
    virtual std::vector<RatingChange> rating_history(std::uint64_t user, std::size_t limit) = 0;
};

// --- E-mail (docs/protocol.md, "E-mail") ---

// How often a user wants mail about their turns: each time, one digest a day, or never.
enum class MailFrequency : std::uint8_t { each_turn, daily, off };
void to_json(nlohmann::ordered_json&, MailFrequency) = delete;

struct StoredEmail {
    std::uint64_t user = 0;
    std::string address;
    bool confirmed = false;
    MailFrequency frequency = MailFrequency::each_turn;
    std::optional<UnixMs> digest_due;  // daily: when the next digest is due
    std::string language = "en";       // of the mails: "en" or "de"
};

enum class MailKind : std::uint8_t { confirm, turn, digest, reminder, season };

// A mail waiting in the queue (docs/operations.md, "E-mail").
struct QueuedMail {
    std::uint64_t id = 0;  // given by the store
    std::string key;       // a mail with a key that was ever queued is not queued again
    MailKind kind = MailKind::turn;
    std::uint64_t user = 0;
    std::string recipient;
    std::string message;  // the whole message: headers, a blank line, the body
    // Turn and reminder mails: sent only while it is still this seat's turn at this version.
    std::string table;
    int seat = 0;
    std::uint64_t version = 0;
    UnixMs due = 0;
    int attempts = 0;  // failed so far

    bool operator==(const QueuedMail&) const = default;
};

// What became of a mail taken from the queue.
enum class MailOutcome : std::uint8_t { sent, dropped, failed };

class MailStore {
  public:
    using Done = std::function<void(bool ok)>;
    virtual ~MailStore() = default;

    // Synchronous: rare, and the caller needs the answer.
    virtual std::optional<StoredEmail> email_of(std::uint64_t user) = 0;
    // A new address, not confirmed until `confirm_email` with the token whose hash this is; the
    // frequency stays (each_turn for a first address).
    virtual void set_email(std::uint64_t user, const std::string& address,
                           const std::string& token_hash, UnixMs token_expires) = 0;
    virtual void remove_email(std::uint64_t user) = 0;
    // Confirms the address waiting for this token if the token has not expired at `now`; the
    // token is used up. The user, or nullopt.
    virtual std::optional<std::uint64_t> confirm_email(const std::string& token_hash,
                                                       UnixMs now) = 0;
    virtual void set_mail_frequency(std::uint64_t user, MailFrequency frequency,
                                    std::optional<UnixMs> digest_due) = 0;
    // The language of the user's mails ("en", "de"); nothing for a user without an address.
    virtual void set_mail_language(std::uint64_t user, const std::string& language) = 0;
    // Confirmed addresses whose daily digest is due at `now`.
    virtual std::vector<StoredEmail> digests_due(UnixMs now) = 0;

    // Queues a mail unless one with its key was ever queued (grouped like moves); `done(true)`
    // in both cases once committed.
    virtual void queue_mail(const QueuedMail& mail, Done done) = 0;
    // Takes up to `limit` mails waiting whose time has come at `now`, earliest first, for
    // sending: each is kept from every other taker (another process sharing the database) until
    // `kept_until`, its new `due`, by when its taker has ended or retried it (or died, and then
    // another takes it).
    virtual std::vector<QueuedMail> take_due_mails(UnixMs now, std::size_t limit,
                                                   UnixMs kept_until) = 0;
    // The time of the next mail waiting, if any.
    virtual std::optional<UnixMs> next_mail_due() = 0;
    // A mail taken from the queue ended (sent, dropped, or given up) at `at`.
    virtual void end_mail(std::uint64_t id, MailOutcome outcome, UnixMs at) = 0;
    // A mail's attempt failed: it waits until `retry_at`.
    virtual void retry_mail(std::uint64_t id, UnixMs retry_at) = 0;
    // Forgets mails that ended before `before`; returns how many.
    virtual std::size_t forget_mails(UnixMs before) = 0;

    // A secret of the server's: the one stored under `name`, or else `if_new`, which is stored.
    virtual std::string secret(const std::string& name, const std::string& if_new) = 0;
};

// Everything the server keeps: users, sessions, tables, mails, and (from LeagueStore) leagues and
// ratings.
class Store : public LeagueStore, public MailStore {
  public:
    using Done = LeagueStore::Done;
    using TableDone = std::function<void(Written)>;

    // --- Users and sessions (synchronous: rare, and the caller needs the answer) ---
    // A registered user; nullopt when a registered user has this name already (names compare
    // case-insensitively).
    virtual std::optional<StoredUser> create_user(const std::string& name,
                                                  const std::string& password_hash) = 0;
    virtual StoredUser create_guest(const std::string& name) = 0;
    // A registered user by name (case-insensitive); guests are never found by name.
    virtual std::optional<StoredUser> user_by_name(const std::string& name) = 0;
    virtual std::optional<StoredUser> user_by_id(std::uint64_t id) = 0;
    virtual void set_webhook(std::uint64_t user, const std::string& url) = 0;
    // Everybody's vacations that end after `after`, by user, then oldest first.
    virtual std::vector<UserVacation> vacations_ending_after(UnixMs after) = 0;
    // In one transaction: the user's vacations that end after `after` are replaced by
    // `vacations` (which may be none). Declaring, changing and ending a vacation are all this.
    virtual void replace_vacations(std::uint64_t user, UnixMs after,
                                   const std::vector<StoredVacation>& vacations) = 0;
    // Tokens are kept only as hashes.
    virtual void add_session(const std::string& token_hash, std::uint64_t user, UnixMs expires) = 0;
    // The session's user; nullopt when the token is unknown or expired at `now`.
    virtual std::optional<StoredUser> session_user(const std::string& token_hash, UnixMs now) = 0;
    virtual void remove_session(const std::string& token_hash) = 0;
    // Forgets sessions expired before `now`; returns how many.
    virtual std::size_t remove_expired_sessions(UnixMs now) = 0;

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
    // Ids of playing tables whose deadline is at or before `now`.
    virtual std::vector<std::string> due_tables(UnixMs now) = 0;
    // Ids of playing tables whose deadline is after `from` and at or before `to`.
    virtual std::vector<std::string> deadlines_between(UnixMs from, UnixMs to) = 0;
    // The user's tables, unfinished first, newest first; at most `limit`.
    virtual std::vector<UserTable> tables_of(std::uint64_t user, std::size_t limit) = 0;
    virtual std::uint64_t count_tables() = 0;

    // --- Chat (docs/protocol.md, "Chat") ---
    // A new line of a table's chat (grouped like moves).
    virtual void append_chat(const std::string& table, const StoredChatLine& line, Done done) = 0;
    // Deletes a line's text for everyone; its number stays taken. `done(false)` also when the
    // write failed; a line that does not exist changes nothing.
    virtual void delete_chat(const std::string& table, std::uint64_t n, Done done) = 0;
    // Up to `limit` lines not deleted, numbered below `before` (nullopt: the newest), oldest
    // first.
    virtual std::vector<StoredChatLine> chat_lines(const std::string& table,
                                                   std::optional<std::uint64_t> before,
                                                   std::size_t limit) = 0;
    // Synchronous: whom a user muted (their lines never reach the user), by user id.
    virtual void set_muted(std::uint64_t user, std::uint64_t other, bool muted) = 0;
    virtual std::vector<std::uint64_t> muted_by(std::uint64_t user) = 0;

    // --- Several processes on one database ---
    // From now on, `on_news` hears of every change to a table, its chat or a user's vacations
    // that another process committed, on a thread of the store's (so it must only post work
    // elsewhere); an empty one stops listening, after which the last is never called again. A store
    // that no other process can share (SQLite) has no news: it never calls it.
    virtual void listen(std::function<void(const StoreNews&)> on_news) { (void)on_news; }
    // Whether other processes may change its tables (PostgreSQL): a table's copy in memory may
    // then be behind the store, by as long as news take to come.
    virtual bool shared() const { return false; }
};

struct SqliteOptions {
    std::string path;  // the database file; its folder is created when missing
    // Writes queued within this window are committed in one transaction; 0 commits each write
    // queue as soon as the previous commit ended (still grouping what arrived meanwhile).
    int group_commit_ms = 0;
    // false: one transaction per write (for benchmarks that measure what grouping gains).
    bool group_commits = true;
    // When set, called on the writer thread after each committed transaction with its time from
    // BEGIN to the end of COMMIT (the sync included) and the number of writes it held.
    std::function<void(std::chrono::nanoseconds, std::size_t writes)> on_commit = {};
    // When set, called on the writer thread after each transaction that failed (its writes are
    // refused), with SQLite's reason. The next on_commit means writing works again: while failing
    // and idle the store tries a small write every 5 seconds.
    std::function<void(const std::string& error)> on_failure = {};
};

// The embedded store: one SQLite file in WAL mode with synchronous=FULL, schema migrations applied
// when opened. Throws std::runtime_error with a readable reason when the file cannot be opened or
// migrated.
std::unique_ptr<Store> open_sqlite_store(const SqliteOptions& options);

}  // namespace gcor::server
