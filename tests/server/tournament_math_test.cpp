// The tournaments' rules on their own (docs/tournaments.md): table sizes and byes, Swiss pairing
// (checked against an exhaustive search on small fields and over thousands of random
// tournaments), knockout rounds, and the standings with their tie-breaks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "gcor/engine/rng.hpp"
#include "tournaments/pairing.hpp"
#include "tournaments/standings.hpp"

using namespace gcor::server;

namespace {

using Users = std::vector<std::uint64_t>;

int tournament_repeats(const PairedRound& round, const Meetings& meetings) {
    int repeats = 0;
    for (const Users& table : round.tables)
        for (std::size_t i = 0; i < table.size(); ++i)
            for (std::size_t j = i + 1; j < table.size(); ++j)
                repeats += times_met(meetings, table[i], table[j]) > 0 ? 1 : 0;
    return repeats;
}

// The repeat meetings a round seats: each earlier meeting of two players at one of its tables.
int tournament_meetings(const PairedRound& round, const Meetings& meetings) {
    int repeats = 0;
    for (const Users& table : round.tables)
        for (std::size_t i = 0; i < table.size(); ++i)
            for (std::size_t j = i + 1; j < table.size(); ++j)
                repeats += times_met(meetings, table[i], table[j]);
    return repeats;
}

// The fewest repeat meetings (as tournament_meetings counts them) with which `players` can sit
// at tables of `sizes`: every grouping tried.
int tournament_fewest_meetings(const Users& players, std::map<int, int> sizes,
                               const Meetings& meetings, std::vector<char>& seated) {
    const auto first = std::find(seated.begin(), seated.end(), 0);
    if (first == seated.end()) return 0;
    const auto opener = static_cast<std::size_t>(first - seated.begin());
    int fewest = std::numeric_limits<int>::max();
    for (auto& [size, count] : sizes) {
        if (count == 0) continue;
        --count;
        seated[opener] = 1;
        Users table{players[opener]};
        // Every set of size - 1 companions among the players after the opener.
        const std::function<void(std::size_t, int)> choose = [&](std::size_t from, int met) {
            if (static_cast<int>(table.size()) == size) {
                const int rest = tournament_fewest_meetings(players, sizes, meetings, seated);
                if (rest != std::numeric_limits<int>::max()) fewest = std::min(fewest, met + rest);
                return;
            }
            for (std::size_t i = from; i < players.size(); ++i) {
                if (seated[i]) continue;
                int added = 0;
                for (const std::uint64_t at : table)
                    added += times_met(meetings, at, players[i]);
                seated[i] = 1;
                table.push_back(players[i]);
                choose(i + 1, met + added);
                table.pop_back();
                seated[i] = 0;
            }
        };
        choose(opener + 1, 0);
        seated[opener] = 0;
        ++count;
    }
    return fewest;
}

// A round's checks whatever the field: everybody in once, the shape's sizes, the bye's rule.
void check_round_shape(const PairedRound& round, const std::vector<SwissEntrant>& ranked,
                       int per_table) {
    const SwissShape shape = swiss_shape(static_cast<int>(ranked.size()), per_table);
    std::vector<int> sizes;
    Users everybody = round.byes;
    for (const Users& table : round.tables) {
        sizes.push_back(static_cast<int>(table.size()));
        everybody.insert(everybody.end(), table.begin(), table.end());
    }
    // Full tables come first unless the search had to open a smaller one earlier.
    std::sort(sizes.begin(), sizes.end());
    std::vector<int> shape_sizes = shape.sizes;
    std::sort(shape_sizes.begin(), shape_sizes.end());
    CHECK(sizes == shape_sizes);
    CHECK(static_cast<int>(round.byes.size()) == shape.byes);
    Users expected;
    for (const SwissEntrant& entrant : ranked)
        expected.push_back(entrant.user);
    std::sort(everybody.begin(), everybody.end());
    std::sort(expected.begin(), expected.end());
    CHECK(everybody == expected);
    // The bye: the lowest-ranked without one, unless everybody had one.
    if (!round.byes.empty()) {
        const auto without = std::find_if(ranked.rbegin(), ranked.rend(),
                                          [](const SwissEntrant& e) { return !e.had_bye; });
        CHECK(round.byes.front() ==
              (without != ranked.rend() ? without->user : ranked.back().user));
    }
}

// Random places for a table: 1..n with an occasional tie (shared better place).
std::vector<int> tournament_random_places(std::size_t seats, gcor::engine::Rng& rng) {
    std::vector<int> order(seats);
    std::iota(order.begin(), order.end(), 0);
    rng.shuffle(order);
    std::vector<int> places(seats);
    int place = 1;
    for (std::size_t i = 0; i < seats; ++i) {
        const bool tie = i > 0 && rng.below(8) == 0;
        places[static_cast<std::size_t>(order[i])] =
            tie ? places[static_cast<std::size_t>(order[i - 1])] : place;
        place = static_cast<int>(i) + 2;
    }
    return places;
}

// The tournament points `points` a table gives by `places` (forfeits aside), as the docs say.
int tournament_points_at(const std::vector<int>& points, int place) {
    return place <= static_cast<int>(points.size()) ? points[static_cast<std::size_t>(place - 1)]
                                                    : 0;
}

}  // namespace

