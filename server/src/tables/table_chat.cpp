// A table's chat: lines from its seats and spectators, stored with the table, sent to every
// follower who has not muted the writer; older lines page by page; an admin's deletion.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <string>

#include "tables/table.hpp"

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

// {"type":…,"table":…} followed by `members`.
Json table_message(const char* type, const std::string& table, const Json& members) {
    Json json{{"type", type}, {"table", table}};
    for (const auto& [key, value] : members.items())
        json[key] = value;
    return json;
}

}  // namespace

void Table::chat(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::requests::Chat& request, Recheck& recheck) {
    const auto seat = seats_.seat_of(user);
    // Refused lines do not count against the rate: only a line that may be written takes one.
    if (const auto refused = chat_.refusal(seat, followers_.follows(*peer))) {
        // A seat taken on another server may not be known here yet.
        if (chat_.refusal_may_lift(seat) && recheck.read_first()) return;
        return error(peer, refused->first, refused->second, request.id);
    }
    if (const auto wait = services_.chat.take_line(user.id, Clock::now()))
        return error(peer, ErrorCode::rate_limited,
                     "at most 5 chat lines in 10 seconds: wait " +
                         std::to_string((wait->count() + 999) / 1000) + " s",
                     request.id);
    const StoredChatLine line = chat_.new_line(user, seat, request.text, unix_now_ms());
    services_.store.append_chat(
        id(), line, [self = shared_from_this(), peer, line, request_id = request.id](bool ok) {
            net::post(self->strand_, [self, peer, line, request_id, ok] {
                if (!ok)
                    return self->error(peer, ErrorCode::storage_failed,
                                       "the server could not save this chat line; try again",
                                       request_id);
                self->chat_.keep(line);
                Json json = table_message("chat", self->id(), ChatLines::line_json(line));
                self->followers_.send(
                    make_message(json.dump()), [&](const Viewer& viewer, const Peer& follower) {
                        return &follower != peer.get() && self->chat_.reads(viewer.user, line.user);
                    });
                send_json_reply(*peer, std::move(json), request_id);
            });
        });
}

void Table::chat_history(const std::shared_ptr<Peer>& peer, const User& user,
                         const protocol::requests::ChatHistory& request, Recheck& recheck) {
    if (!seats_.seat_of(user) && !settings_.spectators)
        return refuse_on_copy(peer, recheck, ErrorCode::spectators_not_allowed,
                              "this table takes no spectators", request.id);
    // A store read: on the blocking pool, never on the table's strand.
    net::post(services_.blocking, [self = shared_from_this(), peer, reader = user.id,
                                   before = request.before, limit = request.limit,
                                   request_id = request.id] {
        std::vector<StoredChatLine> page;
        try {
            page = self->services_.store.chat_lines(self->id(), before,
                                                    static_cast<std::size_t>(limit));
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read its chat: {}", self->id(), failure.what());
            return self->error(peer, ErrorCode::storage_failed,
                               "the server could not read this table's chat", request_id);
        }
        Json lines = self->chat_.readable(reader, page);
        // A full page that does not start at line 1 may have older lines before it.
        const bool more =
            page.size() == static_cast<std::size_t>(limit) && !page.empty() && page.front().n > 1;
        send_json_reply(*peer,
                        table_message("chat_history", self->id(),
                                      Json{{"lines", std::move(lines)}, {"more", more}}),
                        request_id);
    });
}

void Table::delete_chat(const std::shared_ptr<Peer>& peer, const User& user,
                        const protocol::requests::DeleteChat& request) {
    if (!services_.chat.is_admin(user))
        return error(peer, ErrorCode::forbidden, "only an admin deletes chat lines", request.id);
    if (!chat_.numbered(request.line))
        return error(peer, ErrorCode::not_found,
                     "no chat line " + std::to_string(request.line) + " at this table", request.id);
    services_.store.delete_chat(
        id(), request.line,
        [self = shared_from_this(), peer, n = request.line, request_id = request.id](bool ok) {
            net::post(self->strand_, [self, peer, n, request_id, ok] {
                if (!ok)
                    return self->error(peer, ErrorCode::storage_failed,
                                       "the server could not delete the line; try again",
                                       request_id);
                spdlog::info("table {}: chat line {} deleted by an admin", self->id(), n);
                self->chat_.remove(n);
                Json json = table_message("chat_deleted", self->id(), Json{{"n", n}});
                self->followers_.send(
                    make_message(json.dump()),
                    [&](const Viewer&, const Peer& follower) { return &follower != peer.get(); });
                send_json_reply(*peer, std::move(json), request_id);
            });
        });
}

void Table::read_chat_line(std::uint64_t n) {
    if (chat_.knows(n)) return;
    // A store read: on the blocking pool, never on the table's strand.
    net::post(services_.blocking, [self = shared_from_this(), n] {
        std::vector<StoredChatLine> lines;
        try {
            lines = self->services_.store.chat_lines(self->id(), n + 1, 1);
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read another server's chat line: {}", self->id(),
                          failure.what());
            return;
        }
        if (lines.empty() || lines.front().n != n) return;  // deleted meanwhile
        net::post(self->strand_, [self, line = std::move(lines.front())] {
            if (!self->chat_.heard(line)) return;
            self->followers_.send(
                make_message(table_message("chat", self->id(), ChatLines::line_json(line)).dump()),
                [&](const Viewer& viewer, const Peer&) {
                    return self->chat_.reads(viewer.user, line.user);
                });
        });
    });
}

void Table::on_chat_deleted(std::uint64_t n) {
    chat_.remove(n);
    broadcast(table_message("chat_deleted", id(), Json{{"n", n}}));
}

}  // namespace gcor::server
