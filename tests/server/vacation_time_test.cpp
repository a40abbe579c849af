#include <catch2/catch.hpp>

#include <vector>

#include "accounts/vacation_time.hpp"
#include "accounts/vacations.hpp"
#include "gcor/store/sqlite_store.hpp"
#include "vacation_support.hpp"

namespace gcor::server {
namespace {

constexpr UnixMs kHourMs = kDayMs / 24;

// 2026-01-01T00:00:00Z.
constexpr UnixMs k2026 = 1'767'225'600'000;

TEST_CASE("calendar years in UTC", "[vacation]") {
    CHECK(year_start(2026) == k2026);
    CHECK(year_start(2027) - year_start(2026) == 365 * kDayMs);
    CHECK(year_start(2025) - year_start(2024) == 366 * kDayMs);  // a leap year
    CHECK(year_of(k2026) == 2026);
    CHECK(year_of(k2026 - 1) == 2025);
    CHECK(year_of(0) == 1970);
}

TEST_CASE("a vacation's days are the 24-hour periods it started, per year", "[vacation]") {
    const UnixMs march = k2026 + 59 * kDayMs;
    CHECK(days_in_year({march, march + 1}, 2026) == 1);
    CHECK(days_in_year({march, march + kDayMs}, 2026) == 1);
    CHECK(days_in_year({march, march + kDayMs + 1}, 2026) == 2);
    CHECK(days_in_year({march, march + 10 * kDayMs}, 2026) == 10);
    CHECK(days_in_year({march, march + 10 * kDayMs}, 2025) == 0);
    CHECK(days_in_year({march, march}, 2026) == 0);
    // Over New Year: each year counts its part.
    const StoredVacation winter{k2026 - 3 * kDayMs - kHourMs, k2026 + 5 * kDayMs};
    CHECK(days_in_year(winter, 2025) == 4);
    CHECK(days_in_year(winter, 2026) == 5);
    CHECK(days_in_year(winter, 2027) == 0);
}

TEST_CASE("a correspondence turn does not run while its player is away", "[vacation]") {
    const UnixMs start = k2026;
    const UnixMs day = kDayMs;
    // No vacation, or only ones before the turn: the plain deadline.
    CHECK(deadline_after(start, 2 * day, {}) == start + 2 * day);
    const std::vector<StoredVacation> before{{start - 5 * day, start - day}};
    CHECK(deadline_after(start, 2 * day, before) == start + 2 * day);
    // A vacation after the deadline changes nothing; one that begins exactly then neither.
    const std::vector<StoredVacation> after{{start + 2 * day, start + 9 * day}};
    CHECK(deadline_after(start, 2 * day, after) == start + 2 * day);
    // One within the turn pushes it back by its length.
    const std::vector<StoredVacation> within{{start + day, start + 4 * day}};
    CHECK(deadline_after(start, 2 * day, within) == start + 5 * day);
    // One that began before the turn: the turn starts when it ends.
    const std::vector<StoredVacation> running{{start - day, start + 3 * day}};
    CHECK(deadline_after(start, 2 * day, running) == start + 5 * day);
    // The extension reaches into a second vacation, which pushes it again.
    const std::vector<StoredVacation> two{{start + day, start + 2 * day},
                                          {start + 2 * day + kHourMs, start + 4 * day}};
    CHECK(deadline_after(start, 2 * day, two) == start + 5 * day - kHourMs);
    // Each inverse finds a start that gives the same deadline.
    for (const auto& away : {before, after, within, running, two}) {
        const UnixMs deadline = deadline_after(start, 2 * day, away);
        const UnixMs found = turn_start_before(deadline, 2 * day, away);
        CHECK(deadline_after(found, 2 * day, away) == deadline);
    }
    CHECK(turn_start_before(start + 5 * day, 2 * day, within) == start);
    CHECK(turn_start_before(start + 2 * day, 2 * day, {}) == start);
}

TEST_CASE("vacations: declared, replaced, ended early, and counted per year", "[vacation]") {
    VacationsInStore in;
    Vacations& vacations = in.vacations();
    const std::uint64_t ann = in.store().create_guest("Ann").id;
    const UnixMs now = unix_now_ms();
    const int year_days = 30;
    CHECK(vacations.state(ann, now).days_per_year == year_days);
    CHECK_FALSE(vacations.state(ann, now).vacation);

    // A coming one, then another that replaces it.
    const UnixMs next_week = now + 7 * kDayMs;
    REQUIRE(vacations.declare(ann, next_week, next_week + 10 * kDayMs, now));
    const auto replaced = vacations.declare(ann, next_week, next_week + 2 * kDayMs, now);
    REQUIRE(replaced);
    CHECK(replaced->vacation == StoredVacation{next_week, next_week + 2 * kDayMs});
    CHECK_FALSE(vacations.away_until(ann, now));
    CHECK(vacations.away_until(ann, next_week) == next_week + 2 * kDayMs);

    // One from now ends the coming one's wait: it runs at once.
    const auto running = vacations.declare(ann, std::nullopt, now + 3 * kDayMs, now);
    REQUIRE(running);
    CHECK(running->vacation == StoredVacation{now, now + 3 * kDayMs});
    CHECK(vacations.away_until(ann, now) == now + 3 * kDayMs);
    // Declared again while it runs: it keeps its start and gets a new end.
    const UnixMs later = now + kHourMs;
    const auto longer = vacations.declare(ann, std::nullopt, now + 4 * kDayMs, later);
    REQUIRE(longer);
    CHECK(longer->vacation == StoredVacation{now, now + 4 * kDayMs});

    // Ended early: it counts until then, and a server started afterwards knows.
    const VacationState ended = vacations.end(ann, later);
    CHECK_FALSE(ended.vacation);
    CHECK_FALSE(vacations.away_until(ann, later));
    const Vacations reopened = in.reopened();
    CHECK_FALSE(reopened.away_until(ann, later));
    CHECK(reopened.state(ann, later).days_left == ended.days_left);
    if (year_of(now) == year_of(later)) CHECK(ended.days_left == year_days - 1);

    // Ending a coming one removes it: it counts for nothing.
    const UnixMs soon = later + kDayMs;
    REQUIRE(vacations.declare(ann, soon, soon + 5 * kDayMs, later));
    CHECK(vacations.end(ann, later).days_left == ended.days_left);
}

TEST_CASE("vacations: refused out of range, beyond the year's days, or when off", "[vacation]") {
    VacationsInStore in;
    Vacations& vacations = in.vacations();
    const std::uint64_t ann = in.store().create_guest("Ann").id;
    const UnixMs now = unix_now_ms();
    auto refusal = [&](std::optional<UnixMs> from, UnixMs to) {
        const auto declared = vacations.declare(ann, from, to, now);
        return declared ? std::string("accepted") : std::string(error_id(declared.error().code));
    };
    CHECK(refusal(now - 2 * 60'000, now + kDayMs) == "bad_field");  // in the past
    CHECK(refusal(now + kDayMs, now + kDayMs) == "bad_field");      // ends as it starts
    CHECK(refusal(now + 400 * kDayMs, now + 401 * kDayMs) == "bad_field");
    CHECK(refusal(now, std::int64_t{1} << 53) == "bad_field");  // years beyond any calendar
    // A start within the last minute is taken as now.
    const auto skewed = vacations.declare(ann, now - 30'000, now + kDayMs, now);
    REQUIRE(skewed);
    CHECK(skewed->vacation->starts == now);
    vacations.end(ann, now);

    // 31 days in one year are too many; in the middle of a year 30 are not.
    UnixMs june = year_start(year_of(now)) + 160 * kDayMs;
    if (june < now) june = year_start(year_of(now) + 1) + 160 * kDayMs;
    CHECK(refusal(june, june + 31 * kDayMs) == "limit_reached");
    CHECK(refusal(june, june + 30 * kDayMs) == "accepted");
    // Over New Year each year has its own 30.
    const UnixMs new_year = year_start(year_of(now) + 1);
    if (new_year - 20 * kDayMs > now) {
        CHECK(refusal(new_year - 20 * kDayMs, new_year + 20 * kDayMs) == "accepted");
        CHECK(refusal(new_year - 20 * kDayMs, new_year + 31 * kDayMs) == "limit_reached");
    }

    VacationsInStore off_store(0);
    const auto off = off_store.vacations().declare(off_store.store().create_guest("Ann").id,
                                                   std::nullopt, now + kDayMs, now);
    REQUIRE_FALSE(off);
    CHECK(off.error().code == protocol::ErrorCode::forbidden);
}

}  // namespace
}  // namespace gcor::server
