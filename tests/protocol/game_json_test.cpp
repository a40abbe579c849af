#include <catch2/catch.hpp>
#include <fstream>

#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {
namespace {

Json rulebook_city() {
    std::ifstream file(GCOR_TEST_DATA "/rulebook_city.json");
    return Json::parse(file);
}

// The city with one field of one cell changed.
Json with_cell(Json city, std::size_t cell, const char* key, Json value) {
    city["cells"][cell][key] = std::move(value);
    return city;
}

TEST_CASE("city json: the rulebook's scoring example scores 75", "[protocol]") {
    const auto city = parse_city(rulebook_city());
    REQUIRE(city);
    const Json score = score_to_json(engine::score(city->city, city->holdings));
    CHECK(score ==
          Json::parse(R"({"residential_2":24,"residential_3":14,"residential_4":8,"aqueducts":12,
        "temples":4,"shrine":0,"coins":9,"influence_tokens":1,"influence_cards":3,"total":75})"));
}

TEST_CASE("city json: where the city lies does not matter", "[protocol]") {
    Json moved = rulebook_city();
    for (Json& cell : moved["cells"])
        cell["x"] = cell["x"].get<int>() - 7, cell["y"] = cell["y"].get<int>() + 100;
    const auto a = parse_city(rulebook_city()), b = parse_city(moved);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(engine::score(a->city, a->holdings) == engine::score(b->city, b->holdings));
}

TEST_CASE("city json: missing numbers are 0", "[protocol]") {
    const auto city =
        parse_city(Json::parse(R"({"cells":[{"x":0,"y":0,"building":"vegetable_farm"}]})"));
    REQUIRE(city);
    CHECK(city->holdings.coins == 0);
    CHECK(engine::score(city->city, city->holdings).total == 0);
}

TEST_CASE("city json: cities no game could produce are refused with a reason", "[protocol]") {
    const Json base = rulebook_city();
    struct Case {
        const char* what;
        Json city;
        const char* says;
    };
    Json two_on_one_cell = base;
    two_on_one_cell["cells"].push_back(Json::parse(R"({"x":0,"y":0,"building":"market"})"));
    Json apart = Json::parse(
        R"({"cells":[{"x":0,"y":0,"building":"market"},{"x":2,"y":0,"building":"arena"}]})");
    Json wide =
        Json::parse(R"({"cells":[{"x":0,"y":0,"building":"market"},{"x":1,"y":0,"building":"arena"},
        {"x":2,"y":0,"building":"school"},{"x":3,"y":0,"building":"residential_2"},{"x":4,"y":0,"building":"residential_3"}]})");
    Json aqueducts = Json::parse(
        R"({"cells":[{"x":0,"y":0,"building":"aqueduct"},{"x":0,"y":1,"building":"market"},
        {"x":0,"y":2,"building":"aqueduct"}]})");
    Json two_lunas = Json::parse(
        R"({"cells":[{"x":0,"y":0,"building":"temple_luna"},{"x":1,"y":0,"building":"temple_luna"}]})");
    const Case cases[] = {
        {"not an object", Json::array(), "object"},
        {"unknown building", with_cell(base, 0, "building", "palace"), "unknown building"},
        {"building not a string", with_cell(base, 0, "building", 7), "building"},
        {"two on one cell", two_on_one_cell, "two buildings"},
        {"not connected", apart, "connected"},
        {"over 4x4", wide, "4x4"},
        {"two aqueducts in a column", aqueducts, "aqueducts"},
        {"more copies than exist", two_lunas, "more temple_luna"},
        {"negative tokens", with_cell(base, 7, "tokens", -1), "tokens"},
        {"tokens on a market", with_cell(base, 10, "tokens", 1), "tokens"},
        {"too many tokens", with_cell(base, 7, "tokens", 5), "tokens"},
        {"fractional x", with_cell(base, 0, "x", 0.5), "whole number"},
        {"x as text", with_cell(base, 0, "x", "0"), "whole number"},
        {"missing y",
         [&] {
             Json c = base;
             c["cells"][0].erase("y");
             return c;
         }(),
         "needs \"y\""},
        {"unknown key",
         [&] {
             Json c = base;
             c["coin"] = 3;
             return c;
         }(),
         "unknown key"},
        {"negative coins",
         [&] {
             Json c = base;
             c["coins"] = -1;
             return c;
         }(),
         "coins"},
        {"huge coins",
         [&] {
             Json c = base;
             c["coins"] = 18446744073709551615ull;
             return c;
         }(),
         "coins"},
        {"negative influence",
         [&] {
             Json c = base;
             c["influence"] = -2;
             return c;
         }(),
         "influence"},
        {"bad influence card",
         [&] {
             Json c = base;
             c["influence_cards"] = {5};
             return c;
         }(),
         "worth"},
        {"same influence card twice",
         [&] {
             Json c = base;
             c["influence_cards"] = {3, 3};
             return c;
         }(),
         "one influence card"},
        {"no cells", Json::object(), "cells"},
    };
    for (const Case& c : cases) {
        INFO(c.what);
        const auto city = parse_city(c.city);
        REQUIRE_FALSE(city);
        CHECK(city.error().code == ErrorCode::bad_field);
        CHECK_THAT(city.error().message, Catch::Contains(c.says));
    }
}

