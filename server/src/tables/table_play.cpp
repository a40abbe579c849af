#include <spdlog/spdlog.h>

#include <algorithm>

#include "gcor/protocol/events.hpp"
#include "gcor/protocol/json_text.hpp"
#include "gcor/protocol/view_json.hpp"
#include "tables/stored_game.hpp"
#include "tables/table.hpp"

// A table's moves: applying one, storing it, and sending each viewer its patch; the clock, the
// bots and the turn notices.
namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

}  // namespace

// --- Playing ------------------------------------------------------------------------------------

void Table::play(engine::Seat seat, const std::optional<engine::Move>& move, MovedBy by,
                 const std::string& move_id, std::optional<Mover> mover) {
    const engine::State before = game_.state();
    const std::optional<engine::Seat> undoable = game_.could_undo();
    const TableStatus status_before = status_;
    const std::optional<UnixMs> deadline_before = clock_.deadline();
    // The caller checked it (move() and the bots ask the engine first).
    const std::optional<MovedBy> stored_by = game_.apply(seat, move, by, move_id);
    assert(stored_by);
    if (game_.state().over()) status_.set(TableStatus::finished);
    // An undo does not restart the clock: taking moves back never buys time.
    if (move) turn_.start();

    // The patches are made while the commit is under way; they leave once it is done.
    Outgoing outgoing;
    outgoing.patches = followers_.patches_for(before, undoable, game_.game(), game_.events(),
                                              id_json_, game_.version());
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
        game_.version(), seat,          move ? move->to_string() : std::string(kUndoText),
        move_id,         unix_now_ms(), *stored_by};
    const bool turn_only = !outgoing.status_changed && clock_.deadline() == deadline_before;
    writes_.append(
        [this, turn_only] {
            TableProgress progress = this->progress();
            progress.turn_only = turn_only;
            return progress;
        },
        stored_move,
        [this, outgoing = std::move(outgoing)](Written written) { after_move(written, outgoing); });
}

void Table::after_move(Written written, const Outgoing& outgoing) {
    const auto mover = outgoing.mover.lock();
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
        return retirement_.retire_after_failure(conflict);
    }
    // Counted before anybody hears of the move: a client that reads /metrics after its patch
    // finds the move there.
    services_.metrics.moves.fetch_add(1, std::memory_order_relaxed);
    followers_.send_patches(outgoing.patches, mover);
    if (mover && outgoing.acknowledging_patch) {
        services_.metrics.move_seconds.observe(Clock::now() - outgoing.arrived);
        // The mover's reply: kept when news are dropped (a slow reader still learns its move
        // was stored; the snapshot that follows a lag brings the rest).
        mover->send_reply(outgoing.acknowledging_patch, outgoing.request_id);
    }
    if (outgoing.status_changed) views_.publish();
    if (outgoing.status_changed && settings_.rated && status_ == TableStatus::finished)
        net::post(services_.blocking, [&ratings = services_.ratings] { ratings.rate_pending(); });
    // Followers count a deadline from the move: one that a vacation pushed back they are told.
    if (clock_.pushed_back()) views_.broadcast_summary();
    if (status_ == TableStatus::playing && game_.state().to_act() != outgoing.seat) turn_.tell();
    bots_.schedule();
}

void Table::on_deadline() {
    if (!retired() && status_ == TableStatus::waiting) return invitations_.expire();
    if (retired() || status_ != TableStatus::playing || !clock_.due(unix_now_ms())) return;
    const engine::Seat seat = game_.state().to_act();
    if (seats_.played_by_bot(seat)) return;
    if (settings_.clock.on_timeout == protocol::TimeControl::OnTimeout::bot) {
        if (bots_.stand_in(seat))
            spdlog::info("table {}: seat {} is out of time; a bot makes this move", id(), seat);
        return;
    }
    spdlog::info("table {}: seat {} is out of time and forfeits", id(), seat);
    seats_.forfeit(seat);
    game_.forfeit(seat);
    followers_.forget_views();  // the state changed without a move
    clock_.stop();
    save([this, seat](bool ok) {
        if (!ok) return;
        views_.broadcast(Json{{"type", "forfeited"}, {"table", id()}, {"seat", seat}});
        views_.announce();
        bots_.schedule();
    });
}

void Table::play_for(engine::Seat seat, const engine::Move& move, MovedBy by) {
    play(seat, move, by, {}, std::nullopt);
}

}  // namespace gcor::server
