#include <chrono>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "gcor/engine/analysis.hpp"
#include "gcor/protocol/analysis_json.hpp"
#include "input.hpp"
#include "progress.hpp"

namespace gcor::cli {

Command add_analyse_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "analyse", "Review a game record's decisions as the strong bot sees them; print JSON");
    command->footer(
        "Each decision with a choice is judged from its seat's view at that moment only: the "
        "chance to win before it (with the bot's move), after the move played, and the bot's "
        "move; a loss of more than --threshold is a mistake. The same record, --worlds and --seed "
        "give the same review on any machine (docs/analysis.md; the JSON: docs/protocol.md, "
        "\"Game review\"). Progress goes to stderr.\n\nExit codes: 0 reviewed; 1 a move of the "
        "record is illegal, or its seed does not match its commitment; 2 bad input or "
        "usage.\n\nExample: cor simulate --bot greedy --seed 1 "
        "| cor analyse - > review.json");
    auto path = std::make_shared<std::string>();
    command
        ->add_option("FILE", *path,
                     "The game record (as printed by `cor simulate` or GET "
                     "/api/tables/{id}/record); - for standard input")
        ->required();
    auto budget = std::make_shared<engine::AnalysisBudget>();
    command
        ->add_option("--worlds", budget->worlds,
                     "Worlds sampled per decision for the bot's move, and as many for the chances")
        ->check(CLI::Range(1, engine::kMaxAnalysisWorlds))
        ->capture_default_str();
    command->add_option("--seed", budget->seed, "Seed of the sampled worlds")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    auto threshold = std::make_shared<double>(protocol::kDefaultMistakeThreshold);
    command
        ->add_option("--threshold", *threshold,
                     "A decision that loses more than this chance to win (0 to 1) is a mistake")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    return [path, budget, threshold] {
        int exit_code = kExitOk;
        const auto record = read_record("analyse", *path, exit_code);
        if (!record) return exit_code;
        const protocol::Replay replayed = protocol::replay(*record);
        if (replayed.refused_index)
            return report("analyse", refused_move(*record, replayed)), kExitIllegal;
        const engine::State start = engine::Rules::make(record->options)->new_game(record->seed);
        std::unique_ptr<Progress> progress;
        const auto begun = std::chrono::steady_clock::now();
        const auto analysis = engine::analyse(
            start, record->moves, record->waited, *budget,
            [&](std::size_t done, std::size_t total) {
                if (!progress)
                    progress = std::make_unique<Progress>("analyse", "decisions",
                                                          static_cast<long long>(total));
                progress->update(
                    static_cast<long long>(done),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - begun)
                        .count());
                return true;
            });
        std::cout << protocol::analysis_json(*analysis, *threshold).dump() << '\n';
        return kExitOk;
    };
}

}  // namespace gcor::cli
