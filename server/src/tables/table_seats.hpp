#pragma once
// A table's seats: who sits where (a person, a bot, or nobody yet), the seats kept for invited
// players, who forfeited, and the players' names for the game. A value on the table's strand.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {

// An invitation not answered in this time expires: its seat is open again.
constexpr UnixMs kInvitationLifetimeMs = 7LL * 24 * 3600 * 1000;

struct SeatInfo {
    SeatKind kind = SeatKind::open;
    User user;  // for a human, and the invited user of a reserved seat
    engine::BotKind bot = engine::BotKind::random;
    bool forfeited = false;        // a human whose time ran out: a bot plays the seat from then on
    std::uint64_t invited_by = 0;  // a reserved seat's host
    UnixMs invited_at = 0;         // when a reserved seat's invitation was made
};

class TableSeats {
  public:
    explicit TableSeats(int players) : players_(players) {}

    int players() const { return players_; }
    const SeatInfo& operator[](engine::Seat seat) const { return seats_[seat]; }

    // The seat of a person, if they sit here.
    std::optional<engine::Seat> seat_of(std::uint64_t user) const;
    std::optional<engine::Seat> seat_of(const User& user) const { return seat_of(user.id); }
    // A bot's seat, or a person's who forfeited: the table moves for it.
    bool played_by_bot(engine::Seat seat) const;
    // The bot that plays the seat: its own, or the strong one for a person who forfeited.
    engine::BotKind bot_for(engine::Seat seat) const;
    std::optional<engine::Seat> first_open() const;
    // Every seat has a person or a bot: none is open or kept for an invited player.
    bool full() const;
    // Whether a person sits or a seat is kept for one: a waiting table without either closes.
    bool has_people() const;

    // The seat kept for `user`'s invitation, if one is.
    std::optional<engine::Seat> reserved_for(std::uint64_t user) const;
    // Whether `user` may take `seat`: it is open, or kept for them.
    bool may_take(engine::Seat seat, std::uint64_t user) const;
    bool has_reservations() const;
    // The reserved seats whose invitation expired at `now`.
    std::vector<engine::Seat> expired_invitations(UnixMs now) const;
    // When the first of the open invitations expires.
    std::optional<UnixMs> next_expiry() const;

    void seat_bot(engine::Seat seat, engine::BotKind bot);
    void seat_person(engine::Seat seat, const User& user);
    // Keeps the seat for `invitee`, invited by `host` at `at`.
    void reserve(engine::Seat seat, const User& invitee, std::uint64_t host, UnixMs at);
    void free(engine::Seat seat) { seats_[seat] = SeatInfo{}; }
    void forfeit(engine::Seat seat) { seats_[seat].forfeited = true; }
    // The person at `seat` is now called `name` (an erased account, a guest registered), in the
    // players' names too.
    void rename(engine::Seat seat, const std::string& name);

    // The seat's player's name: a person's, or a bot's named after its seat. The seats as the
    // store keeps them are stored_seats.hpp's.
    std::string name_of(engine::Seat seat) const;
    // The players' names as the game's start fixes them (turn mails show them).
    void name_players();
    const std::vector<std::string>& names() const { return names_; }

  private:
    int players_;
    std::array<SeatInfo, engine::kMaxPlayers> seats_{};
    std::vector<std::string> names_;
};

}  // namespace gcor::server
