// A table's game in progress on its own: the start deals, stores and then sends each follower its
// snapshot and the starter `started`; a move is stored before anybody hears of it, then each
// follower gets its patch and the mover the patch that acknowledges it; a move not stored
// retires the table and tells the mover; the row's progress says where the game stands.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "table_parts_fixture.hpp"

namespace gcor::server {

using protocol::Json;

namespace {

// ann and bob seated, ann following as her seat and a spectator following.
struct PlayPartFixture : TablePartsFixture {
    std::shared_ptr<PartsFixturePeer> ann = std::make_shared<PartsFixturePeer>();
    std::shared_ptr<PartsFixturePeer> bob = std::make_shared<PartsFixturePeer>();
    std::shared_ptr<PartsFixturePeer> spectator = std::make_shared<PartsFixturePeer>();

    PlayPartFixture() {
        seats.seat_person(0, kPartsAnn);
        seats.seat_person(1, kPartsBob);
        followers.follow(ann, engine::Seat{0}, kPartsAnn.id);
        followers.follow(bob, engine::Seat{1}, kPartsBob.id);
        followers.follow(spectator, std::nullopt, kPartsCid.id);
    }
    // The seat to act's first legal move, made by its player's request.
    void move_by_request(const Json& request_id) {
        const engine::Seat seat = game.state().to_act();
        const auto& peer = seat == 0 ? ann : bob;
        play.play(seat, game.state().legal_moves(seat).front(), MovedBy::player, "m1",
                  TablePlay::Mover{peer, request_id, TablePlay::Clock::now(), "m1"});
    }
};

}  // namespace

TEST_CASE("table play: the start deals and stores the game, then tells the starter and all",
          "[server]") {
    PlayPartFixture at;
    CHECK(at.play.progress().status == TableStatus::waiting);
    at.play.start(at.ann, Json(3));
    CHECK(at.status == TableStatus::playing);
    CHECK(at.store.calls == std::vector<std::string>{"save"});
    CHECK(at.ann->received.empty());  // nothing before it is stored
    at.run();
    REQUIRE(at.ann->received.size() == 2);
    CHECK(at.ann->received[0] == Json{{"type", "started"},
                                      {"table", "t1"},
                                      {"commitment", at.record.row().commitment},
                                      {"id", 3}});
    CHECK(at.ann->reply_ids[0] == Json(3));
    CHECK(at.ann->received[1]["type"] == "snapshot");
    CHECK(at.ann->received[1]["seat"] == 0);
    REQUIRE(at.spectator->received.size() == 1);
    CHECK(at.spectator->received[0]["seat"].is_null());
    CHECK(at.world.published.size() == 1);
    const TableProgress progress = at.play.progress();
    CHECK(progress.status == TableStatus::playing);
    CHECK(progress.to_act == at.game.state().to_act());
    CHECK(progress.version == 0);
}

TEST_CASE("table play: a move is stored, then patched to all and acknowledged to its mover",
          "[server]") {
    PlayPartFixture at;
    at.play.start(nullptr, Json());
    at.run();
    const std::size_t before = at.spectator->received.size();
    const engine::Seat mover = at.game.state().to_act();
    const auto& mover_peer = mover == 0 ? at.ann : at.bob;
    const std::size_t mover_before = mover_peer->received.size();
    at.move_by_request(Json(5));
    CHECK(at.store.calls == std::vector<std::string>{"save", "append"});
    CHECK(at.game.version() == 1);
    CHECK(at.spectator->received.size() == before);  // not before it is stored
    at.run();
    REQUIRE(at.spectator->received.size() == before + 1);
    CHECK(at.spectator->received.back()["type"] == "patch");
    CHECK(at.spectator->received.back()["to"] == 1);
    REQUIRE(mover_peer->received.size() == mover_before + 1);
    CHECK(mover_peer->received.back()["move_id"] == "m1");
    CHECK(mover_peer->received.back()["id"] == 5);
    CHECK(mover_peer->reply_ids.back() == Json(5));
    CHECK(at.metrics.moves.load() == 1);
    CHECK(at.play.progress().version == 1);
}

TEST_CASE("table play: a move not stored tells its mover and retires the table", "[server]") {
    PlayPartFixture at;
    at.play.start(nullptr, Json());
    at.run();
    const std::size_t before = at.spectator->received.size();
    at.store.outcome = Written::conflict;
    const engine::Seat mover = at.game.state().to_act();
    at.move_by_request(Json(6));
    at.run();
    const auto& mover_peer = mover == 0 ? at.ann : at.bob;
    CHECK(mover_peer->received.back()["code"] == "stale_version");
    CHECK(mover_peer->received.back()["move_id"] == "m1");
    CHECK(mover_peer->received.back()["table"] == "t1");
    CHECK(at.retirement.retired());
    CHECK(at.spectator->received.size() == before);  // no patch of a move not stored
    CHECK(at.metrics.moves.load() == 0);
}

}  // namespace gcor::server
