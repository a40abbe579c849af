// A move that comes with its row's news while the table is in step is applied at once, and the
// row gives the revision and the deadline; otherwise the table reads what it lacks from the store.
// Moves reach followers as patches, one per move; anything else (seats, the start, a forfeit, a
// deadline moved by a vacation) reloads the table from the store, and its followers get a snapshot.
#include "tables/news_reader.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <ranges>
#include <span>
#include <utility>

#include "tables/stored_game.hpp"

namespace gcor::server {

void NewsReader::on_news(const StoreNews& news) {
    if (pipeline_.retired()) return;
    switch (news.kind) {
        case StoreNews::Kind::chat:
            if (news.chat_deleted) return chat_.on_chat_deleted(news.chat_line);
            return chat_.read_chat_line(news.chat_line);
        case StoreNews::Kind::table:
            // Rows written without a revision (a league's new tables) are read whatever it
            // says; the row of a move applied from its news is awaited.
            if (!news.removed && news.revision != 0 &&
                news.revision <= target_.news_copy().revision && pipeline_.rows_awaited() == 0)
                return;
            // After a change of this process's own that is being committed.
            return target_.when_ready([this, news] {
                if (pipeline_.retired()) return;
                if (!news.move.empty() && !on_move(news.move)) return;
                if (!pipeline_.retired() && !on_row(news)) read();
            });
        case StoreNews::Kind::vacation:
        case StoreNews::Kind::blocks:
        case StoreNews::Kind::preferences:
        case StoreNews::Kind::missed:
            return read();
    }
}

void NewsReader::reread(Work then) {
    pipeline_.after_next_read(std::move(then));
    read();
}

bool NewsReader::on_move(std::string_view news) {
    const std::optional<StoredMove> move = read_move_news(news);
    if (!move) {
        spdlog::warn("table {}: a move's news not understood: {:.80}", table_id_, news);
        read();
        return false;
    }
    const NewsTarget::Copy copy = target_.news_copy();
    if (move->seq <= copy.version) return true;  // known; its row may not be
    if (pipeline_.reading()) {
        pipeline_.request_read();  // the read under way may have been made before this move
        return false;
    }
    if (move->seq != copy.version + 1 || copy.status != TableStatus::playing) {
        read();
        return false;
    }
    if (pipeline_.rows_awaited() == 0) before_news_ = {copy.status, copy.to_act};
    if (!apply(*move)) return false;
    pipeline_.move_heard();
    return true;
}

bool NewsReader::on_row(const StoreNews& news) {
    const NewsTarget::Copy copy = target_.news_copy();
    // The row of the one move applied from its news: nothing else changed with it.
    if (news.removed || pipeline_.rows_awaited() != 1 || news.version != copy.version ||
        news.revision != copy.revision || news.status != copy.status)
        return false;
    accept_row(news.revision, news.deadline, before_news_);
    return true;
}

void NewsReader::accept_row(std::uint64_t revision, std::optional<UnixMs> deadline, Before before) {
    pipeline_.row_heard();
    target_.in_step({revision, deadline, before.status, before.to_act, last_move_at_});
}

void NewsReader::read() {
    // One under way: the rereads wait for the next read, as this one may be older.
    if (!pipeline_.request_read()) return;
    auto rereads = std::make_shared<std::vector<Work>>(pipeline_.take_rereads());
    // Only the moves this table lacks: a table's whole log would cost every follower's node a
    // read of every move each move.
    target_.read_since(target_.news_copy().version,
                       [this, rereads](bool read, const std::optional<LoadedTable>& stored) {
                           const bool read_again = pipeline_.read_finished();
                           if (read) catch_up(stored);
                           if (read_again && !pipeline_.retired()) this->read();
                           // A retired table reads no more: its requests find the table loaded
                           // again. When the store could not be read, they are answered from
                           // this copy.
                           if (pipeline_.retired())
                               std::ranges::move(pipeline_.take_rereads(),
                                                 std::back_inserter(*rereads));
                           for (const auto& again : *rereads)
                               again();
                       });
}

void NewsReader::catch_up(const std::optional<LoadedTable>& stored) {
    if (pipeline_.retired()) return;
    if (!stored) {
        spdlog::info("table {} closed on another server", table_id_);
        return target_.retire_closed();
    }
    const StoredTable& row = stored->table;
    const NewsTarget::Copy copy = target_.news_copy();
    if (row.revision != 0 && row.revision <= copy.revision) {
        // Nothing this table lacks but, for moves applied from their news, their row.
        if (pipeline_.rows_awaited() && row.revision == copy.revision &&
            row.version == copy.version)
            accept_row(row.revision, row.deadline, before_news_);
        return;
    }
    // The moves read are those after the version the table had when it asked; its own moves
    // committed since are among them.
    const std::vector<StoredMove>& read = stored->moves;
    const auto lacking =
        std::ranges::find_if(read, [&](const StoredMove& move) { return move.seq > copy.version; });
    const std::span<const StoredMove> moves(lacking, read.end());
    // Only moves changed: those lacking follow this table's version up to the row's (none when
    // they came with their news, and only their row is lacking).
    const bool in_order =
        moves.empty() ? pipeline_.rows_awaited() > 0 && row.version == copy.version
                      : moves.front().seq == copy.version + 1 && moves.back().seq == row.version;
    const bool moves_only = copy.status == TableStatus::playing &&
                            row.status != TableStatus::waiting && target_.seated_as(row.seats) &&
                            in_order;
    if (!moves_only) return target_.reload(row);

    const Before before =
        pipeline_.rows_awaited() > 0 ? before_news_ : Before{copy.status, copy.to_act};
    for (const StoredMove& change : moves)
        if (!apply(change)) return;
    accept_row(row.revision, row.deadline, before);
}

bool NewsReader::apply(const StoredMove& change) {
    if (!target_.apply_stored_change(change)) return false;
    // An undo does not start a turn's clock again: a bot taking over waits from the last move.
    if (change.move != kUndoText) last_move_at_ = change.at;
    return true;
}

}  // namespace gcor::server