TEST_CASE("tournament: Swiss table sizes are full, one seat smaller, or leave one out",
          "[tournament]") {
    for (int per_table = 2; per_table <= 4; ++per_table)
        for (int players = 2; players <= 300; ++players) {
            INFO(players << " at tables of " << per_table);
            const SwissShape shape = swiss_shape(players, per_table);
            CHECK(std::accumulate(shape.sizes.begin(), shape.sizes.end(), 0) + shape.byes ==
                  players);
            CHECK(std::is_sorted(shape.sizes.rbegin(), shape.sizes.rend()));
            for (const int size : shape.sizes) {
                CHECK(size >= 2);
                CHECK(size <= per_table);
                if (players > per_table) CHECK(size >= per_table - 1);
            }
            const bool bye_expected =
                (per_table == 2 && players % 2 == 1) || (per_table == 4 && players == 5);
            CHECK(shape.byes == (bye_expected ? 1 : 0));
        }
    CHECK(swiss_shape(10, 4).sizes == std::vector<int>{4, 3, 3});
    CHECK(swiss_shape(3, 4).sizes == std::vector<int>{3});
    CHECK(swiss_shape(5, 3).sizes == std::vector<int>{3, 2});
}

TEST_CASE(
    "tournament: no repeat meeting while a grouping without one exists, else the fewest "
    "(exhaustive check)",
    "[tournament]") {
    gcor::engine::Rng rng(45);
    int with_grouping = 0;
    int without = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int per_table = 2 + static_cast<int>(rng.below(3));
        const int players = 4 + static_cast<int>(rng.below(7));  // 4..10
        std::vector<SwissEntrant> ranked;
        for (int i = 0; i < players; ++i)
            ranked.push_back(SwissEntrant{static_cast<std::uint64_t>(100 + i), false});
        // A random history: some random tables of earlier rounds.
        Meetings meetings;
        const int tables = static_cast<int>(rng.below(static_cast<std::uint32_t>(players * 2)));
        for (int t = 0; t < tables; ++t) {
            Users all;
            for (const SwissEntrant& entrant : ranked)
                all.push_back(entrant.user);
            rng.shuffle(all);
            all.resize(static_cast<std::size_t>(per_table));
            add_table(meetings, all);
        }
        const PairedRound round = pair_swiss(ranked, per_table, meetings);
        INFO(players << " players at tables of " << per_table << ", trial " << trial);
        check_round_shape(round, ranked, per_table);
        Users field;
        for (const SwissEntrant& entrant : ranked)
            if (std::find(round.byes.begin(), round.byes.end(), entrant.user) == round.byes.end())
                field.push_back(entrant.user);
        std::map<int, int> sizes;
        for (const int size : swiss_shape(players, per_table).sizes)
            ++sizes[size];
        std::vector<char> seated(field.size());
        const int fewest = tournament_fewest_meetings(field, sizes, meetings, seated);
        if (fewest == 0) {
            ++with_grouping;
            CHECK(tournament_repeats(round, meetings) == 0);
        } else {
            ++without;
            CHECK(tournament_meetings(round, meetings) == fewest);
        }
    }
    // The trials test both sides of the promise.
    CHECK(with_grouping > 500);
    CHECK(without > 100);
}

