#include "tables/table_news.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "accounts/vacations.hpp"
#include "gcor/engine/move.hpp"
#include "tables/stored_game.hpp"
#include "tables/stored_seats.hpp"
#include "tables/table.hpp"

namespace gcor::server {

namespace net = boost::asio;

TableNews::TableNews(NewsTable& table, Owner owner, const std::string& id,
                     const std::string& id_json, const TableServices& services, TableHost& host,
                     Strand& strand, Parts parts)
    : table_(table),
      owner_(std::move(owner)),
      id_(id),
      id_json_(id_json),
      services_(services),
      host_(host),
      strand_(strand),
      status_(parts.status),
      game_(parts.game),
      seats_(parts.seats),
      clock_(parts.clock),
      followers_(parts.followers),
      writes_(parts.writes),
      turn_(parts.turn),
      bots_(parts.bots),
      views_(parts.views),
      reader_(id, parts.pipeline, *this, parts.chat) {}

NewsTarget::Copy TableNews::news_copy() const {
    // A waiting table's game has nobody to act.
    const engine::Seat to_act = status_ == TableStatus::playing ? game_.state().to_act() : 0;
    return {game_.version(), writes_.revision(), status_, to_act};
}

bool TableNews::seated_as(const std::vector<StoredSeat>& seats) const {
    return seats == stored_seats(seats_);
}

void TableNews::read_since(std::uint64_t version, OnRead done) {
    // A store read: on the blocking pool, never on the table's strand.
    net::post(services_.blocking, [this, owner = owner_(), version, done = std::move(done)] {
        auto stored = std::make_shared<std::optional<LoadedTable>>();
        bool read = true;
        try {
            *stored = services_.store.load_table_since(id_, version);
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read another server's change: {}", id_, failure.what());
            read = false;
        }
        net::post(strand_, [this, owner, stored, read, done] {
            // After a change of this process's own that is being committed.
            table_.when_ready([stored, read, done] { done(read, *stored); });
        });
    });
}

bool TableNews::apply_stored_change(const StoredMove& change) {
    const engine::State before = game_.state();
    const std::optional<engine::Seat> undoable = game_.could_undo();
    std::optional<engine::Move> move;
    if (change.move != kUndoText) move = engine::Move::parse(change.move);
    const bool applies =
        change.seat >= 0 && change.seat < before.player_count() &&
        (move || change.move == kUndoText) &&
        game_.apply(static_cast<engine::Seat>(change.seat), move, change.by, change.move_id);
    if (!applies) {
        spdlog::error("table {}: move {} from another server does not apply here", id_, change.seq);
        table_.retire_after_failure(true);
        return false;
    }
    writes_.count_move();
    // Every move starts a turn's clock again, an undo does not.
    if (move) clock_.turn_began_at(change.at);
    if (game_.state().over()) status_.set(TableStatus::finished);
    followers_.send_patches(followers_.patches_for(before, undoable, game_.game(), game_.events(),
                                                   id_json_, game_.version()));
    return true;
}

void TableNews::in_step(const InStep& row) {
    writes_.set_revision(row.revision);
    clock_.set_deadline(status_ == TableStatus::playing ? row.deadline : std::nullopt);
    if (status_ != row.status_before) views_.publish();
    if (status_ != TableStatus::playing) return;
    // The process that made the move told the webhook and the mail; this one its connections.
    if (game_.state().to_act() != row.to_act_before) turn_.tell(true);
    bots_.take_over(row.last_move_at);
}

void TableNews::reload(const StoredTable& row) {
    // Whether the change began somebody's turn (the start, say), and who follows as that seat
    // (their snapshot tells them).
    const bool new_turn =
        row.status == TableStatus::playing && row.to_act &&
        (status_ != TableStatus::playing || game_.state().to_act() != *row.to_act);
    std::vector<std::shared_ptr<Peer>> following;
    for (const Followers::Viewer& viewer : followers_.live())
        if (const auto peer = viewer.peer.lock(); peer && viewer.seat && viewer.seat == row.to_act)
            following.push_back(peer);
    table_.retire_after_failure(true);  // its followers follow the table reloaded, from a snapshot
    host_.publish(row.is_public, [&] {
        return summary_json(row, services_.vacations.seats_away(row.seats, unix_now_ms()));
    });
    if (!new_turn) return;
    const StoredSeat& seat = row.seats.at(static_cast<std::size_t>(*row.to_act));
    if (seat.kind != SeatKind::human || seat.forfeited) return;
    std::vector<const Peer*> informed;
    for (const auto& peer : following)
        informed.push_back(peer.get());
    services_.turns.your_turn_here(
        seat.user, [&] { return your_turn_json(row.id, *row.to_act, row.version, row.deadline); },
        informed);
}

}  // namespace gcor::server
