// View JSON benchmarks: the full view, and the patch from one view to the next, for a mid-game
// 4-player move; and the sizes of the patches over many random games (BM_PatchSizes).
// Run: build/release/bench/gcor-view-bench.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/event.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/events.hpp"
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

// What a snapshot carries: the whole view as text.
void BM_AppendViewJson(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    std::string text;
    for (auto _ : bench) {
        text.clear();
        gcor::protocol::append_view_json(text, move.after_actor);
        benchmark::DoNotOptimize(text.data());
    }
    bench.SetLabel(std::to_string(text.size()) + " bytes");
}
BENCHMARK(BM_AppendViewJson);

// What the server sends: the patch as text.
void BM_AppendViewPatch(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    const bool actor = bench.range(0) != 0;
    const View& before = actor ? move.before_actor : move.before_watcher;
    const View& after = actor ? move.after_actor : move.after_watcher;
    std::string text;
    for (auto _ : bench) {
        text.clear();
        gcor::protocol::append_view_patch(text, before, after);
        benchmark::DoNotOptimize(text.data());
    }
    bench.SetLabel(std::to_string(Json::parse(text).size()) + " ops, " +
                   std::to_string(text.size()) + " bytes");
}
BENCHMARK(BM_AppendViewPatch)->ArgName("actor")->Arg(0)->Arg(1);

// The view pairs (before, after) of every move of a few random 4-player games, for each seat and
// a spectator: a mixture of the patches the server writes.
std::vector<std::pair<View, View>> game_view_pairs(std::uint64_t games) {
    const std::vector<std::optional<Seat>> viewers{0, 1, 2, 3, std::nullopt};
    std::vector<std::pair<View, View>> pairs;
    for (std::uint64_t seed = 1; seed <= games; ++seed) {
        State state = Rules::make({4, seed % 2 ? Variant::yucata : Variant::publisher, false})
                          ->new_game(seed);
        Rng rng(seed);
        std::vector<Move> legal;
        while (!state.over()) {
            std::vector<View> before;
            for (const auto& viewer : viewers)
                before.push_back(view_for(state, viewer));
            state.legal_moves(legal);
            state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
            for (std::size_t i = 0; i < viewers.size(); ++i)
                pairs.emplace_back(std::move(before[i]), view_for(state, viewers[i]));
        }
    }
    return pairs;
}

// What the server writes per viewer per move, over whole games: time per patch.
void BM_AppendViewPatchGames(benchmark::State& bench) {
    const auto pairs = game_view_pairs(4);
    std::string text;
    for (auto _ : bench)
        for (const auto& [before, after] : pairs) {
            text.clear();
            gcor::protocol::append_view_patch(text, before, after);
            benchmark::DoNotOptimize(text.data());
        }
    bench.SetItemsProcessed(static_cast<std::int64_t>(bench.iterations() * pairs.size()));
    bench.SetLabel(std::to_string(pairs.size()) + " patches per iteration");
}
BENCHMARK(BM_AppendViewPatchGames)->Unit(benchmark::kMillisecond);

// What the server does per move for a table's 4 seats (server/src/tables/followers.cpp,
// patches_for), over the moves of whole games: each seat's view after the move (its view before
// is kept from the move before), the operations every viewer shares written once, and each
// seat's patch. shared:1 builds what every viewer sees alike once and copies it into the other
// views (as the server does); shared:0 builds each view alone.
void BM_MovePatches(benchmark::State& bench) {
    const bool shared = bench.range(0) != 0;
    std::vector<std::vector<State>> games;  // each game's states, from the first
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        State state = Rules::make({4, seed % 2 ? Variant::yucata : Variant::publisher, false})
                          ->new_game(seed);
        Rng rng(seed);
        std::vector<Move> legal;
        std::vector<State>& states = games.emplace_back(1, state);
        while (!state.over()) {
            state.legal_moves(legal);
            state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
            states.push_back(state);
        }
    }
    std::array<View, 4> views;
    View after;
    std::string public_ops, text;
    std::size_t moves = 0;
    for (auto _ : bench)
        for (const std::vector<State>& states : games) {
            for (Seat seat = 0; seat < 4; ++seat)
                view_for(states.front(), seat, views[seat]);
            for (std::size_t move = 1; move < states.size(); ++move, ++moves) {
                public_ops.clear();
                for (Seat seat = 0; seat < 4; ++seat) {
                    if (shared && seat > 0)
                        view_for(states[move], seat, views[0], after);
                    else
                        view_for(states[move], seat, after);
                    if (seat == 0)
                        gcor::protocol::append_public_ops(public_ops, views[seat], after);
                    text.clear();
                    gcor::protocol::append_view_patch(text, public_ops, views[seat], after);
                    benchmark::DoNotOptimize(text.data());
                    std::swap(views[seat], after);
                }
            }
        }
    bench.SetItemsProcessed(static_cast<std::int64_t>(moves));
    bench.SetLabel("items: moves");
}
BENCHMARK(BM_MovePatches)->ArgName("shared")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The alternative view_patch avoids: both views as JSON, then nlohmann's json::diff.
void BM_JsonDiff(benchmark::State& bench) {
    const MidGameMove move = mid_game_move();
    for (auto _ : bench)
        benchmark::DoNotOptimize(Json::diff(gcor::protocol::view_to_json(move.before_actor),
                                            gcor::protocol::view_to_json(move.after_actor)));
}
BENCHMARK(BM_JsonDiff);

