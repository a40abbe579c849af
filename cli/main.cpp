// cor: command-line tools for The Great City of Rome.
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{
        "cor: tools for The Great City of Rome (score a city, simulate bot games, replay a game "
        "record, review a game)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "cor 0.1.0");
    const gcor::cli::Command commands[] = {
        gcor::cli::add_score_command(app),
        gcor::cli::add_simulate_command(app),
        gcor::cli::add_replay_command(app),
        gcor::cli::add_analyse_command(app),
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        const int code = app.exit(error);
        return code == 0 ? 0 : gcor::cli::kExitBadInput;
    }
    const auto chosen = app.get_subcommands();
    const auto& all = app.get_subcommands({});
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i] == chosen.front()) return commands[i]();
    return gcor::cli::kExitBadInput;
}
