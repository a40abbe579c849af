#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/container/small_vector.hpp>

#include "gcor/protocol/events.hpp"
#include "gcor/protocol/json_text.hpp"
#include "gcor/protocol/view_json.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "ratings/ratings.hpp"
#include "tables/stored_game.hpp"
#include "tables/table.hpp"

// A table's moves: applying one, storing it, and sending each viewer its patch; the clock, the
// bots and the turn notices.
namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kSpectators = engine::kMaxPlayers;  // the patch slot of the spectators

std::size_t slot_of(std::optional<engine::Seat> seat) {
    return seat ? *seat : kSpectators;
}

}  // namespace

// --- Playing ------------------------------------------------------------------------------------

bool Table::apply_change(engine::Seat seat, const std::optional<engine::Move>& move, MovedBy by,
                         const std::string& move_id) {
    scratch_events_.clear();
    if (by == MovedBy::timeout) scratch_events_.push_back(timed_out(seat));
    const bool applied = move ? game_.apply(seat, *move, &scratch_events_, by == MovedBy::player) ==
                                    engine::MoveError::none
                              : game_.undo(seat, &scratch_events_) == engine::UndoError::none;
    if (!applied) return false;
    ++version_;
    if (by == MovedBy::player) last_own_move_[seat] = version_;
    remember_events(scratch_events_);
    if (!move_id.empty()) remember_move_id(seat, move_id);
    if (game_.state().over()) set_status(TableStatus::finished);
    return true;
}

void Table::play(engine::Seat seat, const std::optional<engine::Move>& move, MovedBy by,
                 const std::string& move_id, std::optional<Mover> mover) {
    const engine::State before = game_.state();
    const std::optional<engine::Seat> undoable = could_undo();
    const TableStatus status_before = status_;
    const std::optional<UnixMs> deadline_before = deadline_;
    // The caller checked it (move() and the bots ask the engine first).
    [[maybe_unused]] const bool applied = apply_change(seat, move, by, move_id);
    assert(applied);
    // An undo does not restart the clock: taking moves back never buys time.
    if (move) set_deadline();

    // The patches are made while the commit is under way; they leave once it is done.
    Outgoing outgoing = patches_for(before, undoable, scratch_events_);
    if (mover) {
        // The patch is the acknowledgement: one message to the mover, not a patch and an ack.
        assert(outgoing.patches[seat]);  // move() made the mover a follower of its seat
        outgoing.acknowledging_patch = make_message(protocol::acknowledging_patch(
            *outgoing.patches[seat], mover->move_id, mover->request_id));
        outgoing.mover = mover->peer;
        outgoing.request_id = std::move(mover->request_id);
        outgoing.move_id = std::move(mover->move_id);
        outgoing.arrived = mover->arrived;
    }
    outgoing.seat = seat;
    outgoing.status_changed = status_ != status_before;
    const StoredMove stored_move{
        version_, seat,          move ? move->to_string() : std::string(kUndoText),
        move_id,  unix_now_ms(), by};
    ++revision_;
    rows_awaited_ = 0;
    TableProgress progress = this->progress();
    progress.turn_only = !outgoing.status_changed && deadline_ == deadline_before;
    committing_ = true;
    services_.store.append_move(
        std::move(progress), stored_move,
        [self = shared_from_this(), outgoing = std::move(outgoing)](Written written) mutable {
            net::post(self->strand_, [self, outgoing = std::move(outgoing), written] {
                self->after_move(written, outgoing);
                self->committed();
            });
        });
}

void Table::after_move(Written written, const Outgoing& outgoing) {
    const auto mover = outgoing.mover.lock();
    last_write_ = written;
    if (written != Written::committed) {
        const bool conflict = written == Written::conflict;
        if (mover) {
            // A conflict: another server stored a change of this table first, so this move was
            // made on a state that is gone.
            const ErrorCode code = conflict ? ErrorCode::stale_version : ErrorCode::storage_failed;
            services_.metrics.count_error(code);
            Json json = protocol::error_json(
                code,
                conflict ? "the table changed on another server meanwhile: your move was not "
                           "made (a snapshot follows)"
                         : "the server could not save the move; the table goes back to its last "
                           "saved state (a snapshot follows)",
                outgoing.request_id, id());
            json["move_id"] = outgoing.move_id;
            mover->send_reply(make_message(json.dump()), outgoing.request_id);
        }
        return retire_after_failure(conflict);
    }
    send_patches(outgoing, mover);
    if (mover && outgoing.acknowledging_patch) {
        // The mover's reply: kept when news are dropped (a slow reader still learns its move
        // was stored; the snapshot that follows a lag brings the rest).
        mover->send_reply(outgoing.acknowledging_patch, outgoing.request_id);
        services_.metrics.move_seconds.observe(Clock::now() - outgoing.arrived);
    }
    services_.metrics.moves.fetch_add(1, std::memory_order_relaxed);
    if (outgoing.status_changed) publish();
    if (outgoing.status_changed && settings_.rated && status_ == TableStatus::finished)
        net::post(services_.blocking, [&ratings = services_.ratings] { ratings.rate_pending(); });
    // Followers count a deadline from the move: one that a vacation pushed back they are told.
    if (deadline_after_vacation_) broadcast(Json{{"type", "table"}, {"table", summary()}});
    if (status_ == TableStatus::playing && game_.state().to_act() != outgoing.seat) tell_turn();
    schedule_bot();
}

