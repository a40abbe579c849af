// What each seat sees: a view is built only from what that viewer may know.
#include <catch2/catch.hpp>

#include "gcor/engine/view.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

TEST_CASE("leak: states that differ only in hidden data give each viewer the same view", "[view]") {
    long long compared = 0, differed = 0;
    testing::for_each_hidden_pair(
        60, [&](const testing::Variation& v, std::uint64_t seed, const State& state,
                std::optional<Seat> viewer, const State& other) {
            differed += !(other == state);
            ++compared;
            INFO(testing::name(v) << ", seed " << seed << ", round " << int(state.round)
                                  << ", viewer " << (viewer ? int(*viewer) : -1));
            REQUIRE(view_for(other, viewer) == view_for(state, viewer));
        });
    // The comparison had something to compare: hidden data really did differ.
    CHECK(differed > compared / 2);
}

TEST_CASE("view: a view refilled in place equals a new one, whatever it held before", "[view]") {
    // One View reused across games, viewers and moves, as the server reuses its views.
    View reused;
    long long compared = 0;
    for (const auto& v : testing::all_variations()) {
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            for (;;) {
                for (int viewer = -1; viewer < v.players; ++viewer) {
                    const std::optional<Seat> seat =
                        viewer < 0 ? std::nullopt : std::optional<Seat>(static_cast<Seat>(viewer));
                    view_for(state, seat, reused);
                    INFO(testing::name(v) << ", seed " << seed << ", viewer " << viewer);
                    REQUIRE(reused == view_for(state, seat));
                    ++compared;
                }
                if (state.over()) break;
                const auto legal = state.legal_moves(state.to_act());
                state.apply(state.to_act(),
                            legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
            }
        }
    }
    CHECK(compared > 10000);
}

TEST_CASE("view: a view with the public part of another viewer's equals a view built alone",
          "[view]") {
    // Each viewer's view reused across moves, the public part taken from each other viewer's view
    // of the same state in turn, as the server builds a move's views.
    View shared, reused;
    long long compared = 0;
    for (const auto& v : testing::all_variations()) {
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            for (;;) {
                for (const std::optional<Seat> sharer : testing::viewers_of(v.players)) {
                    view_for(state, sharer, shared);
                    for (const std::optional<Seat> viewer : testing::viewers_of(v.players)) {
                        view_for(state, viewer, shared, reused);
                        INFO(testing::name(v)
                             << ", seed " << seed << ", round " << int(state.round) << ", viewer "
                             << (viewer ? int(*viewer) : -1) << ", public part from "
                             << (sharer ? int(*sharer) : -1));
                        REQUIRE(reused == view_for(state, viewer));
                        ++compared;
                    }
                }
                if (state.over()) break;
                const auto legal = state.legal_moves(state.to_act());
                state.apply(state.to_act(),
                            legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
            }
        }
    }
    CHECK(compared > 100000);
}

TEST_CASE("leak: a change a viewer may see does change its view", "[view]") {
    const Rules rules = *Rules::make({4, Variant::publisher, false});
    State state = rules.new_game(3);
    while (state.phase == Phase::draft)
        state.apply(state.to_act(), state.legal_moves(state.to_act()).front());
    // Swap an offer card (public) with a deck card: every viewer must notice.
    State other = state;
    std::swap(other.offer[0], other.decks[1].back());
    std::sort(other.offer.begin(), other.offer.end());
    for (int seat = 0; seat < 4; ++seat)
        CHECK_FALSE(view_for(other, static_cast<Seat>(seat)) ==
                    view_for(state, static_cast<Seat>(seat)));
    CHECK_FALSE(view_for(other, std::nullopt) == view_for(state, std::nullopt));
}

TEST_CASE("view: hands show exactly the cards the viewer knows", "[view]") {
    const Rules rules = *Rules::make({3, Variant::yucata, true});
    State state = rules.new_game(11);
    Rng rng(2);
    while (!state.over()) {
        for (int viewer = 0; viewer < 3; ++viewer) {
            const View view = view_for(state, static_cast<Seat>(viewer));
            for (int seat = 0; seat < 3; ++seat) {
                const Player& player = state.players[static_cast<std::size_t>(seat)];
                const PlayerView& shown = view.players[static_cast<std::size_t>(seat)];
                REQUIRE(shown.hand_size == static_cast<int>(player.hand.size()));
                std::vector<CardId> expected;
                for (const HandCard& held : player.hand)
                    if (seat == viewer || testing::knows(held.known_to, static_cast<Seat>(viewer)))
                        expected.push_back(held.card);
                REQUIRE(shown.hand == expected);
            }
            REQUIRE(view.legal_moves.empty() == (viewer != state.to_act()));
        }
        const auto legal = state.legal_moves(state.to_act());
        state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    // At the end the view carries the scores and winners.
    const View end = view_for(state, std::nullopt);
    REQUIRE(end.scores.size() == 3);
    REQUIRE(end.winners == state.winners());
}

TEST_CASE("view: a spectator sees no hand card that is not public, nor any draft packet",
          "[view]") {
    const Rules rules = *Rules::make({4, Variant::yucata, false});
    State state = rules.new_game(5);
    const View view = view_for(state, std::nullopt);
    REQUIRE(state.phase == Phase::draft);
    CHECK(view.draft_packet.empty());
    CHECK(view.draft_packet_size == 4);
    const View drafter = view_for(state, state.to_act());
    CHECK(drafter.draft_packet.size() == 4);
    for (const PlayerView& player : view.players)
        CHECK(player.hand.empty());
}

}  // namespace
}  // namespace gcor::engine
