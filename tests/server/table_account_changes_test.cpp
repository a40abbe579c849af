// What a player's account changing does to a table, on its own: a guest's new name shown to all;
// an erased player's seat freed before the start (the table closes when nobody is left), or
// forfeited to the strong bot during the game, their chat lines deleted; a vacation that moves no
// deadline only shows in the summary; and a retired table that leaves it all to the store.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "table_parts_fixture.hpp"

namespace gcor::server {

using protocol::Json;

namespace {

// ann and bob seated, a spectator following.
struct AccountPartFixture : TablePartsFixture {
    std::shared_ptr<PartsFixturePeer> spectator = std::make_shared<PartsFixturePeer>();
    std::optional<bool> done;  // what the change answered, once it did

    AccountPartFixture() {
        seats.seat_person(0, kPartsAnn);
        seats.seat_person(1, kPartsBob);
        followers.follow(spectator, std::nullopt, kPartsCid.id);
    }
    std::function<void(bool)> answer() {
        return [this](bool ok) { done = ok; };
    }
};

}  // namespace

TEST_CASE("table account changes: a guest's new name is the seat's, shown to all", "[server]") {
    AccountPartFixture at;
    at.changes.rename_player(kPartsBob.id, "robert", at.answer());
    CHECK(at.done == true);
    CHECK(at.seats.name_of(1) == "robert");
    CHECK(at.store.calls.empty());  // the store renamed it already
    CHECK(parts_fixture_types(*at.spectator) == std::vector<std::string>{"table"});
    CHECK(at.world.published.size() == 1);

    // Nobody of that name here, or a retired table: nothing to do.
    at.changes.rename_player(kPartsCid.id, "c", at.answer());
    at.retirement.retire_after_failure(true);
    at.changes.rename_player(kPartsAnn.id, "anna", at.answer());
    CHECK(at.done == true);
    CHECK(at.seats.name_of(0) == "ann");
    CHECK(at.world.published.size() == 1);
}

TEST_CASE("table account changes: an erased player's seat is freed before the start", "[server]") {
    AccountPartFixture at;
    at.changes.erase_player(kPartsBob.id, "gone", at.answer());
    CHECK(at.store.calls == std::vector<std::string>{"save"});
    CHECK_FALSE(at.done);  // answered once stored
    at.run();
    CHECK(at.done == true);
    CHECK(at.seats[1].kind == SeatKind::open);
    CHECK(parts_fixture_types(*at.spectator) == std::vector<std::string>{"table"});

    // The last person erased: the table closes.
    at.changes.erase_player(kPartsAnn.id, "gone", at.answer());
    at.run();
    CHECK(at.store.calls == std::vector<std::string>{"save", "remove"});
    CHECK(at.retirement.closed());
    CHECK(at.spectator->received.back()["table"]["closed"] == true);
}

TEST_CASE("table account changes: an erased player forfeits the game, their chat lines deleted",
          "[server]") {
    AccountPartFixture at;
    at.start();
    at.chat.keep({1, kPartsBob.id, "bob", 1, "hello", 1000});
    at.chat.keep({2, kPartsAnn.id, "ann", 0, "hi", 2000});
    at.changes.erase_player(kPartsBob.id, "gone", at.answer());
    at.run();
    CHECK(at.done == true);
    CHECK(at.seats[1].forfeited);
    CHECK(at.seats.name_of(1) == "gone");
    CHECK(at.store.calls == std::vector<std::string>{"save"});
    CHECK(parts_fixture_types(*at.spectator) ==
          std::vector<std::string>{"chat_deleted", "forfeited", "table"});
    CHECK(at.spectator->received[0]["n"] == 1);
    CHECK(at.spectator->received[1]["seat"] == 1);
    CHECK(at.world.published.size() == 1);
    CHECK(at.chat.recent_for(kPartsCid.id).size() == 1);

    // Erased again (another process's news): forfeited already, stored, nothing more told.
    at.changes.erase_player(kPartsBob.id, "gone", at.answer());
    at.run();
    CHECK(parts_fixture_types(*at.spectator).back() == "table");
    CHECK(at.spectator->received.size() == 4);
}

TEST_CASE("table account changes: a retired table answers whether the store has it all",
          "[server]") {
    AccountPartFixture at;
    at.start();
    at.retirement.retire_after_failure(true);
    at.changes.erase_player(kPartsBob.id, "gone", at.answer());
    CHECK(at.done == false);  // the seat has yet to forfeit
    at.changes.erase_player(kPartsCid.id, "gone", at.answer());
    CHECK(at.done == true);  // never sat here
    CHECK(at.store.calls.empty());
}

TEST_CASE("table account changes: a vacation that moves no deadline only shows in the summary",
          "[server]") {
    AccountPartFixture at;
    at.changes.on_vacation_changed(kPartsAnn.id);  // before the start: nothing
    CHECK(at.spectator->received.empty());
    at.start();
    // A realtime clock: no vacation moves its deadline.
    at.changes.on_vacation_changed(kPartsAnn.id);
    CHECK(at.store.calls.empty());
    CHECK(parts_fixture_types(*at.spectator) == std::vector<std::string>{"table"});
    CHECK(at.world.published.empty());
    at.changes.on_vacation_changed(kPartsCid.id);  // not seated here
    CHECK(at.spectator->received.size() == 1);
}

}  // namespace gcor::server
