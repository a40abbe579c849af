// cor-server: the Great City of Rome game server.
#include <spdlog/spdlog.h>

#include <exception>
#include <fstream>

#include "gcor/server/server.hpp"

int main(int argc, char** argv) {
    int exit_code = 0;
    const auto config = gcor::server::parse_config(argc, argv, exit_code);
    if (!config) return exit_code;
    spdlog::set_level(spdlog::level::from_str(config->log_level));
    try {
        gcor::server::Server server(*config);
        spdlog::info("listening on http://{}:{} (web client from {}/)", config->bind, server.port(),
                     config->web_root);
        if (!config->port_file.empty()) std::ofstream(config->port_file) << server.port() << '\n';
        server.run();
        spdlog::info("stopped");
    } catch (const std::exception& error) {
        spdlog::critical("cannot serve on {}:{}: {}", config->bind, config->port, error.what());
        return 1;
    }
    return 0;
}
