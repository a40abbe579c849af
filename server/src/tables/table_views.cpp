#include "tables/table_views.hpp"

#include <vector>

#include "gcor/protocol/view_json.hpp"
#include "tables/table.hpp"

namespace gcor::server {

using protocol::Json;

void TableViews::broadcast(const Json& json) {
    followers_.send_to_all(make_message(json.dump()));
}

namespace {

Json table_message(Json summary) {
    return Json{{"type", "table"}, {"table", std::move(summary)}};
}

}  // namespace

void TableViews::broadcast_summary() {
    broadcast(table_message(summary_()));
}

void TableViews::publish() {
    host_.publish(is_public_, summary_);
}

void TableViews::announce() {
    const Json summary = summary_();
    broadcast(table_message(summary));
    host_.publish(is_public_, [&] { return summary; });
}

std::string TableViews::snapshot(std::optional<engine::Seat> seat, std::uint64_t user,
                                 const Json& summary, const Json& request_id) const {
    const std::vector<engine::Event> recent = game_.moves().recent_events();
    engine::View view;
    engine::view_for(game_.game(), seat, view);
    return protocol::snapshot_message(
        {table_id_, game_.version(), seat, summary, view, recent, chat_.recent_for(user)},
        request_id);
}

void TableViews::send_state(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                            std::uint64_t user, const Json& request_id) const {
    std::string text;
    if (status_ != TableStatus::waiting) {
        text = snapshot(seat, user, summary_(), request_id);
    } else {
        Json state = table_message(summary_());
        if (!request_id.is_null()) state["id"] = request_id;
        text = state.dump();
    }
    Message message = make_message(std::move(text));
    if (request_id.is_null()) return peer->send(std::move(message));
    peer->send_reply(std::move(message), request_id);
}

void TableViews::resend_state(const std::shared_ptr<Peer>& peer) const {
    if (const auto viewer = followers_.viewer_of(peer)) {
        metrics_.snapshots_for_slow_readers.fetch_add(1);
        send_state(peer, viewer->seat, viewer->user);
    }
}

}  // namespace gcor::server
