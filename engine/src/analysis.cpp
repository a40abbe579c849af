// The game review: each decision judged by the strong bot's play-outs from its seat's view.
#include "gcor/engine/analysis.hpp"

#include <algorithm>
#include <cassert>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/view.hpp"
#include "playouts.hpp"

namespace gcor::engine {
namespace {

// Calls `decide(index, state)` before each of `moves` that had a choice (more than one legal
// move), then plays it as the record did; stops when `decide` returns false.
template <class Decide>
bool walk(State state, std::span<const Move> moves, std::span<const std::size_t> waited,
          Decide&& decide) {
    std::vector<Move> legal;
    auto next_waited = waited.begin();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const Seat seat = state.to_act();
        state.legal_moves(legal);
        if (legal.size() > 1 && !decide(i, state)) return false;
        const bool waits = next_waited != waited.end() && *next_waited == i;
        if (waits) ++next_waited;
        const MoveError error = state.apply(seat, moves[i], nullptr, waits);
        assert(error == MoveError::none);
        (void)error;
    }
    return true;
}

// A seed of its own for each decision and each use, from the budget's seed and the move's index
// alone: a decision's review does not depend on the others.
std::uint64_t decision_seed(std::uint64_t seed, std::size_t move, std::uint64_t use) {
    return Rng(seed ^ 0x9E3779B97F4A7C15ull * (2 * move + use + 1)).next();
}

DecisionReview review(const State& state, std::size_t index, const Move& played,
                      const AnalysisBudget& budget) {
    const Seat seat = state.to_act();
    const View view = view_for(state, seat);
    // The bot picks its move in worlds of its own and the chances are measured in others: a
    // move picked as the best of several noisy estimates would otherwise look better than it is.
    const Move preferred = choose_strong(view, decision_seed(budget.seed, index, 0),
                                         BotBudget{budget.worlds, std::chrono::milliseconds(0)});
    std::vector<Move> measured{preferred};
    if (played != preferred) measured.push_back(played);
    Rng rng(decision_seed(budget.seed, index, 1));
    std::vector<Outcome> totals;
    const int worlds = play_out_in_worlds(
        view, measured, rng, [&](int sampled) { return sampled < budget.worlds; }, totals);
    // Every view of a real game has worlds (determinize_test.cpp).
    assert(worlds > 0);
    const double chance = totals.front().wins / worlds;
    return {index, seat, played, chance, totals.back().wins / worlds, preferred, chance};
}

}  // namespace

std::optional<GameAnalysis> analyse(
    const State& start, std::span<const Move> moves, std::span<const std::size_t> waited,
    const AnalysisBudget& budget,
    const std::function<bool(std::size_t done, std::size_t total)>& progress) {
    assert(budget.worlds > 0 && budget.worlds <= kMaxAnalysisWorlds);
    std::size_t total = 0;
    walk(start, moves, waited, [&](std::size_t, const State&) { return ++total, true; });
    GameAnalysis analysis{budget.worlds, start.player_count(), {}};
    analysis.decisions.reserve(total);
    if (!progress(0, total)) return std::nullopt;
    const bool finished = walk(start, moves, waited, [&](std::size_t index, const State& state) {
        analysis.decisions.push_back(review(state, index, moves[index], budget));
        return progress(analysis.decisions.size(), total);
    });
    if (!finished) return std::nullopt;
    return analysis;
}

}  // namespace gcor::engine
