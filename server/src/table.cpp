#include "table.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "gcor/protocol/view_json.hpp"
#include "lobby.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kRecentEvents = 64;    // log lines a snapshot carries
constexpr std::size_t kAppliedMoveIds = 32;  // per seat, answered again without applying

const char* status_id(TableStatus status) {
    switch (status) {
        case TableStatus::waiting:
            return "waiting";
        case TableStatus::playing:
            return "playing";
        case TableStatus::finished:
            return "finished";
    }
    return "waiting";
}

}  // namespace

Table::Table(net::io_context& io, Services& services, std::string id,
             const protocol::Request& request, std::uint64_t seed)
    : services_(services),
      strand_(net::make_strand(io)),
      bot_timer_(strand_),
      id_(std::move(id)),
      rules_(*engine::Rules::make(request.options)),
      is_public_(request.is_public),
      spectators_(request.spectators),
      seed_(seed),
      bot_rng_(seed_ ^ 0x9e3779b97f4a7c15ull) {
    for (int seat = 0; seat < request.options.players; ++seat)
        if (const auto bot = request.bots[static_cast<std::size_t>(seat)])
            seats_[static_cast<std::size_t>(seat)] = SeatInfo{SeatInfo::Kind::bot, {}, *bot};
    services_.metrics.tables_waiting.fetch_add(1);
}

std::optional<engine::Seat> Table::seat_of(const User& user) const {
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind == SeatInfo::Kind::human && info.user.id == user.id)
            return static_cast<engine::Seat>(seat);
    }
    return std::nullopt;
}

void Table::error(const std::shared_ptr<Peer>& peer, ErrorCode code, std::string_view message,
                  const Json& id, const char* reason) {
    services_.metrics.count_error(code);
    spdlog::debug("table {}: {} ({})", id_, protocol::error_id(code), message);
    Json json = protocol::error_json(code, message, id);
    json["table"] = id_;
    if (reason) json["reason"] = reason;
    peer->send(make_message(json.dump()));
}

Json Table::summary() const {
    Json seats = Json::array();
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        switch (info.kind) {
            case SeatInfo::Kind::open:
                seats.push_back(Json{{"kind", "open"}});
                break;
            case SeatInfo::Kind::human:
                seats.push_back(
                    Json{{"kind", "human"}, {"user", info.user.id}, {"name", info.user.name}});
                break;
            case SeatInfo::Kind::bot:
                seats.push_back(Json{{"kind", "bot"}, {"bot", engine::bot_id(info.bot)}});
                break;
        }
    }
    return Json{{"id", id_},
                {"options", protocol::options_to_json(rules_.options())},
                {"status", status_id(status_)},
                {"seats", std::move(seats)},
                {"public", is_public_},
                {"spectators", spectators_},
                {"version", version_}};
}

void Table::publish() {
    services_.lobby.publish(id_, summary(), is_public_);
}

void Table::set_status(TableStatus status) {
    auto gauge = [&](TableStatus s) -> std::atomic<std::int64_t>& {
        return s == TableStatus::waiting   ? services_.metrics.tables_waiting
               : s == TableStatus::playing ? services_.metrics.tables_playing
                                           : services_.metrics.tables_finished;
    };
    gauge(status_).fetch_sub(1);
    gauge(status).fetch_add(1);
    status_ = status;
}

// --- Viewers ------------------------------------------------------------------------------------

void Table::follow(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat) {
    for (Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            viewer.seat = seat;
            return;
        }
    viewers_.push_back({peer, seat});
}

void Table::unfollow(const Peer* peer) {
    std::erase_if(viewers_, [&](const Viewer& viewer) {
        const auto locked = viewer.peer.lock();
        return !locked || locked.get() == peer;
    });
}

void Table::broadcast(const Json& json) {
    const Message message = make_message(json.dump());
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    for (const Viewer& viewer : viewers_)
        if (const auto peer = viewer.peer.lock()) peer->send(message);
}

std::vector<std::string> Table::log_lines(const std::vector<engine::Event>& events,
                                          std::optional<engine::Seat> viewer) const {
    std::vector<std::string> lines;
    lines.reserve(events.size());
    for (const engine::Event& event : events)
        lines.push_back(engine::describe(event, viewer, names_));
    return lines;
}

Json Table::snapshot(std::optional<engine::Seat> seat) const {
    const std::vector<engine::Event> recent(recent_events_.begin(), recent_events_.end());
    return Json{{"type", "snapshot"},
                {"table", id_},
                {"version", version_},
                {"seat", seat ? Json(*seat) : Json()},
                {"view", protocol::view_to_json(engine::view_for(state_, seat))},
                {"log", log_lines(recent, seat)}};
}

