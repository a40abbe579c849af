// Mode dormant: many stored tables written straight into a new database through the store, then
// the server's memory on them, and after a spectator loaded some.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/table_settings.hpp"
#include "gcor/store/sqlite_store.hpp"
#include "gcor/store/store.hpp"
#include "loadgen/connection.hpp"
#include "loadgen/modes.hpp"
#include "loadgen/server_process.hpp"

namespace gcor::loadgen {

std::string dormant_table_id(std::size_t index) {
    char id[24];
    std::snprintf(id, sizeof id, "t%016zx", index + 1);
    return id;
}

namespace {

// `moves` random legal moves from the table's deal, stored as its players would have made them.
void store_random_moves(server::Store& store, const server::StoredTable& table,
                        const engine::Rules& rules, int moves) {
    using namespace gcor::server;
    engine::State state = rules.new_game(table.seed);
    engine::Rng rng(table.seed);
    for (int version = 1; version <= moves && !state.over(); ++version) {
        const engine::Seat seat = state.to_act();
        const auto legal = state.legal_moves(seat);
        const engine::Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        state.apply(seat, move);
        TableProgress progress;
        progress.id = table.id;
        progress.version = static_cast<std::uint64_t>(version);
        progress.to_act = state.to_act();
        progress.turn_only = true;
        store.append_move(progress,
                          StoredMove{progress.version, seat, move.to_string(),
                                     "m" + std::to_string(version), unix_now_ms(), MovedBy::player},
                          [](Written) {});
    }
}

}  // namespace

void create_dormant_tables(const std::string& database, int count, int moves) {
    using namespace gcor::server;
    auto store = open_sqlite_store({.path = database, .group_commit_ms = 2});
    protocol::TableSettings settings;
    settings.options.players = kSeats;
    settings.is_public = false;
    const std::string settings_text = protocol::table_settings_json(settings).dump();
    const auto rules = engine::Rules::make(settings.options);
    std::vector<StoredUser> users;
    for (int s = 0; s < kSeats; ++s)
        users.push_back(store->create_guest("dormant" + std::to_string(s)));
    for (int i = 0; i < count; ++i) {
        StoredTable table;
        table.id = dormant_table_id(static_cast<std::size_t>(i));
        table.created = unix_now_ms();
        table.settings = settings_text;
        table.players = kSeats;
        table.rules = "yucata";
        table.is_public = false;
        table.seed = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(i + 1);
        table.nonce = std::string(32, 'a');
        table.commitment = std::string(64, 'c');
        table.status = TableStatus::playing;
        table.to_act = 0;
        for (const StoredUser& user : users) {
            StoredSeat seat;
            seat.kind = SeatKind::human;
            seat.user = user.id;
            seat.name = user.name;
            table.seats.push_back(seat);
        }
        store->save_table(table, [](Written) {});
        store_random_moves(*store, table, *rules, moves);
    }
    store->flush();
}

Json run_dormant(const Options& options, Json report) {
    const std::string dir = make_temp_dir();
    const std::string database = dir + "/cor.db";
    const auto made = Clock::now();
    create_dormant_tables(database, options.dormant_tables, 0);
    report["tables"] = options.dormant_tables;
    report["create_s"] = std::chrono::duration<double>(Clock::now() - made).count();
    report["database_bytes"] = std::filesystem::file_size(database);

    // The server started on an empty database, then on the one with the tables.
    auto settled_rss = [](pid_t pid) {
        std::this_thread::sleep_for(1s);
        return gcor::bench::sample_process(pid).rss_kb;
    };
    long empty_rss = 0;
    {
        ChildServer server(cor_server_command(options, dir, dir + "/empty.db"), dir);
        empty_rss = settled_rss(server.pid());
    }
    ChildServer server(cor_server_command(options, dir, database), dir);
    const long dormant_rss = settled_rss(server.pid());
    report["server"] = {{"rss_kb_empty_database", empty_rss}, {"rss_kb_dormant", dormant_rss}};

    // A spectator watches some of them: each is loaded from the store (and stays in memory).
    Shared shared;
    net::io_context io(1);
    Connection watcher(io, shared);
    const int touch = std::min(options.dormant_touch, options.dormant_tables);
    int snapshots = 0;
    int problems = 0;
    int next = 0;
    auto watch_next = [&] {
        watcher.send(
            Out{{"type", "watch"}, {"table", dormant_table_id(static_cast<std::size_t>(next++))}}
                .dump());
    };
    watcher.open(
        tcp::endpoint(net::ip::make_address("127.0.0.1"),
                      static_cast<std::uint16_t>(server.port())),
        [&](bool ok) {
            if (!ok) return io.stop();
            watcher.send(Out{{"type", "hello"}, {"name", "watcher"}}.dump());
        },
        [&](std::string_view text, Clock::time_point) {
            const auto type = gcor::bench::message_type(text);
            if (type == "snapshot")
                ++snapshots;
            else if (type != "welcome")
                ++problems;
            if (snapshots + problems >= touch) return io.stop();
            if (type == "welcome" || type == "snapshot") watch_next();
        });
    std::thread stopper([&] {
        for (int i = 0; i < 1200 && !io.stopped(); ++i)
            std::this_thread::sleep_for(100ms);
        io.stop();
    });
    if (touch > 0) io.run();
    stopper.join();
    const long touched_rss = gcor::bench::sample_process(server.pid()).rss_kb;
    shared.stopping = true;
    report["server"]["watched"] = snapshots;
    report["server"]["rss_kb_after_watching"] = touched_rss;
    if (snapshots > 0)
        report["server"]["rss_bytes_per_loaded_table"] =
            static_cast<double>(touched_rss - dormant_rss) * 1024.0 / snapshots;
    report["load_average"] = load_average();
    report["ok"] = snapshots == touch && problems == 0 && dormant_rss > 0;
    server.stop();
    std::filesystem::remove_all(dir);
    return report;
}

}  // namespace gcor::loadgen
