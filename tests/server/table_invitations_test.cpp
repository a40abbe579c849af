// A table's invitations on their own: seats kept for the invited from the last open one; a
// decline and a withdrawal that open the seat, store the table and tell both sides, the
// followers and the lobby; refusals (no invitation, not the host's, not stored); the expiry of
// old invitations; and the close of a table whose last invitation ended with nobody seated.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "table_parts_fixture.hpp"

namespace gcor::server {

using protocol::Json;
namespace requests = protocol::requests;

namespace {

// ann's table, ann at seat 0, bob invited by her, a spectator following.
struct InvitationsPartFixture : TablePartsFixture {
    std::shared_ptr<PartsFixturePeer> asker = std::make_shared<PartsFixturePeer>();
    std::shared_ptr<PartsFixturePeer> spectator = std::make_shared<PartsFixturePeer>();
    Recheck recheck;  // no read of the store first

    InvitationsPartFixture() {
        seats.seat_person(0, kPartsAnn);
        invitations.reserve(kPartsAnn.id, {kPartsBob});
        followers.follow(spectator, std::nullopt, kPartsCid.id);
    }
};

}  // namespace

TEST_CASE("table invitations: the invited get the last open seats, kept by their host",
          "[server]") {
    TablePartsFixture at;
    TableSeats three{3};
    TableInvitations invitations{at.id,     at,    at.retirement, at.world,
                                 at.status, three, at.refusals,   at.views};
    three.seat_person(2, kPartsAnn);
    invitations.reserve(kPartsAnn.id, {kPartsBob, kPartsCid});
    CHECK(three.reserved_for(kPartsBob.id) == engine::Seat{1});
    CHECK(three.reserved_for(kPartsCid.id) == engine::Seat{0});
    CHECK(three[1].invited_by == kPartsAnn.id);
    CHECK(three[1].kind == SeatKind::reserved);
    CHECK(at.store.calls.empty());  // the table's first save stores them
}

TEST_CASE("table invitations: a decline opens the seat, stores it and tells the host and all",
          "[server]") {
    InvitationsPartFixture at;
    at.invitations.decline(at.asker, kPartsBob, requests::Decline{Json(4), "t1"}, at.recheck);
    CHECK(at.store.calls == std::vector<std::string>{"save"});
    CHECK(at.asker->received.empty());  // nothing before it is stored
    at.run();
    CHECK_FALSE(at.seats.reserved_for(kPartsBob.id));
    CHECK(at.seats[1].kind == SeatKind::open);
    REQUIRE(at.asker->received.size() == 1);
    CHECK(at.asker->received[0] == Json{{"type", "declined"}, {"table", "t1"}, {"id", 4}});
    CHECK(at.asker->reply_ids[0] == Json(4));
    REQUIRE(at.world.told.size() == 1);
    CHECK(at.world.told[0].first == kPartsAnn.id);
    CHECK(at.world.told[0].second["type"] == "invitation_declined");
    CHECK(at.world.told[0].second["user"] == Json{{"user", kPartsBob.id}, {"name", "bob"}});
    CHECK(at.world.told[0].second["table"]["id"] == "t1");
    CHECK(parts_fixture_types(*at.spectator) == std::vector<std::string>{"table"});
    CHECK(at.world.published.size() == 1);

    // No invitation (any more): not_found, once the store was read.
    Recheck first{.allowed = true};
    at.invitations.decline(at.asker, kPartsBob, requests::Decline{Json(5), "t1"}, first);
    CHECK(first.wanted);
    CHECK(at.asker->received.size() == 1);
    at.invitations.decline(at.asker, kPartsBob, requests::Decline{Json(5), "t1"}, at.recheck);
    REQUIRE(at.asker->received.size() == 2);
    CHECK(at.asker->received[1]["code"] == "not_found");
    CHECK(at.asker->received[1]["table"] == "t1");
}

TEST_CASE("table invitations: only the host withdraws one, and the invitee is told", "[server]") {
    InvitationsPartFixture at;
    requests::Withdraw withdraw{Json(6), "t1", kPartsBob.id};
    at.invitations.withdraw(at.asker, kPartsCid, withdraw, at.recheck);
    REQUIRE(at.asker->received.size() == 1);
    CHECK(at.asker->received[0]["code"] == "forbidden");
    CHECK(at.store.calls.empty());

    at.invitations.withdraw(at.asker, kPartsAnn, withdraw, at.recheck);
    at.run();
    REQUIRE(at.asker->received.size() == 2);
    CHECK(at.asker->received[1] ==
          Json{{"type", "withdrawn"}, {"table", "t1"}, {"user", kPartsBob.id}, {"id", 6}});
    REQUIRE(at.world.told.size() == 1);
    CHECK(at.world.told[0] ==
          std::pair<std::uint64_t, Json>{kPartsBob.id,
                                         Json{{"type", "invitation_withdrawn"}, {"table", "t1"}}});
    CHECK(at.seats[1].kind == SeatKind::open);
}

TEST_CASE("table invitations: a change not stored is refused and tells nobody", "[server]") {
    InvitationsPartFixture at;
    at.store.outcome = Written::failed;
    at.invitations.decline(at.asker, kPartsBob, requests::Decline{Json(7), "t1"}, at.recheck);
    at.run();
    REQUIRE(at.asker->received.size() == 1);
    CHECK(at.asker->received[0]["code"] == "storage_failed");
    CHECK(at.world.told.empty());
    CHECK(at.world.published.empty());
    CHECK(at.retirement.retired());  // the store has the truth
}

TEST_CASE(
    "table invitations: the expired end and their hosts are told, none expired: nothing stored",
    "[server]") {
    TablePartsFixture at;
    at.seats.seat_person(0, kPartsAnn);
    at.invitations.expire();
    CHECK(at.store.calls.empty());

    at.seats.reserve(1, kPartsBob, kPartsAnn.id, unix_now_ms() - kInvitationLifetimeMs - 1);
    at.invitations.expire();
    at.run();
    CHECK(at.store.calls == std::vector<std::string>{"save"});
    CHECK(at.seats[1].kind == SeatKind::open);
    REQUIRE(at.world.told.size() == 1);
    CHECK(at.world.told[0].first == kPartsAnn.id);
    CHECK(at.world.told[0].second["type"] == "invitation_expired");
    CHECK(at.world.told[0].second["user"]["user"] == kPartsBob.id);
}

TEST_CASE("table invitations: the last invitation ended at a table nobody sits at: it closes",
          "[server]") {
    TablePartsFixture at;  // made without its creator's seat
    at.invitations.reserve(kPartsAnn.id, {kPartsBob});
    auto bob = std::make_shared<PartsFixturePeer>();
    Recheck recheck;
    at.invitations.decline(bob, kPartsBob, requests::Decline{Json(8), "t1"}, recheck);
    CHECK(at.store.calls == std::vector<std::string>{"remove"});
    at.run();
    REQUIRE(bob->received.size() == 1);
    CHECK(bob->received[0]["type"] == "declined");
    CHECK(at.retirement.closed());
    REQUIRE(at.world.told.size() == 1);
    CHECK(at.world.told[0].second["table"]["closed"] == true);
}

}  // namespace gcor::server