std::optional<engine::Seat> Table::could_undo() const {
    const engine::Seat to_act = game_.state().to_act();
    return game_.can_undo(to_act) == engine::UndoError::none ? std::optional(to_act) : std::nullopt;
}

void Table::send_patches(const Outgoing& outgoing, const std::shared_ptr<Peer>& except) {
    // patches_for dropped the closed viewers; one closed since is skipped by its lock().
    for (const Viewer& viewer : viewers_)
        if (const Message& patch = outgoing.patches[slot_of(viewer.seat)])
            if (const auto peer = viewer.peer.lock(); peer && peer != except) peer->send(patch);
}

// Each distinct viewer (a seat, or the spectators) gets one patch, serialized once and shared by
// every connection of that viewer.
Table::Outgoing Table::patches_for(const engine::State& before,
                                   std::optional<engine::Seat> could_undo,
                                   const std::vector<engine::Event>& events) {
    Outgoing outgoing;
    // The views after the previous move are this move's views before: kept, not built again.
    if (!views_) views_ = std::make_unique<std::array<std::optional<engine::View>, kSlots>>();
    std::array<std::optional<engine::View>, kSlots>& views = *views_;
    const bool cached = views_version_ == version_ - 1;
    std::array<bool, kSlots> fresh{};
    // Each view after the move is made in this thread's scratch view, which then trades places
    // with the slot's view before: the lists keep their storage, so views stop allocating.
    thread_local engine::View after_view;
    // Likewise the shared parts of the messages, written into this thread's strings.
    thread_local std::string public_ops;
    thread_local std::string log;
    public_ops.clear();
    bool public_written = false;
    // The events differ between viewers only where they name a card that some may not see.
    const bool log_for_all = std::ranges::all_of(
        events, [](const engine::Event& event) { return event.known_to == engine::kEveryone; });
    bool log_written = false;
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    for (const Viewer& viewer : viewers_) {
        const std::size_t slot = slot_of(viewer.seat);
        Message& patch = outgoing.patches[slot];
        if (patch) continue;
        // A view not kept from the last move is built again, into whatever storage it had.
        const bool kept = cached && views[slot];
        if (!views[slot]) views[slot].emplace();
        if (!kept) {
            engine::view_for(before, viewer.seat, *views[slot]);
            views[slot]->undo = viewer.seat && viewer.seat == could_undo;
        }
        engine::view_for(game_, viewer.seat, after_view);
        // What every viewer sees alike is the same text for all: written once.
        if (!public_written) {
            protocol::append_public_ops(public_ops, *views[slot], after_view);
            public_written = true;
        }
        if (!log_for_all || !log_written) {
            log.clear();
            protocol::append_events_json(log, events, viewer.seat);
            log_written = true;
        }
        // Written as text: no JSON tree to build and dump. The viewer's own operations (its
        // hand, and its moves when it is to act) are mostly under 256 bytes.
        std::string text;
        text.reserve(128 + public_ops.size() + log.size() + 256);
        protocol::open_patch_message(text, id_json_, version_);
        protocol::append_view_patch(text, public_ops, *views[slot], after_view);
        protocol::close_patch_message(text, log);
        patch = make_message(std::move(text));
        std::swap(*views[slot], after_view);
        fresh[slot] = true;
    }
    for (std::size_t slot = 0; slot < kSlots; ++slot)
        if (!fresh[slot]) views[slot].reset();
    views_version_ = version_;
    return outgoing;
}

void Table::set_deadline() {
    deadline_.reset();
    deadline_after_vacation_ = false;
    turn_started_ = unix_now_ms();
    if (status_ != TableStatus::playing || played_by_bot(game_.state().to_act())) return;
    deadline_ = turn_deadline();
    deadline_after_vacation_ = deadline_ && *deadline_ != turn_started_ + per_move_ms();
}

UnixMs Table::per_move_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(settings_.clock.per_move())
        .count();
}

std::optional<UnixMs> Table::turn_deadline() const {
    const SeatInfo& info = seats_[game_.state().to_act()];
    return deadline_from(settings_.clock, turn_started_, info.user.id, services_.vacations);
}

void Table::on_vacation_changed(std::uint64_t user) {
    if (retired_ || status_ != TableStatus::playing) return;
    if (std::ranges::none_of(seats_, [user](const SeatInfo& info) {
            return info.kind == SeatKind::human && info.user.id == user;
        }))
        return;
    const engine::Seat seat = game_.state().to_act();
    const bool their_turn = settings_.clock.kind == protocol::TimeControl::Kind::correspondence &&
                            seats_[seat].kind == SeatKind::human && seats_[seat].user.id == user &&
                            !played_by_bot(seat) && deadline_;
    const std::optional<UnixMs> deadline = their_turn ? turn_deadline() : deadline_;
    if (deadline == deadline_) return broadcast(Json{{"type", "table"}, {"table", summary()}});
    spdlog::debug("table {}: a vacation moves the deadline of seat {}", id(), seat);
    deadline_ = deadline;
    deadline_after_vacation_ = *deadline_ != turn_started_ + per_move_ms();
    save([this](bool ok) {
        if (!ok) return;
        broadcast(Json{{"type", "table"}, {"table", summary()}});
        publish();
    });
}

