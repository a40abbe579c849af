// The strong bot: determinized Monte Carlo over the greedy bot's best candidates, played out in
// sampled worlds (playouts.hpp).
#include <algorithm>
#include <cassert>
#include <vector>

#include "gcor/engine/bot.hpp"
#include "greedy.hpp"
#include "playouts.hpp"

namespace gcor::engine {
namespace {

// Candidates kept from the greedy bot's ranking, besides producing and ending the turn.
constexpr std::size_t kCandidates = 8;

// The moves worth playing out, the greedy bot's favourite first. Keeping a school's card is one
// choice per kept card (the order of the others only changes the bottom of a deck); a long list
// is cut to the greedy bot's best.
std::vector<Move> candidates(const View& view) {
    std::vector<Move> moves;
    for (const Move& move : view.legal_moves)
        if (move.type != MoveType::school_keep ||
            std::none_of(moves.begin(), moves.end(),
                         [&](const Move& kept) { return kept.card == move.card; }))
            moves.push_back(move);
    const greedy::Table table = greedy_table(view);
    const Player me = own_player(view);
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t i = 0; i < moves.size(); ++i)
        ranked.emplace_back(-greedy::move_value(table, me, moves[i]), i);
    std::stable_sort(ranked.begin(), ranked.end());
    std::vector<Move> best;
    for (const auto& [value, i] : ranked) {
        const Move& move = moves[i];
        const bool always = move.type == MoveType::produce || move.type == MoveType::end_turn;
        if (best.size() < kCandidates || always) best.push_back(move);
    }
    return best;
}

}  // namespace

Move choose_strong(const View& view, std::uint64_t seed, const BotBudget& budget) {
    assert(view.viewer && !view.legal_moves.empty());
    Rng rng(seed);
    const std::vector<Move> moves = candidates(view);
    if (moves.size() == 1) return moves.front();
    const auto start = std::chrono::steady_clock::now();
    const int max_worlds = budget.worlds > 0         ? std::min(budget.worlds, kMaxBotWorlds)
                           : budget.time.count() > 0 ? kMaxBotWorlds
                                                     : 1;
    std::vector<Outcome> totals;
    const int worlds = play_out_in_worlds(
        view, moves, rng,
        [&](int sampled) {
            return sampled < max_worlds && (sampled == 0 || budget.time.count() <= 0 ||
                                            std::chrono::steady_clock::now() - start < budget.time);
        },
        totals);
    if (worlds == 0) return greedy::choose(greedy_table(view), own_player(view), moves, rng);
    // Ties go to the greedy bot's order.
    const auto best =
        std::max_element(totals.begin(), totals.end(),
                         [](const Outcome& a, const Outcome& b) { return a.reward < b.reward; });
    return moves[static_cast<std::size_t>(best - totals.begin())];
}

}  // namespace gcor::engine
