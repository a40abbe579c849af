// The strong bot: it never peeks, it is reproducible with a world budget, and it plays well.
#include <algorithm>
#include <catch2/catch.hpp>

#include "gcor/engine/bot.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

constexpr BotBudget worlds(int count) {
    return BotBudget{count, std::chrono::milliseconds(0)};
}

TEST_CASE("strong bot: never peeks: what its seat cannot see does not change its move", "[bot]") {
    int positions = 0, changed = 0;
    for (int players = 2; players <= 4; ++players) {
        const Rules rules = *Rules::make({players, Variant::yucata, players == 3});
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            int move_number = 0;
            while (!state.over()) {
                const Seat seat = state.to_act();
                const View view = view_for(state, seat);
                // Five positions a game with a real choice, spread over the game.
                if (move_number++ % 23 == 7 && view.legal_moves.size() > 2) {
                    INFO(players << " players, seed " << seed << ", move " << move_number);
                    const State other = testing::hidden_differently(state, seat, rng);
                    REQUIRE(other.ok());
                    REQUIRE(view_for(other, seat) == view);
                    State same_generator = other;
                    same_generator.rng = state.rng;
                    changed += !(same_generator == state);
                    const std::uint64_t bot_seed = rng.next();
                    CHECK(choose_strong(view_for(other, seat), bot_seed, worlds(3)) ==
                          choose_strong(view, bot_seed, worlds(3)));
                    ++positions;
                }
                const Move move = choose_move(BotKind::greedy, view, rng);
                REQUIRE(state.apply(seat, move) == MoveError::none);
            }
        }
    }
    CHECK(positions >= 30);
    CHECK(changed >= positions - 1);  // the hidden cards and strips, not just the generator
}

TEST_CASE("strong bot: a world budget and a seed give the same move on any machine", "[bot]") {
    const Rules rules = *Rules::make({4, Variant::yucata, false});
    State state = rules.new_game(8);
    Rng rng(8);
    int compared = 0;
    for (int i = 0; i < 120 && !state.over(); ++i) {
        const Seat seat = state.to_act();
        const View view = view_for(state, seat);
        if (i % 20 == 5) {
            const Move move = choose_strong(view, 99, worlds(4));
            CHECK(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
                  view.legal_moves.end());
            for (int again = 0; again < 2; ++again)
                CHECK(choose_strong(view, 99, worlds(4)) == move);
            ++compared;
        }
        REQUIRE(state.apply(seat, choose_move(BotKind::greedy, view, rng)) == MoveError::none);
    }
    CHECK(compared == 6);
}

// Plays a game with a bot per seat; returns the final state.
State bot_game(const Options& options, std::uint64_t seed, const std::vector<BotKind>& bots,
               const BotBudget& budget) {
    State state = Rules::make(options)->new_game(seed);
    Rng rng(seed);
    while (!state.over()) {
        const Seat seat = state.to_act();
        const View view = view_for(state, seat);
        const Move move = choose_move(bots[seat], view, rng, budget);
        REQUIRE(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
                view.legal_moves.end());
        REQUIRE(state.apply(seat, move) == MoveError::none);
    }
    return state;
}

TEST_CASE("strong bot: plays whole games in every variation", "[bot]") {
    for (const auto& v : testing::all_variations()) {
        INFO(testing::name(v));
        std::vector<BotKind> bots(4, BotKind::greedy);
        bots[1] = BotKind::strong;
        CHECK(bot_game({v.players, v.variant, v.shrine}, 4, bots, worlds(1)).over());
    }
}

// Not the benchmark (docs/benchmarks.md): a few seeded games that show it is no worse than the
// bot it builds on. With a world budget the result is the same on every machine.
TEST_CASE("strong bot: out-scores greedy bots", "[bot]") {
    int margin = 0, wins = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        std::vector<BotKind> bots(4, BotKind::greedy);
        const auto strong = static_cast<Seat>(seed % 4);
        bots[strong] = BotKind::strong;
        const State end = bot_game({4, Variant::yucata, false}, seed, bots, worlds(3));
        int best_other = 0;
        for (Seat seat = 0; seat < 4; ++seat)
            if (seat != strong) best_other = std::max(best_other, end.final_score(seat).total);
        margin += end.final_score(strong).total - best_other;
        const auto winners = end.winners();
        wins += std::find(winners.begin(), winners.end(), strong) != winners.end();
    }
    CHECK(margin > 0);
    CHECK(wins >= 3);
}

TEST_CASE("strong bot: a time budget alone still gives a legal move", "[bot]") {
    const State state = Rules::make({2, Variant::yucata, false})->new_game(2);
    const View view = view_for(state, state.to_act());
    const Move move = choose_strong(view, 1, BotBudget{0, std::chrono::milliseconds(20)});
    CHECK(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
          view.legal_moves.end());
}

}  // namespace
}  // namespace gcor::engine
