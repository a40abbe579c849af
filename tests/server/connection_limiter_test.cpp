// The per-address and total connection counts: each place is given back exactly once, also when
// it was moved from the HTTP session to the WebSocket's; and the connections waiting for a request,
// closed oldest first when the server is full.
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "net/connection_limiter.hpp"

namespace gcor::server {
namespace {

using Refusal = ConnectionLimiter::Refusal;
using Admission = ConnectionLimiter::Admission;

TEST_CASE("connection counts: per address, in all, and given back once when moved",
          "[server][limits]") {
    ConnectionLimiter limiter(2, 3);
    Admission admission;
    std::optional<ConnectionCount> first(limiter.acquire("10.0.0.1", admission));
    REQUIRE(*first);
    CHECK(admission.refusal == Refusal::none);
    CHECK(!admission.health_only);
    ConnectionCount second = limiter.acquire("10.0.0.1", admission);
    REQUIRE(second);
    CHECK(!limiter.acquire("10.0.0.1", admission));
    CHECK(admission.refusal == Refusal::address_full);
    ConnectionCount other = limiter.acquire("10.0.0.2", admission);
    REQUIRE(other);
    CHECK(other.address() == "10.0.0.2");
    CHECK(limiter.open() == 3);  // the refusal holds nothing

    // Moved on (as at an upgrade): the moved-from gives nothing back, the holder its one place.
    std::optional<ConnectionCount> upgraded(std::move(*first));
    CHECK(!*first);
    CHECK(upgraded->address() == "10.0.0.1");
    first.reset();
    CHECK(limiter.open() == 3);
    upgraded.reset();
    CHECK(limiter.open() == 2);
    // The address has room again, and only one.
    ConnectionCount again = limiter.acquire("10.0.0.1", admission);
    CHECK(again);
    CHECK(!limiter.acquire("10.0.0.1", admission));
    // Released early, the place is given back once.
    again.release(nullptr);
    CHECK(!again);
    CHECK(limiter.open() == 2);
}

// A connection as the HTTP session is one: a place, and listed while it waits for a request.
struct Connection : Unproven {
    Connection(ConnectionLimiter& limiter, const std::string& address)
        : Unproven(&Connection::close, &Connection::spoken),
          slot(limiter.acquire(address, admission)) {}
    ~Connection() { slot.release(this); }
    static void close(Unproven& unproven) { static_cast<Connection&>(unproven).closed = true; }
    static bool spoken(const Unproven& unproven) {
        return static_cast<const Connection&>(unproven).spoke;
    }

