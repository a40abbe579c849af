// A table's followers on their own: following as a seat or a spectator, closed connections
// dropping out, filtered sends, and the patches of moves: one message per viewer slot, shared by
// its connections, each turning the slot's view before into its view after (json::patch as the
// oracle).
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "gcor/engine/game.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/view_json.hpp"
#include "tables/followers.hpp"

namespace gcor::server {
namespace {

using protocol::Json;

class RecordingPeer final : public Peer {
  public:
    std::vector<Message> received;
    void send(Message message) override { received.push_back(std::move(message)); }
    void send_reply(Message message, const Json&) override { send(std::move(message)); }
    void end_session(std::uint64_t) override {}
};

engine::Game new_game() {
    return engine::Game(engine::Rules::make({2, engine::Variant::yucata, false})->new_game(42),
                        true);
}

// Plays the first legal move of the seat to act; the events into `events`.
void play_first(engine::Game& game, std::vector<engine::Event>& events) {
    events.clear();
    const engine::Seat seat = game.state().to_act();
    const auto moves = game.state().legal_moves(seat);
    REQUIRE_FALSE(moves.empty());
    REQUIRE(game.apply(seat, moves.front(), &events) == engine::MoveError::none);
}

Json view_json(const engine::Game& game, std::optional<engine::Seat> seat) {
    engine::View view;
    engine::view_for(game, seat, view);
    return protocol::view_to_json(view);
}

}  // namespace

TEST_CASE("followers: follow, change seat, unfollow, and closed connections drop out", "[server]") {
    Followers followers;
    auto ann = std::make_shared<RecordingPeer>();
    auto bob = std::make_shared<RecordingPeer>();
    followers.follow(ann, 0, 7);
    followers.follow(bob, std::nullopt, 8);
    followers.follow(ann, 1, 7);  // the same connection follows as another seat
    REQUIRE(followers.live().size() == 2);
    CHECK(followers.viewer_of(ann)->seat == engine::Seat{1});
    CHECK(followers.follows(*bob));

    followers.send(make_message("for spectators"),
                   [](const Followers::Viewer& viewer, const Peer&) { return !viewer.seat; });
    CHECK(ann->received.empty());
    CHECK(bob->received.size() == 1);

    followers.unfollow(ann.get());
    CHECK_FALSE(followers.follows(*ann));
    followers.follow(ann, 0, 7);
    bob.reset();  // closed
    CHECK(followers.live().size() == 1);
    followers.send_to_all(make_message("all"));
    CHECK(ann->received.size() == 1);
    CHECK(followers.take().size() == 1);
    CHECK(followers.live().empty());
}

TEST_CASE("followers: one patch per viewer slot turns its view before into its view after",
          "[server]") {
    Followers followers;
    auto seat0 = std::make_shared<RecordingPeer>();
    auto seat0_again = std::make_shared<RecordingPeer>();
    auto spectator = std::make_shared<RecordingPeer>();
    followers.follow(seat0, 0, 7);
    followers.follow(seat0_again, 0, 7);
    followers.follow(spectator, std::nullopt, 9);

    engine::Game game = new_game();
    std::vector<engine::Event> events;
    for (std::uint64_t version = 1; version <= 3; ++version) {
        const engine::State before = game.state();
        const engine::Seat to_act = before.to_act();
        const auto could_undo =
            game.can_undo(to_act) == engine::UndoError::none ? std::optional(to_act) : std::nullopt;
        const std::map<int, Json> views_before{{0, view_json(game, 0)},
                                               {-1, view_json(game, std::nullopt)}};
        play_first(game, events);
        // The third one after a change without a move: the views before are built again.
        if (version == 3) followers.forget_views();
        const Followers::Patches patches =
            followers.patches_for(before, could_undo, game, events, "\"t1\"", version);
        REQUIRE(patches[0]);
        CHECK_FALSE(patches[1]);  // nobody follows seat 1
        REQUIRE(patches[Followers::slot_of(std::nullopt)]);
        for (const auto& [slot, before_json] : views_before) {
            const auto seat = slot < 0 ? std::nullopt : std::optional<engine::Seat>(slot);
            const Json patch = Json::parse(*patches[Followers::slot_of(seat)]);
            CHECK(patch["to"] == version);
            CHECK(protocol::same_json(before_json.patch(patch["ops"]), view_json(game, seat)));
        }
        followers.send_patches(patches, seat0_again);
        // One message, shared by the connections of a slot; the one excepted gets none.
        CHECK(seat0->received.back() == patches[0]);
        CHECK(seat0_again->received.empty());
        CHECK(spectator->received.back() == patches[Followers::slot_of(std::nullopt)]);
    }
}

TEST_CASE(
    "followers: each patch is the text of its viewer's own views before and after, to the "
    "byte, over random games",
    "[server]") {
    // Every seat and a spectator follow; patches_for builds what every viewer sees alike once,
    // so each patch is checked against one written from views that viewer built alone.
    const std::vector<std::optional<engine::Seat>> viewers{std::nullopt, 0, 1, 2, 3};
    long long compared = 0;
    for (const engine::Variant variant : {engine::Variant::yucata, engine::Variant::publisher})
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            Followers followers;
            std::vector<std::shared_ptr<RecordingPeer>> peers;
            for (const auto& seat : viewers) {
                peers.push_back(std::make_shared<RecordingPeer>());
                followers.follow(peers.back(), seat, 7);
            }
            engine::Game game(engine::Rules::make({4, variant, false})->new_game(seed), true);
            std::map<std::optional<engine::Seat>, engine::View> views;
            for (const auto& seat : viewers)
                engine::view_for(game, seat, views[seat]);
            engine::Rng rng(seed);
            std::vector<engine::Event> events;
            for (std::uint64_t version = 1; !game.state().over(); ++version) {
                const engine::State before = game.state();
                const engine::Seat to_act = before.to_act();
                const auto could_undo = game.can_undo(to_act) == engine::UndoError::none
                                            ? std::optional(to_act)
                                            : std::nullopt;
                const auto legal = before.legal_moves(to_act);
                const engine::Move move =
                    legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
                events.clear();
                REQUIRE(game.apply(to_act, move, &events) == engine::MoveError::none);
                const Followers::Patches patches =
                    followers.patches_for(before, could_undo, game, events, "\"t1\"", version);
                for (const auto& seat : viewers) {
                    engine::View after;
                    engine::view_for(game, seat, after);
                    std::string log;
                    protocol::append_events_json(log, events, seat);
                    std::string expected;
                    protocol::open_patch_message(expected, "\"t1\"", version);
                    protocol::append_view_patch(expected, views[seat], after);
                    protocol::close_patch_message(expected, log);
                    INFO(engine::variant_id(variant) << ", seed " << seed << ", version " << version
                                                     << ", viewer " << (seat ? int(*seat) : -1));
                    REQUIRE(patches[Followers::slot_of(seat)]);
                    REQUIRE(*patches[Followers::slot_of(seat)] == expected);
                    views[seat] = std::move(after);
                    ++compared;
                }
            }
        }
    CHECK(compared > 5000);
}

}  // namespace gcor::server
