// The strong bot: determinized Monte Carlo over the greedy bot's best candidates. Every candidate
// is played out in the same sampled worlds with the same playout seed (common random numbers), so
// candidates are compared on equal luck and few worlds tell them apart.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

#include "gcor/engine/bot.hpp"
#include "gcor/engine/determinize.hpp"
#include "greedy.hpp"

namespace gcor::engine {
namespace {

// Candidates kept from the greedy bot's ranking, besides producing and ending the turn.
constexpr std::size_t kCandidates = 8;

greedy::Table greedy_table(const State& state) {
    greedy::Table table;
    for (int space = 0; space < kStripSpaces; ++space)
        table.strip[static_cast<std::size_t>(space)] = state.strips[0].at(space);
    table.bricks = state.turn.bricks;
    table.cogs = state.turn.cogs;
    for (int deck = 1; deck < kDeckCount; ++deck)
        table.deck_sizes[static_cast<std::size_t>(deck)] =
            static_cast<int>(state.decks[static_cast<std::size_t>(deck)].size());
    return table;
}

// Every seat plays greedily to the end of the game.
void play_out(State& state, Rng& rng, std::vector<Move>& moves) {
    while (!state.over()) {
        const Seat seat = state.to_act();
        state.legal_moves(moves);
        const Move move = moves.size() == 1 ? moves.front()
                                            : greedy::choose(greedy_table(state),
                                                             state.players[seat], moves, rng);
        const MoveError error = state.apply(seat, move);
        assert(error == MoveError::none);
        (void)error;
    }
}

// In [0, 1]: mostly whether `seat` won (a shared win in part), and then by how much it leads or
// trails the best other player, so that among moves that all win (or all lose) the bot still
// prefers the larger margin.
double reward(const State& state, Seat seat) {
    const int mine = state.final_score(seat).total;
    int best_other = -1000;
    for (int other = 0; other < state.player_count(); ++other)
        if (other != seat)
            best_other = std::max(best_other, state.final_score(static_cast<Seat>(other)).total);
    const std::vector<Seat> winners = state.winners();
    const bool won = std::find(winners.begin(), winners.end(), seat) != winners.end();
    const double win = won ? 1.0 / static_cast<double>(winners.size()) : 0.0;
    const double margin = 0.5 + 0.5 * std::tanh((mine - best_other) / 10.0);
    return 0.7 * win + 0.3 * margin;
}

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
    const Seat seat = *view.viewer;
    const auto start = std::chrono::steady_clock::now();
    const int max_worlds = budget.worlds > 0         ? std::min(budget.worlds, kMaxBotWorlds)
                           : budget.time.count() > 0 ? kMaxBotWorlds
                                                     : 1;
    std::vector<double> totals(moves.size());
    std::vector<Move> scratch;
    int worlds = 0;
    while (worlds < max_worlds && (worlds == 0 || budget.time.count() <= 0 ||
                                   std::chrono::steady_clock::now() - start < budget.time)) {
        const std::optional<State> world = determinize(view, rng);
        if (!world) break;
        const std::uint64_t playout_seed = rng.next();
        for (std::size_t i = 0; i < moves.size(); ++i) {
            State state = *world;
            const MoveError error = state.apply(seat, moves[i]);
            assert(error == MoveError::none);
            (void)error;
            Rng playout_rng(playout_seed);
            play_out(state, playout_rng, scratch);
            totals[i] += reward(state, seat);
        }
        ++worlds;
    }
    if (worlds == 0) return greedy::choose(greedy_table(view), own_player(view), moves, rng);
    // Ties go to the greedy bot's order.
    return moves[static_cast<std::size_t>(std::max_element(totals.begin(), totals.end()) -
                                          totals.begin())];
}

}  // namespace gcor::engine
