// A table's seats on their own: taking and freeing them, who plays a seat, and the seats kept for
// invited players.
#include <catch2/catch.hpp>

#include "tables/table_seats.hpp"

namespace gcor::server {

TEST_CASE("table seats: people sit, the first open seat, full and empty", "[server]") {
    TableSeats seats(3);
    const User ann{7, "ann"};
    CHECK(seats.first_open() == engine::Seat{0});
    CHECK_FALSE(seats.has_people());
    seats.seat_bot(0, engine::BotKind::greedy);
    seats.seat_person(2, ann);
    CHECK(seats.seat_of(ann) == engine::Seat{2});
    CHECK(seats.seat_of(8) == std::nullopt);
    CHECK(seats.first_open() == engine::Seat{1});
    CHECK_FALSE(seats.full());
    seats.seat_person(1, User{8, "bob"});
    CHECK(seats.full());
    seats.free(2);
    CHECK_FALSE(seats.seat_of(ann));
    CHECK(seats.has_people());
    seats.free(1);
    CHECK_FALSE(seats.has_people());  // a bot alone keeps no table
}

TEST_CASE("table seats: a bot plays a bot's seat and a forfeited one, the strong bot for a person",
          "[server]") {
    TableSeats seats(2);
    seats.seat_bot(0, engine::BotKind::greedy);
    seats.seat_person(1, User{7, "ann"});
    CHECK(seats.played_by_bot(0));
    CHECK(seats.bot_for(0) == engine::BotKind::greedy);
    CHECK_FALSE(seats.played_by_bot(1));
    seats.forfeit(1);
    CHECK(seats.played_by_bot(1));
    CHECK(seats.bot_for(1) == engine::BotKind::strong);
}

TEST_CASE("table seats: a seat kept for an invited player, taken only by them",
          "[server][invite]") {
    TableSeats seats(3);
    const User ben{8, "ben"};
    seats.seat_person(0, User{7, "ann"});
    seats.reserve(2, ben, 7, 1000);
    CHECK(seats.reserved_for(8) == engine::Seat{2});
    CHECK_FALSE(seats.reserved_for(9));
    CHECK_FALSE(seats.seat_of(ben));  // kept, not taken
    CHECK(seats.may_take(2, 8));
    CHECK_FALSE(seats.may_take(2, 9));
    CHECK(seats.may_take(1, 9));
    CHECK(seats.first_open() == engine::Seat{1});  // a kept seat is not open to others
    CHECK(seats.has_reservations());
    seats.seat_person(1, User{9, "cy"});
    CHECK_FALSE(seats.first_open());
    CHECK_FALSE(seats.full());  // the invited player has not come yet
    seats.seat_person(2, ben);
    CHECK(seats.full());
    CHECK_FALSE(seats.has_reservations());
    CHECK_FALSE(seats.reserved_for(8));
}

TEST_CASE("table seats: an invitation expires after seven days, the first one first",
          "[server][invite]") {
    TableSeats seats(4);
    seats.seat_person(0, User{7, "ann"});
    CHECK_FALSE(seats.next_expiry());
    seats.reserve(3, User{8, "ben"}, 7, 5000);
    seats.reserve(2, User{9, "cy"}, 7, 2000);
    CHECK(seats.next_expiry() == 2000 + kInvitationLifetimeMs);
    CHECK(seats.expired_invitations(2000 + kInvitationLifetimeMs - 1).empty());
    CHECK(seats.expired_invitations(2000 + kInvitationLifetimeMs) == std::vector<engine::Seat>{2});
    CHECK(seats.expired_invitations(5000 + kInvitationLifetimeMs) ==
          std::vector<engine::Seat>{2, 3});
    seats.free(2);
    CHECK(seats.next_expiry() == 5000 + kInvitationLifetimeMs);
}

}  // namespace gcor::server
