// State::ok: it holds in every state of random games (also where assertions are off), and it
// notices a state that breaks one of its invariants.
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

#include "gcor/engine/state.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

using testing::new_game;
using testing::Variation;

// A 4-player yucata game played by random moves until `done`.
State play_until(const std::function<bool(const State&)>& done) {
    State state = Rules::make({4, Variant::yucata, false})->new_game(7);
    Rng rng(7);
    std::vector<Move> legal;
    while (!done(state)) {
        REQUIRE_FALSE(state.over());
        state.legal_moves(legal);
        const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        REQUIRE(state.apply(state.to_act(), move) == MoveError::none);
    }
    return state;
}

TEST_CASE("State::ok holds in every state of random games", "[invariants]") {
    for (const Variation& v : testing::all_variations()) {
        INFO(testing::name(v));
        for (std::uint64_t seed = 1; seed <= 200; ++seed) {
            State state = new_game(v, seed);
            Rng rng(seed);
            std::vector<Move> legal;
            REQUIRE(state.ok());
            while (!state.over()) {
                state.legal_moves(legal);
                const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
                REQUIRE(state.apply(state.to_act(), move) == MoveError::none);
                INFO("seed " << seed << ", after " << move.to_string());
                REQUIRE(state.ok());
            }
        }
    }
}

TEST_CASE("State::ok notices a broken state", "[invariants]") {
    const State mid = play_until([](const State& s) {
        return s.round == 3 && s.phase == Phase::actions && s.step == Step::main;
    });
    REQUIRE(mid.ok());
    const Seat seat = mid.turn.seat;
    REQUIRE_FALSE(mid.decks[1].empty());
    const std::vector<std::pair<std::string, std::function<void(State&)>>> breakages{
        {"a card in a deck and in a hand",
         [&](State& s) { s.players[seat].add_to_hand(s.decks[1].back(), kEveryone); }},
        {"a card twice in one deck", [](State& s) { s.decks[2].push_back(s.decks[2][0]); }},
        {"a fourth seat playing in a 3-player game", [](State& s) { s.options.players = 3; }},
        {"an influence card in a hand",
         [&](State& s) { s.players[seat].add_to_hand(kFirstInfluenceCard, kEveryone); }},
        {"a hand card its owner does not know",
         [&](State& s) { s.players[seat].hand[0].known_to = 0; }},
        {"a building card of the wrong kind",
         [&](State& s) {
             s.players[seat].city.place(0, 0, Kind::market,
                                        static_cast<CardId>(kFirstStartingCard + 2 * seat));
         }},
        {"a draft packet in an action turn",
         [](State& s) { s.packet.push_back(s.decks[1].pop_back()); }},
        {"negative coins", [&](State& s) { s.players[seat].coins = -1; }},
        {"negative influence", [&](State& s) { s.players[seat].influence = -2; }},
        {"an emissary of no seat", [](State& s) { s.spaces[4] = 6; }},
        {"the turn of a seat without an emissary there",
         [](State& s) { s.turn.seat = static_cast<Seat>((s.turn.seat + 1) % 4); }},
        {"a school draw outside a school step", [](State& s) { s.school.size = 2; }},
        {"a strip that does not exist", [](State& s) { s.strips[1].strip = kStripCount; }},
        {"a phase its counters do not match", [](State& s) { s.phase = Phase::draft; }},
        {"the game over too early", [](State& s) { s.phase = Phase::game_over; }},
    };
    for (const auto& [what, breakage] : breakages) {
        INFO(what);
        State broken = mid;
        breakage(broken);
        CHECK_FALSE(broken.ok());
    }
}

TEST_CASE("State::ok notices a draft that lost count", "[invariants]") {
    State draft = Rules::make({3, Variant::publisher, true})->new_game(3);
    REQUIRE(draft.phase == Phase::draft);
    REQUIRE(draft.ok());
    draft.packet.erase_at(0);  // a card gone from the packet, no seat drafted it
    CHECK_FALSE(draft.ok());
}

}  // namespace
}  // namespace gcor::engine
