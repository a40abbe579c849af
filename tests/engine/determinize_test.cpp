// determinize: a sampled game is one the seat cannot tell from the real one.
#include <catch2/catch.hpp>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/determinize.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

TEST_CASE("determinize: every seat's view of a sample is exactly its view of the game",
          "[determinize]") {
    long long compared = 0, differed = 0;
    for (const auto& v : testing::all_variations()) {
        INFO(testing::name(v));
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            int move_number = 0;
            while (!state.over()) {
                // Every third position, for every seat (the one to act and the others).
                if (move_number++ % 3 == 0)
                    for (Seat seat = 0; seat < v.players; ++seat) {
                        const View view = view_for(state, seat);
                        const std::optional<State> sample = determinize(view, rng);
                        REQUIRE(sample);
                        REQUIRE(sample->ok());
                        REQUIRE(view_for(*sample, seat) == view);
                        ++compared;
                        State same_generator = *sample;
                        same_generator.rng = state.rng;
                        differed += !(same_generator == state);
                    }
                const Seat seat = state.to_act();
                const Move move = choose_move(BotKind::greedy, view_for(state, seat), rng);
                REQUIRE(state.apply(seat, move) == MoveError::none);
            }
        }
    }
    // The hidden parts are drawn, not copied: samples are almost never the game itself, even with
    // its generator.
    CHECK(compared > 1000);
    CHECK(differed >= compared * 95 / 100);
}

TEST_CASE("determinize: a sample plays on to the end like any game", "[determinize]") {
    const Rules rules = *Rules::make({4, Variant::yucata, false});
    State state = rules.new_game(11);
    Rng rng(11);
    for (int i = 0; i < 60; ++i) {
        const Seat seat = state.to_act();
        REQUIRE(state.apply(seat, choose_move(BotKind::random, view_for(state, seat), rng)) ==
                MoveError::none);
    }
    for (Seat viewer = 0; viewer < 4; ++viewer) {
        std::optional<State> sample = determinize(view_for(state, viewer), rng);
        REQUIRE(sample);
        while (!sample->over()) {
            const Seat seat = sample->to_act();
            const Move move = choose_move(BotKind::random, view_for(*sample, seat), rng);
            REQUIRE(sample->apply(seat, move) == MoveError::none);
            REQUIRE(sample->ok());
        }
    }
}

TEST_CASE("determinize: the same view and seed give the same sample, other seeds others",
          "[determinize]") {
    const Rules rules = *Rules::make({3, Variant::yucata, true});
    const State state = rules.new_game(5);
    const View view = view_for(state, 1);
    Rng a(42), b(42), c(43);
    const std::optional<State> first = determinize(view, a);
    REQUIRE(first);
    CHECK(determinize(view, b) == first);
    CHECK_FALSE(determinize(view, c) == first);
}

TEST_CASE("determinize: refuses a spectator, a finished game and a view no game shows",
          "[determinize]") {
    const Rules rules = *Rules::make({2, Variant::yucata, false});
    State state = rules.new_game(3);
    Rng rng(3);
    CHECK_FALSE(determinize(view_for(state, std::nullopt), rng));

    View impossible = view_for(state, 0);
    impossible.players[1].hand_size = 24;  // more hidden cards than there are left
    CHECK_FALSE(determinize(impossible, rng));
    View no_strip = view_for(state, 0);
    no_strip.strip.fill(Symbol::cog);  // no strip shows five cogs
    CHECK_FALSE(determinize(no_strip, rng));

    while (!state.over()) {
        const Seat seat = state.to_act();
        REQUIRE(state.apply(seat, choose_move(BotKind::greedy, view_for(state, seat), rng)) ==
                MoveError::none);
    }
    CHECK_FALSE(determinize(view_for(state, 0), rng));
}

}  // namespace
}  // namespace gcor::engine
