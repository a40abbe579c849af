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
#include <string>
#include <string_view>

#include "gcor/store/account_store.hpp"
#include "gcor/store/analysis_store.hpp"
#include "gcor/store/chat_store.hpp"
#include "gcor/store/league_store.hpp"
#include "gcor/store/mail_store.hpp"
#include "gcor/store/social_store.hpp"
#include "gcor/store/store_basics.hpp"
#include "gcor/store/table_store.hpp"

namespace gcor::server {

// What another server process sharing the database changed, heard once it committed (see
// Store::listen). Only what deciding who must hear of it needs; the rest is read from the store.
struct StoreNews {
    enum class Kind : std::uint8_t {
        table,        // the table's row: created, changed (a move, seats, a deadline) or removed
        chat,         // a chat line written (`chat_line`) or deleted (`chat_deleted`)
        vacation,     // `user`'s vacations
        blocks,       // whom `user` blocked
        preferences,  // `user`'s preferences
        missed,       // news may have been lost (the listening connection was down): check all
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
    std::uint64_t user = 0;  // whose vacations, blocks or preferences
    // A row changed by one move: that move, as the store announced it, empty otherwise. Read
    // (read_move_news) only where the table is held, so that other processes skip it unread.
    std::string move;
};

// The move of a table's news (StoreNews::move); nullopt when it is not one the store writes.
std::optional<StoredMove> read_move_news(std::string_view move);

// Everything the server keeps, an interface per concern. Accounts, chat, mail, leagues, friends,
// blocks and game reviews are written once for both databases (src/sql_*_store.cpp), and each
// backend inherits them: their interfaces are virtual bases, so that an implementation of one is
// the final overrider of its methods in the backend's class. Tables, the hot path, are each
// backend's own.
class Store : public virtual AccountStore,
              public virtual ChatStore,
              public virtual MailStore,
              public virtual LeagueStore,
              public virtual SocialStore,
              public virtual AnalysisStore,
              public TableStore {
  public:
    using Done = StoreDone;
    using TableDone = gcor::server::TableDone;

    // --- Several processes on one database ---
    // From now on, `on_news` hears of every change to a table, its chat, a user's vacations,
    // blocks or preferences that another process committed, on a thread of the store's (so it must
    // only post work elsewhere); an empty one stops listening, after which the last is never called
    // again. A store that no other process can share (SQLite) has no news: it never calls it.
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
