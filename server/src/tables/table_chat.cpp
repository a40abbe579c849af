#include "tables/table_chat.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <string>
#include <vector>

namespace gcor::server {

namespace net = boost::asio;
using protocol::ErrorCode;
using protocol::Json;

void TableChat::write(const std::shared_ptr<Peer>& peer, const User& user,
                      const protocol::requests::Chat& request, Recheck& recheck) {
    const auto seat = seats_.seat_of(user);
    // Refused lines do not count against the rate: only a line that may be written takes one.
    if (const auto refused = lines_.refusal(seat, followers_.follows(*peer))) {
        // A seat taken on another server may not be known here yet.
        if (lines_.refusal_may_lift(seat) && recheck.read_first()) return;
        return refusals_.error(peer, refused->first, refused->second, request.id);
    }
    if (const auto wait = guards_.take_line(user.id, ChatGuards::Clock::now()))
        return refusals_.error(peer, ErrorCode::rate_limited,
                               "at most 5 chat lines in 10 seconds: wait " +
                                   std::to_string((wait->count() + 999) / 1000) + " s",
                               request.id);
    const StoredChatLine line = lines_.new_line(user, seat, request.text, unix_now_ms());
    store_.append_chat(
        table_id_, line, [this, owner = owner_(), peer, line, request_id = request.id](bool ok) {
            net::post(strand_, [this, owner, peer, line, request_id, ok] {
                if (!ok)
                    return refusals_.error(peer, ErrorCode::storage_failed,
                                           "the server could not save this chat line; try "
                                           "again",
                                           request_id);
                lines_.keep(line);
                Json json = message("chat", ChatLines::line_json(line));
                followers_.send(make_message(json.dump()), [&](const Followers::Viewer& viewer,
                                                               const Peer& follower) {
                    return &follower != peer.get() && lines_.reads(viewer.user, line.user);
                });
                send_json_reply(*peer, std::move(json), request_id);
            });
        });
}

void TableChat::history(const std::shared_ptr<Peer>& peer, const User& user,
                        const protocol::requests::ChatHistory& request, Recheck& recheck) {
    if (!seats_.seat_of(user) && !spectators_) {
        if (recheck.read_first()) return;
        return refusals_.error(peer, ErrorCode::spectators_not_allowed,
                               "this table takes no spectators", request.id);
    }
    // A store read: on the blocking pool, never on the table's strand.
    net::post(blocking_, [this, owner = owner_(), peer, reader = user.id, before = request.before,
                          limit = request.limit, request_id = request.id] {
        std::vector<StoredChatLine> page;
        try {
            page = store_.chat_lines(table_id_, before, static_cast<std::size_t>(limit));
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read its chat: {}", table_id_, failure.what());
            return refusals_.error(peer, ErrorCode::storage_failed,
                                   "the server could not read this table's chat", request_id);
        }
        Json lines = lines_.readable(reader, page);
        // A full page that does not start at line 1 may have older lines before it.
        const bool more =
            page.size() == static_cast<std::size_t>(limit) && !page.empty() && page.front().n > 1;
        send_json_reply(*peer,
                        message("chat_history", Json{{"lines", std::move(lines)}, {"more", more}}),
                        request_id);
    });
}

void TableChat::remove(const std::shared_ptr<Peer>& peer, const User& user,
                       const protocol::requests::DeleteChat& request) {
    if (!guards_.is_admin(user))
        return refusals_.error(peer, ErrorCode::forbidden, "only an admin deletes chat lines",
                               request.id);
    if (!lines_.numbered(request.line))
        return refusals_.error(peer, ErrorCode::not_found,
                               "no chat line " + std::to_string(request.line) + " at this table",
                               request.id);
    store_.delete_chat(
        table_id_, request.line,
        [this, owner = owner_(), peer, n = request.line, request_id = request.id](bool ok) {
            net::post(strand_, [this, owner, peer, n, request_id, ok] {
                if (!ok)
                    return refusals_.error(peer, ErrorCode::storage_failed,
                                           "the server could not delete the line; try again",
                                           request_id);
                spdlog::info("table {}: chat line {} deleted by an admin", table_id_, n);
                lines_.remove(n);
                Json json = message("chat_deleted", Json{{"n", n}});
                followers_.send(make_message(json.dump()),
                                [&](const Followers::Viewer&, const Peer& follower) {
                                    return &follower != peer.get();
                                });
                send_json_reply(*peer, std::move(json), request_id);
            });
        });
}

void TableChat::read_chat_line(std::uint64_t n) {
    if (lines_.knows(n)) return;
    // A store read: on the blocking pool, never on the table's strand.
    net::post(blocking_, [this, owner = owner_(), n] {
        std::vector<StoredChatLine> lines;
        try {
            lines = store_.chat_lines(table_id_, n + 1, 1);
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read another server's chat line: {}", table_id_,
                          failure.what());
            return;
        }
        if (lines.empty() || lines.front().n != n) return;  // deleted meanwhile
        net::post(strand_, [this, owner, line = std::move(lines.front())] {
            if (!lines_.heard(line)) return;
            followers_.send(make_message(message("chat", ChatLines::line_json(line)).dump()),
                            [&](const Followers::Viewer& viewer, const Peer&) {
                                return lines_.reads(viewer.user, line.user);
                            });
        });
    });
}

void TableChat::on_chat_deleted(std::uint64_t n) {
    lines_.remove(n);
    followers_.send_to_all(make_message(message("chat_deleted", Json{{"n", n}}).dump()));
}

Json TableChat::message(const char* type, const Json& members) const {
    Json json{{"type", type}, {"table", table_id_}};
    for (const auto& [key, value] : members.items())
        json[key] = value;
    return json;
}

}  // namespace gcor::server
