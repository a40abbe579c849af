// cor-server: the Great City of Rome game server.
#include <spdlog/spdlog.h>

#include <exception>
#include <fstream>
#include <iostream>

#include "gcor/server/server.hpp"
#include "gcor/store/copy_database.hpp"

int main(int argc, char** argv) {
    int exit_code = 0;
    const auto config = gcor::server::parse_config(argc, argv, exit_code);
    if (!config) return exit_code;
    spdlog::set_level(spdlog::level::from_str(config->log_level));
    if (!config->copy_database.empty()) {
        try {
            gcor::server::copy_database(config->copy_database[0], config->copy_database[1],
                                        std::cout);
            return 0;
        } catch (const std::exception& error) {
            std::cerr << "cannot copy the database: " << error.what() << '\n';
            return 1;
        }
    }
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