std::size_t percentile(std::vector<std::size_t>& values, double p) {
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

// Bytes per viewer per move over random 4-player games (yucata and publisher), for each seat and
// a spectator: the operations, and the whole `patch` message as the server writes it
// (server/src/table.cpp, patches_for) with a 17-character table id and players named
// "Player 1" to "Player 4". The label holds the medians and 90th percentiles.
void BM_PatchSizes(benchmark::State& bench) {
    const auto games = static_cast<std::uint64_t>(bench.range(0));
    const std::vector<std::optional<Seat>> viewers{0, 1, 2, 3, std::nullopt};
    std::vector<std::size_t> ops_bytes, log_bytes, message_bytes;
    for (auto _ : bench) {
        ops_bytes.clear();
        log_bytes.clear();
        message_bytes.clear();
        for (Variant variant : {Variant::yucata, Variant::publisher})
            for (std::uint64_t seed = 1; seed <= games / 2; ++seed) {
                State state = Rules::make({4, variant, false})->new_game(seed);
                Rng rng(seed);
                std::vector<View> views;
                for (const auto& viewer : viewers)
                    views.push_back(view_for(state, viewer));
                std::vector<Move> legal;
                std::vector<Event> events;
                for (int version = 1; !state.over(); ++version) {
                    state.legal_moves(legal);
                    events.clear();
                    state.apply(state.to_act(),
                                legal[rng.below(static_cast<std::uint32_t>(legal.size()))],
                                &events);
                    for (std::size_t i = 0; i < viewers.size(); ++i) {
                        View after = view_for(state, viewers[i]);
                        std::string ops;
                        gcor::protocol::append_view_patch(ops, views[i], after);
                        std::string log;
                        gcor::protocol::append_events_json(log, events, viewers[i]);
                        const std::string envelope =
                            R"({"type":"patch","table":"t0123456789abcdef","from":)" +
                            std::to_string(version - 1) + R"(,"to":)" + std::to_string(version) +
                            R"(,"ops":,"log":})";
                        ops_bytes.push_back(ops.size());
                        log_bytes.push_back(log.size());
                        message_bytes.push_back(envelope.size() + ops.size() + log_bytes.back());
                        views[i] = std::move(after);
                    }
                }
            }
    }
    const std::size_t ops_median = percentile(ops_bytes, 0.5), ops_p90 = percentile(ops_bytes, 0.9);
    const std::size_t message_median = percentile(message_bytes, 0.5),
                      message_p90 = percentile(message_bytes, 0.9);
    bench.counters["ops_median"] = static_cast<double>(ops_median);
    bench.counters["ops_p90"] = static_cast<double>(ops_p90);
    bench.counters["message_median"] = static_cast<double>(message_median);
    bench.counters["message_p90"] = static_cast<double>(message_p90);
    bench.SetLabel(std::to_string(ops_bytes.size()) + " patches; ops median " +
                   std::to_string(ops_median) + " B, p90 " + std::to_string(ops_p90) +
                   " B; message median " + std::to_string(message_median) + " B, p90 " +
                   std::to_string(message_p90) + " B (log median " +
                   std::to_string(percentile(log_bytes, 0.5)) + " B)");
}
BENCHMARK(BM_PatchSizes)->ArgName("games")->Arg(200)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
