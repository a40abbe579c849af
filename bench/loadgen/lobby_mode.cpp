// Mode lobby: a lobby request's round trip while stored tables are being loaded. --dormant-tables
// tables of --dormant-moves moves are written straight into a new database, the server started
// on it (so none is in memory), then --connections clients ask to watch all of them at once (each
// loads its table) while one more client asks list_tables over and over, one request at a time,
// until every table's snapshot has come.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "loadgen/connection.hpp"
#include "loadgen/modes.hpp"
#include "loadgen/server_process.hpp"

namespace gcor::loadgen {

Json run_lobby(const Options& options, Json report) {
    const std::string dir = make_temp_dir();
    const std::string database = dir + "/cor.db";
    create_dormant_tables(database, options.dormant_tables, options.dormant_moves);
    report["tables"] = options.dormant_tables;
    report["moves_per_table"] = options.dormant_moves;
    ChildServer server(cor_server_command(options, dir, database), dir);
    const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"),
                                 static_cast<std::uint16_t>(server.port()));

    Shared shared;
    net::io_context io(1);
    const int watchers = std::min(options.connections, options.dormant_tables);
    std::vector<std::unique_ptr<Connection>> watching;
    Connection lobby(io, shared);
    int welcomed = 0;
    int snapshots = 0;
    int problems = 0;
    Histogram round_trips;
    Clock::time_point asked{};
    Clock::time_point started{};
    Clock::time_point all_loaded{};

    auto ask_lobby = [&] {
        asked = Clock::now();
        lobby.send(R"({"type":"list_tables","limit":10})");
    };
    // Once every client said hello: all the watches at once, and the first listing.
    auto on_welcome = [&] {
        if (++welcomed < watchers + 1) return;
        started = Clock::now();
        for (int table = 0; table < options.dormant_tables; ++table)
            watching[static_cast<std::size_t>(table % watchers)]->send(Out{
                {"type", "watch"},
                {"table",
                 dormant_table_id(static_cast<std::size_t>(table))}}.dump());
        ask_lobby();
    };
    auto hello = [&](Connection& connection, const std::string& name) {
        return [&connection, name, &io](bool ok) {
            if (!ok) return io.stop();
            connection.send(Out{{"type", "hello"}, {"name", name}}.dump());
        };
    };
    for (int i = 0; i < watchers; ++i) {
        watching.push_back(std::make_unique<Connection>(io, shared));
        Connection& watcher = *watching.back();
        watcher.open(endpoint, hello(watcher, "watcher" + std::to_string(i)),
                     [&](std::string_view text, Clock::time_point) {
                         const auto type = gcor::bench::message_type(text);
                         if (type == "welcome") return on_welcome();
                         if (type != "snapshot") return void(++problems);
                         if (++snapshots < options.dormant_tables) return;
                         all_loaded = Clock::now();
                         io.stop();
                     });
    }
    lobby.open(endpoint, hello(lobby, "lobby"), [&](std::string_view text, Clock::time_point at) {
        const auto type = gcor::bench::message_type(text);
        if (type == "welcome") return on_welcome();
        if (type != "tables") return void(++problems);
        round_trips.record(static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(at - asked).count()));
        ask_lobby();
    });
    std::thread stopper([&] {
        for (int i = 0; i < 1200 && !io.stopped(); ++i)
            std::this_thread::sleep_for(100ms);
        io.stop();
    });
    io.run();
    stopper.join();
    shared.stopping = true;

    auto ms = [](std::uint64_t ns) { return static_cast<double>(ns) / 1e6; };
    report["watchers"] = watchers;
    report["loaded"] = snapshots;
    report["load_all_s"] = std::chrono::duration<double>(all_loaded - started).count();
    report["lobby"] = {{"round_trips", round_trips.count()},
                       {"p50_ms", ms(round_trips.percentile(0.5))},
                       {"p99_ms", ms(round_trips.percentile(0.99))},
                       {"max_ms", ms(round_trips.max())}};
    report["load_average"] = load_average();
    report["ok"] = snapshots == options.dormant_tables && problems == 0 && round_trips.count() > 0;
    server.stop();
    std::filesystem::remove_all(dir);
    return report;
}

}  // namespace gcor::loadgen
