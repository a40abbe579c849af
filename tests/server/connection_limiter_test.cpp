// The per-address and total connection counts: each place is given back exactly once, also when
// it was moved from the HTTP session to the WebSocket's.
#include <catch2/catch.hpp>
#include <optional>
#include <utility>

#include "services.hpp"

namespace gcor::server {
namespace {

using Refusal = ConnectionLimiter::Refusal;

TEST_CASE("connection counts: per address, in all, and given back once when moved",
          "[server][limits]") {
    ConnectionLimiter limiter(2, 3);
    Refusal refusal = Refusal::none;
    std::optional<ConnectionCount> first(limiter.acquire("10.0.0.1", refusal));
    REQUIRE(*first);
    CHECK(refusal == Refusal::none);
    ConnectionCount second = limiter.acquire("10.0.0.1", refusal);
    REQUIRE(second);
    CHECK(!limiter.acquire("10.0.0.1", refusal));
    CHECK(refusal == Refusal::address_full);
    ConnectionCount other = limiter.acquire("10.0.0.2", refusal);
    REQUIRE(other);
    CHECK(other.address() == "10.0.0.2");
    CHECK(limiter.open() == 3);
    CHECK(!limiter.acquire("10.0.0.3", refusal));
    CHECK(refusal == Refusal::server_full);
    CHECK(limiter.open() == 3);  // refusals hold nothing

    // Moved on (as at an upgrade): the moved-from gives nothing back, the holder its one place.
    std::optional<ConnectionCount> upgraded(std::move(*first));
    CHECK(!*first);
    CHECK(upgraded->address() == "10.0.0.1");
    first.reset();
    CHECK(limiter.open() == 3);
    upgraded.reset();
    CHECK(limiter.open() == 2);
    // The address has room again, and only one.
    ConnectionCount again = limiter.acquire("10.0.0.1", refusal);
    CHECK(again);
    CHECK(!limiter.acquire("10.0.0.1", refusal));
}

}  // namespace
}  // namespace gcor::server
