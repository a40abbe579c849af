#pragma once
// A table of four connections with one move in flight, in a closed loop or on a fixed schedule;
// what each worker thread measures. The game and the calibration drive tables this way.
#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "loadgen/common.hpp"
#include "loadgen/connection.hpp"

namespace gcor::loadgen {

// What one worker thread measured.
struct Tally {
    Histogram latency;
    SizeCounts patch_bytes;
    SizeCounts operation_bytes;  // games: the RFC 6902 operations of each patch
    std::uint64_t moves = 0;     // all, measuring or not
    std::uint64_t invalid_games = 0;
    std::uint64_t errors = 0;
    std::uint64_t verified_patches = 0;
    Clock::duration longest_stall{};    // the longest a table went without a completed move
    std::vector<std::string> problems;  // the first few, for the report

    void problem(std::string text) {
        if (problems.size() < 10) problems.push_back(std::move(text));
    }
    void merge(const Tally& other) {
        latency.merge(other.latency);
        patch_bytes.merge(other.patch_bytes);
        operation_bytes.merge(other.operation_bytes);
        moves += other.moves;
        invalid_games += other.invalid_games;
        errors += other.errors;
        verified_patches += other.verified_patches;
        longest_stall = std::max(longest_stall, other.longest_stall);
        for (const std::string& text : other.problems)
            problem(text);
    }
};

struct Pacing {
    Clock::duration interval{};  // between two moves of one table; zero: closed loop
};

// Shared by the game and calibration drivers: four connections, one move in flight, a move is
// complete when all four connections received its patch (in a game, the mover's patch carries the
// move's id: its acknowledgement).
class TableDriver {
  public:
    TableDriver(net::io_context& io, Shared& shared, Tally& tally, const Options& options,
                Pacing pacing, std::uint64_t index)
        : io_(io),
          shared_(shared),
          tally_(tally),
          options_(options),
          pacing_(pacing),
          index_(index),
          rng_(options.seed * 1'000'003 + index),
          timer_(io) {}
    virtual ~TableDriver() = default;

    // Opens the four connections: all on node index % n, or (`spread_seats`) seat s on node
    // (index + s) % n.
    void start(const std::vector<tcp::endpoint>& nodes, bool spread_seats) {
        nodes_ = &nodes;
        for (int s = 0; s < kSeats; ++s) {
            const auto offset = spread_seats ? static_cast<std::uint64_t>(s) : 0;
            node_[static_cast<std::size_t>(s)] = (index_ + offset) % nodes.size();
            open_seat(s, [this, s](bool ok) {
                if (!ok) return tally_.problem(seat_name(s) + ": " + seat(s).error);
                if (++open_seats_ == kSeats) on_open();
            });
        }
    }

    // The time since the last completed move (or since `from`, if later) until `until`; zero
    // before the table's first move (its first game being set up is not a stall).
    Clock::duration stall_until(Clock::time_point from, Clock::time_point until) const {
        if (last_done_ == Clock::time_point{}) return {};
        return until - std::max(last_done_, from);
    }

  protected:
    // Seat s's connection was closed by its node: a new one to the next node, then `opened`. A
    // node that is down refuses at once: a few rounds over the nodes, then give up.
    void reconnect(int s, std::function<void()> opened, int attempt = 0) {
        auto& node = node_[static_cast<std::size_t>(s)];
        node = (node + 1) % nodes_->size();
        open_seat(s, [this, s, attempt, opened = std::move(opened)](bool ok) {
            if (ok) return opened();
            if (shared_.stopping) return;
            // Not a failed connection of the run: that node is down.
            shared_.failed_connections.fetch_sub(1, std::memory_order_relaxed);
            if (attempt + 1 >= 4 * static_cast<int>(nodes_->size()))
                return tally_.problem(seat_name(s) + ": no node to reconnect to");
            auto retry = std::make_shared<net::steady_timer>(io_, 250ms);
            retry->async_wait([this, s, attempt, opened, retry](beast::error_code ec) {
                if (!ec && !shared_.stopping) reconnect(s, opened, attempt + 1);
            });
        });
    }

    virtual void on_open() = 0;
    virtual void on_message(int seat, std::string_view text, Clock::time_point at) = 0;
    // Sends the next move now; `intended` is when it should have left.
    virtual void send_move() = 0;
    // Seat s's connection was closed by the server (a node died): the calibration has one node.
    virtual void on_closed(int /*seat*/) {}

