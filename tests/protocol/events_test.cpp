// The game's events as data (what clients receive) and as words (what the server writes itself):
// a card a viewer may not know never reaches it, in either form or language.
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/events.hpp"

namespace gcor::protocol {
namespace {

using engine::Event;
using engine::EventType;
using engine::Seat;

// Every event of a few random 4-player games with the shrines.
std::vector<Event> played_events(std::uint64_t games) {
    std::vector<Event> events;
    for (std::uint64_t seed = 1; seed <= games; ++seed) {
        engine::State state =
            engine::Rules::make({4, engine::Variant::yucata, true})->new_game(seed, &events);
        engine::Rng rng(seed);
        while (!state.over()) {
            const auto legal = state.legal_moves(state.to_act());
            state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))],
                        &events);
        }
    }
    return events;
}

std::optional<Seat> viewer_of(int viewer) {
    return viewer < 0 ? std::nullopt : std::optional<Seat>(static_cast<Seat>(viewer));
}

TEST_CASE("events: a card a viewer may not see is in none of its events or lines", "[events]") {
    const std::vector<std::string> names{"Ann", "Bob", "Cy", "Di"};
    int hidden = 0;
    for (const Event& event : played_events(30))
        for (int viewer = -1; viewer < 4; ++viewer) {
            const std::optional<Seat> who = viewer_of(viewer);
            const Json json = events_json(std::span(&event, 1), who)[0];
            INFO(json.dump());
            CHECK(json["e"].is_string());
            for (Language language : kLanguages)
                CHECK_FALSE(describe(event, who, names, language).empty());
            if (event.card == engine::kNoCard) continue;
            if (event.visible_to(who)) {
                CHECK(json["card"] == event.card);
                continue;
            }
            ++hidden;
            CHECK_FALSE(json.contains("card"));
            for (Language language : kLanguages) {
                const std::string line = describe(event, who, names, language);
                INFO(line);
                CHECK(line.find(building_name(engine::kind_of(event.card), language)) ==
                      std::string::npos);
            }
        }
    CHECK(hidden > 100);  // drafts and schools happened, and were hidden from someone
}

TEST_CASE("events: each kind has its members, and nothing that is zero", "[events]") {
    const std::vector<Event> events = played_events(10);
    std::vector<std::string> kinds;
    for (const Event& event : events) {
        const Json json = events_json(std::span(&event, 1), std::nullopt)[0];
        const std::string kind = json["e"];
        kinds.push_back(kind);
        for (const auto& [key, value] : json.items())
            if (value.is_number() && key != "seat" && key != "space" && key != "deck" &&
                key != "card" && key != "bricks" && key != "cogs" && key != "returned" &&
                key != "points" && key != "under")
                CHECK(value != 0);
        if (kind == "build") {
            CHECK(json["cell"] == std::to_string(event.x) + ',' + std::to_string(event.y));
            CHECK(json.value("paid", 0) == event.coins_paid);
            CHECK(json.value("bought", 0) * 2 == event.coins_paid);
        }
        if (kind == "turn") CHECK(json["bricks"] == event.bricks);
        if (kind == "round") CHECK(json == Json{{"e", "round"}, {"round", event.count}});
    }
    for (const char* kind : {"start", "draft", "round", "offer", "place", "turn", "take", "build",
                             "end", "first", "over"})
        CHECK(std::ranges::count(kinds, kind) > 0);
}

TEST_CASE("events: automatic moves are marked, in data and in words", "[events]") {
    std::vector<Event> events;
    engine::State state =
        engine::Rules::make({2, engine::Variant::yucata, false})->new_game(4, &events);
    state.apply(state.to_act(), state.legal_moves(state.to_act()).front(), &events);
    // The first player keeps the last draft card automatically.
    const auto automatic = std::ranges::find_if(events, [](const Event& e) { return e.automatic; });
    REQUIRE(automatic != events.end());
    CHECK(automatic->type == EventType::drafted);
    CHECK(events_json(std::span(&*automatic, 1), std::nullopt)[0]["auto"] == 1);
    CHECK(describe(*automatic, std::nullopt, {}, Language::en).ends_with("(automatic)"));
    CHECK(describe(*automatic, std::nullopt, {}, Language::de).ends_with("(automatisch)"));
}

TEST_CASE("events: words in English and German", "[events]") {
    Event build{.type = EventType::built, .seat = 1, .card = 0, .x = 1, .y = -1};
    build.coins_paid = 2;
    build.coins_gained = 1;
    const std::string card_en(engine::info(engine::kind_of(0)).name);
    const std::string card_de(building_name(engine::kind_of(0), Language::de));
    const std::vector<std::string> names{"Ann", "Bob"};
    CHECK(describe(build, std::nullopt, names, Language::en) ==
          "Bob builds " + card_en + " at (1,-1), buying 1 brick for 2 coins, gaining 1 coin.");
    CHECK(describe(build, std::nullopt, names, Language::de) ==
          "Bob baut " + card_de + " auf (1,-1), kauft 1 Baupunkt für 2 Geld, erhält 1 Geld.");
    const Event round{.type = EventType::round_started, .count = 3};
    CHECK(describe(round, 0, names, Language::de) == "Runde 3 beginnt.");
    const Event timeout{.type = EventType::timed_out, .seat = 2};
    CHECK(describe(timeout, 0, names, Language::en).starts_with("Player 3 ran out of time"));
    CHECK(events_json(std::span(&timeout, 1), 0) == Json::parse(R"([{"e":"timeout","seat":2}])"));
    CHECK(parse_language("de") == Language::de);
    CHECK(parse_language("fr") == std::nullopt);
    for (int kind = 1; kind < engine::kKindCount; ++kind)
        CHECK_FALSE(building_name(static_cast<engine::Kind>(kind), Language::de).empty());
}

}  // namespace
}  // namespace gcor::protocol