TEST_CASE("tournament: the first Swiss round seats the ranking in order, the bye the lowest",
          "[tournament]") {
    std::vector<SwissEntrant> ranked;
    for (std::uint64_t user = 1; user <= 7; ++user)
        ranked.push_back(SwissEntrant{user, false});
    const PairedRound round = pair_swiss(ranked, 2, {});
    CHECK(round.tables == std::vector<Users>{{1, 2}, {3, 4}, {5, 6}});
    CHECK(round.byes == Users{7});
    // The lowest-ranked had a bye already: the next one up gets it.
    ranked[6].had_bye = true;
    CHECK(pair_swiss(ranked, 2, {}).byes == Users{6});
    // 1 and 2 met: 1 sits with 3, 2 with 4.
    Meetings met;
    add_table(met, {1, 2});
    CHECK(pair_swiss(ranked, 2, met).tables[0] == Users{1, 3});
}

TEST_CASE("tournament: thousands of random Swiss tournaments keep every promise", "[tournament]") {
    gcor::engine::Rng rng(4545);
    for (int tournament = 0; tournament < 2000; ++tournament) {
        const int per_table = 2 + static_cast<int>(rng.below(3));
        const int players = 8 + static_cast<int>(rng.below(193));  // 8..200
        const int rounds = 1 + static_cast<int>(rng.below(6));
        const std::vector<int> points = per_table == 2   ? std::vector<int>{1, 0}
                                        : per_table == 3 ? std::vector<int>{2, 1, 0}
                                                         : std::vector<int>{3, 2, 1, 0};
        INFO("tournament " << tournament << ": " << players << " at tables of " << per_table);
        std::vector<TournamentEntrant> seeded;
        for (int i = 0; i < players; ++i)
            seeded.push_back(TournamentEntrant{static_cast<std::uint64_t>(i + 1), false});
        std::vector<TournamentGame> games;
        std::vector<TournamentBye> byes;
        Meetings meetings;
        for (int number = 1; number <= rounds; ++number) {
            // Someone withdraws now and then.
            if (rng.below(4) == 0)
                seeded[rng.below(static_cast<std::uint32_t>(players))].withdrawn = true;
            const auto rows = swiss_standings(seeded, games, byes, points);
            std::vector<SwissEntrant> ranked;
            for (const TournamentRow& row : rows)
                if (!row.withdrawn && !row.dropped) ranked.push_back({row.user, row.byes > 0});
            if (ranked.size() < 2) break;
            const PairedRound round = pair_swiss(ranked, per_table, meetings);
            check_round_shape(round, ranked, per_table);
            // A grouping without repeats exists while every player has met fewer than a
            // table's worth less than the field: the search finds one.
            int most_met = 0;
            for (const SwissEntrant& entrant : ranked) {
                int met = 0;
                for (const SwissEntrant& other : ranked)
                    met += times_met(meetings, entrant.user, other.user) > 0 ? 1 : 0;
                most_met = std::max(most_met, met);
            }
            if (most_met * per_table * 2 < static_cast<int>(ranked.size()))
                CHECK(tournament_repeats(round, meetings) == 0);
            for (const std::uint64_t user : round.byes)
                byes.push_back(TournamentBye{number, user});
            for (const Users& table : round.tables) {
                add_table(meetings, table);
                TournamentGame game{number,
                                    table,
                                    tournament_random_places(table.size(), rng),
                                    {},
                                    std::vector<bool>(table.size())};
                for (std::size_t seat = 0; seat < table.size(); ++seat) {
                    game.scores.push_back(static_cast<int>(rng.below(120)));
                    game.forfeited[seat] = rng.below(60) == 0;
                }
                games.push_back(std::move(game));
            }
        }
        // The standings, worked out again here: points, Buchholz, score sums and the order.
        const auto rows = swiss_standings(seeded, games, byes, points);
        REQUIRE(rows.size() == seeded.size());
        std::map<std::uint64_t, int> earned;
        std::map<std::uint64_t, int> scored;
        for (const TournamentGame& game : games)
            for (std::size_t seat = 0; seat < game.users.size(); ++seat) {
                if (!game.forfeited[seat])
                    earned[game.users[seat]] += tournament_points_at(points, game.places[seat]);
                scored[game.users[seat]] += game.scores[seat];
            }
        for (const TournamentBye& bye : byes)
            earned[bye.user] += points[0];
        std::map<std::uint64_t, int> buchholz;
        for (const TournamentGame& game : games)
            for (const std::uint64_t user : game.users)
                for (const std::uint64_t other : game.users)
                    if (other != user) buchholz[user] += earned[other];
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const TournamentRow& row = rows[i];
            CHECK(row.points == earned[row.user]);
            CHECK(row.score_sum == scored[row.user]);
            CHECK(row.buchholz == buchholz[row.user]);
            if (i == 0) {
                CHECK(row.rank == 1);
                continue;
            }
            const TournamentRow& above = rows[i - 1];
            const auto merit = [](const TournamentRow& r) {
                return std::tuple(r.points, r.buchholz, r.score_sum);
            };
            CHECK(merit(above) >= merit(row));
            CHECK(row.rank == (merit(above) == merit(row) ? above.rank : static_cast<int>(i) + 1));
        }
    }
}

