// What a table does when another server process sharing the database changed it: it tells its
// followers as it would have told them of its own change. A move that comes with its news while
// the table is in step is applied at once, and its row's news (which follows) gives the
// revision and the deadline; otherwise the table reads what it lacks from the store. Moves reach
// followers as patches, one per move; anything else (seats, the start, a forfeit, a deadline
// moved by a vacation) reloads the table from the store, and its followers get a snapshot.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <iterator>
#include <ranges>
#include <span>

#include "accounts/vacations.hpp"
#include "gcor/engine/move.hpp"
#include "tables/stored_game.hpp"
#include "tables/table.hpp"

namespace gcor::server {

void Table::on_news(const StoreNews& news) {
    net::post(strand_, [self = shared_from_this(), news] {
        if (self->retired()) return;
        switch (news.kind) {
            case StoreNews::Kind::chat:
                if (news.chat_deleted) return self->on_chat_deleted(news.chat_line);
                return self->read_chat_line(news.chat_line);
            case StoreNews::Kind::move:
                // After a change of this process's own that is being committed.
                return self->when_ready([self, move = news.move] { self->on_move_news(move); });
            case StoreNews::Kind::table:
                // Rows written without a revision (a league's new tables) are read whatever it
                // says; the row of a move applied from its news is awaited.
                if (!news.removed && news.revision != 0 && news.revision <= self->revision_ &&
                    self->pipeline_.rows_awaited() == 0)
                    return;
                return self->when_ready([self, news] {
                    if (!self->retired() && !self->on_row_news(news)) self->read_news();
                });
            case StoreNews::Kind::vacation:
            case StoreNews::Kind::missed:
                return self->read_news();
        }
    });
}

void Table::on_move_news(const StoredMove& move) {
    if (retired() || move.seq <= version_) return;  // known
    if (pipeline_.reading()) {
        pipeline_.request_read();  // the read under way may have been made before this move
        return;
    }
    if (move.seq != version_ + 1 || status_ != TableStatus::playing) return read_news();
    if (pipeline_.rows_awaited() == 0) {
        status_before_news_ = status_;
        to_act_before_news_ = game_.state().to_act();
    }
    if (!apply_stored_change(move)) return retire_after_failure(true);
    // A move is one revision of its row: this table's own next change names the right one even
    // before the row's news has come.
    ++revision_;
    pipeline_.move_heard();
}

bool Table::on_row_news(const StoreNews& news) {
    // The row of the one move applied from its news: nothing else changed with it.
    if (news.removed || pipeline_.rows_awaited() != 1 || news.version != version_ ||
        news.revision != revision_ || news.status != status_)
        return false;
    accept_row(news.deadline);
    return true;
}

void Table::accept_row(std::optional<UnixMs> deadline) {
    pipeline_.row_heard();
    clock_.set_deadline(status_ == TableStatus::playing ? deadline : std::nullopt);
    after_news(status_before_news_, to_act_before_news_);
}

void Table::reread(std::function<void()> then) {
    pipeline_.after_next_read(std::move(then));
    read_news();
}

void Table::read_news() {
    // One under way: the rereads wait for the next read, as this one may be older.
    if (!pipeline_.request_read()) return;
    auto rereads = std::make_shared<std::vector<std::function<void()>>>(pipeline_.take_rereads());
    // A store read: on the blocking pool, never on the table's strand. Only the moves this table
    // lacks: a table's whole log would cost every follower's node a read of every move each move.
    net::post(services_.blocking, [self = shared_from_this(), after = version_, rereads] {
        auto stored = std::make_shared<std::optional<LoadedTable>>();
        bool read = true;
        try {
            *stored = self->services_.store.load_table_since(self->id(), after);
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read another server's change: {}", self->id(),
                          failure.what());
            read = false;
        }
        net::post(self->strand_, [self, stored, read, rereads] {
            // After a change of this process's own that is being committed.
            self->when_ready([self, stored, read, rereads] {
                const bool read_again = self->pipeline_.read_finished();
                if (read) self->catch_up(*stored);
                if (read_again && !self->retired()) self->read_news();
                // A retired table reads no more: its requests find the table loaded again. When
                // the store could not be read, they are answered from this copy.
                if (self->retired())
                    std::ranges::move(self->pipeline_.take_rereads(), std::back_inserter(*rereads));
                for (const auto& again : *rereads)
                    again();
            });
        });
    });
}