void Table::send_state(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                       const Json& id) {
    Json state = status_ == TableStatus::waiting ? Json{{"type", "table"}, {"table", summary()}}
                                                 : snapshot(seat);
    if (!id.is_null()) state["id"] = id;
    peer->send(make_message(state.dump()));
}

void Table::resend_state(const std::shared_ptr<Peer>& peer) {
    for (const Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            services_.metrics.snapshots_for_slow_readers.fetch_add(1);
            return send_state(peer, viewer.seat);
        }
}

// --- Requests -----------------------------------------------------------------------------------

void Table::sit(const std::shared_ptr<Peer>& peer, const User& user,
                const protocol::Request& request) {
    if (status_ != TableStatus::waiting)
        return error(peer, ErrorCode::already_started, "the game has started", request.id);
    if (seat_of(user))
        return error(peer, ErrorCode::already_seated, "you already have a seat at this table",
                     request.id);
    int seat = -1;
    if (request.seat) {
        if (*request.seat >= rules_.options().players)
            return error(peer, ErrorCode::bad_field, "this table has no such seat", request.id);
        if (seats_[static_cast<std::size_t>(*request.seat)].kind != SeatInfo::Kind::open)
            return error(peer, ErrorCode::seat_taken, "that seat is taken", request.id);
        seat = *request.seat;
    } else {
        for (int s = 0; s < rules_.options().players && seat < 0; ++s)
            if (seats_[static_cast<std::size_t>(s)].kind == SeatInfo::Kind::open) seat = s;
        if (seat < 0) return error(peer, ErrorCode::table_full, "every seat is taken", request.id);
    }
    seats_[static_cast<std::size_t>(seat)] = SeatInfo{SeatInfo::Kind::human, user, {}};
    follow(peer, static_cast<engine::Seat>(seat));
    Json reply{{"type", "seated"}, {"table", id_}, {"seat", seat}};
    if (!request.id.is_null()) reply["id"] = request.id;
    peer->send(make_message(reply.dump()));
    broadcast(Json{{"type", "table"}, {"table", summary()}});
    publish();
}

void Table::leave(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::Request& request) {
    // Before the start a seat is freed; after it, the seat stays the player's and only this
    // connection stops following the table.
    if (const auto seat = seat_of(user); seat && status_ == TableStatus::waiting) {
        seats_[*seat] = SeatInfo{};
        broadcast(Json{{"type", "table"}, {"table", summary()}});
        publish();
    }
    unfollow(peer.get());
    Json reply{{"type", "left"}, {"table", id_}};
    if (!request.id.is_null()) reply["id"] = request.id;
    peer->send(make_message(reply.dump()));
}

void Table::start(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::Request& request) {
    if (!seat_of(user))
        return error(peer, ErrorCode::not_seated, "only a seated player may start the game",
                     request.id);
    if (status_ != TableStatus::waiting)
        return error(peer, ErrorCode::already_started, "the game has started", request.id);
    for (int seat = 0; seat < rules_.options().players; ++seat)
        if (seats_[static_cast<std::size_t>(seat)].kind == SeatInfo::Kind::open)
            return error(peer, ErrorCode::not_full, "every seat must be taken before the start",
                         request.id);
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        names_.push_back(info.kind == SeatInfo::Kind::human
                             ? info.user.name
                             : "Bot " + std::to_string(seat + 1) + " (" +
                                   std::string(engine::bot_id(info.bot)) + ")");
    }
    scratch_events_.clear();
    state_ = rules_.new_game(seed_, &scratch_events_);
    recent_events_.assign(scratch_events_.begin(), scratch_events_.end());
    set_status(TableStatus::playing);
    Json reply{{"type", "started"}, {"table", id_}};
    if (!request.id.is_null()) reply["id"] = request.id;
    peer->send(make_message(reply.dump()));
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    for (const Viewer& viewer : viewers_)
        if (const auto follower = viewer.peer.lock())
            follower->send(make_message(snapshot(viewer.seat).dump()));
    publish();
    schedule_bot();
}

void Table::watch(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::Request& request) {
    const auto seat = seat_of(user);
    if (!seat && !spectators_)
        return error(peer, ErrorCode::spectators_not_allowed, "this table takes no spectators",
                     request.id);
    follow(peer, seat);
    send_state(peer, seat, request.id);
}

