// The running score in every view: each player's points as if the game ended now, from what every
// seat sees (docs/rules.md, "Running score").
#include <catch2/catch.hpp>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/view.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

std::vector<ScoreBreakdown> running_scores(const View& view) {
    std::vector<ScoreBreakdown> scores;
    for (const PlayerView& player : view.players)
        scores.push_back(player.score);
    return scores;
}

TEST_CASE(
    "running score: what the final scoring would give now, alike for every viewer, and the "
    "final scores at the end of whole bot games",
    "[view][score]") {
    int games = 0, mid_game_points = 0, shrine_points = 0;
    for (int players = 2; players <= 4; ++players)
        for (Variant variant : {Variant::yucata, Variant::publisher})
            for (bool shrine : {false, true})
                for (std::uint64_t seed = 1; seed <= 4; ++seed) {
                    const Rules rules = *Rules::make({players, variant, shrine});
                    State state = rules.new_game(seed);
                    Rng rng(seed);
                    // Greedy bots build, so that every category comes up; a random one mixes in.
                    const auto bot = [&](Seat seat) {
                        return seat == seed % players ? BotKind::random : BotKind::greedy;
                    };
                    for (;;) {
                        INFO(players << " players, " << variant_id(variant)
                                     << (shrine ? ", shrine" : "") << ", seed " << seed
                                     << ", round " << int(state.round));
                        State ended = state;
                        ended.phase = Phase::game_over;
                        const std::vector<ScoreBreakdown> now =
                            view_for(ended, std::nullopt).scores;
                        for (const auto& viewer : testing::viewers_of(players)) {
                            const View view = view_for(state, viewer);
                            REQUIRE(running_scores(view) == now);
                            if (state.over()) REQUIRE(view.scores == now);
                        }
                        if (state.over()) break;
                        if (state.round == state.rounds() / 2)
                            for (const ScoreBreakdown& score : now)
                                mid_game_points += score.total - score.coins;
                        const Seat seat = state.to_act();
                        const Move move = choose_move(bot(seat), view_for(state, seat), rng);
                        REQUIRE(state.apply(seat, move) == MoveError::none);
                    }
                    for (int seat = 0; seat < players; ++seat) {
                        const ScoreBreakdown score = state.final_score(static_cast<Seat>(seat));
                        REQUIRE(view_for(state, std::nullopt).players[seat].score == score);
                        shrine_points += score.shrine;
                    }
                    ++games;
                }
    CHECK(games == 3 * 2 * 2 * 4);
    // Cities scored during play, not only coins, and the shrine had its points.
    CHECK(mid_game_points > 0);
    CHECK(shrine_points > 0);
}

TEST_CASE(
    "running score leak: states that differ only in what a seat cannot see give that "
    "seat the same running scores",
    "[view][score]") {
    long long compared = 0, hands_differed = 0;
    testing::for_each_hidden_pair(10, [&](const testing::Variation& v, std::uint64_t seed,
                                          const State& state, std::optional<Seat> viewer,
                                          const State& other) {
        bool hand_differs = false;
        for (int seat = 0; seat < v.players; ++seat)
            hand_differs |= !(other.players[seat].hand == state.players[seat].hand);
        hands_differed += hand_differs ? 1 : 0;
        ++compared;
        INFO(testing::name(v) << ", seed " << seed << ", round " << int(state.round) << ", viewer "
                              << (viewer ? int(*viewer) : -1));
        REQUIRE(running_scores(view_for(other, viewer)) == running_scores(view_for(state, viewer)));
    });
    // Hidden hand cards really differed: a score that counted them would have changed.
    CHECK(hands_differed > compared / 3);
}

TEST_CASE("running score: a change every seat sees changes every seat's running score",
          "[view][score]") {
    const Rules rules = *Rules::make({3, Variant::publisher, false});
    const State state = rules.new_game(8);
    State richer = state;
    richer.players[1].coins += 3;
    richer.players[1].influence += 2;
    for (const auto& viewer : testing::viewers_of(3)) {
        const ScoreBreakdown before = view_for(state, viewer).players[1].score;
        const ScoreBreakdown after = view_for(richer, viewer).players[1].score;
        CHECK(after.coins == before.coins + 3);
        CHECK(after.influence_tokens == before.influence_tokens + 1);
        CHECK(after.total == before.total + 4);
        CHECK(view_for(richer, viewer).players[0].score ==
              view_for(state, viewer).players[0].score);
    }
}

}  // namespace
}  // namespace gcor::engine
