// A turn that waits for its player's end move (docs/rules.md, "Taking moves back"): a move made
// with `waits_for_end` holds back only the automatic end of the mover's action turn (never in the
// publisher rules, which make no move automatically); every other forced move stays automatic,
// the held turn's moves stay undoable, and a game replays from its moves with the flags they were
// made with.
#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include "gcor/engine/game.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

using testing::Variation;

// Events as the log shows them, without whether the engine made them.
bool wait_test_same_events(const std::vector<Event>& a, const std::vector<Event>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].type != b[i].type || a[i].seat != b[i].seat || a[i].card != b[i].card ||
            a[i].index != b[i].index || a[i].count != b[i].count)
            return false;
    return true;
}

bool wait_test_has_event(const std::vector<Event>& events, EventType type, bool automatic) {
    for (const Event& event : events)
        if (event.type == type && event.automatic == automatic) return true;
    return false;
}

// A random legal move of the seat to act.
Move wait_test_random_move(const State& state, Rng& rng) {
    const std::vector<Move> legal = state.legal_moves(state.to_act());
    return legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
}

// A stored move as a replay needs it: who made it, what, and whether its turn's end waited.
struct WaitTestMove {
    Seat seat;
    Move move;
    bool waited;
};

TEST_CASE("a move that waits for the end holds back only the automatic end of its own turn",
          "[waits]") {
    int waits = 0;
    int waits_after_school = 0;
    int automatic_school_moves = 0;
    for (const Variation& v : testing::all_variations()) {
        INFO(testing::name(v));
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            INFO("seed " << seed);
            State state = testing::new_game(v, seed);
            Rng rng(seed);
            while (!state.over()) {
                const Seat seat = state.to_act();
                const Move move = wait_test_random_move(state, rng);
                State waiting = state;
                std::vector<Event> waiting_events;
                std::vector<Event> events;
                REQUIRE(waiting.apply(seat, move, &waiting_events, true) == MoveError::none);
                REQUIRE(state.apply(seat, move, &events) == MoveError::none);
                if (wait_test_has_event(waiting_events, EventType::school_drew, true) ||
                    wait_test_has_event(waiting_events, EventType::school_kept, true))
                    ++automatic_school_moves;
                if (waiting == state) {
                    CHECK_FALSE(waiting.turn_waits_for_end());
                    CHECK(wait_test_same_events(waiting_events, events));
                    continue;
                }
                // The only difference: the mover's turn waits for its end, which its player
                // then makes, and the game goes on exactly as the rules would have taken it. The
                // publisher rules make no move automatically, so nothing waits there.
                ++waits;
                if (wait_test_has_event(waiting_events, EventType::school_drew, true))
                    ++waits_after_school;
                REQUIRE(v.variant == Variant::yucata);
                REQUIRE(waiting.phase == Phase::actions);
                CHECK(waiting.to_act() == seat);
                CHECK(waiting.turn_waits_for_end());
                CHECK(waiting.legal_moves(seat) == std::vector<Move>{Move::end_turn()});
                CHECK(move.type != MoveType::end_turn);
                CHECK_FALSE(wait_test_has_event(waiting_events, EventType::turn_ended, true));
                CHECK(wait_test_has_event(events, EventType::turn_ended, true));
                REQUIRE(waiting.apply(seat, Move::end_turn(), &waiting_events) == MoveError::none);
                CHECK(waiting == state);
                CHECK(wait_test_same_events(waiting_events, events));
            }
        }
    }
    INFO(waits << " waits, " << waits_after_school << " after a school's automatic draw");
    CHECK(waits > 500);
    // A school's forced draw and keep are made before the turn waits.
    CHECK(automatic_school_moves > 20);
    CHECK(waits_after_school > 5);
}

TEST_CASE("a build after which the turn waits is taken back, and the game replays with its waits",
          "[waits][undo]") {
    int undone = 0;
    int replays_without_waits_differ = 0;
    for (int players = 2; players <= 4; ++players) {
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            INFO(players << " players, seed " << seed);
            const auto rules = Rules::make({players, Variant::yucata, false});
            Game game(rules->new_game(seed), true);
            Rng rng(seed);
            std::vector<WaitTestMove> played;
            while (!game.state().over()) {
                const State before = game.state();
                const Seat seat = before.to_act();
                const Move move = wait_test_random_move(before, rng);
                REQUIRE(game.apply(seat, move, nullptr, true, true) == MoveError::none);
                const bool waited = game.state().turn_waits_for_end();
                if (waited && move.type == MoveType::build &&
                    game.can_undo(seat) == UndoError::none) {
                    // Undo brings back the state before the build; the build is made again.
                    REQUIRE(game.undo(seat) == UndoError::none);
                    CHECK(game.state() == before);
                    CHECK_FALSE(game.state().turn_waits_for_end());
                    ++undone;
                    REQUIRE(game.apply(seat, move, nullptr, true, true) == MoveError::none);
                }
                played.push_back({seat, move, waited});
            }
            // The moves replay to the same end with the flags they were made with.
            State replayed = rules->new_game(seed);
            for (const WaitTestMove& m : played)
                REQUIRE(replayed.apply(m.seat, m.move, nullptr, m.waited) == MoveError::none);
            CHECK(replayed == game.state());
            // Without them, the rules end a waited turn at once: its end move is refused, or
            // ends another turn of the same seat, and the game goes elsewhere.
            State without = rules->new_game(seed);
            bool refused = false;
            for (const WaitTestMove& m : played)
                if (!refused) refused = without.apply(m.seat, m.move) != MoveError::none;
            if (refused || without != game.state()) ++replays_without_waits_differ;
        }
    }
    CHECK(undone > 50);
    CHECK(replays_without_waits_differ > 100);
}

}  // namespace
}  // namespace gcor::engine
