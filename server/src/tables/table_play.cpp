#include "tables/table_play.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <cassert>

#include "gcor/protocol/events.hpp"
#include "gcor/protocol/json_text.hpp"
#include "gcor/protocol/view_json.hpp"
#include "tables/stored_seats.hpp"

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

TableProgress TablePlay::progress() const {
    TableProgress progress;
    progress.id = record_.id();
    progress.revision = writes_.revision();
    progress.status = status_;
    progress.version = game_.version();
    if (status_ == TableStatus::playing) {
        progress.to_act = game_.state().to_act();
        progress.deadline = clock_.deadline();
    }
    // Before the start, the deadline sweep finds the table when its first invitation expires.
    if (status_ == TableStatus::waiting) progress.deadline = seats_.next_expiry();
    if (status_ == TableStatus::finished) {
        Json result = protocol::result_to_json(game_.state());
        result["forfeited"] = forfeited_seats_json(seats_);
        progress.result = result.dump();
    }
    return progress;
}

void TablePlay::begin(StoredGame::Replay replayed, const std::vector<StoredMove>& changes) {
    seats_.name_players();
    game_.begin(std::move(replayed), changes);
}

void TablePlay::start(const std::shared_ptr<Peer>& peer, const Json& request_id) {
    begin(record_.deal());
    status_.set(TableStatus::playing);
    turn_.start();
    table_.save([this, peer, request_id](bool ok) {
        if (!ok) {
            if (peer) refusals_.not_saved(peer, request_id);
            return;
        }
        if (peer) {
            Json started{{"type", "started"},
                         {"table", record_.id()},
                         {"commitment", record_.row().commitment}};
            if (!request_id.is_null()) started["id"] = request_id;
            peer->send_reply(make_message(started.dump()), request_id);
        }
        const Json summary_now = views_.summary();
        for (const Followers::Viewer& viewer : followers_.live())
            if (const auto follower = viewer.peer.lock())
                follower->send(
                    make_message(views_.snapshot(viewer.seat, viewer.user, summary_now, Json())));
        views_.publish();
        turn_.tell();
        bots_.schedule();
    });
}

void TablePlay::play(engine::Seat seat, const std::optional<engine::Move>& move, MovedBy by,
                     const std::string& move_id, std::optional<Mover> mover) {
    const engine::State before = game_.state();
    const std::optional<engine::Seat> undoable = game_.could_undo();
    const TableStatus status_before = status_;
    const std::optional<UnixMs> deadline_before = clock_.deadline();
    // The caller checked it (Table::move and the bots ask the engine first).
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
        assert(outgoing.patches[seat]);  // Table::move made the mover a follower of its seat
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

void TablePlay::after_move(Written written, const Outgoing& outgoing) {
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
                outgoing.request_id, record_.id());
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
    if (outgoing.status_changed && record_.settings().rated && status_ == TableStatus::finished)
        boost::asio::post(services_.blocking,
                          [&ratings = services_.ratings] { ratings.rate_pending(); });
    // Followers count a deadline from the move: one that a vacation pushed back they are told.
    if (clock_.pushed_back()) views_.broadcast_summary();
    if (status_ == TableStatus::playing && game_.state().to_act() != outgoing.seat) turn_.tell();
    bots_.schedule();
}

void TablePlay::on_deadline() {
    if (!retired() && status_ == TableStatus::waiting) return invitations_.expire();
    if (retired() || status_ != TableStatus::playing || !clock_.due(unix_now_ms())) return;
    const engine::Seat seat = game_.state().to_act();
    if (seats_.played_by_bot(seat)) return;
    if (record_.settings().clock.on_timeout == protocol::TimeControl::OnTimeout::bot) {
        if (bots_.stand_in(seat))
            spdlog::info("table {}: seat {} is out of time; a bot makes this move", record_.id(),
                         seat);
        return;
    }
    spdlog::info("table {}: seat {} is out of time and forfeits", record_.id(), seat);
    seats_.forfeit(seat);
    game_.forfeit(seat);
    followers_.forget_views();  // the state changed without a move
    clock_.stop();
    table_.save([this, seat](bool ok) {
        if (!ok) return;
        views_.broadcast(Json{{"type", "forfeited"}, {"table", record_.id()}, {"seat", seat}});
        views_.announce();
        bots_.schedule();
    });
}

void TablePlay::when_ready(std::function<void()> work) {
    retirement_.when_ready(std::move(work));
}

void TablePlay::play_for(engine::Seat seat, const engine::Move& move, MovedBy by) {
    play(seat, move, by, {}, std::nullopt);
}

}  // namespace gcor::server
