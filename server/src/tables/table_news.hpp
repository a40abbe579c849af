#pragma once
// A table's news side: what it does when another server process sharing the database changed it.
// Its news reader (news_reader.hpp) decides what to read and apply; this reads the store, applies
// the moves and tells the followers as the table would have told them of its own change, keeps
// the row's revision and deadline in step, and has the table reload when more than moves changed.
// Used on the table's strand; the table that owns it is kept alive by each read (`owner`).
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "tables/commit_pipeline.hpp"
#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/news_reader.hpp"
#include "tables/table_bots.hpp"
#include "tables/table_game.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_services.hpp"
#include "tables/table_turn.hpp"
#include "tables/table_views.hpp"
#include "tables/table_writes.hpp"
#include "tables/turn_clock.hpp"

namespace gcor::server {

class TableHost;

// What the news side asks of its table, on its strand (TableRetirement answers).
class NewsTable {
  public:
    virtual ~NewsTable() = default;
    // Runs `work` now, or once the table's own change being committed is stored.
    virtual void when_ready(std::function<void()> work) = 0;
    // Gives up the in-memory state (`conflict`: another process changed the table first); the
    // followers follow the table reloaded.
    virtual void retire_after_failure(bool conflict) = 0;
    // The table is gone from the store: it retires, its followers and the lobby see it closed.
    virtual void retire_closed() = 0;
};

class TableNews final : public NewsTarget {
  public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    using Owner = std::function<std::shared_ptr<void>()>;
    // The parts of the table the news change and tell (each outlives this part).
    struct Parts {
        CountedStatus& status;
        TableGame& game;
        const TableSeats& seats;
        TurnClock& clock;
        Followers& followers;
        TableWrites& writes;
        TableTurn& turn;
        TableBots& bots;
        CommitPipeline& pipeline;
        ChatNews& chat;
        TableViews& views;
    };

    // `id` and `id_json` (quoted) are the table's; every reference outlives the part.
    TableNews(NewsTable& table, Owner owner, const std::string& id, const std::string& id_json,
              const TableServices& services, TableHost& host, Strand& strand, Parts parts);

    // Another process's news, on the strand.
    void on_news(const StoreNews& news) { reader_.on_news(news); }
    // Reads the store, then runs `then` (the table ready; retired, perhaps, as it reloaded).
    void reread(std::function<void()> then) { reader_.reread(std::move(then)); }

    // What the news reader asks (news_reader.hpp).
    Copy news_copy() const override;
    bool seated_as(const std::vector<StoredSeat>& seats) const override;
    void when_ready(std::function<void()> work) override { table_.when_ready(std::move(work)); }
    void read_since(std::uint64_t version, OnRead done) override;
    // Logged, and the table retires, when the engine refuses it.
    bool apply_stored_change(const StoredMove& change) override;
    void in_step(const InStep& row) override;
    // Tells the lobby, and the player whose turn the change began, too.
    void reload(const StoredTable& row) override;
    void retire_closed() override { table_.retire_closed(); }

  private:
    NewsTable& table_;
    const Owner owner_;
    const std::string& id_;
    const std::string& id_json_;
    const TableServices& services_;
    TableHost& host_;
    Strand& strand_;
    CountedStatus& status_;
    TableGame& game_;
    const TableSeats& seats_;
    TurnClock& clock_;
    Followers& followers_;
    TableWrites& writes_;
    TableTurn& turn_;
    TableBots& bots_;
    TableViews& views_;
    NewsReader reader_;
};

}  // namespace gcor::server
