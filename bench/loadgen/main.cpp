// cor-loadgen: plays whole 4-seat games against cor-server over WebSocket (every seat its own
// connection and user), in a closed loop or at a fixed rate, and reports moves per second, the
// latency from a move to the last seat's patch, bytes per patch, and the server's CPU time per move
// and memory. Other modes: the calibration server's ceiling for the same traffic, idle
// connections, dormant stored tables. See --help and docs/benchmarks.md.
#include <signal.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "loadgen/common.hpp"
#include "loadgen/modes.hpp"
#include "loadgen/server_process.hpp"

using namespace gcor::loadgen;

namespace {

void raise_file_limit(Json& report) {
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    const rlim_t before = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    const bool raised = setrlimit(RLIMIT_NOFILE, &limit) == 0;
    getrlimit(RLIMIT_NOFILE, &limit);
    report["fd_limit"] = {{"soft_before", before},
                          {"soft", limit.rlim_cur},
                          {"hard", limit.rlim_max},
                          {"raised", raised}};
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{
        "cor-loadgen: load generator for cor-server. Plays whole 4-seat games (every seat its "
        "own WebSocket and user) with random legal moves and reports moves/s, the latency from a "
        "move to the last seat's patch (corrected for coordinated omission at a fixed rate), "
        "bytes per patch and the server's CPU per move and memory. By default it starts "
        "cor-server itself on 127.0.0.1 with a temporary database (durability on)."};
    app.add_option(
           "--mode", options.mode,
           "game: play games; calibration: the same traffic against cor-calibrate; idle: "
           "open --connections that only say hello; dormant: --dormant-tables stored "
           "tables, then the server's memory; lobby: list_tables round trips while --connections "
           "clients load --dormant-tables stored tables")
        ->check(CLI::IsMember({"game", "calibration", "idle", "dormant", "lobby"}))
        ->capture_default_str();
    app.add_option("--tables", options.tables, "Tables (4 connections each)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--seconds", options.seconds,
                   "Seconds measured (idle: seconds the connections are held)")
        ->check(CLI::Range(0.1, 86400.0))
        ->capture_default_str();
    app.add_option("--warmup", options.warmup, "Seconds before measuring (connect, first games)")
        ->check(CLI::Range(0.0, 600.0))
        ->capture_default_str();
    app.add_option("--rate", options.rate,
                   "Moves per second in all, spread evenly over the tables (0: closed loop, each "
                   "table sends its next move when the last one is complete)")
        ->check(CLI::Range(0.0, 10'000'000.0))
        ->capture_default_str();
    app.add_option("--threads", options.threads, "Threads of this load generator")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--port", options.ports,
                   "Use the server already listening on 127.0.0.1:PORT instead of starting one "
                   "(it must allow many connections and messages from one address). Game mode: "
                   "repeat for several nodes on one database (--spread)")
        ->check(CLI::Range(1, 65535))
        ->allow_extra_args(false);
    app.add_option("--server-pid", options.server_pids,
                   "With --port: the server's process id, for its CPU time and memory (once per "
                   "--port, in the same order)")
        ->check(CLI::PositiveNumber)
        ->allow_extra_args(false);
    app.add_option("--spread", options.spread,
                   "With several --port: tables puts table i's four connections on node i % n; "
                   "seats puts seat s of table i on node (i + s) % n (every move's patches cross "
                   "nodes). A connection closed by a node reconnects to the next node")
        ->check(CLI::IsMember({"tables", "seats"}))
        ->capture_default_str();
    app.add_option("--server", options.server_path,
                   "cor-server to start (default: ../server/cor-server next to this tool)");
    app.add_option("--calibration-server", options.calibration_path,
                   "cor-calibrate to start in calibration mode (default: next to this tool)");
    app.add_option("--server-threads", options.server_threads,
                   "--threads of the server this tool starts (0: its default: cor-server one per "
                   "core but one, cor-calibrate one per core)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    app.add_option("--server-arg", options.server_args,
                   "One more argument for the server this tool starts (repeat: --server-arg "
                   "--group-commit-ms --server-arg 0)")
        ->allow_extra_args(false);
    app.add_option("--database-dir", options.database_dir,
                   "Folder of the started server's database (cor-loadgen.db, replaced; default: a "
                   "temporary folder). The disk's sync latency is part of every move's.")
        ->check(CLI::ExistingDirectory);
    app.add_option("--rules", options.rules, "Rules of the games")
        ->check(CLI::IsMember({"yucata", "publisher"}))
        ->capture_default_str();
    app.add_option("--patch-bytes", options.patch_bytes,
                   "Calibration: bytes of each of the four messages out (use the game's median)")
        ->check(CLI::Range(16, 65536))
        ->capture_default_str();
    app.add_option("--connections", options.connections, "Idle: connections to open")
        ->check(CLI::Range(1, 1'000'000))
        ->capture_default_str();
    app.add_option("--dormant-tables", options.dormant_tables, "Dormant: stored tables")
        ->check(CLI::Range(1, 10'000'000))
        ->capture_default_str();
    app.add_option("--dormant-touch", options.dormant_touch,
                   "Dormant: tables then watched (loaded into memory) after the restart")
        ->check(CLI::Range(0, 10'000'000))
        ->capture_default_str();
    app.add_option("--dormant-moves", options.dormant_moves,
                   "Lobby: moves stored in each table (replayed when it is loaded)")
        ->check(CLI::Range(0, 10'000))
        ->capture_default_str();
    app.add_option("--seed", options.seed, "Seed of the random moves")->capture_default_str();
    app.add_flag("--verify", options.verify,
                 "Game: also apply every patch to the whole view (nlohmann's patch), check the "
                 "moves read from it, and compare every seat's view with a snapshot at the end");
    app.add_flag("--smoke", options.smoke,
                 "A run of a few seconds for CI: small numbers, --verify in game mode (measured "
                 "until a game is complete, at most a minute); exits non-zero unless moves were "
                 "made and every game was valid");
    app.add_option("--json", options.json_path,
                   "Write the report as JSON to this file (- : stdout)");
    app.add_flag("--quiet", options.quiet, "No progress lines on stderr");
    app.add_option("--print-patches", options.print_patches,
                   "Game: print the first N patches seat 0 of table 0 receives (stderr)")
        ->check(CLI::Range(0, 1'000'000));
    CLI11_PARSE(app, argc, argv);
    if (!options.server_pids.empty() && options.server_pids.size() != options.ports.size()) {
        std::fprintf(stderr, "cor-loadgen: --server-pid needs a --port each, in the same order\n");
        return 2;
    }
    if (options.ports.size() > 1 && options.mode != "game") {
        std::fprintf(stderr, "cor-loadgen: several --port are for --mode game\n");
        return 2;
    }
    if (options.smoke) {
        options.tables = std::min(options.tables, 8);
        options.seconds = std::min(options.seconds, 2.0);
        options.warmup = std::min(options.warmup, 0.5);
        options.connections = std::min(options.connections, 200);
        options.dormant_tables = std::min(options.dormant_tables, 2000);
        options.dormant_touch = std::min(options.dormant_touch, 50);
        if (options.mode == "game") options.verify = true;
    }

    Json report{{"mode", options.mode}};
    try {
        raise_file_limit(report);
        signal(SIGPIPE, SIG_IGN);
        if (options.mode == "dormant") {
            report = run_dormant(options, std::move(report));
        } else if (options.mode == "lobby") {
            report = run_lobby(options, std::move(report));
        } else {
            std::unique_ptr<ChildServer> child;
            std::string dir;
            std::string database;
            Target target;
            for (std::size_t i = 0; i < options.ports.size(); ++i)
                target.nodes.push_back({tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                                      static_cast<std::uint16_t>(options.ports[i])),
                                        options.server_pids.empty() ? 0 : options.server_pids[i]});
            if (target.nodes.empty()) {
                dir = make_temp_dir();
                database =
                    (options.database_dir.empty() ? dir : options.database_dir) + "/cor-loadgen.db";
                remove_database(database);
                std::vector<std::string> command;
                if (options.mode == "calibration")
                    command = {find_tool(options.calibration_path, "cor-calibrate"), "--threads",
                               std::to_string(options.server_threads)};
                else
                    command = cor_server_command(options, dir, database);
                try {
                    child = std::make_unique<ChildServer>(command, dir);
                } catch (...) {
                    remove_database(database);
                    std::filesystem::remove_all(dir);  // a server that did not start
                    throw;
                }
                target.nodes.push_back({tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                                      static_cast<std::uint16_t>(child->port())),
                                        child->pid()});
                say(options, command.front() + " started, port " + std::to_string(child->port()));
            }
            report["server_threads"] = options.server_threads;
            report = options.mode == "idle" ? run_idle(options, target, std::move(report))
                                            : run_tables(options, target, std::move(report));
            if (child) {
                child->stop();
                remove_database(database);
                std::filesystem::remove_all(dir);
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "cor-loadgen: %s\n", error.what());
        return 1;
    }
    print_summary(report);
    if (!options.json_path.empty()) {
        const std::string text = report.dump(2) + "\n";
        if (options.json_path == "-")
            std::fputs(text.c_str(), stdout);
        else
            std::ofstream(options.json_path) << text;
    }
    return report["ok"].get<bool>() ? 0 : 1;
}
