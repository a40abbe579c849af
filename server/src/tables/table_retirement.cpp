#include "tables/table_retirement.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "tables/table.hpp"

namespace gcor::server {

void TableRetirement::when_ready(std::function<void()> work) {
    when_ready<std::function<void()>>(std::move(work));
}

void TableRetirement::retire() {
    pipeline_.retire();
    bots_.cancel();
    host_.forget(table_id_, table_);
}

void TableRetirement::retire_after_failure(bool conflict) {
    if (conflict) {
        spdlog::info("table {}: another server changed it first; it reloads from the store",
                     table_id_);
    } else {
        spdlog::error("table {}: a change could not be stored; the table reloads from the store",
                      table_id_);
    }
    retire();
    hand_viewers_over();
}

void TableRetirement::retire_closed() {
    retire();
    closed_ = true;
    views_.announce();
    followers_.take();
}

void TableRetirement::close(std::function<void(bool closed)> then) {
    writes_.remove(table_id_, [this, then = std::move(then)](Written written) {
        if (written != Written::committed) {
            retire_after_failure(written == Written::conflict);
            return then(false);
        }
        spdlog::info("table {} closed: nobody sits at it", table_id_);
        closed_ = true;  // what `then` tells says so
        then(true);
        // Requests held back meanwhile find the table retired and ask the lobby: not found.
        retire_closed();
    });
}

void TableRetirement::hand_viewers_over() {
    if (followers_.live().empty()) return;
    host_.find(table_id_, [viewers = followers_.take()](FoundTable found) {
        // Unreadable too: the followers learn of the table again at their next request to it.
        const std::shared_ptr<Table> reloaded = std::move(found.table);
        if (!reloaded) return;
        boost::asio::post(reloaded->strand(), [reloaded, viewers] {
            reloaded->when_ready([reloaded, viewers] { reloaded->retirement().welcome(viewers); });
        });
    });
}

void TableRetirement::welcome(const std::vector<Followers::Viewer>& viewers) {
    for (const Followers::Viewer& viewer : viewers)
        if (const auto peer = viewer.peer.lock()) {
            followers_.follow(peer, viewer.seat, viewer.user);
            views_.send_state(peer, viewer.seat, viewer.user);
        }
}

void TableRetirement::unload_if_idle(Clock::duration idle) {
    if (pipeline_.stage() != CommitPipeline::Stage::ready || Clock::now() - last_used_ < idle)
        return;
    if (!followers_.live().empty()) return;
    if (status_ == TableStatus::playing && seats_.played_by_bot(game_.state().to_act()))
        return;  // moving on
    spdlog::debug("table {} unloaded (idle)", table_id_);
    retire();
}

}  // namespace gcor::server