void Table::tell_turn(bool here_only) {
    if (status_ != TableStatus::playing) return;
    const engine::Seat seat = game_.state().to_act();
    const SeatInfo& info = seats_[seat];
    if (info.kind != SeatKind::human || info.forfeited) return;
    // A connection that follows the table as this seat already knows from its patch or snapshot.
    boost::container::small_vector<const Peer*, 4> following;
    for (const Viewer& viewer : viewers_)
        if (viewer.seat == seat)
            if (const auto peer = viewer.peer.lock()) following.push_back(peer.get());
    const auto message = [this, seat] { return your_turn_json(id(), seat, version_, deadline_); };
    if (here_only)
        return services_.notifier.your_turn_here(info.user.id, message,
                                                 std::span(following.data(), following.size()));
    services_.notifier.your_turn(
        info.user.id, message, std::span(following.data(), following.size()), [this, seat] {
            // Two words of captures, like the message's: std::function keeps them unallocated.
            const User& player = seats_[seat].user;
            return TurnNotice{player.id, player.name,          id(),   seat,
                              version_,  last_own_move_[seat], names_, deadline_};
        });
}

void Table::on_deadline() {
    if (retired_ || status_ != TableStatus::playing || !deadline_ || *deadline_ > unix_now_ms())
        return;
    const engine::Seat seat = game_.state().to_act();
    if (played_by_bot(seat)) return;
    if (settings_.clock.on_timeout == protocol::TimeControl::OnTimeout::bot) {
        // The stand-in is the strong bot, so that the others still play a real game.
        if (thinking_for_ == version_) return;
        spdlog::info("table {}: seat {} is out of time; a bot makes this move", id(), seat);
        return think(
            seat, engine::BotKind::strong, Clock::now(), [this, seat](const engine::Move& move) {
                // The player may have moved while the bot thought.
                if (!deadline_ || *deadline_ > unix_now_ms() || game_.state().to_act() != seat)
                    return;
                play(seat, move, MovedBy::timeout, {}, std::nullopt);
            });
    }
    spdlog::info("table {}: seat {} is out of time and forfeits", id(), seat);
    seats_[seat].forfeited = true;
    game_.forfeit(seat);
    views_version_ = kNoViews;  // the state changed without a move
    deadline_.reset();
    save([this, seat](bool ok) {
        if (!ok) return;
        broadcast(Json{{"type", "forfeited"}, {"table", id()}, {"seat", seat}});
        broadcast(Json{{"type", "table"}, {"table", summary()}});
        publish();
        schedule_bot();
    });
}

void Table::schedule_bot() {
    if (status_ != TableStatus::playing || retired_) return;
    const engine::Seat seat = game_.state().to_act();
    if (!played_by_bot(seat)) return;
    // A forfeited seat is played by the strong bot.
    const SeatInfo& info = seats_[seat];
    const engine::BotKind kind = info.kind == SeatKind::bot ? info.bot : engine::BotKind::strong;
    // The bot thinks during the delay that lets people follow its moves.
    think(seat, kind, Clock::now() + services_.config.bot_delay,
          [this, seat](const engine::Move& move) {
              if (played_by_bot(seat) && game_.state().to_act() == seat)
                  play(seat, move, MovedBy::bot, {}, std::nullopt);
          });
}

void Table::think(engine::Seat seat, engine::BotKind kind, Clock::time_point due,
                  std::function<void(const engine::Move&)> then) {
    if (thinking_for_ == version_) return;
    thinking_for_ = version_;
    // The bot gets the seat's view, as a person's client would, a seed and its budget: nothing
    // of the table itself, so it may think on any thread while the table goes on.
    net::post(
        services_.bots,
        [self = shared_from_this(), view = engine::view_for(game_.state(), seat), kind,
         seed = bot_rng_.next(), version = version_, due, then = std::move(then)]() mutable {
            engine::Rng rng(seed);
            const engine::BotBudget budget{0, self->services_.config.bot_time};
            const engine::Move move = engine::choose_move(kind, view, rng, budget);
            net::post(self->strand_, [self, move, version, due, then = std::move(then)]() mutable {
                if (self->thinking_for_ == version) self->thinking_for_.reset();
                auto apply = [self, move, version, then = std::move(then)] {
                    self->when_ready([self, move, version, then] {
                        if (self->retired_ || self->version_ != version ||
                            self->status_ != TableStatus::playing)
                            return;
                        then(move);
                    });
                };
                if (Clock::now() >= due) return apply();
                self->bot_timer_.expires_at(due);
                self->bot_timer_.async_wait(
                    [apply = std::move(apply)](const boost::system::error_code& ec) mutable {
                        if (!ec) apply();
                    });
            });
        });
}

}  // namespace gcor::server