TEST_CASE("tournament: standings break ties by Buchholz, then score sum, and forfeits drop",
          "[tournament]") {
    const std::vector<int> points{1, 0};
    // Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2 (2 forfeits).
    const std::vector<TournamentGame> games{
        {1, {1, 2}, {1, 2}, {50, 40}, {false, false}},
        {1, {3, 4}, {1, 2}, {60, 30}, {false, false}},
        {2, {1, 3}, {1, 2}, {70, 65}, {false, false}},
        {2, {4, 2}, {1, 2}, {45, 20}, {false, true}},
    };
    const std::vector<TournamentEntrant> seeded{{1, false}, {2, false}, {3, false}, {4, false}};
    const auto rows = swiss_standings(seeded, games, {}, points);
    // Points: 1: 2, 3: 1, 4: 1, 2: 0. Buchholz of 3: 1's 2 + 4's 1 = 3; of 4: 3's 1 + 2's 0 = 1.
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].user == 1);
    CHECK(rows[1].user == 3);
    CHECK(rows[1].buchholz == 3);
    CHECK(rows[2].user == 4);
    CHECK(rows[2].buchholz == 1);
    CHECK(rows[3].user == 2);
    CHECK(rows[3].dropped);
    CHECK_FALSE(rows[2].dropped);
    CHECK(std::vector<int>{rows[0].rank, rows[1].rank, rows[2].rank, rows[3].rank} ==
          std::vector<int>{1, 2, 3, 4});

    // Equal points and Buchholz: the score sum decides; all three equal: one rank, seed order.
    const std::vector<TournamentGame> even{
        {1, {1, 2}, {1, 1}, {50, 50}, {false, false}},
        {1, {3, 4}, {1, 1}, {50, 60}, {false, false}},
    };
    const auto tied = swiss_standings(seeded, even, {}, points);
    CHECK(tied[0].user == 4);
    CHECK(tied[0].rank == 1);
    CHECK(std::vector<std::uint64_t>{tied[1].user, tied[2].user, tied[3].user} ==
          std::vector<std::uint64_t>{1, 2, 3});
    CHECK(std::vector<int>{tied[1].rank, tied[2].rank, tied[3].rank} == std::vector<int>{2, 2, 2});

    // A table one seat smaller takes the top places' points; a bye scores first place.
    const std::vector<int> four{3, 2, 1, 0};
    const auto smaller =
        swiss_standings(seeded, {{1, {1, 2, 3}, {1, 2, 3}, {9, 8, 7}, {}}}, {{1, 4}}, four);
    CHECK(smaller[0].points == 3);
    CHECK(smaller[3].user == 3);
    CHECK(smaller[3].points == 1);
    const auto bye = std::find_if(smaller.begin(), smaller.end(),
                                  [](const TournamentRow& row) { return row.user == 4; });
    CHECK(bye->points == 3);
    CHECK(bye->byes == 1);
    CHECK(bye->games == 0);
}

