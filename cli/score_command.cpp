#include <iostream>

#include "commands.hpp"
#include "input.hpp"

namespace gcor::cli {

Command add_score_command(CLI::App& app) {
    auto* command =
        app.add_subcommand("score", "Print the final-scoring breakdown of one city given as JSON");
    command->footer(
        "Input: {\"cells\":[{\"x\":0,\"y\":0,\"building\":\"market\",\"tokens\":0}, ...], "
        "\"coins\":9,\n"
        "        \"influence\":3, \"influence_cards\":[3]}  (missing numbers are 0)\n"
        "Output: one JSON object with residential_2, residential_3, residential_4, aqueducts, "
        "temples,\n"
        "        shrine, coins, influence_tokens, influence_cards, total.\n"
        "A city that no game could produce is refused on stderr with exit code 2.");
    auto path = std::make_shared<std::string>("-");
    command->add_option("FILE", *path, "The city as JSON; - for standard input")
        ->capture_default_str();
    return [path] {
        const auto json = read_json(*path);
        if (!json) return report("score", json.error().message), kExitBadInput;
        const auto city = protocol::parse_city(*json);
        if (!city) return report("score", city.error().message), kExitBadInput;
        std::cout << protocol::score_to_json(engine::score(city->city, city->holdings)).dump()
                  << '\n';
        return kExitOk;
    };
}

}  // namespace gcor::cli
