// Final scoring, one rule per test case (DECISIONS.md, "Final scoring"), and the rulebook's
// scoring example (total 75).
#include <catch2/catch.hpp>

#include <initializer_list>
#include <sstream>
#include <string>

#include "gcor/engine/cards.hpp"
#include "gcor/engine/city.hpp"
#include "gcor/engine/score.hpp"

namespace Catch {
template <>
struct StringMaker<gcor::engine::ScoreBreakdown> {
    static std::string convert(const gcor::engine::ScoreBreakdown& s) {
        std::ostringstream out;
        out << "{res2 " << s.residential_2 << ", res3 " << s.residential_3 << ", res4 "
            << s.residential_4 << ", aqueducts " << s.aqueducts << ", temples " << s.temples
            << ", shrine " << s.shrine << ", coins " << s.coins << ", influence_tokens "
            << s.influence_tokens << ", influence_cards " << s.influence_cards << ", total "
            << s.total << "}";
        return out.str();
    }
};
}  // namespace Catch

namespace gcor::engine {
namespace {

// Some card of this kind; scoring looks at kinds and tokens only.
CardId card_of(Kind kind) {
    for (int id = 0; id < kCardCount; ++id)
        if (kind_of(static_cast<CardId>(id)) == kind) return static_cast<CardId>(id);
    FAIL("no card of this kind");
    return kNoCard;
}

struct At {
    int x;
    int y;
    Kind kind;
    int tokens = 0;
};

City city_of(std::initializer_list<At> buildings) {
    City city;
    for (const At& b : buildings)
        city.place(b.x, b.y, b.kind, card_of(b.kind), static_cast<std::uint8_t>(b.tokens));
    return city;
}

// A breakdown with the total filled in from the categories.
ScoreBreakdown with_total(ScoreBreakdown s) {
    s.total = s.residential_2 + s.residential_3 + s.residential_4 + s.aqueducts + s.temples +
              s.shrine + s.coins + s.influence_tokens + s.influence_cards;
    return s;
}

ScoreBreakdown score_of(std::initializer_list<At> buildings, Holdings holdings = {}) {
    return score(city_of(buildings), holdings);
}

}  // namespace

// --- Residential areas -------------------------------------------------------------------------

TEST_CASE("residential: an area scores the sum of its values times its adjacent public colours") {
    // Three value-2 residences in a row: 6.
    SECTION("one colour") {
        ScoreBreakdown expected;
        expected.residential_2 = 6;
        CHECK(score_of({{0, 0, Kind::residential_2},
                        {1, 0, Kind::residential_2},
                        {2, 0, Kind::residential_2},
                        {3, 0, Kind::market}}) == with_total(expected));
    }
    SECTION("two colours") {
        ScoreBreakdown expected;
        expected.residential_2 = 12;
        CHECK(score_of({{0, 0, Kind::residential_2},
                        {1, 0, Kind::residential_2},
                        {2, 0, Kind::residential_2},
                        {3, 0, Kind::market},
                        {0, 1, Kind::arena}}) == with_total(expected));
    }
    SECTION("four colours") {
        ScoreBreakdown expected;
        expected.residential_2 = 24;
        CHECK(score_of({{0, 0, Kind::residential_2},
                        {1, 0, Kind::residential_2},
                        {2, 0, Kind::residential_2},
                        {3, 0, Kind::market},
                        {0, 1, Kind::arena},
                        {1, 1, Kind::school},
                        {2, 1, Kind::thermal_baths}}) == with_total(expected));
    }
    SECTION("value 3 and value 4 areas") {
        ScoreBreakdown expected;
        expected.residential_3 = 6;
        expected.residential_4 = 8;
        CHECK(score_of({{0, 0, Kind::residential_3},
                        {1, 0, Kind::residential_3},
                        {2, 0, Kind::market},
                        {0, 1, Kind::residential_4},
                        {1, 1, Kind::residential_4},
                        {2, 1, Kind::arena}}) == with_total(expected));
    }
}

TEST_CASE("residential: only adjacent residences of the same value form an area") {
    // res2 (0,0) | res3 (1,0) | res2 (2,0); arena under (0,0), market under (1,0).
    // (0,0) is its own area next to the arena: 2. (2,0) is another value-2 area with no public
    // building: 0. The value-3 residence touches the market: 3.
    ScoreBreakdown expected;
    expected.residential_2 = 2;
    expected.residential_3 = 3;
    CHECK(score_of({{0, 0, Kind::residential_2},
                    {1, 0, Kind::residential_3},
                    {2, 0, Kind::residential_2},
                    {0, 1, Kind::arena},
                    {1, 1, Kind::market}}) == with_total(expected));
}

TEST_CASE("residential: two separate areas of the same value score separately") {
    // Two value-2 residences with a market between them: two areas of 2 each, not one of 4 x 1.
    ScoreBreakdown expected;
    expected.residential_2 = 4;
    CHECK(score_of({{0, 0, Kind::residential_2},
                    {1, 0, Kind::market},
                    {2, 0, Kind::residential_2},
                    {1, 1, Kind::arena}}) == with_total(expected));
    // The arena touches neither residence: still 2 + 2.
}

TEST_CASE("residential: a luxury residence counts as its value") {
    // Luxury 2 + residence 2 next to a market: 4. Luxury 3 + residence 3 next to an arena: 6.
    // Luxury 4 + residence 4 next to a school: 8.
    ScoreBreakdown expected;
    expected.residential_2 = 4;
    expected.residential_3 = 6;
    expected.residential_4 = 8;
    CHECK(score_of({{0, 0, Kind::luxury_residential_2},
                    {1, 0, Kind::residential_2},
                    {2, 0, Kind::market},
                    {0, 1, Kind::luxury_residential_3},
                    {1, 1, Kind::residential_3},
                    {2, 1, Kind::arena},
                    {0, 2, Kind::luxury_residential_4},
                    {1, 2, Kind::residential_4},
                    {2, 2, Kind::school}}) == with_total(expected));
}

TEST_CASE("residential: a colour counts once and a special public building shares its colour") {
    // A value-4 residence between a market and the Forum Romanum: one colour, 4.
    SECTION("market and forum romanum") {
        ScoreBreakdown expected;
        expected.residential_4 = 4;
        CHECK(score_of({{0, 0, Kind::market},
                        {1, 0, Kind::residential_4},
                        {2, 0, Kind::forum_romanum}}) == with_total(expected));
    }
    SECTION("plus colosseum and arena: two colours") {
        ScoreBreakdown expected;
        expected.residential_4 = 8;
        CHECK(score_of({{0, 0, Kind::market},
                        {1, 0, Kind::residential_4},
                        {2, 0, Kind::forum_romanum},
                        {1, 1, Kind::colosseum},
                        {1, -1, Kind::arena}}) == with_total(expected));
    }
    SECTION("school and university") {
        ScoreBreakdown expected;
        expected.residential_3 = 3;
        CHECK(score_of(
                  {{0, 0, Kind::school}, {1, 0, Kind::residential_3}, {2, 0, Kind::university}}) ==
              with_total(expected));
    }
}

TEST_CASE("residential: one public building counts for several areas") {
    // A market in the middle of four residences: res2 above, res2 below (two areas),
    // res3 left, res4 right.
    ScoreBreakdown expected;
    expected.residential_2 = 4;
    expected.residential_3 = 3;
    expected.residential_4 = 4;
    CHECK(score_of({{1, 1, Kind::market},
                    {1, 0, Kind::residential_2},
                    {1, 2, Kind::residential_2},
                    {0, 1, Kind::residential_3},
                    {2, 1, Kind::residential_4}}) == with_total(expected));
}

TEST_CASE("residential: the best adjacent thermal baths' point tokens are added once per area") {
    // An L-shaped value-2 area (0,0),(1,0),(1,1). Thermal baths at (0,1) with 2 tokens touches
    // two of its cells; the imperial thermal baths at (2,0) with 3 tokens touches one.
    // Only the best one counts, once: 6 x 1 (blue) + 3 = 9.
    // A value-3 residence at (2,1) also touches the imperial thermal baths: 3 x 1 + 3 = 6.
    ScoreBreakdown expected;
    expected.residential_2 = 9;
    expected.residential_3 = 6;
    CHECK(score_of({{0, 0, Kind::residential_2},
                    {1, 0, Kind::residential_2},
                    {1, 1, Kind::residential_2},
                    {0, 1, Kind::thermal_baths, 2},
                    {2, 0, Kind::imperial_thermal_baths, 3},
                    {2, 1, Kind::residential_3}}) == with_total(expected));
}

TEST_CASE("residential: thermal baths tokens add to the colours of other public buildings") {
    // Value-3 area of two next to a market and a thermal baths with 5 tokens: 6 x 2 + 5 = 17.
    ScoreBreakdown expected;
    expected.residential_3 = 17;
    CHECK(score_of({{0, 0, Kind::residential_3},
                    {1, 0, Kind::residential_3},
                    {2, 0, Kind::market},
                    {0, 1, Kind::thermal_baths, 5}}) == with_total(expected));
}

TEST_CASE("residential: an area with no adjacent public building scores nothing") {
    ScoreBreakdown expected;
    expected.aqueducts = 4;
    CHECK(score_of({{0, 0, Kind::residential_2},
                    {1, 0, Kind::residential_2},
                    {2, 0, Kind::aqueduct},
                    {0, 1, Kind::vegetable_farm},
                    {1, 1, Kind::residential_4},
                    {2, 1, Kind::residential_3}}) == with_total(expected));
}

// --- Aqueducts ---------------------------------------------------------------------------------

TEST_CASE("aqueducts: 1, 2, 3, 4 aqueducts score 4, 12, 24, 40") {
    const int expected_points[] = {0, 4, 12, 24, 40};
    for (int count = 0; count <= 4; ++count) {
        // A diagonal of aqueducts (the first one the grand aqueduct) on a row of farms.
        City city;
        for (int i = 0; i < 4; ++i)
            city.place(i, 0, Kind::vegetable_farm, card_of(Kind::vegetable_farm));
        for (int i = 0; i < count; ++i)
            city.place(i, i, i == 0 ? Kind::grand_aqueduct : Kind::aqueduct,
                       card_of(i == 0 ? Kind::grand_aqueduct : Kind::aqueduct));
        ScoreBreakdown expected;
        expected.aqueducts = expected_points[count];
        INFO("aqueducts: " << count);
        CHECK(score(city, {}) == with_total(expected));
    }
}

// --- Temples -----------------------------------------------------------------------------------

TEST_CASE("temples: luna scores one point per star in the city, its own included") {
    // Luna 1 + grand aqueduct 1 + luxury residence 1 + mars 3 = 6 stars; mars has no value-4.
    ScoreBreakdown expected;
    expected.temples = 6;
    expected.aqueducts = 4;
    const City city = city_of({{0, 0, Kind::temple_luna},
                               {1, 0, Kind::grand_aqueduct},
                               {0, 1, Kind::luxury_residential_3},
                               {1, 1, Kind::temple_mars}});
    CHECK(stars(city) == 6);
    CHECK(score(city, {}) == with_total(expected));
    SECTION("alone: its own star") {
        ScoreBreakdown alone;
        alone.temples = 1;
        CHECK(score_of({{0, 0, Kind::temple_luna}, {1, 0, Kind::vegetable_farm}}) ==
              with_total(alone));
    }
}

TEST_CASE("temples: mars scores 5 with at least one value-4 residence") {
    ScoreBreakdown five;
    five.temples = 5;
    ScoreBreakdown zero;
    SECTION("a value-4 residence") {
        CHECK(score_of({{0, 0, Kind::temple_mars}, {1, 0, Kind::residential_4}}) ==
              with_total(five));
    }
    SECTION("a luxury value-4 residence") {
        CHECK(score_of({{0, 0, Kind::temple_mars}, {1, 0, Kind::luxury_residential_4}}) ==
              with_total(five));
    }
    SECTION("two value-4 residences: still once") {
        CHECK(score_of({{0, 0, Kind::temple_mars},
                        {1, 0, Kind::residential_4},
                        {2, 0, Kind::residential_4}}) == with_total(five));
    }
    SECTION("only value 2 and 3") {
        CHECK(score_of({{0, 0, Kind::temple_mars},
                        {1, 0, Kind::residential_3},
                        {2, 0, Kind::residential_2}}) == with_total(zero));
    }
}

TEST_CASE("temples: venus scores 2 per value-2 residence") {
    // Two residences and a luxury one of value 2: 6; the value-3 one does not count.
    ScoreBreakdown expected;
    expected.temples = 6;
    CHECK(score_of({{0, 0, Kind::temple_venus},
                    {1, 0, Kind::residential_2},
                    {2, 0, Kind::luxury_residential_2},
                    {0, 1, Kind::residential_2},
                    {1, 1, Kind::residential_3}}) == with_total(expected));
}

TEST_CASE("temples: jupiter scores 2 per temple, itself and the shrine included") {
    SECTION("jupiter, fortuna and the shrine") {
        // Fortuna scores nothing here; the shrine touches jupiter only: 2.
        ScoreBreakdown expected;
        expected.temples = 6;
        expected.shrine = 2;
        CHECK(score_of({{0, 0, Kind::temple_jupiter},
                        {1, 0, Kind::temple_fortuna},
                        {0, 1, Kind::shrine}}) == with_total(expected));
    }
    SECTION("jupiter alone") {
        ScoreBreakdown expected;
        expected.temples = 2;
        CHECK(score_of({{0, 0, Kind::temple_jupiter}, {1, 0, Kind::vegetable_farm}}) ==
              with_total(expected));
    }
}

TEST_CASE("temples: mercury scores 1 per 3 coins") {
    const City city = city_of({{0, 0, Kind::temple_mercury}, {1, 0, Kind::vegetable_farm}});
    struct Case {
        int coins, points;
    };
    for (const Case& c : {Case{10, 3}, Case{9, 3}, Case{8, 2}, Case{2, 0}, Case{0, 0}}) {
        const int coins = c.coins;
        const int points = c.points;
        ScoreBreakdown expected;
        expected.temples = points;
        expected.coins = coins;
        INFO("coins: " << coins);
        CHECK(score(city, {coins, 0, 0}) == with_total(expected));
    }
}

TEST_CASE("temples: minerva scores 10 with 16 buildings") {
    City city;
    city.place(0, 0, Kind::temple_minerva, card_of(Kind::temple_minerva));
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            if (x + y > 0 && !(x == 3 && y == 3))
                city.place(x, y, Kind::vegetable_farm, card_of(Kind::vegetable_farm));
    REQUIRE(city.building_count() == 15);
    ScoreBreakdown zero;
    CHECK(score(city, {}) == with_total(zero));
    city.place(3, 3, Kind::vegetable_farm, card_of(Kind::vegetable_farm));
    ScoreBreakdown ten;
    ten.temples = 10;
    CHECK(score(city, {}) == with_total(ten));
}

TEST_CASE("temples: fortuna scores 15 with a public building of each colour") {
    SECTION("market, colosseum, school, imperial thermal baths") {
        ScoreBreakdown expected;
        expected.temples = 15;
        CHECK(score_of({{0, 0, Kind::temple_fortuna},
                        {1, 0, Kind::market},
                        {2, 0, Kind::colosseum},
                        {0, 1, Kind::school},
                        {1, 1, Kind::imperial_thermal_baths}}) == with_total(expected));
    }
    SECTION("three colours") {
        ScoreBreakdown expected;
        CHECK(score_of({{0, 0, Kind::temple_fortuna},
                        {1, 0, Kind::forum_romanum},
                        {2, 0, Kind::arena},
                        {0, 1, Kind::university},
                        {1, 1, Kind::market}}) == with_total(expected));
    }
}

TEST_CASE("temples: cupid scores 10 with at least four value-2 residences") {
    SECTION("four, a luxury one included") {
        ScoreBreakdown expected;
        expected.temples = 10;
        CHECK(score_of({{0, 0, Kind::temple_cupid},
                        {1, 0, Kind::residential_2},
                        {2, 0, Kind::residential_2},
                        {0, 1, Kind::residential_2},
                        {1, 1, Kind::luxury_residential_2}}) == with_total(expected));
    }
    SECTION("three") {
        ScoreBreakdown expected;
        CHECK(score_of({{0, 0, Kind::temple_cupid},
                        {1, 0, Kind::residential_2},
                        {2, 0, Kind::residential_2},
                        {0, 1, Kind::residential_3},
                        {1, 1, Kind::luxury_residential_2}}) == with_total(expected));
    }
}

TEST_CASE("temples: juno scores 10 with at least four temples, itself and the shrine included") {
    SECTION("juno, fortuna, minerva and the shrine") {
        // The shrine at the end touches minerva: 2.
        ScoreBreakdown expected;
        expected.temples = 10;
        expected.shrine = 2;
        CHECK(score_of({{0, 0, Kind::temple_juno},
                        {1, 0, Kind::temple_fortuna},
                        {2, 0, Kind::temple_minerva},
                        {3, 0, Kind::shrine}}) == with_total(expected));
    }
    SECTION("three temples") {
        ScoreBreakdown expected;
        CHECK(score_of({{0, 0, Kind::temple_juno},
                        {1, 0, Kind::temple_fortuna},
                        {2, 0, Kind::temple_minerva}}) == with_total(expected));
    }
}

TEST_CASE("temples: saturn scores 15 with at least four production buildings, vineyard included") {
    SECTION("vegetable, grain and sheep farm and the vineyard") {
        ScoreBreakdown expected;
        expected.temples = 15;
        CHECK(score_of({{0, 0, Kind::temple_saturn},
                        {1, 0, Kind::vegetable_farm},
                        {2, 0, Kind::grain_farm},
                        {0, 1, Kind::sheep_farm},
                        {1, 1, Kind::vineyard}}) == with_total(expected));
    }
    SECTION("three") {
        ScoreBreakdown expected;
        CHECK(score_of({{0, 0, Kind::temple_saturn},
                        {1, 0, Kind::vegetable_farm},
                        {2, 0, Kind::grain_farm},
                        {0, 1, Kind::sheep_farm}}) == with_total(expected));
    }
}

TEST_CASE("shrine: 2 points per orthogonally adjacent building") {
    SECTION("four neighbours, diagonals not counted") {
        ScoreBreakdown expected;
        expected.shrine = 8;
        CHECK(score_of({{1, 1, Kind::shrine},
                        {0, 1, Kind::vegetable_farm},
                        {2, 1, Kind::grain_farm},
                        {1, 0, Kind::sheep_farm},
                        {1, 2, Kind::vegetable_farm},
                        {0, 0, Kind::vegetable_farm},
                        {2, 2, Kind::vegetable_farm}}) == with_total(expected));
    }
    SECTION("one neighbour") {
        ScoreBreakdown expected;
        expected.shrine = 2;
        CHECK(score_of({{0, 0, Kind::shrine}, {1, 0, Kind::vegetable_farm}}) ==
              with_total(expected));
    }
}

// --- Holdings ----------------------------------------------------------------------------------

TEST_CASE("coins: 1 point each") {
    ScoreBreakdown expected;
    expected.coins = 7;
    CHECK(score(City{}, {7, 0, 0}) == with_total(expected));
}

TEST_CASE("influence tokens: 1 point per 2, rounded down") {
    struct Case {
        int tokens, points;
    };
    for (const Case& c : {Case{5, 2}, Case{4, 2}, Case{1, 0}, Case{0, 0}, Case{11, 5}}) {
        const int tokens = c.tokens;
        const int points = c.points;
        ScoreBreakdown expected;
        expected.influence_tokens = points;
        INFO("tokens: " << tokens);
        CHECK(score(City{}, {0, tokens, 0}) == with_total(expected));
    }
}

TEST_CASE("influence cards: their value") {
    ScoreBreakdown expected;
    expected.influence_cards = 9;
    CHECK(score(City{}, {0, 0, 9}) == with_total(expected));
}

TEST_CASE("total: the sum of every category") {
    // Value-2 area 4 x 1 = 4, one aqueduct 4, venus 2 x 2 = 4, shrine next to two buildings 4,
    // coins 5, tokens 7 -> 3, cards 6.
    const ScoreBreakdown s = score(city_of({{0, 0, Kind::residential_2},
                                            {1, 0, Kind::residential_2},
                                            {2, 0, Kind::market},
                                            {0, 1, Kind::aqueduct},
                                            {1, 1, Kind::temple_venus},
                                            {2, 1, Kind::shrine}}),
                                   {5, 7, 6});
    CHECK(s.residential_2 == 4);
    CHECK(s.aqueducts == 4);
    CHECK(s.temples == 4);
    CHECK(s.shrine == 4);
    CHECK(s.coins == 5);
    CHECK(s.influence_tokens == 3);
    CHECK(s.influence_cards == 6);
    CHECK(s.total == 30);
}

// --- The rulebook's example --------------------------------------------------------------------

TEST_CASE("scoring example of the rulebook: 75 points") {
    // The example as described in the rulebook:
    //          x=0          x=1           x=2          x=3
    //   y=0    lux res 2    grand aqueduct res 4        imperial baths (4)
    //   y=1    arena        res 2         res 2        res 2
    //   y=2    lux res 3    res 3         baths (2)    market
    //   y=3    luna         vegetable     aqueduct     fortuna
    // - value-2 area top-left, one building, next to the arena (red): 2 x 1 = 2;
    // - value-2 area of three in the middle, next to the arena (red), both baths (blue) and the
    //   market (yellow): 6 x 3 + 4 (the blue one with the most tokens) = 22;
    // - value-3 area of two next to the arena (red) and the baths with 2 tokens: 6 x 2 + 2 = 14;
    // - value-4 residence next to the imperial baths (4 tokens) only: 4 x 1 + 4 = 8;
    // - two aqueducts: 12;
    // - fortuna (lower right): three colours only, 0; luna (lower left): 4 stars (luna, grand
    //   aqueduct and the two luxury residences): 4;
    // - 9 coins, 3 influence tokens (1 point), an influence card worth 3.
    const City city = city_of({{0, 0, Kind::luxury_residential_2},
                               {1, 0, Kind::grand_aqueduct},
                               {2, 0, Kind::residential_4},
                               {3, 0, Kind::imperial_thermal_baths, 4},
                               {0, 1, Kind::arena},
                               {1, 1, Kind::residential_2},
                               {2, 1, Kind::residential_2},
                               {3, 1, Kind::residential_2},
                               {0, 2, Kind::luxury_residential_3},
                               {1, 2, Kind::residential_3},
                               {2, 2, Kind::thermal_baths, 2},
                               {3, 2, Kind::market},
                               {0, 3, Kind::temple_luna},
                               {1, 3, Kind::vegetable_farm},
                               {2, 3, Kind::aqueduct},
                               {3, 3, Kind::temple_fortuna}});
    REQUIRE(city.building_count() == 16);
    CHECK(stars(city) == 4);
    const ScoreBreakdown s = score(city, {9, 3, 3});
    CHECK(s.residential_2 == 24);
    CHECK(s.residential_3 == 14);
    CHECK(s.residential_4 == 8);
    CHECK(s.aqueducts == 12);
    CHECK(s.temples == 4);
    CHECK(s.shrine == 0);
    CHECK(s.coins == 9);
    CHECK(s.influence_tokens == 1);
    CHECK(s.influence_cards == 3);
    CHECK(s.total == 75);
    // Each temple on its own.
    CHECK(temple_points(city, Kind::temple_luna, 0, 3, 9) == 4);
    CHECK(temple_points(city, Kind::temple_fortuna, 3, 3, 9) == 0);
}

}  // namespace gcor::engine
