#pragma once
// The `cor` subcommands: each registers its options and returns the exit code when run.
#include <CLI/CLI.hpp>
#include <functional>

namespace gcor::cli {

// Exit codes: 0 done, 1 the input is a valid record of an illegal game, 2 bad input or usage.
inline constexpr int kExitOk = 0;
inline constexpr int kExitIllegal = 1;
inline constexpr int kExitBadInput = 2;

using Command = std::function<int()>;

Command add_score_command(CLI::App& app);
Command add_simulate_command(CLI::App& app);
Command add_replay_command(CLI::App& app);
Command add_analyse_command(CLI::App& app);

}  // namespace gcor::cli