void Table::move(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::Request& request, Clock::time_point arrived) {
    const auto seat = seat_of(user);
    if (!seat)
        return error(peer, ErrorCode::not_seated, "you have no seat at this table", request.id);
    if (status_ == TableStatus::waiting)
        return error(peer, ErrorCode::not_started, "the game has not started", request.id);
    auto ack = [&](std::uint64_t version) {
        Json reply{
            {"type", "ack"}, {"table", id_}, {"move_id", request.move_id}, {"version", version}};
        if (!request.id.is_null()) reply["id"] = request.id;
        peer->send(make_message(reply.dump()));
    };
    // The same move id again (a client retrying after a lost connection): the same answer.
    for (const AppliedMove& done : applied_[*seat])
        if (done.move_id == request.move_id) return ack(done.version);
    if (status_ == TableStatus::finished)
        return error(peer, ErrorCode::game_over, "the game is over", request.id);
    if (request.version != version_) {
        error(peer, ErrorCode::stale_version,
              "the move was made on version " + std::to_string(request.version) +
                  "; the table is at " + std::to_string(version_) + " (a snapshot follows)",
              request.id);
        follow(peer, seat);
        return send_state(peer, seat);
    }
    if (const engine::MoveError refused = state_.check(*seat, request.move);
        refused != engine::MoveError::none) {
        const bool turn = refused == engine::MoveError::not_your_turn;
        return error(peer, turn ? ErrorCode::not_your_turn : ErrorCode::illegal_move,
                     engine::error_message(refused), request.id,
                     std::string(engine::error_code(refused)).c_str());
    }
    follow(peer, seat);
    apply(*seat, request.move);
    auto& applied = applied_[*seat];
    applied.push_back({request.move_id, version_});
    if (applied.size() > kAppliedMoveIds) applied.pop_front();
    ack(version_);
    services_.metrics.observe_move_seconds(
        std::chrono::duration<double>(Clock::now() - arrived).count());
    schedule_bot();
}

// --- Playing ------------------------------------------------------------------------------------

void Table::apply(engine::Seat seat, const engine::Move& move) {
    const engine::State before = state_;
    scratch_events_.clear();
    const engine::MoveError error = state_.apply(seat, move, &scratch_events_);
    assert(error == engine::MoveError::none);
    (void)error;
    ++version_;
    published_version_.store(version_, std::memory_order_relaxed);
    services_.metrics.moves.fetch_add(1, std::memory_order_relaxed);
    for (const engine::Event& event : scratch_events_) {
        recent_events_.push_back(event);
        if (recent_events_.size() > kRecentEvents) recent_events_.pop_front();
    }
    broadcast_patch(before, scratch_events_);
    if (state_.over()) {
        set_status(TableStatus::finished);
        publish();
    }
}

// Each distinct viewer (a seat, or the spectators) gets one patch, serialized once and shared by
// every connection of that viewer.
void Table::broadcast_patch(const engine::State& before, const std::vector<engine::Event>& events) {
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    std::array<bool, engine::kMaxPlayers + 1> wanted{};
    for (const Viewer& viewer : viewers_)
        wanted[viewer.seat ? *viewer.seat : engine::kMaxPlayers] = true;
    for (int slot = 0; slot <= engine::kMaxPlayers; ++slot) {
        if (!wanted[static_cast<std::size_t>(slot)]) continue;
        const std::optional<engine::Seat> seat =
            slot == engine::kMaxPlayers
                ? std::nullopt
                : std::optional<engine::Seat>(static_cast<engine::Seat>(slot));
        const Json patch{{"type", "patch"},
                         {"table", id_},
                         {"from", version_ - 1},
                         {"to", version_},
                         {"ops", protocol::view_patch(engine::view_for(before, seat),
                                                      engine::view_for(state_, seat))},
                         {"log", log_lines(events, seat)}};
        const Message message = make_message(patch.dump());
        for (const Viewer& viewer : viewers_)
            if (viewer.seat == seat)
                if (const auto peer = viewer.peer.lock()) peer->send(message);
    }
}

void Table::schedule_bot() {
    if (status_ != TableStatus::playing) return;
    const engine::Seat seat = state_.to_act();
    if (seats_[seat].kind != SeatInfo::Kind::bot) return;
    bot_timer_.expires_after(services_.config.bot_delay);
    bot_timer_.async_wait(
        [self = shared_from_this(), version = version_](const boost::system::error_code& ec) {
            if (ec || self->version_ != version || self->status_ != TableStatus::playing) return;
            const engine::Seat to_act = self->state_.to_act();
            const engine::Move move = engine::choose_move(
                self->seats_[to_act].bot, engine::view_for(self->state_, to_act), self->bot_rng_);
            self->apply(to_act, move);
            self->schedule_bot();
        });
}

}  // namespace gcor::server
