// A table's seats as the store keeps them and back: a bot named after its seat, a forfeited
// person, a kept seat with its invitation, what a stored seat this server does not know says, and
// the forfeited seats of a result.
#include "tables/stored_seats.hpp"

#include <catch2/catch.hpp>

#include "tables/table_record.hpp"

namespace gcor::server {

TEST_CASE("stored seats: stored and restored alike, names fixed at the start", "[server]") {
    TableSeats seats(3);
    seats.seat_person(0, User{7, "ann"});
    seats.seat_bot(1, engine::BotKind::greedy);
    seats.seat_person(2, User{9, "cy"});
    seats.forfeit(2);
    const std::vector<StoredSeat> stored = stored_seats(seats);
    REQUIRE(stored.size() == 3);
    CHECK(stored[0] == StoredSeat{SeatKind::human, 7, "ann", "", false});
    CHECK(stored[1].kind == SeatKind::bot);
    CHECK(stored[1].bot == "greedy");
    CHECK(stored[1].name == bot_name(1, engine::BotKind::greedy));
    CHECK(stored[2].forfeited);

    TableSeats restored(3);
    CHECK_FALSE(restore_seats(restored, stored));
    CHECK(stored_seats(restored) == stored);
    CHECK(restored.played_by_bot(2));
    restored.name_players();
    CHECK(restored.names() ==
          std::vector<std::string>{"ann", bot_name(1, engine::BotKind::greedy), "cy"});
}

TEST_CASE("stored seats: a stored seat this server cannot play is refused with its reason",
          "[server]") {
    TableSeats seats(2);
    CHECK(restore_seats(seats, {StoredSeat{}}) == "it has 1 seats");
    const auto refused =
        restore_seats(seats, {StoredSeat{SeatKind::bot, 0, "x", "oracle", false}, StoredSeat{}});
    REQUIRE(refused);
    CHECK(refused->find("oracle") != std::string::npos);
}

TEST_CASE("stored seats: a kept seat is stored with its invitation and restored alike",
          "[server][invite]") {
    TableSeats seats(2);
    seats.seat_person(0, User{7, "ann"});
    seats.reserve(1, User{8, "ben"}, 7, 1234);
    const std::vector<StoredSeat> stored = stored_seats(seats);
    CHECK(stored[1] == StoredSeat{SeatKind::reserved, 8, "ben", "", false, 7, 1234});
    CHECK(stored[0].invited_by == 0);
    TableSeats restored(2);
    CHECK_FALSE(restore_seats(restored, stored));
    CHECK(stored_seats(restored) == stored);
    CHECK(restored.reserved_for(8) == engine::Seat{1});
    CHECK(restored[1].invited_by == 7);
}

TEST_CASE("stored seats: the forfeited seats as a result lists them", "[server]") {
    TableSeats seats(3);
    seats.seat_person(0, User{7, "ann"});
    seats.seat_bot(1, engine::BotKind::greedy);
    seats.seat_person(2, User{9, "cy"});
    CHECK(forfeited_seats_json(seats) == protocol::Json::array());
    seats.forfeit(2);
    seats.forfeit(0);
    CHECK(forfeited_seats_json(seats) == protocol::Json::array({0, 2}));
}

}  // namespace gcor::server
