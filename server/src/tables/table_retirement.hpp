#pragma once
// A table's retirement: when its copy in memory gives up its state and the lobby forgets it, so
// that the next request loads it from the store. A failed or refused commit (the followers then
// follow the table reloaded, each from a fresh snapshot), a close (nobody sits at a waiting table:
// removed from the store, the followers and the lobby see it closed), an unload when nobody used
// it for a while. It sees every piece of the table's work (when_ready), to know how long the
// table has been idle.
//
// Threading: everything on the table's strand; the reloaded table's followers are handed over on
// that table's strand (welcome).
#include <chrono>
#include <concepts>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tables/commit_pipeline.hpp"
#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/table_bots.hpp"
#include "tables/table_game.hpp"
#include "tables/table_news.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_views.hpp"
#include "tables/table_writes.hpp"

namespace gcor::server {

class Table;
class TableHost;

class TableRetirement final : public NewsTable {
  public:
    using Clock = std::chrono::steady_clock;
    // The parts of the table that retirement stops, asks and tells (each outlives this part).
    struct Parts {
        CommitPipeline& pipeline;
        TableWrites& writes;
        TableBots& bots;
        Followers& followers;
        TableViews& views;
        const CountedStatus& status;
        const TableSeats& seats;
        const TableGame& game;
    };

    // `table` is the one whose parts these are, as its host knows it (the host forgets that one
    // only); every reference outlives the part.
    TableRetirement(const std::string& table_id, const Table* table, TableHost& host, Parts parts)
        : table_id_(table_id),
          table_(table),
          host_(host),
          pipeline_(parts.pipeline),
          writes_(parts.writes),
          bots_(parts.bots),
          followers_(parts.followers),
          views_(parts.views),
          status_(parts.status),
          seats_(parts.seats),
          game_(parts.game) {}

    // Runs `work` now, or once the change being committed is stored; the table was used now.
    void when_ready(std::function<void()> work) override;
    // The same, with `work` made a std::function only when it waits (CommitPipeline::when_ready).
    template <std::invocable Callable>
    void when_ready(Callable&& work) {
        last_used_ = Clock::now();
        pipeline_.when_ready(std::forward<Callable>(work));
    }
    // The table was unloaded or its state was lost: requests ask the lobby again.
    bool retired() const { return pipeline_.retired(); }
    // Removed from the store: its summary says `closed`.
    bool closed() const { return closed_; }

    // Gives up the in-memory state after a failed commit, or one refused because another process
    // changed the table first (`conflict`): the store has the truth.
    void retire_after_failure(bool conflict) override;
    // The table is gone from the store (closed here or by another process): it retires, and its
    // followers and the lobby see it closed.
    void retire_closed() override;
    // A waiting table that nobody sits at any more: removed from the store, the lobby and memory;
    // `then(closed)` on the strand before the followers hear of it (false: it was not stored).
    void close(std::function<void(bool closed)> then);
    // Retires the table if nobody follows it, no bot is to move, and it has been idle for `idle`.
    void unload_if_idle(Clock::duration idle);
    // On the reloaded table: the followers of its retired copy follow it, each from a snapshot.
    void welcome(const std::vector<Followers::Viewer>& viewers);

  private:
    void retire();
    // The followers of a retired table follow the table reloaded from the store: a failed commit
    // must not cut them off from its later patches.
    void hand_viewers_over();

    const std::string& table_id_;
    const Table* const table_;
    TableHost& host_;
    CommitPipeline& pipeline_;
    TableWrites& writes_;
    TableBots& bots_;
    Followers& followers_;
    TableViews& views_;
    const CountedStatus& status_;
    const TableSeats& seats_;
    const TableGame& game_;
    bool closed_ = false;
    Clock::time_point last_used_ = Clock::now();
};

}  // namespace gcor::server
