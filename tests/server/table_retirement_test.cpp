// A table's retirement on its own: an unload only when idle, unfollowed, at rest and with no bot
// to move; a failed commit that retires the table and hands its followers over to the reloaded
// one, which welcomes them with their state; a close that removes the row at its revision, tells
// the asker first and then the followers and the lobby that the table closed.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "table_parts_fixture.hpp"

namespace gcor::server {

using protocol::Json;
using namespace std::chrono_literals;

TEST_CASE("table retirement: an idle table unloads unless followed, committing or a bot's turn",
          "[server]") {
    TablePartsFixture at;
    at.seats.seat_person(0, kPartsAnn);
    at.seats.seat_person(1, kPartsBob);
    int ran = 0;
    at.retirement.when_ready([&] { ++ran; });  // a use, now
    CHECK(ran == 1);

    at.retirement.unload_if_idle(1h);  // used just now
    CHECK_FALSE(at.retirement.retired());

    auto ann = std::make_shared<PartsFixturePeer>();
    at.followers.follow(ann, engine::Seat{0}, kPartsAnn.id);
    at.retirement.unload_if_idle(0s);
    CHECK_FALSE(at.retirement.retired());
    at.followers.unfollow(ann.get());

    // A bot is to move: the table moves on by itself.
    at.start();
    const engine::Seat to_act = at.game.state().to_act();
    at.seats.seat_bot(to_act, engine::BotKind::random);
    at.retirement.unload_if_idle(0s);
    CHECK_FALSE(at.retirement.retired());
    at.seats.seat_person(to_act, to_act == 0 ? kPartsAnn : kPartsBob);

    at.pipeline.begin_commit();  // a write in flight
    at.retirement.unload_if_idle(0s);
    CHECK_FALSE(at.retirement.retired());
    at.pipeline.committed();

    at.retirement.unload_if_idle(0s);
    CHECK(at.retirement.retired());
    CHECK(at.world.forgotten == std::vector<std::string>{"t1"});
    CHECK(at.world.finds.empty());  // nobody to hand over
    CHECK(at.world.published.empty());
}

TEST_CASE("table retirement: a failed commit hands the followers over to the table reloaded",
          "[server]") {
    TablePartsFixture at;
    auto ann = std::make_shared<PartsFixturePeer>();
    at.followers.follow(ann, engine::Seat{0}, kPartsAnn.id);

    at.retirement.retire_after_failure(false);
    CHECK(at.retirement.retired());
    CHECK_FALSE(at.retirement.closed());
    CHECK(at.world.forgotten == std::vector<std::string>{"t1"});
    CHECK(at.followers.live().empty());
    REQUIRE(at.world.finds.size() == 1);  // the lobby loads the table again for them
    at.world.finds[0](FoundTable{});      // not there any more: nobody to tell
    CHECK(ann->received.empty());

    // The table reloaded welcomes them: each follows it as before, from its state.
    TablePartsFixture reloaded;
    reloaded.retirement.welcome({Followers::Viewer{ann, engine::Seat{0}, kPartsAnn.id}});
    REQUIRE(reloaded.followers.live().size() == 1);
    CHECK(reloaded.followers.live()[0].seat == engine::Seat{0});
    REQUIRE(ann->received.size() == 1);
    CHECK(ann->received[0]["type"] == "table");  // before the start, the state is the summary
}

TEST_CASE("table retirement: a close removes the row, tells the asker, then everyone, closed",
          "[server]") {
    TablePartsFixture at;
    auto ann = std::make_shared<PartsFixturePeer>();
    at.followers.follow(ann, std::nullopt, kPartsAnn.id);
    at.writes.set_revision(3);
    std::vector<std::string> order;
    at.retirement.close([&](bool closed) {
        CHECK(closed);
        CHECK(at.retirement.closed());  // what the asker is told says so
        CHECK(ann->received.empty());   // before the followers
        order.push_back("asker");
    });
    CHECK(at.store.calls == std::vector<std::string>{"remove"});
    CHECK(at.store.removed_at == std::vector<std::uint64_t>{3});
    at.run();
    CHECK(order == std::vector<std::string>{"asker"});
    CHECK(at.retirement.retired());
    CHECK(at.world.forgotten == std::vector<std::string>{"t1"});
    REQUIRE(ann->received.size() == 1);
    CHECK(ann->received[0]["table"]["closed"] == true);
    REQUIRE(at.world.published.size() == 1);
    CHECK(at.world.published[0]["closed"] == true);
    CHECK(at.followers.live().empty());
}

TEST_CASE("table retirement: a close not stored retires the table, not closed", "[server]") {
    TablePartsFixture at;
    auto ann = std::make_shared<PartsFixturePeer>();
    at.followers.follow(ann, std::nullopt, kPartsAnn.id);
    at.store.outcome = Written::conflict;
    bool told = true;
    at.retirement.close([&](bool closed) { told = closed; });
    at.run();
    CHECK_FALSE(told);
    CHECK(at.retirement.retired());
    CHECK_FALSE(at.retirement.closed());
    CHECK(ann->received.empty());
    CHECK(at.world.published.empty());
    CHECK(at.world.finds.size() == 1);  // its followers follow the table as the store has it
}

}  // namespace gcor::server
