#include "tables/chat_lines.hpp"

#include <algorithm>

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

void ChatLines::restore(std::vector<StoredChatLine> recent, std::uint64_t last_n) {
    recent_ = std::move(recent);
    last_n_ = last_n;
}

std::optional<ChatLines::Refusal> ChatLines::refusal(std::optional<engine::Seat> seat,
                                                     bool follows) const {
    using protocol::ChatSetting;
    if (setting_ == ChatSetting::off)
        return Refusal(ErrorCode::chat_not_allowed, "this table's chat is off");
    if (seat) return std::nullopt;
    if (!spectators_)
        return Refusal(ErrorCode::spectators_not_allowed, "this table takes no spectators");
    if (setting_ == ChatSetting::players)
        return Refusal(ErrorCode::chat_not_allowed,
                       "only the players write in this table's chat; spectators read it");
    // A spectator is one who watches: a line comes from where the answers to it are read.
    if (!follows)
        return Refusal(ErrorCode::chat_not_allowed,
                       "watch the table to write in its chat (send watch first)");
    return std::nullopt;
}

StoredChatLine ChatLines::new_line(const User& writer, std::optional<engine::Seat> seat,
                                   std::string text, UnixMs at) {
    return StoredChatLine{++last_n_,       writer.id,
                          writer.name,     seat ? std::optional<int>(*seat) : std::nullopt,
                          std::move(text), at};
}

void ChatLines::keep(const StoredChatLine& line) {
    recent_.push_back(line);
    bound();
}

bool ChatLines::heard(const StoredChatLine& line) {
    if (knows(line.n)) return false;
    // In number order: lines written at once on two servers may be heard out of order.
    recent_.insert(std::ranges::upper_bound(recent_, line.n, {}, &StoredChatLine::n), line);
    bound();
    last_n_ = std::max(last_n_, line.n);
    return true;
}

bool ChatLines::knows(std::uint64_t n) const {
    return std::ranges::any_of(recent_, [n](const StoredChatLine& line) { return line.n == n; });
}

void ChatLines::remove(std::uint64_t n) {
    std::erase_if(recent_, [n](const StoredChatLine& line) { return line.n == n; });
}

std::vector<std::uint64_t> ChatLines::remove_lines_of(std::uint64_t writer) {
    std::vector<std::uint64_t> removed;
    for (const StoredChatLine& line : recent_)
        if (line.user == writer) removed.push_back(line.n);
    std::erase_if(recent_, [writer](const StoredChatLine& line) { return line.user == writer; });
    return removed;
}

Json ChatLines::readable(std::uint64_t reader, const std::vector<StoredChatLine>& lines) const {
    Json json = Json::array();
    for (const StoredChatLine& line : lines)
        if (reads(reader, line.user)) json.push_back(line_json(line));
    return json;
}

Json ChatLines::line_json(const StoredChatLine& line) {
    return Json{{"n", line.n},
                {"from", Json{{"user", line.user},
                              {"name", line.name},
                              {"seat", line.seat ? Json(*line.seat) : Json()}}},
                {"text", line.text},
                {"at", line.at}};
}

void ChatLines::bound() {
    if (recent_.size() > kRecentChatLines) recent_.erase(recent_.begin());
}

}  // namespace gcor::server