void Table::catch_up(const std::optional<LoadedTable>& stored) {
    if (retired()) return;
    if (!stored) {
        spdlog::info("table {} closed on another server", id());
        return retire_closed();
    }
    const StoredTable& row = stored->table;
    if (row.revision != 0 && row.revision <= revision_) {
        // Nothing this table lacks but, for moves applied from their news, their row.
        if (pipeline_.rows_awaited() && row.revision == revision_ && row.version == version_)
            accept_row(row.deadline);
        return;
    }
    // The moves read are those after the version the table had when it asked; its own moves
    // committed since are among them.
    const std::vector<StoredMove>& read = stored->moves;
    const auto lacking =
        std::ranges::find_if(read, [this](const StoredMove& move) { return move.seq > version_; });
    const std::span<const StoredMove> moves(lacking, read.end());
    // Only moves changed: those lacking follow this table's version up to the row's (none when
    // they came with their news, and only their row is lacking).
    const bool in_order =
        moves.empty() ? pipeline_.rows_awaited() > 0 && row.version == version_
                      : moves.front().seq == version_ + 1 && moves.back().seq == row.version;
    const bool moves_only = status_ == TableStatus::playing && row.status != TableStatus::waiting &&
                            row.seats == this->stored().seats && in_order;
    if (!moves_only) return reload(row);

    const bool awaited = pipeline_.rows_awaited() > 0;
    const TableStatus status_before = awaited ? status_before_news_ : status_;
    const engine::Seat to_act_before = awaited ? to_act_before_news_ : game_.state().to_act();
    for (const StoredMove& change : moves)
        if (!apply_stored_change(change)) return retire_after_failure(true);
    pipeline_.row_heard();
    revision_ = row.revision;
    clock_.set_deadline(status_ == TableStatus::playing ? row.deadline : std::nullopt);
    after_news(status_before, to_act_before);
}

bool Table::apply_stored_change(const StoredMove& change) {
    const engine::State before = game_.state();
    const std::optional<engine::Seat> undoable = could_undo();
    std::optional<engine::Move> move;
    if (change.move != kUndoText) move = engine::Move::parse(change.move);
    const bool applies =
        change.seat >= 0 && change.seat < before.player_count() &&
        (move || change.move == kUndoText) &&
        apply_change(static_cast<engine::Seat>(change.seat), move, change.by, change.move_id);
    if (!applies) {
        spdlog::error("table {}: move {} from another server does not apply here", id(),
                      change.seq);
        return false;
    }
    // Every move starts a turn's clock again, an undo does not.
    if (move) {
        clock_.turn_began_at(change.at);
        last_news_move_at_ = change.at;
    }
    followers_.send_patches(patches_for(before, undoable));
    return true;
}

void Table::after_news(TableStatus status_before, engine::Seat to_act_before) {
    if (status_ != status_before) publish();
    if (status_ != TableStatus::playing) return;
    // The process that made the move told the webhook and the mail; this one its connections.
    if (game_.state().to_act() != to_act_before) tell_turn(true);
    take_over_bot(last_news_move_at_);
}

void Table::reload(const StoredTable& row) {
    // Whether the change began somebody's turn (the start, say), and who follows as that seat
    // (their snapshot tells them).
    const bool new_turn =
        row.status == TableStatus::playing && row.to_act &&
        (status_ != TableStatus::playing || game_.state().to_act() != *row.to_act);
    std::vector<std::shared_ptr<Peer>> following;
    for (const Viewer& viewer : followers_.live())
        if (const auto peer = viewer.peer.lock(); peer && viewer.seat && viewer.seat == row.to_act)
            following.push_back(peer);
    retire_after_failure(true);  // its followers follow the table reloaded, from a snapshot
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

void Table::take_over_bot(UnixMs changed_at) {
    if (status_ != TableStatus::playing || !seats_.played_by_bot(game_.state().to_act())) return;
    bots_.after(
        shared_from_this(),
        std::chrono::milliseconds(std::max<UnixMs>(0, changed_at + kBotTakeoverMs - unix_now_ms())),
        [this, version = version_] {
            if (!retired() && version_ == version) schedule_bot();
        });
}

}  // namespace gcor::server
