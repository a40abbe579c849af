// The game review: from each seat's view only, reproducible, cancellable, and it sees a blunder.
#include <catch2/catch.hpp>

#include "gcor/engine/analysis.hpp"
#include "gcor/engine/bot.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

// A small budget: the tests check what the review is, not how good its estimates are.
constexpr AnalysisBudget kAnalysisTestBudget{4, 7};

bool analysis_test_keep_going(std::size_t, std::size_t) {
    return true;
}

// The moves of a game between greedy bots from `seed`.
std::vector<Move> analysis_test_game(const State& start, std::uint64_t seed) {
    State state = start;
    Rng rng(seed);
    std::vector<Move> moves;
    while (!state.over()) {
        const Seat seat = state.to_act();
        moves.push_back(choose_move(BotKind::greedy, view_for(state, seat), rng));
        REQUIRE(state.apply(seat, moves.back()) == MoveError::none);
    }
    return moves;
}

TEST_CASE("analysis: every decision with a choice is reviewed, in order, by its seat",
          "[analysis]") {
    // Publisher rules: their forced moves are moves of the record, which the review skips.
    const State start = Rules::make({3, Variant::publisher, true})->new_game(5);
    const std::vector<Move> moves = analysis_test_game(start, 5);
    const auto analysis = analyse(start, moves, {}, kAnalysisTestBudget, analysis_test_keep_going);
    REQUIRE(analysis);
    CHECK(analysis->worlds == kAnalysisTestBudget.worlds);
    CHECK(analysis->players == 3);
    State state = start;
    std::size_t reviewed = 0, skipped = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Seat seat = state.to_act();
        const std::vector<Move> legal = state.legal_moves(seat);
        if (legal.size() == 1) {
            ++skipped;
        } else {
            REQUIRE(reviewed < analysis->decisions.size());
            const DecisionReview& decision = analysis->decisions[reviewed++];
            CHECK(decision.move == i);
            CHECK(decision.seat == seat);
            CHECK(decision.played == moves[i]);
            CHECK(testing::contains(legal, decision.preferred));
            CHECK(decision.before == decision.preferred_chance);
            for (double chance : {decision.before, decision.after}) {
                CHECK(chance >= 0.0);
                CHECK(chance <= 1.0);
            }
            if (decision.played == decision.preferred) CHECK(decision.after == decision.before);
        }
        REQUIRE(state.apply(seat, moves[i]) == MoveError::none);
    }
    CHECK(reviewed == analysis->decisions.size());
    CHECK(reviewed > 50);
    CHECK(skipped > 10);
}

TEST_CASE("analysis: never peeks: what a seat cannot see does not change its review",
          "[analysis]") {
    int positions = 0, changed = 0;
    for (int players = 2; players <= 4; ++players) {
        const Rules rules = *Rules::make({players, Variant::yucata, players == 3});
        State state = rules.new_game(players);
        Rng rng(players);
        int move_number = 0;
        std::vector<Move> legal;
        while (!state.over()) {
            const Seat seat = state.to_act();
            const Move move = choose_move(BotKind::greedy, view_for(state, seat), rng);
            state.legal_moves(legal);
            // A few positions a game with a real choice, spread over the game.
            if (move_number++ % 19 == 4 && legal.size() > 2) {
                INFO(players << " players, move " << move_number);
                const State other = testing::hidden_differently(state, seat, rng);
                REQUIRE(other.ok());
                REQUIRE(view_for(other, seat) == view_for(state, seat));
                State same_generator = other;
                same_generator.rng = state.rng;
                changed += !(same_generator == state);
                const std::vector<Move> played{move};
                const auto here =
                    analyse(state, played, {}, kAnalysisTestBudget, analysis_test_keep_going);
                const auto there =
                    analyse(other, played, {}, kAnalysisTestBudget, analysis_test_keep_going);
                REQUIRE(here);
                REQUIRE(here->decisions.size() == 1);
                CHECK(there == here);
                ++positions;
            }
            REQUIRE(state.apply(seat, move) == MoveError::none);
        }
    }
    CHECK(positions >= 12);
    CHECK(changed >= positions - 1);  // the hidden cards and strips, not just the generator
}

