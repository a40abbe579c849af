// The chat's rate per user with a clock of the test's own: bursts, refills, what a refusal says,
// and the bound on what it remembers.
#include "chat/chat_limits.hpp"

#include <catch2/catch.hpp>

namespace gcor::server {
namespace {

using namespace std::chrono_literals;
using Clock = ChatLimiter::Clock;

}  // namespace

TEST_CASE("chat rate: bursts of 3, then 5 lines per 10 seconds", "[server]") {
    ChatLimiter limiter;
    const Clock::time_point start{};
    for (int i = 0; i < 3; ++i)
        CHECK_FALSE(limiter.take(7, start));
    CHECK(limiter.take(7, start) == 2000ms);  // a line refills in 2 seconds
    CHECK_FALSE(limiter.take(8, start));      // another user
    CHECK(limiter.take(7, start + 500ms) == 1500ms);
    CHECK_FALSE(limiter.take(7, start + 2s));
    CHECK(limiter.take(7, start + 2s));
    // In the 10 seconds after a full burst: 3 + 5 lines, never more.
    int allowed = 0;
    for (auto at = start + 60s; at <= start + 70s; at += 100ms)
        allowed += limiter.take(9, at) ? 0 : 1;
    CHECK(allowed == 8);
    // A long pause refills the burst, never more.
    for (int i = 0; i < 3; ++i)
        CHECK_FALSE(limiter.take(7, start + 1h));
    CHECK(limiter.take(7, start + 1h));
}

TEST_CASE("chat rate: only users who wrote in the last seconds are remembered", "[server]") {
    ChatLimiter limiter;
    const Clock::time_point start{};
    for (std::uint64_t user = 1; user <= 5000; ++user)
        CHECK_FALSE(limiter.take(user, start + std::chrono::milliseconds(user)));
    // Users whose burst refilled (6 s after their line) are forgotten as the map grows.
    CHECK(limiter.users_held() <= 5000);
    for (std::uint64_t user = 10'001; user <= 12'000; ++user)
        CHECK_FALSE(limiter.take(user, start + 1min));
    CHECK(limiter.users_held() <= 4096);
    // A forgotten user starts again with a full burst.
    for (int i = 0; i < 3; ++i)
        CHECK_FALSE(limiter.take(1, start + 1min));
    CHECK(limiter.take(1, start + 1min));
}

}  // namespace gcor::server
