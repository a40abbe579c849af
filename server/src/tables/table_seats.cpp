#include "tables/table_seats.hpp"

#include "tables/table_record.hpp"

namespace gcor::server {

std::optional<engine::Seat> TableSeats::seat_of(std::uint64_t user) const {
    for (int seat = 0; seat < players_; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind == SeatKind::human && info.user.id == user)
            return static_cast<engine::Seat>(seat);
    }
    return std::nullopt;
}

bool TableSeats::played_by_bot(engine::Seat seat) const {
    return seats_[seat].kind == SeatKind::bot || seats_[seat].forfeited;
}

engine::BotKind TableSeats::bot_for(engine::Seat seat) const {
    return seats_[seat].kind == SeatKind::bot ? seats_[seat].bot : engine::BotKind::strong;
}

std::optional<engine::Seat> TableSeats::first_open() const {
    for (int seat = 0; seat < players_; ++seat)
        if (seats_[static_cast<std::size_t>(seat)].kind == SeatKind::open)
            return static_cast<engine::Seat>(seat);
    return std::nullopt;
}

bool TableSeats::full() const {
    for (int seat = 0; seat < players_; ++seat) {
        const SeatKind kind = seats_[static_cast<std::size_t>(seat)].kind;
        if (kind != SeatKind::human && kind != SeatKind::bot) return false;
    }
    return true;
}

std::optional<engine::Seat> TableSeats::reserved_for(std::uint64_t user) const {
    for (int seat = 0; seat < players_; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind == SeatKind::reserved && info.user.id == user)
            return static_cast<engine::Seat>(seat);
    }
    return std::nullopt;
}

bool TableSeats::may_take(engine::Seat seat, std::uint64_t user) const {
    const SeatInfo& info = seats_[seat];
    return info.kind == SeatKind::open || (info.kind == SeatKind::reserved && info.user.id == user);
}

bool TableSeats::has_reservations() const {
    return next_expiry().has_value();
}

std::vector<engine::Seat> TableSeats::expired_invitations(UnixMs now) const {
    std::vector<engine::Seat> expired;
    for (int seat = 0; seat < players_; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind == SeatKind::reserved && info.invited_at + kInvitationLifetimeMs <= now)
            expired.push_back(static_cast<engine::Seat>(seat));
    }
    return expired;
}

std::optional<UnixMs> TableSeats::next_expiry() const {
    std::optional<UnixMs> next;
    for (int seat = 0; seat < players_; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind != SeatKind::reserved) continue;
        const UnixMs expires = info.invited_at + kInvitationLifetimeMs;
        if (!next || expires < *next) next = expires;
    }
    return next;
}

bool TableSeats::has_people() const {
    for (int seat = 0; seat < players_; ++seat)
        if (const SeatKind kind = seats_[static_cast<std::size_t>(seat)].kind;
            kind == SeatKind::human || kind == SeatKind::reserved)
            return true;
    return false;
}

void TableSeats::seat_bot(engine::Seat seat, engine::BotKind bot) {
    seats_[seat] = SeatInfo{SeatKind::bot, {}, bot, false};
}

void TableSeats::seat_person(engine::Seat seat, const User& user) {
    seats_[seat] = SeatInfo{SeatKind::human, user, {}, false};
}

void TableSeats::reserve(engine::Seat seat, const User& invitee, std::uint64_t host, UnixMs at) {
    seats_[seat] = SeatInfo{SeatKind::reserved, invitee, {}, false, host, at};
}

void TableSeats::rename(engine::Seat seat, const std::string& name) {
    seats_[seat].user.name = name;
    if (seat < names_.size()) names_[seat] = name;
}

void TableSeats::name_players() {
    names_.clear();
    for (int seat = 0; seat < players_; ++seat)
        names_.push_back(name_of(static_cast<engine::Seat>(seat)));
}

std::string TableSeats::name_of(engine::Seat seat) const {
    const SeatInfo& info = seats_[seat];
    return info.kind == SeatKind::bot ? bot_name(seat, info.bot) : info.user.name;
}

}  // namespace gcor::server
