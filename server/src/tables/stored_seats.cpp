#include "tables/stored_seats.hpp"

namespace gcor::server {

std::vector<StoredSeat> stored_seats(const TableSeats& seats) {
    std::vector<StoredSeat> stored;
    for (int n = 0; n < seats.players(); ++n) {
        const auto seat = static_cast<engine::Seat>(n);
        const SeatInfo& info = seats[seat];
        const bool bot = info.kind == SeatKind::bot;
        stored.push_back(StoredSeat{info.kind, info.user.id, seats.name_of(seat),
                                    bot ? std::string(engine::bot_id(info.bot)) : std::string(),
                                    info.forfeited, info.invited_by, info.invited_at});
    }
    return stored;
}

std::optional<std::string> restore_seats(TableSeats& seats, const std::vector<StoredSeat>& stored) {
    if (stored.size() != static_cast<std::size_t>(seats.players()))
        return "it has " + std::to_string(stored.size()) + " seats";
    for (std::size_t n = 0; n < stored.size(); ++n) {
        const auto seat = static_cast<engine::Seat>(n);
        const StoredSeat& from = stored[n];
        if (from.kind == SeatKind::human) {
            seats.seat_person(seat, User{from.user, from.name});
            if (from.forfeited) seats.forfeit(seat);
        } else if (from.kind == SeatKind::bot) {
            const auto bot = engine::bot_from_id(from.bot);
            if (!bot) return "unknown bot \"" + from.bot + "\"";
            seats.seat_bot(seat, *bot);
        } else if (from.kind == SeatKind::reserved) {
            seats.reserve(seat, User{from.user, from.name}, from.invited_by, from.invited_at);
        }
    }
    return std::nullopt;
}

protocol::Json forfeited_seats_json(const TableSeats& seats) {
    protocol::Json forfeited = protocol::Json::array();
    for (int seat = 0; seat < seats.players(); ++seat)
        if (seats[static_cast<engine::Seat>(seat)].forfeited) forfeited.push_back(seat);
    return forfeited;
}

}  // namespace gcor::server
