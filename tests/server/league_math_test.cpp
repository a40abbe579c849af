#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "leagues/league_schedule.hpp"
#include "leagues/league_settings.hpp"
#include "leagues/standings.hpp"
#include "ratings/rating.hpp"

using namespace gcor::server;

namespace {

// What a schedule gives each pair and each member.
struct ScheduleCounts {
    int least_met = 0;
    int most_met = 0;
    int fewest_games = 0;
    int most_games = 0;
    std::vector<std::vector<int>> met;    // members × members
    std::vector<std::vector<int>> seats;  // members × seat positions
    std::vector<int> games;               // per member
};

ScheduleCounts count(const std::vector<std::vector<int>>& tables, int members, int per_table) {
    const auto n = static_cast<std::size_t>(members);
    ScheduleCounts counts;
    counts.met.assign(n, std::vector<int>(n));
    counts.seats.assign(n, std::vector<int>(static_cast<std::size_t>(per_table)));
    counts.games.assign(n, 0);
    for (const auto& table : tables) {
        REQUIRE(static_cast<int>(table.size()) == per_table);
        for (std::size_t s = 0; s < table.size(); ++s) {
            REQUIRE(table[s] >= 0);
            REQUIRE(table[s] < members);
            const auto m = static_cast<std::size_t>(table[s]);
            ++counts.games[m];
            ++counts.seats[m][s];
            for (std::size_t o = 0; o < table.size(); ++o) {
                if (o == s) continue;
                REQUIRE(table[o] != table[s]);
                ++counts.met[m][static_cast<std::size_t>(table[o])];
            }
        }
    }
    counts.least_met = counts.met[0][1];
    counts.most_met = counts.met[0][1];
    for (std::size_t x = 0; x < n; ++x)
        for (std::size_t y = x + 1; y < n; ++y) {
            counts.least_met = std::min(counts.least_met, counts.met[x][y]);
            counts.most_met = std::max(counts.most_met, counts.met[x][y]);
        }
    const auto [fewest, most] = std::minmax_element(counts.games.begin(), counts.games.end());
    counts.fewest_games = *fewest;
    counts.most_games = *most;
    return counts;
}

// The shapes whose pairs meet g + 1 or g + 2 times (docs/leagues.md): with 5 members at tables of
// 4, each table leaves one out, and pair counts g or g + 1 need more tables than that.
bool meets_one_more(int members, int per_table, int g) {
    return members == 5 && per_table == 4 && (g == 1 || g == 4);
}

}  // namespace

TEST_CASE("schedule: every division shape meets the documented guarantee", "[schedule]") {
    for (const std::uint64_t seed : {1ull, 0x9E3779B97F4A7C15ull})
        for (int per_table = 2; per_table <= 4; ++per_table)
            for (int g = 1; g <= 4; ++g)
                for (int members = per_table; members <= 16; ++members) {
                    INFO("members " << members << ", per table " << per_table << ", g " << g);
                    const auto tables = schedule_division(members, per_table, g, seed);
                    const auto counts = count(tables, members, per_table);
                    const int least = meets_one_more(members, per_table, g) ? g + 1 : g;
                    CHECK(counts.least_met == least);
                    CHECK(counts.most_met <= least + 1);
                    CHECK(counts.most_games - counts.fewest_games <= 1);
                    for (std::size_t m = 0; m < counts.seats.size(); ++m) {
                        const int games = counts.games[m];
                        for (const int held : counts.seats[m]) {
                            CHECK(held >= games / per_table);
                            CHECK(held <= (games + per_table - 1) / per_table);
                        }
                    }
                    if (per_table != 2) continue;
                    CHECK(counts.most_met == g);
                    CHECK(static_cast<int>(tables.size()) == g * members * (members - 1) / 2);
                    if (g % 2 != 0) continue;
                    // Each of a pair sits first g / 2 times.
                    for (const auto& table : tables) {
                        int first = 0;
                        for (const auto& other : tables)
                            if (other == table) ++first;
                        CHECK(first == g / 2);
                    }
                }
}

