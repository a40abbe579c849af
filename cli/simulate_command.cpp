#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include "commands.hpp"
#include "gcor/engine/bot.hpp"
#include "input.hpp"

namespace gcor::cli {
namespace {

struct SimulateOptions {
    int players = 4;
    long long games = 1;
    std::optional<std::uint64_t> seed;
    std::string rules = "yucata";
    bool shrine = false;
    std::string bot = "random";
};

// Plays one game between bots; each decides from its own seat's view only.
protocol::GameRecord play(const engine::Rules& rules, std::uint64_t seed,
                          const std::vector<engine::BotKind>& bots, engine::State& state) {
    protocol::GameRecord record;
    record.options = rules.options();
    record.seed = seed;
    state = rules.new_game(seed);
    engine::Rng rng(seed ^ 0x5eed0fb075ull);
    while (!state.over()) {
        const engine::Seat seat = state.to_act();
        const engine::Move move =
            engine::choose_move(bots[seat], engine::view_for(state, seat), rng);
        const engine::MoveError error = state.apply(seat, move);
        (void)error;
        assert(error == engine::MoveError::none);
        record.moves.push_back(move);
    }
    return record;
}

class Progress {
  public:
    Progress(long long total) : total_(total), enabled_(isatty(STDERR_FILENO) == 1) {}

    void update(long long done, double seconds) {
        if (!enabled_ || (done != total_ && seconds - last_ < 0.1)) return;
        last_ = seconds;
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(kWidth * done / total_);
        std::fprintf(stderr, "\r[%s%s] %lld/%lld games, %.0f games/s ",
                     std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done,
                     total_, seconds > 0 ? static_cast<double>(done) / seconds : 0.0);
        if (done == total_) std::fputc('\n', stderr);
    }

  private:
    long long total_;
    bool enabled_;
    double last_ = -1.0;
};

}  // namespace

Command add_simulate_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "simulate", "Play games between bots; print each game's record as one JSON line");
    command->footer(
        "Game i uses seed S+i. A summary (games per second, wins and mean score per seat) goes to "
        "stderr.");
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
                     "Bot for every seat, or one per seat: greedy,random,random")
        ->capture_default_str();
    return [options] {
        const engine::Options game_options{
            options->players, *engine::variant_from_id(options->rules), options->shrine};
        const auto rules = engine::Rules::make(game_options);
        std::vector<engine::BotKind> bots;
        for (const std::string& id : CLI::detail::split(options->bot, ',')) {
            const auto bot = engine::bot_from_id(id);
            if (!bot)
                return report("simulate", "unknown bot \"" + id + "\" (random or greedy)"),
                       kExitBadInput;
            bots.push_back(*bot);
        }
        if (bots.size() == 1) bots.resize(static_cast<std::size_t>(options->players), bots.front());
        if (bots.size() != static_cast<std::size_t>(options->players))
            return report("simulate", "--bot names one bot, or one per seat"), kExitBadInput;
        const std::uint64_t first_seed =
            options->seed ? *options->seed
                          : std::random_device{}() * 0x100000000ull + std::random_device{}();

        std::vector<long long> wins(static_cast<std::size_t>(options->players));
        std::vector<long long> points(static_cast<std::size_t>(options->players));
        Progress progress(options->games);
        const auto start = std::chrono::steady_clock::now();
        auto elapsed = [&] {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        engine::State state;
        for (long long i = 0; i < options->games; ++i) {
            const protocol::GameRecord record =
                play(*rules, first_seed + static_cast<std::uint64_t>(i), bots, state);
            std::cout << protocol::record_to_json(record, &state).dump() << '\n';
            for (engine::Seat seat : state.winners())
                ++wins[seat];
            for (int seat = 0; seat < options->players; ++seat)
                points[static_cast<std::size_t>(seat)] +=
                    state.final_score(static_cast<engine::Seat>(seat)).total;
            progress.update(i + 1, elapsed());
        }
        std::cout.flush();
        const double seconds = elapsed();
        std::fprintf(stderr,
                     "simulate: %lld games (%d players, %s, %s bots) in %.2f s: %.0f games/s\n",
                     options->games, options->players, options->rules.c_str(), options->bot.c_str(),
                     seconds, seconds > 0 ? static_cast<double>(options->games) / seconds : 0.0);
        for (int seat = 0; seat < options->players; ++seat)
            std::fprintf(stderr,
                         "  seat %d: %lld wins (a shared win counts for each), mean score %.1f\n",
                         seat, wins[static_cast<std::size_t>(seat)],
                         static_cast<double>(points[static_cast<std::size_t>(seat)]) /
                             static_cast<double>(options->games));
        return kExitOk;
    };
}

}  // namespace gcor::cli