TEST_CASE("analysis: the same game and budget give the same review, and the seed matters",
          "[analysis]") {
    const State start = Rules::make({4, Variant::yucata, false})->new_game(3);
    const std::vector<Move> all = analysis_test_game(start, 3);
    const std::span<const Move> moves(all.data(), 120);
    const auto first = analyse(start, moves, {}, kAnalysisTestBudget, analysis_test_keep_going);
    const auto second = analyse(start, moves, {}, kAnalysisTestBudget, analysis_test_keep_going);
    REQUIRE(first);
    CHECK(first == second);
    // A decision's review depends on its own index and the seed, not on the reviews before it.
    const auto tail =
        analyse(start, moves.subspan(0, 60), {}, kAnalysisTestBudget, analysis_test_keep_going);
    REQUIRE(tail);
    REQUIRE(!tail->decisions.empty());
    CHECK(std::equal(tail->decisions.begin(), tail->decisions.end(), first->decisions.begin()));
    AnalysisBudget other_seed = kAnalysisTestBudget;
    other_seed.seed += 1;
    CHECK_FALSE(analyse(start, moves, {}, other_seed, analysis_test_keep_going) == first);
}

TEST_CASE("analysis: a turn that waited for its end is replayed as it was played", "[analysis]") {
    // Every move is made waiting for its player's end move, as the server's players make them;
    // the end moves that follow are then moves of the record with no choice.
    State state = Rules::make({2, Variant::yucata, false})->new_game(6);
    const State start = state;
    Rng rng(6);
    std::vector<Move> moves;
    std::vector<std::size_t> waited;
    while (!state.over() && moves.size() < 80) {
        const Seat seat = state.to_act();
        moves.push_back(choose_move(BotKind::greedy, view_for(state, seat), rng));
        REQUIRE(state.apply(seat, moves.back(), nullptr, true) == MoveError::none);
        if (state.turn_waits_for_end()) waited.push_back(moves.size() - 1);
    }
    REQUIRE(waited.size() > 5);
    const auto analysis =
        analyse(start, moves, waited, kAnalysisTestBudget, analysis_test_keep_going);
    REQUIRE(analysis);
    for (const DecisionReview& decision : analysis->decisions) {
        const bool after_wait =
            std::find(waited.begin(), waited.end(), decision.move - 1) != waited.end();
        CHECK_FALSE(after_wait);  // the waiting turn's end had no choice
    }
    CHECK(analysis->decisions.size() == moves.size() - waited.size());
}

TEST_CASE("analysis: progress is reported, and returning false cancels", "[analysis]") {
    const State start = Rules::make({2, Variant::yucata, false})->new_game(9);
    const std::vector<Move> all = analysis_test_game(start, 9);
    const std::span<const Move> moves(all.data(), 40);
    std::vector<std::pair<std::size_t, std::size_t>> calls;
    const auto whole =
        analyse(start, moves, {}, kAnalysisTestBudget, [&](std::size_t done, std::size_t total) {
            calls.emplace_back(done, total);
            return true;
        });
    REQUIRE(whole);
    const std::size_t total = whole->decisions.size();
    REQUIRE(calls.size() == total + 1);
    for (std::size_t i = 0; i < calls.size(); ++i)
        CHECK(calls[i] == std::pair{i, total});

    std::size_t last_done = 0;
    const auto cancelled =
        analyse(start, moves, {}, kAnalysisTestBudget, [&](std::size_t done, std::size_t) {
            last_done = done;
            return done < 3;
        });
    CHECK_FALSE(cancelled);
    CHECK(last_done == 3);  // it stopped at once
    CHECK_FALSE(analyse(start, moves, {}, kAnalysisTestBudget,
                        [](std::size_t, std::size_t) { return false; }));
}

}  // namespace
}  // namespace gcor::engine