    Admission admission;
    ConnectionCount slot;
    bool closed = false;
    bool spoke = false;  // its request is on its way
};

TEST_CASE("connection limits: with every place open, nothing to close, a reserve for /healthz",
          "[server][limits]") {
    ConnectionLimiter limiter(100, 3);
    std::vector<std::unique_ptr<Connection>> open;
    for (int i = 0; i < 3 + ConnectionLimiter::kHealthReserve; ++i) {
        open.push_back(std::make_unique<Connection>(limiter, "10.0.0.1"));
        REQUIRE(open.back()->slot);
        CHECK(open.back()->admission.health_only == (i >= 3));
        CHECK(!open.back()->admission.evicted);
    }
    Connection over(limiter, "10.0.0.2");
    CHECK(!over.slot);
    CHECK(over.admission.refusal == Refusal::server_full);
    open.erase(open.begin());  // an ordinary place frees up
    Connection next(limiter, "10.0.0.2");
    CHECK(next.slot);
    CHECK(next.admission.health_only);  // the reserve's places are still taken
}

TEST_CASE("connection limits: when full, the oldest connection waiting for a request is closed",
          "[server][limits]") {
    ConnectionLimiter limiter(100, 4);
    std::vector<std::unique_ptr<Connection>> open;
    for (int i = 0; i < 4; ++i) {
        open.push_back(std::make_unique<Connection>(limiter, "10.0.0.1"));
        limiter.list(*open.back());
    }
    // The second has a request to answer: it is not one to close.
    REQUIRE(limiter.unlist(*open[1]));
    CHECK(limiter.listed() == 3);

    Connection fifth(limiter, "10.0.0.2");
    REQUIRE(fifth.slot);
    CHECK(fifth.admission.evicted);
    CHECK(!fifth.admission.health_only);
    CHECK(open[0]->closed);
    CHECK(!open[1]->closed);
    CHECK(!open[2]->closed);
    // The closed one's place is counted as going, and it does nothing more.
    CHECK(limiter.open() == 5);
    CHECK(!limiter.unlist(*open[0]));
    limiter.list(*open[0]);  // closed for good: never listed again
    CHECK(limiter.listed() == 2);

    // A connection listed again (a kept-alive one after its reply) is the newest.
    limiter.list(*open[1]);
    limiter.list(*open[2]);  // listed already: keeps its place in the order
    Connection sixth(limiter, "10.0.0.2");
    CHECK(sixth.admission.evicted);
    CHECK(open[2]->closed);
    CHECK(!open[3]->closed);
    open.erase(open.begin());  // the first closed gives its place back
    CHECK(limiter.open() == 5);

    Connection seventh(limiter, "10.0.0.2");
    CHECK(seventh.admission.evicted);
    CHECK(open[2]->closed);  // the fourth, then the second (listed again last)
    CHECK(!open[0]->closed);
    Connection eighth(limiter, "10.0.0.2");
    CHECK(eighth.admission.evicted);
    CHECK(open[0]->closed);
    CHECK(limiter.listed() == 0);
    // Nothing left to close: the reserve.
    Connection ninth(limiter, "10.0.0.2");
    CHECK(!ninth.admission.evicted);
    CHECK(ninth.admission.health_only);

    open.clear();  // all that were closed give their places back
    CHECK(limiter.open() == 5);
    // The fifth to the eighth hold the 4 ordinary places, the ninth one of the reserve's.
    Connection tenth(limiter, "10.0.0.2");
    CHECK(!tenth.admission.evicted);
    CHECK(tenth.admission.health_only);
}

TEST_CASE("connection limits: one whose request has arrived is closed only after the silent ones",
          "[server][limits]") {
    ConnectionLimiter limiter(100, 3);
    std::vector<std::unique_ptr<Connection>> open;
    for (int i = 0; i < 3; ++i) {
        open.push_back(std::make_unique<Connection>(limiter, "10.0.0.1"));
        limiter.list(*open.back());
    }
    open[0]->spoke = true;  // the oldest's request arrived, not read yet
    Connection fourth(limiter, "10.0.0.2");
    CHECK(fourth.admission.evicted);
    CHECK(!open[0]->closed);
    CHECK(open[1]->closed);
    open[2]->spoke = true;
    limiter.list(fourth);
    Connection fifth(limiter, "10.0.0.2");
    CHECK(!open[0]->closed);
    CHECK(!open[2]->closed);
    CHECK(fourth.closed);  // the only silent one, though the newest
    // All have spoken: the oldest goes.
    fifth.spoke = true;
    limiter.list(fifth);
    Connection sixth(limiter, "10.0.0.2");
    CHECK(sixth.admission.evicted);
    CHECK(open[0]->closed);
}

TEST_CASE("connection limits: a connection closed to make room is not counted twice",
          "[server][limits]") {
    ConnectionLimiter limiter(100, 2);
    auto first = std::make_unique<Connection>(limiter, "10.0.0.1");
    limiter.list(*first);
    Connection second(limiter, "10.0.0.1");
    Connection third(limiter, "10.0.0.1");
    CHECK(third.admission.evicted);
    CHECK(first->closed);
    // Until the closed one gives its place back, it is counted as gone: the next connection gets
    // the reserve (nothing more to close), not a second ordinary place.
    Connection fourth(limiter, "10.0.0.1");
    CHECK(fourth.admission.health_only);
    first.reset();
    CHECK(limiter.open() == 3);
}

TEST_CASE("connection limits: the reserve's connections are closed for room like the others",
          "[server][limits]") {
    ConnectionLimiter limiter(100, 1);
    Connection player(limiter, "10.0.0.1");  // established: never listed
    std::vector<std::unique_ptr<Connection>> silent;
    for (int i = 0; i < ConnectionLimiter::kHealthReserve; ++i) {
        silent.push_back(std::make_unique<Connection>(limiter, "10.0.0.2"));
        CHECK(silent.back()->admission.health_only);
        limiter.list(*silent.back());
    }
    // Silent connections cannot keep the reserve: a health check closes the oldest of them.
    Connection health(limiter, "10.0.0.3");
    REQUIRE(health.slot);
    CHECK(health.admission.evicted);
    CHECK(health.admission.health_only);
    CHECK(silent.front()->closed);
    CHECK(!player.closed);
}

TEST_CASE("connection limits: at most kMaxClosing connections are being closed at once",
          "[server][limits]") {
    ConnectionLimiter limiter(1000, 2);
    std::vector<std::unique_ptr<Connection>> silent;
    for (int i = 0; i < 2 + ConnectionLimiter::kMaxClosing + 4; ++i) {
        silent.push_back(std::make_unique<Connection>(limiter, "10.0.0.1"));
        REQUIRE(silent.back()->slot);
        CHECK(silent.back()->admission.evicted ==
              (i >= 2 && i < 2 + ConnectionLimiter::kMaxClosing));
        CHECK(silent.back()->admission.health_only == (i >= 2 + ConnectionLimiter::kMaxClosing));
        limiter.list(*silent.back());
    }
    // One closed gives its place back: the next evicts again.
    silent.erase(silent.begin());
    Connection next(limiter, "10.0.0.1");
    CHECK(next.admission.evicted);
}

TEST_CASE("connection limits: out of descriptors, the oldest waiting connection is closed",
          "[server][limits]") {
    ConnectionLimiter limiter(1000, 1000);
    CHECK(limiter.evict_oldest(1) == 0);
    std::vector<std::unique_ptr<Connection>> silent;
    for (int i = 0; i < ConnectionLimiter::kMaxClosing + 4; ++i) {
        silent.push_back(std::make_unique<Connection>(limiter, "10.0.0.1"));
        limiter.list(*silent.back());
    }
    CHECK(limiter.evict_oldest(1) == 1);
    CHECK(silent[0]->closed);
    CHECK(!silent[1]->closed);
    // No more than kMaxClosing closing at once.
    CHECK(limiter.evict_oldest(1000) == ConnectionLimiter::kMaxClosing - 1);
    CHECK(silent[ConnectionLimiter::kMaxClosing - 1]->closed);
    CHECK(!silent[ConnectionLimiter::kMaxClosing]->closed);
    CHECK(limiter.evict_oldest(1) == 0);
    silent.erase(silent.begin());  // its place is given back: one more may be closed
    CHECK(limiter.evict_oldest(1000) == 1);
    CHECK(limiter.listed() == 3);
}

}  // namespace
}  // namespace gcor::server
