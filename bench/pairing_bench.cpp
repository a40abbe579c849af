// A Swiss round's pairing for 200 players (docs/benchmarks.md, "Tournament pairing"): tables of
// 2, 3 and 4, in the first round and in late rounds where many players have met. The pairing runs
// on the server's blocking pool once per round; this says how long a round's start waits for it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "tournaments/pairing.hpp"

namespace {

using gcor::server::Meetings;
using gcor::server::SwissEntrant;

constexpr int kPlayers = 200;

// The field after `rounds` rounds of random results: a random ranking each round (as random
// results give), paired by the server's own pairing so that the meetings are the ones it makes.
struct Field {
    std::vector<SwissEntrant> ranked;
    Meetings meetings;
};

Field field_after(int rounds, int per_table) {
    std::mt19937_64 random(20261128);
    Field field;
    for (int i = 0; i < kPlayers; ++i)
        field.ranked.push_back(SwissEntrant{static_cast<std::uint64_t>(i + 1), false});
    for (int round = 0; round < rounds; ++round) {
        std::shuffle(field.ranked.begin(), field.ranked.end(), random);
        const auto paired = gcor::server::pair_swiss(field.ranked, per_table, field.meetings);
        for (const auto& table : paired.tables)
            gcor::server::add_table(field.meetings, table);
        for (SwissEntrant& entrant : field.ranked)
            entrant.had_bye = entrant.had_bye ||
                              std::count(paired.byes.begin(), paired.byes.end(), entrant.user) > 0;
    }
    std::shuffle(field.ranked.begin(), field.ranked.end(), random);
    return field;
}

// Arguments: players per table, rounds played before.
void BM_SwissRound200(benchmark::State& state) {
    const int per_table = static_cast<int>(state.range(0));
    const Field field = field_after(static_cast<int>(state.range(1)), per_table);
    std::size_t repeats = 0;
    for (auto _ : state) {
        const auto paired = gcor::server::pair_swiss(field.ranked, per_table, field.meetings);
        benchmark::DoNotOptimize(paired.tables.data());
        repeats = 0;
        for (const auto& table : paired.tables)
            for (std::size_t a = 0; a < table.size(); ++a)
                for (std::size_t b = a + 1; b < table.size(); ++b)
                    repeats += gcor::server::times_met(field.meetings, table[a], table[b]) > 0;
    }
    state.counters["met_before"] = static_cast<double>(field.meetings.size());
    state.counters["repeats"] = static_cast<double>(repeats);
}
BENCHMARK(BM_SwissRound200)
    ->ArgsProduct({{2, 3, 4}, {0, 5, 10, 19}})
    ->ArgNames({"per_table", "rounds_before"})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
