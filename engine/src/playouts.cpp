// Play-outs in sampled worlds: the strong bot's evaluation of moves (playouts.hpp).
#include "playouts.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "gcor/engine/determinize.hpp"
#include "greedy.hpp"

namespace gcor::engine {
namespace {

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

// 1 when `seat` won alone, 1/k when it shares the win with k winners (docs/rules.md: the
// tie-breakers first), 0 when it lost.
double win_share(const State& state, Seat seat) {
    const std::vector<Seat> winners = state.winners();
    const bool won = std::find(winners.begin(), winners.end(), seat) != winners.end();
    return won ? 1.0 / static_cast<double>(winners.size()) : 0.0;
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
    const double margin = 0.5 + 0.5 * std::tanh((mine - best_other) / 10.0);
    return 0.7 * win_share(state, seat) + 0.3 * margin;
}

}  // namespace

int play_out_in_worlds(const View& view, std::span<const Move> moves, Rng& rng,
                       const std::function<bool(int worlds)>& more, std::vector<Outcome>& totals) {
    assert(view.viewer && *view.viewer == view.to_act);
    const Seat seat = *view.viewer;
    totals.assign(moves.size(), Outcome{});
    std::vector<Move> scratch;
    int worlds = 0;
    while (more(worlds)) {
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
            totals[i].reward += reward(state, seat);
            totals[i].wins += win_share(state, seat);
        }
        ++worlds;
    }
    return worlds;
}

}  // namespace gcor::engine
