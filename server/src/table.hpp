#pragma once
// One table: its seats, its game and its viewers. Everything that touches a table runs on the
// table's own strand, so a table needs no lock and tables run in parallel.
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "gcor/engine/bot.hpp"
#include "gcor/protocol/messages.hpp"
#include "peer.hpp"
#include "services.hpp"

namespace gcor::server {

namespace net = boost::asio;

enum class TableStatus { waiting, playing, finished };

struct SeatInfo {
    enum class Kind { open, human, bot } kind = Kind::open;
    User user;  // for a human
    engine::BotKind bot = engine::BotKind::random;
};

class Table : public std::enable_shared_from_this<Table> {
  public:
    using Strand = net::strand<net::io_context::executor_type>;
    using Clock = std::chrono::steady_clock;

    // `request` is the create_table request.
    Table(net::io_context& io, Services& services, std::string id, const protocol::Request& request,
          std::uint64_t seed);

    const std::string& id() const { return id_; }
    Strand& strand() { return strand_; }

    // Requests, each called on the strand; replies go to `peer`.
    void sit(const std::shared_ptr<Peer>& peer, const User& user, const protocol::Request& request);
    void leave(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::Request& request);
    void start(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::Request& request);
    // watch and sync: follow the table (as the user's seat, or as a spectator) and get its state.
    void watch(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::Request& request);
    void move(const std::shared_ptr<Peer>& peer, const User& user, const protocol::Request& request,
              Clock::time_point arrived);
    // A slow reader missed messages: send it the table's state again.
    void resend_state(const std::shared_ptr<Peer>& peer);

    // The table as the lobby lists it.
    protocol::Json summary() const;
    // Moves applied so far; readable from any thread (the lobby lists it without the strand).
    std::uint64_t published_version() const {
        return published_version_.load(std::memory_order_relaxed);
    }

  private:
    struct Viewer {
        std::weak_ptr<Peer> peer;
        std::optional<engine::Seat> seat;  // nullopt: a spectator
    };
    struct AppliedMove {
        std::string move_id;
        std::uint64_t version;
    };

    std::optional<engine::Seat> seat_of(const User& user) const;
    void error(const std::shared_ptr<Peer>& peer, protocol::ErrorCode code,
               std::string_view message, const protocol::Json& id, const char* reason = nullptr);
    void follow(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat);
    void unfollow(const Peer* peer);
    // The table's state for one viewer: a snapshot, or the table's summary before the start;
    // `id` answers the request that asked for it.
    void send_state(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                    const protocol::Json& id = {});
    protocol::Json snapshot(std::optional<engine::Seat> seat) const;
    void broadcast(const protocol::Json& message);
    void publish();
    void apply(engine::Seat seat, const engine::Move& move);
    void broadcast_patch(const engine::State& before, const std::vector<engine::Event>& events);
    std::vector<std::string> log_lines(const std::vector<engine::Event>& events,
                                       std::optional<engine::Seat> viewer) const;
    void schedule_bot();
    void set_status(TableStatus status);

    Services& services_;
    Strand strand_;
    net::steady_timer bot_timer_;
    const std::string id_;
    const engine::Rules rules_;
    const bool is_public_;
    const bool spectators_;
    const std::uint64_t seed_;
    TableStatus status_ = TableStatus::waiting;
    std::array<SeatInfo, engine::kMaxPlayers> seats_{};
    std::vector<std::string> names_;
    engine::State state_;
    std::uint64_t version_ =
        0;  // moves applied (players' and bots'; automatic ones are part of them)
    std::atomic<std::uint64_t> published_version_{0};
    std::deque<engine::Event> recent_events_;                           // for the log of a snapshot
    std::array<std::deque<AppliedMove>, engine::kMaxPlayers> applied_;  // per seat, for idempotency
    std::vector<Viewer> viewers_;
    std::vector<engine::Event> scratch_events_;
    engine::Rng bot_rng_;
};

}  // namespace gcor::server
