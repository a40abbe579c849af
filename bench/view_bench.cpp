// View JSON benchmarks: the full view, and the patch from one view to the next, for a mid-game
// 4-player move. Run: build/release/bench/gcor-view-bench.
#include <benchmark/benchmark.h>

#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/view_json.hpp"

namespace {

using namespace gcor::engine;
using gcor::protocol::Json;

// Views before and after one move of a 4-player game in round 7 (a take, then a build), for the
// seat that moves (which sees its legal moves) and for one that watches.
struct MidGameMove {
    View before_actor, after_actor, before_watcher, after_watcher;
};

MidGameMove mid_game_move() {
    State state = Rules::make({4, Variant::yucata, false})->new_game(42);
    Rng rng(3);
    std::vector<Move> legal;
    while (!(state.round == 7 && state.phase == Phase::actions && state.step == Step::main)) {
        state.legal_moves(legal);
        state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    const Seat actor = state.to_act();
    const auto watcher = static_cast<Seat>((actor + 1) % 4);
    MidGameMove move{view_for(state, actor), {}, view_for(state, watcher), {}};
    state.legal_moves(legal);
    Move build = legal.front();  // a build when there is one
    state.apply(actor, build);
    move.after_actor = view_for(state, actor);
    move.after_watcher = view_for(state, watcher);
    return move;
}

void BM_ViewToJson(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    for (auto _ : bench)
        benchmark::DoNotOptimize(gcor::protocol::view_to_json(move.after_actor));
    bench.SetLabel(std::to_string(gcor::protocol::view_to_json(move.after_actor).dump().size()) +
                   " bytes");
}
BENCHMARK(BM_ViewToJson);

void BM_ViewToJsonDump(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    for (auto _ : bench)
        benchmark::DoNotOptimize(gcor::protocol::view_to_json(move.after_actor).dump());
}
BENCHMARK(BM_ViewToJsonDump);

void BM_ViewPatch(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    const bool actor = bench.range(0) != 0;
    const View& before = actor ? move.before_actor : move.before_watcher;
    const View& after = actor ? move.after_actor : move.after_watcher;
    for (auto _ : bench)
        benchmark::DoNotOptimize(gcor::protocol::view_patch(before, after));
    const Json patch = gcor::protocol::view_patch(before, after);
    bench.SetLabel(std::to_string(patch.size()) + " ops, " + std::to_string(patch.dump().size()) +
                   " bytes");
}
BENCHMARK(BM_ViewPatch)->ArgName("actor")->Arg(0)->Arg(1);

// What the server sends: the patch as text.
void BM_ViewPatchDump(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    const bool actor = bench.range(0) != 0;
    const View& before = actor ? move.before_actor : move.before_watcher;
    const View& after = actor ? move.after_actor : move.after_watcher;
    for (auto _ : bench)
        benchmark::DoNotOptimize(gcor::protocol::view_patch(before, after).dump());
}
BENCHMARK(BM_ViewPatchDump)->ArgName("actor")->Arg(0)->Arg(1);

// The alternative view_patch avoids: both views as JSON, then nlohmann's json::diff.
void BM_JsonDiff(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    for (auto _ : bench)
        benchmark::DoNotOptimize(Json::diff(gcor::protocol::view_to_json(move.before_actor),
                                            gcor::protocol::view_to_json(move.after_actor)));
}
BENCHMARK(BM_JsonDiff);

}  // namespace

BENCHMARK_MAIN();