TEST_CASE("schedule: table counts of typical divisions", "[schedule]") {
    // members, per table, games per pairing, tables (as in docs/leagues.md)
    const std::vector<std::tuple<int, int, int, std::size_t>> shapes = {
        {8, 2, 1, 28},  {6, 3, 1, 6},  {7, 3, 1, 7},   {9, 3, 1, 12},   {12, 3, 1, 24},
        {5, 4, 1, 4},   {8, 4, 1, 8},  {12, 4, 1, 12}, {13, 4, 1, 13},  {16, 4, 1, 20},
        {10, 3, 2, 30}, {8, 4, 2, 10}, {16, 4, 2, 40}, {16, 3, 4, 160}, {16, 4, 4, 80},
    };
    for (const auto& [members, per_table, g, tables] : shapes) {
        INFO("members " << members << ", per table " << per_table << ", g " << g);
        CHECK(schedule_division(members, per_table, g, 7).size() == tables);
    }
}

TEST_CASE("schedule: the same seed gives the same schedule, another seed relabels it",
          "[schedule]") {
    const auto first = schedule_division(12, 4, 2, 2024);
    CHECK(schedule_division(12, 4, 2, 2024) == first);
    const auto other = schedule_division(12, 4, 2, 2025);
    CHECK(other != first);
    CHECK(other.size() == first.size());
    CHECK(schedule_division(9, 2, 3, 5) == schedule_division(9, 2, 3, 5));
}

