// The game review's JSON: rounded chances, losses, mistakes, summaries and turning points.
#include <catch2/catch.hpp>

#include "gcor/engine/bot.hpp"
#include "gcor/protocol/analysis_json.hpp"

namespace gcor::protocol {
namespace {

using engine::DecisionReview;
using engine::Move;
using engine::State;

DecisionReview analysis_json_decision(std::size_t move, engine::Seat seat, double before,
                                      double after, const Move& played) {
    return {move, seat, played, before, after, Move::produce(), before};
}

TEST_CASE("analysis json: chances, losses, mistakes, players and turning points", "[protocol]") {
    engine::GameAnalysis analysis{32, 3, {}};
    const Move build = Move::build(17, 1, -1);
    analysis.decisions = {
        analysis_json_decision(4, 0, 0.5, 0.5, Move::produce()),
        analysis_json_decision(5, 1, 0.40625, 0.21875, build),  // loses 0.1875: a mistake
        analysis_json_decision(9, 0, 0.6, 0.5, build),          // 0.1 exactly: not more
        analysis_json_decision(12, 1, 0.3, 0.29, build),
        analysis_json_decision(13, 0, 0.71875, 0.5, build),
        analysis_json_decision(20, 1, 0.2, 0.19, build),  // the same loss as move 12
        analysis_json_decision(21, 1, 0.2, 0.195, build),
        analysis_json_decision(22, 1, 0.2, 0.197, build),
    };
    const Json json = analysis_json(analysis);
    CHECK(json["version"] == 1);
    CHECK(json["worlds"] == 32);
    CHECK(json["threshold"] == 0.1);
    REQUIRE(json["decisions"].size() == 8);
    CHECK(json["decisions"][1] == Json::parse(R"({"move":5,"seat":1,"played":"build 17 1,-1",
        "before":0.406,"after":0.219,"preferred":"produce","preferred_chance":0.406,"loss":0.187,
        "mistake":true})"));
    CHECK(json["decisions"][0]["loss"] == 0.0);
    CHECK(json["decisions"][0]["mistake"] == false);
    CHECK(json["decisions"][2]["loss"] == 0.1);
    CHECK(json["decisions"][2]["mistake"] == false);
    CHECK(json["decisions"][4]["mistake"] == true);
    CHECK(json["players"] == Json::parse(R"([
        {"seat":0,"decisions":3,"mistakes":1,"mean_loss":0.106},
        {"seat":1,"decisions":5,"mistakes":1,"mean_loss":0.043},
        {"seat":2,"decisions":0,"mistakes":0,"mean_loss":0.0}])"));
    // The largest losses first, the earlier of equal ones first, at most five.
    CHECK(json["turning_points"] == Json::parse("[13, 5, 9, 12, 20]"));

    const Json strict = analysis_json(analysis, 0.05);
    CHECK(strict["threshold"] == 0.05);
    CHECK(strict["decisions"][2]["mistake"] == true);
    CHECK(strict["players"][0]["mistakes"] == 2);
}

// Whether `seat` wins when `move` is played now and every seat then plays greedily: the real
// state, which only the test may read, to craft a blunder.
bool analysis_json_wins_with(State state, engine::Seat seat, const Move& move) {
    REQUIRE(state.apply(seat, move) == engine::MoveError::none);
    engine::Rng rng(1);
    while (!state.over()) {
        const engine::Seat next = state.to_act();
        REQUIRE(state.apply(next, engine::choose_move(engine::BotKind::greedy,
                                                      engine::view_for(state, next), rng)) ==
                engine::MoveError::none);
    }
    const auto winners = state.winners();
    return winners.size() == 1 && winners.front() == seat;
}

TEST_CASE("analysis json: a crafted blunder is a mistake and the turning point", "[protocol]") {
    // In the last round of a 2-player game, a seat that wins by building ends its turn instead
    // and loses.
    int blunders = 0;
    for (std::uint64_t seed = 1; seed <= 30 && blunders < 3; ++seed) {
        State state = engine::Rules::make({2, engine::Variant::yucata, false})->new_game(seed);
        engine::Rng rng(seed);
        while (!state.over()) {
            const engine::Seat seat = state.to_act();
            const std::vector<Move> legal = state.legal_moves(seat);
            const bool wins_by_building =
                state.round == state.rounds() && state.phase == engine::Phase::actions &&
                std::any_of(legal.begin(), legal.end(), [&](const Move& move) {
                    return move.type == engine::MoveType::build &&
                           analysis_json_wins_with(state, seat, move);
                });
            if (wins_by_building &&
                std::find(legal.begin(), legal.end(), Move::end_turn()) != legal.end() &&
                !analysis_json_wins_with(state, seat, Move::end_turn())) {
                INFO("seed " << seed << ", round " << int(state.round));
                const std::vector<Move> blunder{Move::end_turn()};
                const auto analysis = engine::analyse(
                    state, blunder, {}, {16, 1}, [](std::size_t, std::size_t) { return true; });
                REQUIRE(analysis);
                const Json json = analysis_json(*analysis);
                REQUIRE(json["decisions"].size() == 1);
                const Json& decision = json["decisions"][0];
                CHECK(decision["played"] == "end");
                CHECK(decision["preferred"] != "end");
                CHECK(decision["mistake"] == true);
                CHECK(decision["loss"].get<double>() >= 0.5);
                CHECK(json["turning_points"] == Json::array({0}));
                CHECK(json["players"][seat]["mistakes"] == 1);
                ++blunders;
                break;
            }
            REQUIRE(state.apply(seat, engine::choose_move(engine::BotKind::greedy,
                                                          engine::view_for(state, seat), rng)) ==
                    engine::MoveError::none);
        }
    }
    CHECK(blunders == 3);
}

TEST_CASE("analysis json: an empty review, and progress", "[protocol]") {
    const Json json = analysis_json(engine::GameAnalysis{8, 2, {}});
    CHECK(json["decisions"] == Json::array());
    CHECK(json["turning_points"] == Json::array());
    CHECK(json["players"].size() == 2);
    CHECK(progress_json(3, 140) == Json::parse(R"({"done":3,"total":140})"));
}

}  // namespace
}  // namespace gcor::protocol
