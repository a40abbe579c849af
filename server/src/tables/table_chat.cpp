// A table's chat: lines from its seats and spectators, stored with the table, sent to every
// follower who has not muted the writer; older lines page by page; an admin's deletion.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <string>

#include "chat/chat_limits.hpp"
#include "leagues/leagues.hpp"
#include "tables/table.hpp"

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

// A line as every message carries it: {"n","from":{"user","name","seat"},"text","at"}.
Json line_json(const StoredChatLine& line) {
    return Json{{"n", line.n},
                {"from", Json{{"user", line.user},
                              {"name", line.name},
                              {"seat", line.seat ? Json(*line.seat) : Json()}}},
                {"text", line.text},
                {"at", line.at}};
}

// {"type":…,"table":…} followed by `members`.
Json table_message(const char* type, const std::string& table, const Json& members) {
    Json json{{"type", type}, {"table", table}};
    for (const auto& [key, value] : members.items())
        json[key] = value;
    return json;
}

}  // namespace

std::optional<std::pair<ErrorCode, const char*>> Table::chat_refusal(
    std::optional<engine::Seat> seat, const Peer& peer) const {
    using protocol::ChatSetting;
    if (settings_.chat == ChatSetting::off)
        return std::pair(ErrorCode::chat_not_allowed, "this table's chat is off");
    if (seat) return std::nullopt;
    if (!settings_.spectators)
        return std::pair(ErrorCode::spectators_not_allowed, "this table takes no spectators");
    if (settings_.chat == ChatSetting::players)
        return std::pair(ErrorCode::chat_not_allowed,
                         "only the players write in this table's chat; spectators read it");
    // A spectator is one who watches: a line comes from where the answers to it are read.
    if (!follows(peer))
        return std::pair(ErrorCode::chat_not_allowed,
                         "watch the table to write in its chat (send watch first)");
    return std::nullopt;
}

bool Table::follows(const Peer& peer) const {
    return std::ranges::any_of(
        viewers_, [&](const Viewer& viewer) { return viewer.peer.lock().get() == &peer; });
}

Json Table::recent_chat_for(std::uint64_t user) const {
    Json lines = Json::array();
    for (const StoredChatLine& line : recent_chat_)
        if (!services_.mutes.muted(user, line.user)) lines.push_back(line_json(line));
    return lines;
}

void Table::chat(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::requests::Chat& request, Recheck& recheck) {
    const auto seat = seat_of(user);
    // Refused lines do not count against the rate: only a line that may be written takes one.
    if (const auto refused = chat_refusal(seat, *peer)) {
        // A seat taken on another server may not be known here yet.
        if (!seat && settings_.chat != protocol::ChatSetting::off && recheck.read_first()) return;
        return error(peer, refused->first, refused->second, request.id);
    }
    if (const auto wait = services_.chat_limiter.take(user.id, Clock::now()))
        return error(peer, ErrorCode::rate_limited,
                     "at most 5 chat lines in 10 seconds: wait " +
                         std::to_string((wait->count() + 999) / 1000) + " s",
                     request.id);
    const StoredChatLine line{++last_chat_n_, user.id,
                              user.name,      seat ? std::optional<int>(*seat) : std::nullopt,
                              request.text,   unix_now_ms()};
    services_.store.append_chat(
        id(), line, [self = shared_from_this(), peer, line, request_id = request.id](bool ok) {
            net::post(self->strand_, [self, peer, line, request_id, ok] {
                if (!ok)
                    return self->error(peer, ErrorCode::storage_failed,
                                       "the server could not save this chat line; try again",
                                       request_id);
                self->recent_chat_.push_back(line);
                if (self->recent_chat_.size() > kRecentChatLines)
                    self->recent_chat_.erase(self->recent_chat_.begin());
                Json json = table_message("chat", self->id(), line_json(line));
                self->send_to_viewers(
                    make_message(json.dump()), [&](const Viewer& viewer, const Peer& follower) {
                        return &follower != peer.get() &&
                               !self->services_.mutes.muted(viewer.user, line.user);
                    });
                send_json_reply(*peer, std::move(json), request_id);
            });
        });
}

void Table::chat_history(const std::shared_ptr<Peer>& peer, const User& user,
                         const protocol::requests::ChatHistory& request, Recheck& recheck) {
    if (!seat_of(user) && !settings_.spectators)
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
        Json lines = Json::array();
        for (const StoredChatLine& line : page)
            if (!self->services_.mutes.muted(reader, line.user)) lines.push_back(line_json(line));
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
    if (!services_.leagues.is_admin(user))
        return error(peer, ErrorCode::forbidden, "only an admin deletes chat lines", request.id);
    if (request.line > last_chat_n_)
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
                std::erase_if(self->recent_chat_,
                              [n](const StoredChatLine& line) { return line.n == n; });
                Json json = table_message("chat_deleted", self->id(), Json{{"n", n}});
                self->send_to_viewers(
                    make_message(json.dump()),
                    [&](const Viewer&, const Peer& follower) { return &follower != peer.get(); });
                send_json_reply(*peer, std::move(json), request_id);
            });
        });
}

void Table::read_chat_line(std::uint64_t n) {
    if (std::ranges::any_of(recent_chat_, [n](const StoredChatLine& line) { return line.n == n; }))
        return;
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
            auto& recent = self->recent_chat_;
            if (std::ranges::any_of(recent, [&](const StoredChatLine& l) { return l.n == line.n; }))
                return;
            // In number order: lines written at once on two servers may be heard out of order.
            recent.insert(std::ranges::upper_bound(recent, line.n, {}, &StoredChatLine::n), line);
            if (recent.size() > kRecentChatLines) recent.erase(recent.begin());
            self->last_chat_n_ = std::max(self->last_chat_n_, line.n);
            self->send_to_viewers(
                make_message(table_message("chat", self->id(), line_json(line)).dump()),
                [&](const Viewer& viewer, const Peer&) {
                    return !self->services_.mutes.muted(viewer.user, line.user);
                });
        });
    });
}

void Table::on_chat_deleted(std::uint64_t n) {
    std::erase_if(recent_chat_, [n](const StoredChatLine& line) { return line.n == n; });
    broadcast(table_message("chat_deleted", id(), Json{{"n", n}}));
}

}  // namespace gcor::server
