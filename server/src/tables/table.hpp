#pragma once
// One table: its seats, its game and its viewers. Everything that touches a table runs on the
// table's own strand, so a table needs no lock and tables run in parallel.
//
// Every change is stored before anybody hears of it: while a change is being committed the table
// answers nothing and holds later requests back (`when_ready`), then sends the acks and patches
// of the committed change. A table whose commit failed, or that nobody used for a while, retires:
// the lobby forgets it, and the next request loads it again from the store.
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <concepts>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/game.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/store/store.hpp"
#include "metrics.hpp"
#include "net/peer.hpp"
#include "tables/commit_pipeline.hpp"
#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/recheck.hpp"
#include "tables/stored_game.hpp"
#include "tables/stored_seats.hpp"
#include "tables/table_account_changes.hpp"
#include "tables/table_bots.hpp"
#include "tables/table_chat.hpp"
#include "tables/table_game.hpp"
#include "tables/table_invitations.hpp"
#include "tables/table_news.hpp"
#include "tables/table_play.hpp"
#include "tables/table_record.hpp"
#include "tables/table_refusals.hpp"
#include "tables/table_retirement.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_services.hpp"
#include "tables/table_turn.hpp"
#include "tables/table_views.hpp"
#include "tables/table_writes.hpp"
#include "tables/turn_clock.hpp"

namespace gcor::server {

namespace net = boost::asio;

class Table;

// What looking for a table found: the table; or none (nullptr), and then `unreadable` when the
// store could not be read.
struct FoundTable {
    std::shared_ptr<Table> table;
    bool unreadable = false;
};
using OnFound = std::function<void(FoundTable)>;

// What a table tells the one that holds its tables (the lobby), without knowing it.
class TableHost {
  public:
    virtual ~TableHost() = default;
    // The table retired (unloaded, or its commit failed): it is to be loaded again when asked for.
    virtual void forget(const std::string& id, const Table* table) = 0;
    // Any thread: the table as the store has it, loaded again if needed, then `found(table)`: at
    // once on this thread when it is in memory, else on the blocking pool once loaded (one load
    // per table at a time: those asking meanwhile wait for it and are answered in order). Never
    // called under the host's lock; `found` must not block (it posts to a strand).
    virtual void find(const std::string& id, OnFound found) = 0;
    // The table's summary changed; `summary()` is made only if somebody is to hear of it.
    virtual void publish(bool is_public, const std::function<protocol::Json()>& summary) = 0;
};

class Table : public std::enable_shared_from_this<Table>, private SavingTable {
  public:
    using Strand = net::strand<net::io_context::executor_type>;
    using Clock = std::chrono::steady_clock;

    // A new table that `creator` made; store it with `save` before using it.
    static std::shared_ptr<Table> create(net::io_context& io, const TableServices& services,
                                         TableHost& host, std::string id,
                                         const protocol::TableSettings& settings,
                                         std::uint64_t seed, std::uint64_t creator);
    // A stored table with its moves replayed; nullptr (logged) when the stored data is not a game
    // this engine can replay.
    static std::shared_ptr<Table> restore(net::io_context& io, const TableServices& services,
                                          TableHost& host, LoadedTable loaded);

    const std::string& id() const { return record_.id(); }
    Strand& strand() { return strand_; }

    // On the strand: runs `work` now, or once the change being committed is stored (only then is
    // it made a std::function).
    template <std::invocable Callable>
    void when_ready(Callable&& work) {
        retirement_.when_ready(std::forward<Callable>(work));
    }
    // On the strand: the table was unloaded or its state was lost; ask the lobby again.
    bool retired() const { return pipeline_.retired(); }

    // On the strand: stores the table as it is now (seats, status) at its next revision, a new
    // table first of all; then `then(ok)` on the strand (after a failure or a conflict the table
    // has retired: see writes_.last()).
    void save(std::function<void(bool ok)> then) override;

