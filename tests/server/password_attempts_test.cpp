// PasswordAttempts with a clock of the test's own: bursts, refills, the hashing queue's bound, and
// the bound on what it remembers.
#include "accounts/password_attempts.hpp"

#include <catch2/catch.hpp>
#include <optional>

namespace gcor::server {
namespace {

using namespace std::chrono_literals;
using Clock = PasswordAttempts::Clock;

bool admitted(const std::variant<PasswordAttempts::Ticket, PasswordAttempts::Refusal>& result) {
    return std::holds_alternative<PasswordAttempts::Ticket>(result);
}

std::chrono::seconds retry_after(
    const std::variant<PasswordAttempts::Ticket, PasswordAttempts::Refusal>& result) {
    REQUIRE(!admitted(result));
    return std::get<PasswordAttempts::Refusal>(result).retry_after;
}

}  // namespace

TEST_CASE("password attempts: an address has a burst, then one per period", "[server]") {
    PasswordAttempts::Limits limits;
    limits.address_burst = 3;
    limits.address_every = 10s;
    PasswordAttempts attempts(limits);
    const Clock::time_point start{};
    for (int i = 0; i < 3; ++i)
        CHECK(admitted(attempts.admit("10.0.0.1", "", start)));
    const auto refused = attempts.admit("10.0.0.1", "", start + 1s);
    CHECK(retry_after(refused) == 9s);
    CHECK(admitted(attempts.admit("10.0.0.2", "", start + 1s)));  // another address
    CHECK(admitted(attempts.admit("10.0.0.1", "", start + 10s)));
    CHECK(!admitted(attempts.admit("10.0.0.1", "", start + 11s)));
    // A long pause refills the burst, never more.
    for (int i = 0; i < 3; ++i)
        CHECK(admitted(attempts.admit("10.0.0.1", "", start + 1h)));
    CHECK(!admitted(attempts.admit("10.0.0.1", "", start + 1h)));
}

TEST_CASE("password attempts: failures on an account lock it for everyone, in any case",
          "[server]") {
    PasswordAttempts::Limits limits;
    limits.account_burst = 2;
    limits.account_every = 30s;
    PasswordAttempts attempts(limits);
    const Clock::time_point start{};
    CHECK(admitted(attempts.admit("10.0.0.1", "Livia", start)));
    attempts.failed("Livia", start);
    // Successful logins (no failed()) spend nothing of the account's.
    for (int i = 0; i < 5; ++i)
        CHECK(admitted(attempts.admit("10.0.0.2", "livia", start)));
    attempts.failed("LIVIA", start);
    const auto locked = attempts.admit("10.0.0.3", "livia", start + 5s);
    CHECK(retry_after(locked) == 25s);
    CHECK(admitted(attempts.admit("10.0.0.3", "Marcus", start + 5s)));
    CHECK(admitted(attempts.admit("10.0.0.3", "Livia", start + 30s)));
}

TEST_CASE("password attempts: an account's refusal is read without spending anything", "[server]") {
    PasswordAttempts::Limits limits;
    limits.account_burst = 2;
    limits.account_every = 30s;
    PasswordAttempts attempts(limits);
    const Clock::time_point start{};
    for (int i = 0; i < 5; ++i)
        CHECK_FALSE(attempts.account_refusal("Livia", start));
    attempts.failed("Livia", start);
    CHECK_FALSE(attempts.account_refusal("livia", start));
    attempts.failed("livia", start);
    const auto refused = attempts.account_refusal("LIVIA", start + 15s);
    REQUIRE(refused);
    CHECK(refused->retry_after == 15s);
    CHECK(retry_after(attempts.admit("10.0.0.1", "Livia", start + 15s)) == 15s);
    CHECK_FALSE(attempts.account_refusal("Marcus", start + 15s));
    CHECK_FALSE(attempts.account_refusal("Livia", start + 30s));
}

TEST_CASE("password attempts: the hashing queue is bounded, tickets give their place back",
          "[server]") {
    PasswordAttempts::Limits limits;
    limits.queued = 2;
    limits.address_burst = 100;
    PasswordAttempts attempts(limits);
    const Clock::time_point now{};
    auto first = attempts.admit("10.0.0.1", "", now);
    std::optional<std::variant<PasswordAttempts::Ticket, PasswordAttempts::Refusal>> second(
        attempts.admit("10.0.0.2", "", now));
    REQUIRE(admitted(first));
    REQUIRE(admitted(*second));
    const auto busy = attempts.admit("10.0.0.3", "", now);
    CHECK(retry_after(busy) == 1s);
    second.reset();  // finished: its place is free
    CHECK(admitted(attempts.admit("10.0.0.3", "", now)));
}

TEST_CASE("password attempts: a flood of addresses is forgotten, not kept forever", "[server]") {
    PasswordAttempts::Limits limits;
    limits.address_burst = 1;
    limits.address_every = 1h;
    limits.max_keys = 100;
    PasswordAttempts attempts(limits);
    const Clock::time_point start{};
    CHECK(admitted(attempts.admit("victim", "", start)));
    CHECK(!admitted(attempts.admit("victim", "", start + 1s)));
    // 1,000 other addresses later the victim's spent burst may be forgotten (the oldest half
    // goes), but what is remembered stays below the bound: the flooder's own last ones are
    // still limited.
    for (int i = 0; i < 1000; ++i)
        CHECK(admitted(attempts.admit("a" + std::to_string(i), "", start + 2s + i * 1ms)));
    CHECK(!admitted(attempts.admit("a999", "", start + 3s)));
    CHECK(attempts.remembered() <= 100);
}

}  // namespace gcor::server
