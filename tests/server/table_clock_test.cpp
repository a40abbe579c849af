// A table's clock on its own: deadlines of real-time and correspondence turns, a vacation that
// pushes one back, a restored table's turn start, and the deadline worked out again.
#include <catch2/catch.hpp>

#include "accounts/vacation_time.hpp"
#include "tables/turn_clock.hpp"
#include "vacation_support.hpp"

namespace gcor::server {
namespace {

using Kind = protocol::TimeControl::Kind;

protocol::TimeControl realtime_minute() {
    return {.kind = Kind::realtime, .seconds = 60};
}
protocol::TimeControl two_days() {
    return {.kind = Kind::correspondence, .days = 2};
}

}  // namespace

TEST_CASE("turn clock: a real-time turn runs out one turn's time after it began", "[server]") {
    VacationsInStore in;
    TurnClock clock(realtime_minute(), in.vacations());
    const UnixMs now = 1'000'000;
    clock.start_turn(now, 7);
    CHECK(clock.deadline() == now + 60'000);
    CHECK_FALSE(clock.pushed_back());
    CHECK_FALSE(clock.due(now + 59'999));
    CHECK(clock.due(now + 60'000));
    clock.stop();
    CHECK_FALSE(clock.due(now + 120'000));
    clock.start_turn(now, std::nullopt);  // a bot's turn
    CHECK_FALSE(clock.deadline());
    CHECK_FALSE(clock.recount(7));  // vacations do not stop a real-time clock

    TurnClock untimed(protocol::TimeControl{}, in.vacations());
    untimed.start_turn(now, 7);
    CHECK_FALSE(untimed.deadline());
}

TEST_CASE("turn clock: a vacation pushes a correspondence deadline back", "[server]") {
    VacationsInStore in;
    const std::uint64_t ann = in.store().create_guest("Ann").id;
    const std::uint64_t bob = in.store().create_guest("Bob").id;
    TurnClock clock(two_days(), in.vacations());
    const UnixMs now = unix_now_ms();
    clock.start_turn(now, bob);
    CHECK(clock.deadline() == now + 2 * kDayMs);
    CHECK_FALSE(clock.pushed_back());

    clock.start_turn(now, ann);
    REQUIRE(in.vacations().declare(ann, std::nullopt, now + kDayMs, now));
    CHECK(clock.recount(ann));  // the vacation began during the turn
    CHECK(clock.deadline() > now + 2 * kDayMs);
    CHECK(clock.pushed_back());
    CHECK_FALSE(clock.recount(ann));  // nothing changed since

    clock.start_turn(now + 1, ann);  // a turn that begins during the vacation
    CHECK(clock.pushed_back());
    clock.set_deadline(now + 1 + 2 * kDayMs);  // as the row says
    CHECK_FALSE(clock.pushed_back());
}

TEST_CASE("turn clock: no deadline lies past a tournament round's deadline", "[server]") {
    VacationsInStore in;
    const UnixMs now = 1'000'000;
    const UnixMs round_ends = now + 30'000;
    TurnClock clock(realtime_minute(), in.vacations(), round_ends);
    clock.start_turn(now - 60'000, 7);  // a turn that began long before: its own time counts
    CHECK(clock.deadline() == now);
    clock.start_turn(now, 7);
    CHECK(clock.deadline() == round_ends);
    CHECK(clock.due(round_ends));
    // A turn that begins after the round's deadline is out of time at once (and forfeits).
    clock.start_turn(round_ends + 5'000, 7);
    CHECK(clock.deadline() == round_ends);
    CHECK(clock.due(round_ends + 5'000));
    clock.start_turn(round_ends + 5'000, std::nullopt);  // a bot's turn has none
    CHECK_FALSE(clock.deadline());

    // A vacation does not push a correspondence deadline past the round's either.
    const std::uint64_t ann = in.store().create_guest("Ann").id;
    const UnixMs today = unix_now_ms();
    TurnClock days(two_days(), in.vacations(), today + 3 * kDayMs);
    days.start_turn(today, ann);
    CHECK(days.deadline() == today + 2 * kDayMs);
    REQUIRE(in.vacations().declare(ann, std::nullopt, today + 5 * kDayMs, today));
    CHECK(days.recount(ann));
    CHECK(days.deadline() == today + 3 * kDayMs);
}

TEST_CASE("turn clock: a restored turn began at its last move that is not an undo", "[server]") {
    VacationsInStore in;
    TurnClock clock(two_days(), in.vacations());
    const UnixMs moved = unix_now_ms() - kDayMs;
    const std::vector<StoredMove> moves{{1, 0, "m1", "", moved - kDayMs, MovedBy::player},
                                        {2, 1, "m2", "", moved, MovedBy::player},
                                        {3, 1, "undo", "", moved + 1000, MovedBy::player}};
    // A deadline stored a minute off: working it out again counts from the move.
    clock.restore(moved + 2 * kDayMs + 60'000, moves, 7);
    CHECK(clock.recount(7));
    CHECK(clock.deadline() == moved + 2 * kDayMs);

    // The game's first turn: its deadline tells when it began.
    TurnClock first(realtime_minute(), in.vacations());
    first.restore(5'000'000, {}, 7);
    first.set_deadline(first.deadline());
    CHECK_FALSE(first.pushed_back());
    TurnClock none(two_days(), in.vacations());
    none.restore(std::nullopt, moves, 7);
    CHECK_FALSE(none.deadline());
}

}  // namespace gcor::server