    // Requests, each called on the strand when ready; replies go to `peer`. A refusal on what
    // another process may have changed waits for a read of the store while `recheck` allows.
    void sit(const std::shared_ptr<Peer>& peer, const User& user,
             const protocol::requests::Sit& request, Recheck& recheck);
    void leave(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::requests::Leave& request, Recheck& recheck);
    void start(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::requests::Start& request, Recheck& recheck);
    // watch and sync: follow the table (as the user's seat, or as a spectator) and get its state.
    void watch(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::requests::Watch& request, Recheck& recheck);
    // A move, or an undo: a change that the user's seat makes.
    void move(const std::shared_ptr<Peer>& peer, const User& user,
              const protocol::requests::Change& request, Clock::time_point arrived,
              Recheck& recheck);
    // A page of the table's whole log as the user's seat (or a spectator) may read it, replayed
    // from the stored moves on the blocking pool.
    void log(const std::shared_ptr<Peer>& peer, const User& user,
             const protocol::requests::Log& request, Recheck& recheck);
    // The table's parts that answer requests and changes of their own, on the strand when the
    // table is ready, like the table's own: its chat (chat, chat_history, delete_chat), its
    // invitations (reserved before the first save; decline, withdraw), what its players' account
    // changes do to it (the lobby's), its retirement (the lobby's idle sweep) and its game in
    // progress (the lobby's deadline sweep: on_deadline).
    TableChat& chat() { return chat_; }
    TableInvitations& invitations() { return invitations_; }
    TableAccountChanges& account_changes() { return account_changes_; }
    TableRetirement& retirement() { return retirement_; }
    TablePlay& play() { return play_; }
    // On the strand: reads the table's changes from the store (off the strand) and applies them,
    // then runs `then` on the strand, the table ready (retired, perhaps: it reloaded). For a
    // request that a copy behind the store may have refused wrongly (Recheck).
    void reread(std::function<void()> then);
    // A slow reader missed messages: send it the table's state again.
    void resend_state(const std::shared_ptr<Peer>& peer);
    // Another server process sharing the database changed the table or its chat (news_reader.hpp,
    // table_news.cpp): the table reads the change from the store and tells its followers as if it
    // were its own. Any thread.
    void on_news(const StoreNews& news);

    // Tells the lobby's subscribers the table's summary (on the strand).
    void publish() { views_.publish(); }
    // The table as the lobby lists it (on the strand).
    protocol::Json summary() const;

  private:
    Table(net::io_context& io, const TableServices& services, TableHost& host, StoredGame record);

    StoredTable stored() const;

    const TableServices services_;
    Strand strand_;
    // The table as stored, without its moves: the parts that never change (id, creation,
    // settings, seed, nonce and commitment; its seats and progress are the members below).
    const StoredGame record_;
    const protocol::TableSettings& settings_;  // record_'s
    const std::string id_json_;                // the id as a JSON string, quoted
    CountedStatus status_;
    TableSeats seats_;
    TableGame game_;  // the game, its version, the latest events and move ids
    // Writes, the work they hold back, reads of the news, the rows awaited, retirement.
    CommitPipeline pipeline_{CommitPipeline::Stage::ready};
    TableWrites writes_;      // the row's revision, and each write through the pipeline
    TableRefusals refusals_;  // the error replies, those that wait for a read of the store
    TurnClock clock_;         // the seat to act's deadline, with a time control
    Followers followers_;
    TableChat chat_;
    TableViews views_;  // the state sent whole: snapshots, summaries, messages to all
    TableTurn turn_;    // a turn's start: its deadline, its player told
    TableBots bots_;    // the seats that bots play: their moves, the takeovers, the stand-ins
    // When the table gives up its state: a failed commit, a close, an unload when idle.
    TableRetirement retirement_;
    // Other processes' news: what to apply at once, what to read, when to reload.
    TableNews news_;
    TableInvitations invitations_;
    TableAccountChanges account_changes_;
    TablePlay play_;  // the game in progress: its start, its moves, its deadline
};

}  // namespace gcor::server