TEST_CASE("schedule: unsupported division shapes are refused", "[schedule]") {
    CHECK_THROWS_AS(schedule_division(3, 4, 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(schedule_division(17, 3, 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(schedule_division(8, 1, 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(schedule_division(8, 5, 1, 0), std::invalid_argument);
    CHECK_THROWS_AS(schedule_division(8, 3, 0, 0), std::invalid_argument);
    CHECK_THROWS_AS(schedule_division(8, 3, 5, 0), std::invalid_argument);
}

namespace {

GameOutcome game(std::vector<std::uint64_t> users, std::vector<int> places, std::vector<int> scores,
                 std::vector<int> influence = {}, std::vector<int> coins = {},
                 std::vector<bool> forfeited = {}) {
    const std::size_t seats = users.size();
    if (influence.empty()) influence.assign(seats, 0);
    if (coins.empty()) coins.assign(seats, 0);
    if (forfeited.empty()) forfeited.assign(seats, false);
    return {std::move(users),     std::move(places), std::move(scores),
            std::move(influence), std::move(coins),  std::move(forfeited)};
}

std::vector<std::uint64_t> users_of(const std::vector<StandingRow>& rows) {
    std::vector<std::uint64_t> users;
    for (const auto& row : rows)
        users.push_back(row.user);
    return users;
}

std::vector<int> ranks_of(const std::vector<StandingRow>& rows) {
    std::vector<int> ranks;
    for (const auto& row : rows)
        ranks.push_back(row.rank);
    return ranks;
}

const StandingRow& row_of(const std::vector<StandingRow>& rows, std::uint64_t user) {
    const auto found = std::find_if(rows.begin(), rows.end(),
                                    [user](const StandingRow& row) { return row.user == user; });
    REQUIRE(found != rows.end());
    return *found;
}

}  // namespace

TEST_CASE("standings: a division of four games, points first, then total score", "[standings]") {
    // Tables of 3 (points 2, 1, 0); member 50 has not played yet.
    const std::vector<GameOutcome> games = {
        game({10, 20, 30}, {1, 2, 3}, {60, 50, 40}, {3, 2, 1}, {5, 4, 3}),
        game({10, 20, 40}, {2, 1, 3}, {55, 58, 30}, {1, 2, 3}, {0, 1, 2}),
        game({10, 30, 40}, {2, 3, 1}, {45, 40, 50}, {2, 2, 2}, {1, 1, 1}),
        game({20, 30, 40}, {3, 1, 2}, {35, 60, 52}, {0, 4, 1}, {7, 0, 2}),
    };
    const auto rows = standings({10, 20, 30, 40, 50}, games, default_league_points(3));
    // 10: 2+1+1 = 4 points; 20: 1+2+0 = 3 and 143; 40: 0+2+1 = 3 and 132; 30: 0+0+2 = 2.
    CHECK(users_of(rows) == std::vector<std::uint64_t>{10, 20, 40, 30, 50});
    CHECK(ranks_of(rows) == std::vector<int>{1, 2, 3, 4, 5});
    const auto& top = row_of(rows, 10);
    CHECK(top.played == 3);
    CHECK(top.wins == 1);
    CHECK(top.forfeits == 0);
    CHECK(top.points == 4);
    CHECK(top.score == 160);
    CHECK(top.influence == 6);
    CHECK(top.coins == 6);
    CHECK(row_of(rows, 20).points == 3);
    CHECK(row_of(rows, 20).score == 143);
    CHECK(row_of(rows, 40).points == 3);
    CHECK(row_of(rows, 40).score == 132);
    CHECK(row_of(rows, 40).influence == 6);
    CHECK(row_of(rows, 40).coins == 5);
    CHECK(row_of(rows, 30).wins == 1);
    const auto& idle = row_of(rows, 50);
    CHECK(idle.played == 0);
    CHECK(idle.points == 0);
    CHECK(idle.score == 0);
}

TEST_CASE(
    "standings: equal points and score go to influence, then coins, and a full tie shares "
    "the rank",
    "[standings]") {
    // Tables of 2 (points 1, 0): every winner scores 30, every loser 20.
    const std::vector<GameOutcome> games = {
        game({1, 2}, {1, 2}, {30, 20}, {2, 1}, {1, 3}),
        game({3, 4}, {1, 2}, {30, 20}, {1, 1}, {4, 0}),
        game({5, 6}, {1, 2}, {30, 20}, {1, 1}, {4, 0}),
    };
    const auto rows = standings({6, 5, 4, 3, 2, 1}, games, default_league_points(2));
    // 1 has more influence than 3 and 5, who are equal in everything; 2 has more coins than 4
    // and 6.
    CHECK(users_of(rows) == std::vector<std::uint64_t>{1, 3, 5, 2, 4, 6});
    CHECK(ranks_of(rows) == std::vector<int>{1, 2, 2, 4, 5, 5});
}

TEST_CASE("standings: a division with no games yet ranks everyone first, by user id",
          "[standings]") {
    const auto rows = standings({30, 10, 20, 10}, {}, default_league_points(4));
    CHECK(users_of(rows) == std::vector<std::uint64_t>{10, 20, 30});
    CHECK(ranks_of(rows) == std::vector<int>{1, 1, 1});
    for (const auto& row : rows) {
        CHECK(row.played == 0);
        CHECK(row.points == 0);
    }
}

TEST_CASE("standings: a forfeit gets no points whatever its place, and is not a win",
          "[standings]") {
    // Tables of 4 (points 3, 2, 1, 0). In the second game 8 and 10 ran out of time: they share
    // the place after the others, which would be worth 1 point.
    const std::vector<GameOutcome> games = {
        game({7, 8, 9, 10}, {2, 1, 3, 4}, {40, 45, 30, 20}),
        game({7, 8, 9, 10}, {1, 3, 2, 3}, {50, 20, 35, 10}, {0, 0, 0, 0}, {0, 0, 0, 0},
             {false, true, false, true}),
        // A forfeited seat wrongly placed first still gets nothing.
        game({8, 9}, {1, 2}, {10, 5}, {0, 0}, {0, 0}, {true, false}),
    };
    const auto rows = standings({7, 8, 9, 10}, games, default_league_points(4));
    const auto& eight = row_of(rows, 8);
    CHECK(eight.played == 3);
    CHECK(eight.forfeits == 2);
    CHECK(eight.wins == 1);
    CHECK(eight.points == 3);
    CHECK(eight.score == 75);
    CHECK(row_of(rows, 10).forfeits == 1);
    CHECK(row_of(rows, 10).points == 0);
    CHECK(row_of(rows, 7).points == 5);
    CHECK(row_of(rows, 7).wins == 1);
    CHECK(row_of(rows, 9).points == 1 + 2 + 2);
    CHECK(row_of(rows, 9).forfeits == 0);
    // 7 and 9 have 5 points, 7 more score (90 against 70).
    CHECK(users_of(rows) == std::vector<std::uint64_t>{7, 9, 8, 10});
}

TEST_CASE("standings: tied places share the better place's points, shared firsts are wins",
          "[standings]") {
    const std::vector<GameOutcome> games = {
        game({1, 2, 3, 4}, {1, 2, 2, 4}, {50, 40, 40, 20}),
        game({1, 2, 3, 4}, {3, 1, 1, 4}, {30, 45, 45, 20}),
    };
    const auto rows = standings({1, 2, 3, 4}, games, default_league_points(4));
    CHECK(row_of(rows, 1).points == 3 + 1);
    CHECK(row_of(rows, 2).points == 2 + 3);
    CHECK(row_of(rows, 3).points == 2 + 3);
    CHECK(row_of(rows, 4).points == 0);
    CHECK(row_of(rows, 2).wins == 1);
    CHECK(row_of(rows, 3).wins == 1);
    CHECK(users_of(rows) == std::vector<std::uint64_t>{2, 3, 1, 4});
    CHECK(ranks_of(rows) == std::vector<int>{1, 1, 3, 4});
}

TEST_CASE("standings: custom league points, and seats of non-members are not counted",
          "[standings]") {
    const std::vector<GameOutcome> games = {
        game({1, 99, 2}, {1, 2, 3}, {30, 20, 10}),
    };
    const auto rows = standings({1, 2}, games, {5, 3, 1});
    CHECK(users_of(rows) == std::vector<std::uint64_t>{1, 2});
    CHECK(row_of(rows, 1).points == 5);
    CHECK(row_of(rows, 2).points == 1);
}

TEST_CASE("standings: default league points", "[standings]") {
    CHECK(default_league_points(2) == std::vector<int>{1, 0});
    CHECK(default_league_points(3) == std::vector<int>{2, 1, 0});
    CHECK(default_league_points(4) == std::vector<int>{3, 2, 1, 0});
}

namespace {

int to_tier_of(const std::vector<NextTier>& moves, std::uint64_t user) {
    const auto found = std::find_if(moves.begin(), moves.end(),
                                    [user](const NextTier& move) { return move.user == user; });
    REQUIRE(found != moves.end());
    return found->to_tier;
}

const std::vector<FinishedDivision> kThreeTiers = {
    {1, {11, 12, 13, 14}},
    {2, {21, 22, 23, 24}},
    {3, {31, 32, 33, 34}},
};

}  // namespace

TEST_CASE("promotion: three divisions, one up and one down", "[promotion]") {
    const auto moves = promotion_and_relegation(kThreeTiers, 1, 1);
    REQUIRE(moves.size() == 12);
    // The top division promotes nobody, the bottom one relegates nobody.
    for (const std::uint64_t user : {11ull, 12ull, 13ull})
        CHECK(to_tier_of(moves, user) == 1);
    CHECK(to_tier_of(moves, 14) == 2);
    CHECK(to_tier_of(moves, 21) == 1);
    CHECK(to_tier_of(moves, 22) == 2);
    CHECK(to_tier_of(moves, 23) == 2);
    CHECK(to_tier_of(moves, 24) == 3);
    CHECK(to_tier_of(moves, 31) == 2);
    for (const std::uint64_t user : {32ull, 33ull, 34ull})
        CHECK(to_tier_of(moves, user) == 3);
    CHECK(moves[3].user == 14);
    CHECK(moves[3].from_tier == 1);
    CHECK(moves[3].position == 4);
    CHECK(moves[4].user == 21);
    CHECK(moves[4].position == 1);
}

TEST_CASE("promotion: a small division never promotes and relegates the same player",
          "[promotion]") {
    // Given out of order: the top is the smallest tier number wherever it is listed.
    const std::vector<FinishedDivision> divisions = {
        {3, {31, 32}},
        {1, {11, 12}},
        {2, {21, 22, 23}},
    };
    const auto moves = promotion_and_relegation(divisions, 2, 2);
    CHECK(to_tier_of(moves, 31) == 2);
    CHECK(to_tier_of(moves, 32) == 2);
    CHECK(to_tier_of(moves, 11) == 2);
    CHECK(to_tier_of(moves, 12) == 2);
    // Two up leave one to go down.
    CHECK(to_tier_of(moves, 21) == 1);
    CHECK(to_tier_of(moves, 22) == 1);
    CHECK(to_tier_of(moves, 23) == 3);
}

TEST_CASE("promotion: a league of one division moves nobody", "[promotion]") {
    const auto moves = promotion_and_relegation({{1, {1, 2, 3}}}, 1, 1);
    REQUIRE(moves.size() == 3);
    for (const auto& move : moves)
        CHECK(move.to_tier == 1);
    CHECK(promotion_and_relegation({}, 1, 1).empty());
}

TEST_CASE("divisions: a leaver's place goes to the relegated above, newcomers start at the bottom",
          "[promotion]") {
    auto returning = promotion_and_relegation(kThreeTiers, 1, 1);
    // 13 did not sign up again.
    std::erase_if(returning, [](const NextTier& move) { return move.user == 13; });
    const auto divisions = assign_divisions(returning, {41, 42, 43, 44, 45, 46, 12}, 4, 3);
    // 11 returning and 6 newcomers (12 is returning): 4 + 4 + 4 + 4 + 1, the last one joins the
    // division above it.
    REQUIRE(divisions.size() == 4);
    // Tier 1: the stayers, the promoted, then 14, relegated but kept up in 13's place.
    CHECK(divisions[0] == std::vector<std::uint64_t>{11, 12, 21, 14});
    // Tier 2 has room for one more of its own, so 24 stays up too.
    CHECK(divisions[1] == std::vector<std::uint64_t>{22, 23, 31, 24});
    CHECK(divisions[2] == std::vector<std::uint64_t>{32, 33, 34, 41});
    CHECK(divisions[3] == std::vector<std::uint64_t>{42, 43, 44, 45, 46});
}

TEST_CASE("divisions: a full league keeps its tiers, a short last division joins the one above",
          "[promotion]") {
    const auto returning = promotion_and_relegation(kThreeTiers, 1, 1);
    const auto divisions = assign_divisions(returning, {41, 42}, 4, 3);
    REQUIRE(divisions.size() == 3);
    CHECK(divisions[0] == std::vector<std::uint64_t>{11, 12, 13, 21});
    CHECK(divisions[1] == std::vector<std::uint64_t>{14, 22, 23, 31});
    CHECK(divisions[2] == std::vector<std::uint64_t>{24, 32, 33, 34, 41, 42});
    // Newcomers only, fewer than a table: one division all the same.
    CHECK(assign_divisions({}, {5, 6}, 4, 3) == std::vector<std::vector<std::uint64_t>>{{5, 6}});
}

TEST_CASE("rating: two equal players, the winner takes what the loser gives", "[rating]") {
    const Rating established{1500.0, 10};
    auto after = rate_game({established, established}, {1, 2});
    CHECK(after[0].value == Approx(1516.0));
    CHECK(after[1].value == Approx(1484.0));
    CHECK(after[0].games == 11);
    CHECK(after[1].games == 11);

    after = rate_game({Rating{}, Rating{}}, {2, 1});
    CHECK(after[0].value == Approx(1468.0));
    CHECK(after[1].value == Approx(1532.0));
    CHECK(after[0].games == 1);

    after = rate_game({established, established}, {1, 1});
    CHECK(after[0].value == Approx(1500.0));
    CHECK(after[1].value == Approx(1500.0));
}

TEST_CASE("rating: an upset gains more than a favourite's win", "[rating]") {
    const Rating weaker{1400.0, 20};
    const Rating stronger{1600.0, 20};
    // E(weaker) = 1 / (1 + 10^(200 / 400)) = 0.2403.
    const auto upset = rate_game({weaker, stronger}, {1, 2});
    const auto expected = rate_game({weaker, stronger}, {2, 1});
    CHECK(upset[0].value - weaker.value == Approx(32.0 * (1.0 - 0.240253)).epsilon(1e-4));
    CHECK(expected[1].value - stronger.value == Approx(32.0 * 0.240253).epsilon(1e-4));
    CHECK(upset[0].value - weaker.value > expected[1].value - stronger.value);
}

TEST_CASE("rating: a table of four equal players", "[rating]") {
    const std::vector<Rating> before(4, Rating{1500.0, 30});
    const auto after = rate_game(before, {1, 2, 3, 4});
    // K / (n - 1) = 32 / 3 times: first 3 × 0.5, second 0.5, third -0.5, last -1.5.
    CHECK(after[0].value - 1500.0 == Approx(16.0));
    CHECK(after[1].value - 1500.0 == Approx(16.0 / 3.0));
    CHECK(after[2].value - 1500.0 == Approx(-16.0 / 3.0));
    CHECK(after[3].value - 1500.0 == Approx(-16.0));

    // Two sharing second place split what second and third would get.
    const auto shared = rate_game(before, {1, 2, 2, 4});
    CHECK(shared[1].value == Approx(1500.0));
    CHECK(shared[2].value == Approx(1500.0));
}

TEST_CASE("rating: changes sum to zero when every K is the same", "[rating]") {
    const std::vector<Rating> before = {{1720.0, 15}, {1480.0, 40}, {1610.0, 12}, {1350.0, 99}};
    for (const auto& places :
         std::vector<std::vector<int>>{{1, 2, 3, 4}, {4, 3, 2, 1}, {2, 1, 1, 4}, {3, 1, 4, 2}}) {
        const auto after = rate_game(before, places);
        double sum = 0.0;
        for (std::size_t i = 0; i < before.size(); ++i)
            sum += after[i].value - before[i].value;
        CHECK(sum == Approx(0.0).margin(1e-9));
    }
}

TEST_CASE("rating: provisional players move twice as fast", "[rating]") {
    CHECK(provisional(Rating{}));
    CHECK(provisional(Rating{1500.0, kProvisionalGames - 1}));
    CHECK_FALSE(provisional(Rating{1500.0, kProvisionalGames}));

    const Rating newcomer{1500.0, 3};
    const Rating regular{1500.0, 50};
    const auto after = rate_game({newcomer, regular}, {1, 2});
    CHECK(after[0].value - 1500.0 == Approx(32.0));
    CHECK(after[1].value - 1500.0 == Approx(-16.0));
    // The tenth game is still provisional, the eleventh is not.
    const auto tenth = rate_game({Rating{1500.0, 9}, regular}, {1, 2});
    CHECK(tenth[0].value - 1500.0 == Approx(32.0));
    CHECK(tenth[0].games == 10);
    CHECK_FALSE(provisional(tenth[0]));
    const auto eleventh = rate_game({tenth[0], regular}, {1, 2});
    CHECK(eleventh[0].value - tenth[0].value < 16.0);
}

TEST_CASE("rating: a sole winner always gains and a sole last always loses", "[rating]") {
    const std::vector<double> values = {800.0, 1200.0, 1500.0, 1900.0, 2600.0};
    for (const double a : values)
        for (const double b : values)
            for (const double c : values) {
                const std::vector<Rating> before = {{a, 5}, {b, 10}, {c, 50}};
                for (const auto& places :
                     std::vector<std::vector<int>>{{1, 2, 3}, {3, 1, 2}, {2, 3, 1}, {1, 2, 2}}) {
                    const auto after = rate_game(before, places);
                    for (std::size_t i = 0; i < 3; ++i) {
                        if (places[i] == 1) CHECK(after[i].value > before[i].value);
                        if (places[i] == 3) CHECK(after[i].value < before[i].value);
                    }
                }
            }
}

TEST_CASE("rating: a game needs two players with a place each", "[rating]") {
    CHECK_THROWS_AS(rate_game({Rating{}}, {1}), std::invalid_argument);
    CHECK_THROWS_AS(rate_game({Rating{}, Rating{}}, {1}), std::invalid_argument);
}

TEST_CASE("league settings: a body's defaults, refusals and stored form", "[leagues]") {
    using gcor::protocol::Json;
    const auto read = parse_settings(Json::parse(R"({"name":"L","options":{"players":3}})"));
    REQUIRE(read.has_value());
    const auto& settings = *read;
    CHECK(settings.days == 3);
    CHECK(settings.division_size == 6);
    CHECK(settings.points == std::vector<int>{2, 1, 0});
    CHECK(settings.undo);
    CHECK(settings_from_json(settings_json(settings)) == settings);
    // Undo is the league's choice, kept in its stored form; leagues stored before it allow it.
    const auto no_undo =
        parse_settings(Json::parse(R"({"name":"L","options":{"players":2},"undo":false})"));
    REQUIRE(no_undo.has_value());
    CHECK_FALSE(no_undo->undo);
    CHECK_FALSE(settings_from_json(settings_json(*no_undo)).undo);
    Json stored_before_undo = settings_json(settings);
    stored_before_undo.erase("undo");
    CHECK(settings_from_json(stored_before_undo).undo);
    // Chat likewise: the league's choice for its tables, open to all when not said.
    CHECK(settings.chat == gcor::protocol::ChatSetting::all);
    const auto quiet =
        parse_settings(Json::parse(R"({"name":"L","options":{"players":2},"chat":"off"})"));
    REQUIRE(quiet.has_value());
    CHECK(quiet->chat == gcor::protocol::ChatSetting::off);
    CHECK(settings_from_json(settings_json(*quiet)).chat == gcor::protocol::ChatSetting::off);
    stored_before_undo.erase("chat");
    CHECK(settings_from_json(stored_before_undo).chat == gcor::protocol::ChatSetting::all);
    for (const char* body :
         {R"({"days":3})", R"({"options":{"players":2},"days":0})",
          R"({"options":{"players":2},"division_size":13})",
          R"({"options":{"players":2},"points":[0,1]})",
          R"({"options":{"players":2},"promote":2,"division_size":2})",
          R"({"options":{"players":2},"colour":"red"})", R"({"options":{"players":2},"undo":"no"})",
          R"({"options":{"players":2},"chat":"loud"})",
          R"({"options":{"players":2},"chat":false})"}) {
        INFO(body);
        CHECK_FALSE(parse_settings(Json::parse(body)).has_value());
    }
}
