#include <catch2/catch.hpp>

#include "gcor/engine/bot.hpp"

namespace gcor::engine {
namespace {

// Plays a game with a bot per seat; returns the final state.
State bot_game(const Options& options, std::uint64_t seed, const std::vector<BotKind>& bots) {
    State state = Rules::make(options)->new_game(seed);
    Rng rng(seed);
    while (!state.over()) {
        const Seat seat = state.to_act();
        const View view = view_for(state, seat);
        const Move move = choose_move(bots[seat], view, rng);
        REQUIRE(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
                view.legal_moves.end());
        REQUIRE(state.apply(seat, move) == MoveError::none);
    }
    return state;
}

TEST_CASE("bots: every move a bot chooses is legal, in every variation", "[bot]") {
    for (int players = 2; players <= 4; ++players)
        for (Variant variant : {Variant::yucata, Variant::publisher})
            for (BotKind bot : {BotKind::random, BotKind::greedy}) {
                INFO(players << " players, " << variant_id(variant) << ", " << bot_id(bot));
                const State end =
                    bot_game({players, variant, true}, 3, std::vector<BotKind>(4, bot));
                CHECK(end.over());
            }
}

TEST_CASE("bots: the greedy bot plays sensibly and beats random bots", "[bot]") {
    int greedy_wins = 0, games = 0;
    double greedy_points = 0, random_points = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const State end =
            bot_game({4, Variant::yucata, false}, seed,
                     {BotKind::greedy, BotKind::random, BotKind::random, BotKind::random});
        const auto winners = end.winners();
        greedy_wins += std::find(winners.begin(), winners.end(), 0) != winners.end();
        greedy_points += end.final_score(0).total;
        for (Seat seat = 1; seat < 4; ++seat)
            random_points += end.final_score(seat).total / 3.0;
        ++games;
    }
    CHECK(greedy_wins >= games * 3 / 4);
    CHECK(greedy_points > 1.5 * random_points);
}

TEST_CASE("bots: names round-trip", "[bot]") {
    CHECK(bot_from_id("greedy") == BotKind::greedy);
    CHECK(bot_from_id("strong") == BotKind::strong);
    for (BotKind kind : {BotKind::random, BotKind::greedy, BotKind::strong})
        CHECK(bot_from_id(bot_id(kind)) == kind);
    CHECK_FALSE(bot_from_id("clever"));
}

}  // namespace
}  // namespace gcor::engine
