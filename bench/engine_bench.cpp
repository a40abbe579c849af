// Engine benchmarks: whole random games, clone, legal_moves + apply, view_for.
// Run: make bench (or build/release/bench/gcor-bench --benchmark_filter=...).
#include <benchmark/benchmark.h>

#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"

namespace {

using namespace gcor::engine;

Rules rules_for(int players, Variant variant) {
    return *Rules::make({players, variant, false});
}

// Plays one game with uniformly random legal moves; returns the number of moves made.
int random_game(const Rules& rules, std::uint64_t seed, Rng& rng, std::vector<Move>& legal) {
    State state = rules.new_game(seed);
    int moves = 0;
    while (!state.over()) {
        state.legal_moves(legal);
        state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
        ++moves;
    }
    return moves;
}

void BM_RandomGame(benchmark::State& bench) {
    const Rules rules =
        rules_for(static_cast<int>(bench.range(0)), static_cast<Variant>(bench.range(1)));
    Rng rng(1);
    std::vector<Move> legal;
    std::uint64_t seed = 0;
    std::int64_t moves = 0;
    for (auto _ : bench)
        moves += random_game(rules, seed++, rng, legal);
    bench.counters["games/s"] =
        benchmark::Counter(static_cast<double>(bench.iterations()), benchmark::Counter::kIsRate);
    bench.counters["moves/game"] =
        static_cast<double>(moves) / static_cast<double>(bench.iterations());
}
BENCHMARK(BM_RandomGame)
    ->ArgNames({"players", "publisher"})
    ->Args({4, 0})
    ->Args({4, 1})
    ->Args({3, 0})
    ->Args({2, 0});

// A mid-game state of a 4-player game: round 7, in an action turn.
State mid_game() {
    const Rules rules = rules_for(4, Variant::yucata);
    State state = rules.new_game(42);
    Rng rng(3);
    std::vector<Move> legal;
    while (!(state.round == 7 && state.phase == Phase::actions && state.step == Step::main)) {
        state.legal_moves(legal);
        state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    return state;
}

void BM_Clone(benchmark::State& bench) {
    const State state = mid_game();
    for (auto _ : bench) {
        State copy = state;
        benchmark::DoNotOptimize(copy);
        benchmark::ClobberMemory();
    }
    bench.SetLabel(std::to_string(sizeof(State)) + " bytes");
}
BENCHMARK(BM_Clone);

void BM_LegalMoves(benchmark::State& bench) {
    const State state = mid_game();
    std::vector<Move> legal;
    for (auto _ : bench) {
        state.legal_moves(legal);
        benchmark::DoNotOptimize(legal.data());
    }
    bench.SetLabel(std::to_string(legal.size()) + " moves");
}
BENCHMARK(BM_LegalMoves);

// legal_moves + apply of a random move, over whole games (the inner loop of a playout).
void BM_LegalMovesAndApply(benchmark::State& bench) {
    const Rules rules = rules_for(4, Variant::yucata);
    Rng rng(5);
    std::vector<Move> legal;
    State state = rules.new_game(0);
    std::uint64_t seed = 0;
    for (auto _ : bench) {
        if (state.over()) {
            bench.PauseTiming();
            state = rules.new_game(++seed);
            bench.ResumeTiming();
        }
        state.legal_moves(legal);
        state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
}
BENCHMARK(BM_LegalMovesAndApply);

void BM_ViewFor(benchmark::State& bench) {
    const State state = mid_game();
    const Seat seat = state.to_act();
    for (auto _ : bench)
        benchmark::DoNotOptimize(view_for(state, seat));
}
BENCHMARK(BM_ViewFor);

}  // namespace

BENCHMARK_MAIN();
