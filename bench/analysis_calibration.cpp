// Calibration of the game review's chances (docs/benchmarks.md, "Game review"): over bot games,
// do decisions estimated at p win about p of the time? Plays seeded 4-player games (a strong bot
// at a rotating seat, greedy bots at the others), reviews a few decisions per game picked at
// random, and counts, per tenth of the estimate, how often the deciding seat won.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <vector>

#include "gcor/engine/analysis.hpp"
#include "gcor/engine/bot.hpp"

namespace {

using namespace gcor::engine;

struct CalibrationOptions {
    int games = 1000;
    int per_game = 2;
    int worlds = AnalysisBudget{}.worlds;
    int bot_worlds = 4;
    std::uint64_t seed = 1;
};

// Estimates in one tenth, and what became of them.
struct CalibrationBin {
    int decisions = 0;
    double estimated = 0.0;  // summed
    double won = 0.0;        // the seat's win share at the end, summed
};
using CalibrationTable = std::array<CalibrationBin, 10>;

void tally(CalibrationTable& table, double estimate, double won) {
    CalibrationBin& bin = table[std::min<std::size_t>(9, static_cast<std::size_t>(estimate * 10))];
    ++bin.decisions;
    bin.estimated += estimate;
    bin.won += won;
}

double win_share_of(const State& end, Seat seat) {
    const std::vector<Seat> winners = end.winners();
    const auto count = std::count(winners.begin(), winners.end(), seat);
    return count == 0 ? 0.0 : 1.0 / static_cast<double>(winners.size());
}

void print_table(const CalibrationTable& after, const CalibrationTable& before) {
    std::printf(
        "| estimate | decisions (after) | mean estimate | won | decisions (before) | mean "
        "estimate | won |\n|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < after.size(); ++i) {
        std::printf("| %.1f–%.1f ", static_cast<double>(i) / 10, static_cast<double>(i + 1) / 10);
        for (const CalibrationBin* bin : {&after[i], &before[i]}) {
            if (bin->decisions == 0) {
                std::printf("| 0 | – | – ");
                continue;
            }
            std::printf("| %d | %.3f | %.3f ", bin->decisions, bin->estimated / bin->decisions,
                        bin->won / bin->decisions);
        }
        std::printf("|\n");
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Calibration of the game review's chances over seeded bot games"};
    CalibrationOptions options;
    app.add_option("--games", options.games, "4-player games to play")
        ->check(CLI::Range(1, 1'000'000))
        ->capture_default_str();
    app.add_option("--per-game", options.per_game, "Decisions reviewed per game, picked at random")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--worlds", options.worlds, "The review's world budget")
        ->check(CLI::Range(1, kMaxAnalysisWorlds))
        ->capture_default_str();
    app.add_option("--bot-worlds", options.bot_worlds, "Worlds of the strong bot that plays")
        ->check(CLI::Range(1, kMaxBotWorlds))
        ->capture_default_str();
    app.add_option("--seed", options.seed, "Seed of the first game")->capture_default_str();
    CLI11_PARSE(app, argc, argv);

    const Rules rules = *Rules::make({4, Variant::yucata, false});
    CalibrationTable after{}, before{};
    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    double last_report = 0.0;
    const BotBudget bot_budget{options.bot_worlds, std::chrono::milliseconds(0)};
    for (int game = 0; game < options.games; ++game) {
        const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(game);
        State state = rules.new_game(seed);
        Rng rng(seed);
        const auto strong = static_cast<Seat>(game % 4);
        std::vector<State> positions;  // before each decision with a choice
        std::vector<Move> played;
        while (!state.over()) {
            const Seat seat = state.to_act();
            const View view = view_for(state, seat);
            const Move move = choose_move(seat == strong ? BotKind::strong : BotKind::greedy, view,
                                          rng, bot_budget);
            if (view.legal_moves.size() > 1) positions.push_back(state), played.push_back(move);
            state.apply(seat, move);
        }
        for (int pick = 0; pick < options.per_game && !positions.empty(); ++pick) {
            const std::size_t i = rng.below(static_cast<std::uint32_t>(positions.size()));
            const AnalysisBudget budget{options.worlds, rng.next()};
            const auto review = analyse(positions[i], std::span(&played[i], 1), {}, budget,
                                        [](std::size_t, std::size_t) { return true; });
            const DecisionReview& decision = review->decisions.front();
            const double won = win_share_of(state, decision.seat);
            tally(after, decision.after, won);
            tally(before, decision.before, won);
            positions.erase(positions.begin() + static_cast<std::ptrdiff_t>(i));
            played.erase(played.begin() + static_cast<std::ptrdiff_t>(i));
        }
        if (seconds() - last_report >= 10.0 || game + 1 == options.games) {
            last_report = seconds();
            std::fprintf(stderr, "analysis-calibration: %d/%d games in %.0f s\n", game + 1,
                         options.games, last_report);
        }
    }
    std::printf(
        "%d games, %d decisions each, review budget %d worlds, strong bot %d worlds, "
        "seeds from %llu: %.0f s\n\n",
        options.games, options.per_game, options.worlds, options.bot_worlds,
        static_cast<unsigned long long>(options.seed), seconds());
    print_table(after, before);
    return 0;
}