TEST_CASE("tournament: knockout rounds seat everybody, the best seeds sit out, one final",
          "[tournament]") {
    // 9 at tables of 3: three tables dealt in a snake, then a final of the three winners.
    Users nine(9);
    std::iota(nine.begin(), nine.end(), 1);
    const PairedRound first = pair_knockout(nine, 3, 1);
    CHECK(first.byes.empty());
    CHECK(first.tables == std::vector<Users>{{1, 6, 7}, {2, 5, 8}, {3, 4, 9}});
    CHECK(knockout_rounds(9, 3, 1) == 2);
    // 4 at tables of 3, two go on: one table of 3 and a bye for seed 1.
    const PairedRound four = pair_knockout({1, 2, 3, 4}, 3, 2);
    CHECK(four.byes == Users{1});
    CHECK(four.tables == std::vector<Users>{{2, 3, 4}});
    // Advancing: the best places; a tie at the cut goes to the better seed.
    CHECK(knockout_advancing({7, 3, 5}, {2, 1, 2}, 2, {3, 5, 7}) == Users{3, 5});
    CHECK(knockout_advancing({7, 3, 5}, {1, 3, 2}, 1, {3, 5, 7}) == Users{7});

    gcor::engine::Rng rng(9);
    for (int trial = 0; trial < 3000; ++trial) {
        const int per_table = 2 + static_cast<int>(rng.below(3));
        const int advance =
            1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(per_table - 1)));
        const int players = 8 + static_cast<int>(rng.below(193));
        INFO(players << " at tables of " << per_table << ", " << advance << " go on");
        Users in(static_cast<std::size_t>(players));
        std::iota(in.begin(), in.end(), 1);
        const Users seeds = in;
        int rounds = 0;
        while (in.size() >= 2) {
            ++rounds;
            REQUIRE(rounds <= knockout_rounds(players, per_table, advance));
            const PairedRound round = pair_knockout(in, per_table, advance);
            // The byes are the best seeds; every table has more than `advance` and at most
            // per_table players; everybody sits once.
            CHECK(std::equal(round.byes.begin(), round.byes.end(), in.begin()));
            Users everybody = round.byes;
            for (const Users& table : round.tables) {
                CHECK(static_cast<int>(table.size()) > advance);
                CHECK(static_cast<int>(table.size()) <= per_table);
                everybody.insert(everybody.end(), table.begin(), table.end());
            }
            std::sort(everybody.begin(), everybody.end());
            CHECK(everybody == in);
            const bool final_round = round.tables.size() == 1 && round.byes.empty();
            if (final_round) {
                CHECK(static_cast<int>(in.size()) <= per_table);
                break;
            }
            Users next = round.byes;
            for (const Users& table : round.tables) {
                const Users going = knockout_advancing(
                    table, tournament_random_places(table.size(), rng), advance, seeds);
                CHECK(static_cast<int>(going.size()) == advance);
                next.insert(next.end(), going.begin(), going.end());
            }
            std::sort(next.begin(), next.end());
            CHECK(next.size() < in.size());
            in = next;
        }
        CHECK(rounds == knockout_rounds(players, per_table, advance));
    }
}

TEST_CASE("tournament: knockout standings rank by the round reached and mark the eliminated",
          "[tournament]") {
    const std::vector<int> points{2, 1, 0};
    const std::vector<TournamentEntrant> seeded{{1, false}, {2, false}, {3, false},
                                                {4, false}, {5, false}, {6, false}};
    // Round 1: two tables of 3; 1 and 5 win. Round 2, the final: 5 beats 1.
    std::vector<TournamentGame> games{
        {1, {1, 4, 6}, {1, 2, 3}, {80, 70, 60}, {}},
        {1, {2, 3, 5}, {3, 2, 1}, {50, 60, 90}, {}},
    };
    const std::vector<TournamentBye> seated{{1, 1}, {1, 4}, {1, 6}, {1, 2},
                                            {1, 3}, {1, 5}, {2, 1}, {2, 5}};
    auto rows = knockout_standings(seeded, games, {}, seated, points, 2, false);
    // The final in play: its two first, even on points and Buchholz, 5 by the score sum.
    CHECK(std::vector<std::uint64_t>{rows[0].user, rows[1].user} == Users{5, 1});
    CHECK_FALSE(rows[0].eliminated);
    CHECK_FALSE(rows[1].eliminated);
    CHECK(std::all_of(rows.begin() + 2, rows.end(),
                      [](const TournamentRow& row) { return row.eliminated; }));
    // The seconds of round 1 come before its thirds.
    CHECK((rows[2].user == 3 || rows[2].user == 4));
    games.push_back({2, {1, 5}, {2, 1}, {70, 95}, {}});
    rows = knockout_standings(seeded, games, {}, seated, points, 2, true);
    CHECK(rows[0].user == 5);
    CHECK(rows[0].rank == 1);
    CHECK_FALSE(rows[0].eliminated);
    CHECK(rows[1].user == 1);
    CHECK(rows[1].eliminated);
}
