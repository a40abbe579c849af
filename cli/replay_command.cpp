#include <iostream>

#include "commands.hpp"
#include "gcor/protocol/events.hpp"
#include "input.hpp"

namespace gcor::cli {

Command add_replay_command(CLI::App& app) {
    auto* command =
        app.add_subcommand("replay", "Replay a game record and print its final scores as JSON");
    command->footer(
        "Exit codes: 0 the record replays (and agrees with its scores and winners, when it has "
        "them);\n"
        "1 a move is illegal or the record's result disagrees; 2 the record is malformed.");
    auto path = std::make_shared<std::string>();
    command
        ->add_option("FILE", *path,
                     "The game record (as printed by `cor simulate`); - for standard input")
        ->required();
    auto log = std::make_shared<bool>(false);
    command->add_flag("--log", *log,
                      "Print the game's log, a line per event as a spectator reads it, instead of "
                      "the scores");
    auto language = std::make_shared<std::string>("en");
    command->add_option("--lang", *language, "The log's language")
        ->check(CLI::IsMember({"en", "de"}))
        ->default_str("en");
    return [path, log, language] {
        int exit_code = kExitOk;
        const auto record = read_record("replay", *path, exit_code);
        if (!record) return exit_code;
        const protocol::Replay replayed = protocol::replay(*record);
        if (*log) {
            const auto lang = protocol::parse_language(*language).value_or(protocol::Language::en);
            for (const engine::Event& event : replayed.events)
                std::cout << protocol::describe(event, std::nullopt, {}, lang) << '\n';
        }
        if (replayed.refused_index)
            return report("replay", refused_move(*record, replayed)), kExitIllegal;
        protocol::Json result = protocol::result_to_json(replayed.state);
        if (!*log) std::cout << result.dump() << '\n';
        if (record->claimed_scores && *record->claimed_scores != result["scores"]) {
            report("replay", "the record's scores differ from the replay's");
            return kExitIllegal;
        }
        if (record->claimed_winners && *record->claimed_winners != result["winners"]) {
            report("replay", "the record's winners differ from the replay's");
            return kExitIllegal;
        }
        return kExitOk;
    };
}

}  // namespace gcor::cli
