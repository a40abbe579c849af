#pragma once
// A table's bots' side: when the seat to act is played by a bot (a bot's seat, or a person's who
// forfeited) its bot thinks (BotThinker) and the move is made once the table is ready, still at
// the version the bot thought about; after a change made elsewhere this process makes the bot's
// move only if the process that made the change did not in time; and a person's seat out of time
// gets the strong bot's move. Used on the table's strand; the table that owns it is kept alive by
// each piece of work (`owner`).
#include <chrono>
#include <functional>
#include <memory>

#include "gcor/store/store.hpp"
#include "tables/bot_thinker.hpp"
#include "tables/counted_status.hpp"
#include "tables/table_game.hpp"
#include "tables/table_seats.hpp"
#include "tables/turn_clock.hpp"

namespace gcor::server {

// What a table's bots ask of their table, on its strand.
class BotTable {
  public:
    virtual ~BotTable() = default;
    // Runs `work` now, or once the change being committed is stored.
    virtual void when_ready(std::function<void()> work) = 0;
    virtual bool retired() const = 0;
    // Makes `seat`'s move, a bot's (`by` bot) or a seat's out of time (`by` timeout).
    virtual void play_for(engine::Seat seat, const engine::Move& move, MovedBy by) = 0;
};

class TableBots {
  public:
    using Clock = std::chrono::steady_clock;
    using Owner = std::function<std::shared_ptr<void>()>;
    // A bot is to act after a change made elsewhere (by another server process, or before a
    // restart): the process that made it makes the bot's move, and if it has not after this
    // time (it died, or stopped), this one does. The store takes only one of two.
    static constexpr UnixMs kTakeoverMs = 3000;

    // Every reference outlives the part (the table holds them); `delay` comes before a bot's
    // move, so that people can follow it.
    TableBots(BotTable& table, Owner owner, BotThinker::Strand& strand,
              boost::asio::io_context& pool, std::chrono::milliseconds think_time,
              std::chrono::milliseconds delay, std::uint64_t seed, const CountedStatus& status,
              const TableSeats& seats, const TableGame& game, const TurnClock& clock)
        : table_(table),
          owner_(std::move(owner)),
          delay_(delay),
          status_(status),
          seats_(seats),
          game_(game),
          clock_(clock),
          thinker_(strand, pool, think_time, seed) {}

    // If a bot plays the seat to act, it moves after the delay.
    void schedule();
    // After a change made elsewhere at `changed_at`: the bot's move if it is still to make then.
    void take_over(UnixMs changed_at);
    // `seat` is out of time: the strong bot makes its move, unless the player moved meanwhile;
    // false when a bot is thinking about this version already.
    bool stand_in(engine::Seat seat);
    void cancel() { thinker_.cancel(); }

  private:
    // Asks a bot of `kind` for `seat`'s move: the bot thinks on the bots' pool from the seat's
    // view, and `then(move)` runs on the strand once the table is ready, no earlier than `due`,
    // and only if the table is still playing the version the bot thought about.
    void think(engine::Seat seat, engine::BotKind kind, Clock::time_point due,
               std::function<void(const engine::Move&)> then);

    BotTable& table_;
    const Owner owner_;
    const std::chrono::milliseconds delay_;
    const CountedStatus& status_;
    const TableSeats& seats_;
    const TableGame& game_;
    const TurnClock& clock_;
    BotThinker thinker_;
};

}  // namespace gcor::server