TEST_CASE("options json: defaults, and bad values refused", "[protocol]") {
    const auto options = parse_options(Json::parse(R"({"players":3})"));
    REQUIRE(options);
    CHECK(*options == engine::Options{3, engine::Variant::yucata, false});
    CHECK(parse_options(options_to_json({2, engine::Variant::publisher, true})).has_value());
    CHECK(*parse_options(options_to_json({2, engine::Variant::publisher, true})) ==
          engine::Options{2, engine::Variant::publisher, true});
    for (const char* bad : {R"({})", R"({"players":5})", R"({"players":1})", R"({"players":"4"})",
                            R"({"players":4,"rules":"house"})", R"({"players":4,"shrine":1})",
                            R"({"players":4,"colour":"red"})", R"([4])"}) {
        INFO(bad);
        CHECK_FALSE(parse_options(Json::parse(bad)));
    }
}

// A whole game played with the first legal move each time.
GameRecord first_move_game(engine::State& state) {
    GameRecord record;
    record.options = {3, engine::Variant::yucata, true};
    record.seed = 77;
    state = engine::Rules::make(record.options)->new_game(record.seed);
    while (!state.over()) {
        const engine::Move move = state.legal_moves(state.to_act()).front();
        state.apply(state.to_act(), move);
        record.moves.push_back(move);
    }
    return record;
}

TEST_CASE("record json: a record round-trips and replays to the same end", "[protocol]") {
    engine::State state;
    const GameRecord record = first_move_game(state);
    const Json json = record_to_json(record, &state);
    CHECK(json["scores"].size() == 3);
    const auto parsed = parse_record(Json::parse(json.dump()));
    REQUIRE(parsed);
    CHECK(parsed->moves == record.moves);
    CHECK(parsed->options == record.options);
    REQUIRE(parsed->claimed_scores);
    const Replay replayed = replay(*parsed);
    CHECK_FALSE(replayed.refused_index);
    CHECK(replayed.state == state);
    CHECK(result_to_json(replayed.state)["scores"] == *parsed->claimed_scores);
}

// A whole game of random moves whose players' turns wait for their end (State::apply's
// `waits_for_end`), with the moves after which one did.
GameRecord waiting_game(engine::State& state) {
    GameRecord record;
    record.options = {2, engine::Variant::yucata, false};
    record.seed = 78;
    state = engine::Rules::make(record.options)->new_game(record.seed);
    engine::Rng rng(5);
    while (!state.over()) {
        const std::vector<engine::Move> legal = state.legal_moves(state.to_act());
        const engine::Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        state.apply(state.to_act(), move, nullptr, true);
        if (state.turn_waits_for_end()) record.waited.push_back(record.moves.size());
        record.moves.push_back(move);
    }
    return record;
}

TEST_CASE("record json: the turns that waited for their end round-trip and replay", "[protocol]") {
    engine::State state;
    const GameRecord record = waiting_game(state);
    REQUIRE(record.waited.size() > 3);
    const Json json = record_to_json(record, &state);
    CHECK(json["waited"] == Json(record.waited));
    const auto parsed = parse_record(Json::parse(json.dump()));
    REQUIRE(parsed);
    CHECK(parsed->waited == record.waited);
    const Replay replayed = replay(*parsed);
    CHECK_FALSE(replayed.refused_index);
    CHECK(replayed.state == state);

    // Without them the rules end those turns at once: the player's end move ends another turn,
    // or is refused.
    CHECK(record.moves[record.waited.front() + 1] == engine::Move::end_turn());
    GameRecord without = *parsed;
    without.waited.clear();
    const Replay other_game = replay(without);
    CHECK((other_game.refused_index || !(other_game.state == state)));

    // A record whose turns never waited has no "waited".
    engine::State other;
    CHECK_FALSE(record_to_json(first_move_game(other), &other).contains("waited"));
}

TEST_CASE("record json: the first illegal move stops the replay with its index", "[protocol]") {
    engine::State state;
    GameRecord record = first_move_game(state);
    record.moves[10] = engine::Move::build(0, 3, 3);
    const Replay replayed = replay(record);
    REQUIRE(replayed.refused_index);
    CHECK(*replayed.refused_index == 10);
    CHECK(replayed.refused_error != engine::MoveError::none);
}

TEST_CASE("record json: malformed records are refused", "[protocol]") {
    for (const char* bad :
         {R"([])", R"({"seed":1,"moves":[]})", R"({"options":{"players":4},"moves":[]})",
          R"({"options":{"players":4},"seed":-1,"moves":[]})",
          R"({"options":{"players":4},"seed":1,"moves":["fly away"]})",
          R"({"options":{"players":4},"seed":1,"moves":[3]})",
          R"({"options":{"players":4},"seed":1})",
          R"({"options":{"players":4},"seed":1,"moves":[],"extra":1})",
          R"({"options":{"players":4},"seed":1,"moves":["draft 3"],"waited":0})",
          R"({"options":{"players":4},"seed":1,"moves":["draft 3"],"waited":[1]})",
          R"({"options":{"players":4},"seed":1,"moves":["draft 3"],"waited":[-1]})",
          R"({"options":{"players":4},"seed":1,"moves":["draft 3"],"waited":["0"]})",
          R"({"options":{"players":4},"seed":1,"moves":["draft 3","draft 4"],"waited":[1,0]})",
          R"({"options":{"players":4},"seed":1,"moves":["draft 3","draft 4"],"waited":[0,0]})"}) {
        INFO(bad);
        const auto record = parse_record(Json::parse(bad));
        REQUIRE_FALSE(record);
        CHECK(record.error().code == ErrorCode::bad_field);
    }
}

}  // namespace
}  // namespace gcor::protocol
