#pragma once
// A table's bots at work: a bot thinks on the bots' pool from a seat's view (nothing of the table
// itself, so that the table goes on meanwhile), one thought per version of the game, and its move
// comes back on the table's strand no earlier than it is due (people follow a bot's moves); and
// the timer after which this process makes a bot's move that another one was to make. Used on
// the table's strand; the table that owns it is kept alive by each piece of work (`owner`).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/view.hpp"

namespace gcor::server {

class BotThinker {
  public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    using Clock = std::chrono::steady_clock;

    BotThinker(Strand& strand, boost::asio::io_context& pool, std::chrono::milliseconds think_time,
               std::uint64_t seed)
        : strand_(strand), pool_(pool), think_time_(think_time), timer_(strand), rng_(seed) {}

    bool thinking_about(std::uint64_t version) const { return thinking_for_ == version; }
    // A bot of `kind` thinks of a move from `view` (the game at `version`); `then(move)` runs on
    // the strand no earlier than `due`. Nothing when it is thinking about that version already.
    void think(std::shared_ptr<void> owner, engine::View view, engine::BotKind kind,
               std::uint64_t version, Clock::time_point due,
               std::function<void(const engine::Move&)> then);
    // `then` on the strand after `delay`, unless cancelled or another wait replaced it.
    void after(std::shared_ptr<void> owner, Clock::duration delay, std::function<void()> then);
    void cancel() { timer_.cancel(); }

  private:
    Strand& strand_;
    boost::asio::io_context& pool_;
    const std::chrono::milliseconds think_time_;  // the strong bot's, per move
    boost::asio::steady_timer timer_;
    engine::Rng rng_;
    // The version a bot is thinking about (one at a time: the deadline sweep and the bot's own
    // schedule may both ask).
    std::optional<std::uint64_t> thinking_for_;
};

}  // namespace gcor::server
