#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include "commands.hpp"
#include "gcor/engine/bot.hpp"
#include "input.hpp"
#include "progress.hpp"

namespace gcor::cli {
namespace {

struct SimulateOptions {
    int players = 4;
    long long games = 1;
    std::optional<std::uint64_t> seed;
    std::string rules = "yucata";
    bool shrine = false;
    std::string bot = "random";
    std::optional<int> bot_ms;
    int bot_worlds = 0;
    bool rotate = false;
};

using Clock = std::chrono::steady_clock;

// What one bot of the --bot list did over the games (whichever seat it had).
struct BotTally {
    long long wins = 0;    // a shared win counts for each winner
    long long points = 0;  // its final scores
    long long margin = 0;  // its score minus the best other player's, summed
    long long moves = 0;   // moves it chose (not the ones the rules made for it)
    Clock::duration thinking{};
};

// Plays one game between bots; each decides from its own seat's view only. `seats[s]`: the index
// in `bots` of the bot playing seat s.
protocol::GameRecord play(const engine::Rules& rules, std::uint64_t seed,
                          const std::vector<engine::BotKind>& bots,
                          const std::vector<std::size_t>& seats, const engine::BotBudget& budget,
                          std::vector<BotTally>& tallies, engine::State& state) {
    protocol::GameRecord record;
    record.options = rules.options();
    record.seed = seed;
    state = rules.new_game(seed);
    engine::Rng rng(seed ^ 0x5eed0fb075ull);
    while (!state.over()) {
        const engine::Seat seat = state.to_act();
        const std::size_t bot = seats[seat];
        const auto start = Clock::now();
        const engine::Move move =
            engine::choose_move(bots[bot], engine::view_for(state, seat), rng, budget);
        tallies[bot].thinking += Clock::now() - start;
        ++tallies[bot].moves;
        const engine::MoveError error = state.apply(seat, move);
        (void)error;
        assert(error == engine::MoveError::none);
        record.moves.push_back(move);
    }
    return record;
}

}  // namespace

Command add_simulate_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "simulate", "Play games between bots; print each game's record as one JSON line");
    command->footer(
        "Game i uses seed S+i. A summary goes to stderr: games per second, and for each bot of "
        "--bot its wins, mean score, mean margin (its score minus the best other player's) and "
        "time per move; progress too, on long runs.\n\nBots: random (uniform among the legal "
        "moves), greedy (the move that most improves its own score estimate), strong (greedy's "
        "best candidates played out in worlds sampled from what its seat sees; it thinks --bot-ms "
        "per move, or exactly --bot-worlds worlds: reproducible on any machine).\n\nExample: cor "
        "simulate --players 4 --games 400 --seed 1 --rotate --bot strong,greedy,greedy,greedy "
        "--bot-worlds 8 > games.jsonl");
    auto options = std::make_shared<SimulateOptions>();
    command->add_option("--players", options->players, "Players per game")
        ->check(CLI::Range(2, 4))
        ->capture_default_str();
    command->add_option("--games", options->games, "Games to play")
        ->check(CLI::Range(1LL, 1'000'000'000LL))
        ->capture_default_str();
    command->add_option("--seed", options->seed, "Seed of the first game (default: random)");
    command->add_option("--rules", options->rules, "Rules variant")
        ->check(CLI::IsMember({"yucata", "publisher"}))
        ->capture_default_str();
    command->add_flag("--shrine", options->shrine, "Play with the Shrine mini-expansion");
    command
        ->add_option("--bot", options->bot,
                     "Bot for every seat, or one per seat: strong,greedy,random (random, greedy or "
                     "strong)")
        ->capture_default_str();
    command
        ->add_option("--bot-ms", options->bot_ms,
                     "Time the strong bot thinks per move, in ms (default 200 without "
                     "--bot-worlds, else no time limit; 0: no time limit)")
        ->check(CLI::Range(0, 60'000));
    command
        ->add_option("--bot-worlds", options->bot_worlds,
                     "Worlds the strong bot samples per move (0: no limit); with it alone the "
                     "games depend only on the seeds")
        ->check(CLI::Range(0, engine::kMaxBotWorlds))
        ->capture_default_str();
    command->add_flag("--rotate", options->rotate,
                      "Rotate the seats: in game i the first bot of --bot sits at seat i mod "
                      "players, the others after it in order");
    return [options] {
        const engine::Options game_options{
            options->players, *engine::variant_from_id(options->rules), options->shrine};
        const auto rules = engine::Rules::make(game_options);
        std::vector<engine::BotKind> bots;
        for (const std::string& id : CLI::detail::split(options->bot, ',')) {
            const auto bot = engine::bot_from_id(id);
            if (!bot)
                return report("simulate", "unknown bot \"" + id + "\" (random, greedy or strong)"),
                       kExitBadInput;
            bots.push_back(*bot);
        }
        if (bots.size() == 1) bots.resize(static_cast<std::size_t>(options->players), bots.front());
        if (bots.size() != static_cast<std::size_t>(options->players))
            return report("simulate", "--bot names one bot, or one per seat"), kExitBadInput;
        const engine::BotBudget budget{
            options->bot_worlds,
            std::chrono::milliseconds(options->bot_ms.value_or(options->bot_worlds > 0 ? 0 : 200))};
        if (budget.worlds == 0 && budget.time.count() == 0)
            return report("simulate", "--bot-ms 0 needs --bot-worlds N (N > 0)"), kExitBadInput;
        const std::uint64_t first_seed =
            options->seed ? *options->seed
                          : std::random_device{}() * 0x100000000ull + std::random_device{}();

        const auto n = static_cast<std::size_t>(options->players);
        std::vector<BotTally> tallies(n);
        std::vector<std::size_t> seats(n);
        Progress progress("simulate", "games", options->games);
        const auto start = Clock::now();
        auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
        engine::State state;
        for (long long i = 0; i < options->games; ++i) {
            const std::size_t shift = options->rotate ? static_cast<std::size_t>(i) % n : 0;
            for (std::size_t bot = 0; bot < n; ++bot)
                seats[(bot + shift) % n] = bot;
            const protocol::GameRecord record =
                play(*rules, first_seed + static_cast<std::uint64_t>(i), bots, seats, budget,
                     tallies, state);
            std::cout << protocol::record_to_json(record, &state).dump() << '\n';
            const std::vector<engine::Seat> winners = state.winners();
            for (std::size_t seat = 0; seat < n; ++seat) {
                BotTally& tally = tallies[seats[seat]];
                const int points = state.final_score(static_cast<engine::Seat>(seat)).total;
                int best_other = 0;
                for (std::size_t other = 0; other < n; ++other)
                    if (other != seat)
                        best_other = std::max(
                            best_other, state.final_score(static_cast<engine::Seat>(other)).total);
                tally.points += points;
                tally.margin += points - best_other;
                tally.wins += std::count(winners.begin(), winners.end(), seat);
            }
            progress.update(i + 1, elapsed());
        }
        std::cout.flush();
        const double seconds = elapsed();
        const auto games = static_cast<double>(options->games);
        std::fprintf(
            stderr, "simulate: %lld games (%d players, %s, %s bots%s) in %.2f s: %.2f games/s\n",
            options->games, options->players, options->rules.c_str(), options->bot.c_str(),
            options->rotate ? ", seats rotated" : "", seconds, seconds > 0 ? games / seconds : 0.0);
        for (std::size_t bot = 0; bot < n; ++bot) {
            const BotTally& tally = tallies[bot];
            const double ms = std::chrono::duration<double, std::milli>(tally.thinking).count();
            std::fprintf(stderr,
                         "  %s %zu (%s): %lld wins (%.1f%%; a shared win counts for each), mean "
                         "score %.1f, mean margin %+.1f, %.2f ms per move\n",
                         options->rotate ? "bot" : "seat", bot,
                         std::string(engine::bot_id(bots[bot])).c_str(), tally.wins,
                         100.0 * static_cast<double>(tally.wins) / games,
                         static_cast<double>(tally.points) / games,
                         static_cast<double>(tally.margin) / games,
                         tally.moves > 0 ? ms / static_cast<double>(tally.moves) : 0.0);
        }
        return kExitOk;
    };
}

}  // namespace gcor::cli