    Connection& seat(int s) { return *seats_[static_cast<std::size_t>(s)]; }
    std::string seat_name(int s) const {
        return "table " + std::to_string(index_) + " seat " + std::to_string(s);
    }

    // Opens seat s's connection to its node; `done` says whether it opened.
    void open_seat(int s, std::function<void(bool)> done) {
        auto& slot = seats_[static_cast<std::size_t>(s)];
        if (slot) retired_.push_back(std::move(slot));  // its handlers may still be pending
        slot = std::make_unique<Connection>(io_, shared_);
        slot->on_close([this, s] { on_closed(s); });
        slot->open(
            (*nodes_)[node_[static_cast<std::size_t>(s)]], std::move(done),
            [this, s](std::string_view text, Clock::time_point at) { on_message(s, text, at); });
    }

    // Sends the next move at its time: at once in a closed loop; at a fixed rate, at the next
    // slot of this table's schedule (or at once when behind, the latency still counted from the
    // slot: no coordinated omission).
    void next_move(bool restart_schedule) {
        if (shared_.stopping) return;
        const auto now = Clock::now();
        if (pacing_.interval == Clock::duration::zero()) {
            intended_ = now;
            return send_move();
        }
        if (!scheduled_) {
            // A random phase, so that tables do not move in step.
            std::uniform_int_distribution<std::int64_t> phase(0, pacing_.interval.count());
            intended_ = now + Clock::duration(phase(rng_));
            scheduled_ = true;
        } else {
            intended_ += pacing_.interval;
            // A new game's setup is not a move: its time is not counted against the schedule.
            if (restart_schedule && intended_ < now) intended_ = now;
        }
        if (intended_ <= now) return send_move();
        timer_.expires_at(intended_);
        timer_.async_wait([this](beast::error_code ec) {
            if (!ec && !shared_.stopping) send_move();
        });
    }

    void move_completed(Clock::time_point last_patch) {
        ++tally_.moves;
        if (shared_.measuring.load(std::memory_order_acquire)) {
            const Clock::time_point started{
                Clock::duration(shared_.measure_start.load(std::memory_order_relaxed))};
            tally_.longest_stall = std::max(tally_.longest_stall, stall_until(started, last_patch));
            const auto waited =
                std::chrono::duration_cast<std::chrono::nanoseconds>(last_patch - intended_);
            tally_.latency.record(
                static_cast<std::uint64_t>(std::max<std::int64_t>(0, waited.count())));
            shared_.moves.fetch_add(1, std::memory_order_relaxed);
        }
        last_done_ = last_patch;
    }

    void record_patch(std::size_t bytes) {
        if (shared_.measuring.load(std::memory_order_relaxed)) tally_.patch_bytes.record(bytes);
    }
    void record_operations(std::string_view patch) {
        if (shared_.measuring.load(std::memory_order_relaxed))
            tally_.operation_bytes.record(gcor::bench::operations_bytes(patch));
    }

    net::io_context& io_;
    Shared& shared_;
    Tally& tally_;
    const Options& options_;
    const Pacing pacing_;
    const std::uint64_t index_;
    std::mt19937_64 rng_;
    net::steady_timer timer_;
    std::array<std::unique_ptr<Connection>, kSeats> seats_;
    std::vector<std::unique_ptr<Connection>> retired_;  // closed by their node
    const std::vector<tcp::endpoint>* nodes_ = nullptr;
    std::array<std::size_t, kSeats> node_{};  // each seat's node, an index into nodes_
    Clock::time_point last_done_{};           // the last completed move's last patch
    int open_seats_ = 0;
    Clock::time_point intended_;
    bool scheduled_ = false;
};

// Plays games on cor-server (mode game).
std::unique_ptr<TableDriver> make_game_table(net::io_context& io, Shared& shared, Tally& tally,
                                             const Options& options, Pacing pacing,
                                             std::uint64_t index);
// The same traffic against cor-calibrate (mode calibration).
std::unique_ptr<TableDriver> make_calibration_table(net::io_context& io, Shared& shared,
                                                    Tally& tally, const Options& options,
                                                    Pacing pacing, std::uint64_t index);

}  // namespace gcor::loadgen
