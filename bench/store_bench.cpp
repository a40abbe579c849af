// The store's durability path: how many moves commit per second, and how long a move waits for
// its commit, with group commit on and off. Each table queues its next move only when its previous
// move's Done has arrived, as the server's tables do. Run: build/release/bench/gcor-store-bench.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gcor/store/sqlite_store.hpp"
#include "gcor/store/store.hpp"

namespace {

using namespace gcor::server;
using Clock = std::chrono::steady_clock;

struct Mode {
    const char* name;
    bool group_commits;
    int group_commit_ms;
};

struct Result {
    std::size_t moves = 0;
    std::size_t failures = 0;
    double seconds = 0;
    std::vector<double> latencies_ms;  // from queueing a move to its Done
};

// A 4-player table as the server saves it: 4 seats, a few hundred bytes of settings.
StoredTable make_table(std::size_t index) {
    StoredTable table;
    table.id = "bench-" + std::to_string(index);
    table.created = unix_now_ms();
    table.settings =
        R"({"options":{"players":4,"rules":"yucata","shrine":true},"public":true,)"
        R"("spectators":true,"time":{"base_ms":600000,"increment_ms":10000},"timeout":"bot"})";
    table.players = 4;
    table.rules = "yucata";
    table.seed = 0x9e3779b97f4a7c15ULL * (index + 1);
    table.nonce = std::string(32, 'a');
    table.commitment = std::string(64, 'c');
    table.status = TableStatus::playing;
    for (int seat = 0; seat < 4; ++seat)
        table.seats.push_back(
            {SeatKind::bot, 0, "Greedy " + std::to_string(seat), "greedy", false});
    return table;
}

// Tables moving in a closed loop until stop(). A Done only queues the table's next move, which
// does not wait: what the contract asks of a Done.
class ClosedLoop {
  public:
    ClosedLoop(Store& store, std::size_t tables) : store_(store), queued_(tables) {
        for (std::size_t i = 0; i < tables; ++i)
            tables_.push_back(make_table(i));
    }

    void create_tables() {
        for (const StoredTable& table : tables_)
            store_.save_table(table, [](Written) {});
        store_.flush();
    }
    void start() {
        for (std::size_t i = 0; i < tables_.size(); ++i)
            append(i);
    }
    void stop() { stopping_ = true; }
    // Once the store is closed.
    Result& result() { return result_; }

  private:
    void append(std::size_t i) {
        StoredTable& table = tables_[i];
        ++table.version;
        table.to_act = static_cast<int>(table.version % 4);
        table.deadline = unix_now_ms() + 600'000;
        const StoredMove move{table.version,
                              static_cast<int>((table.version - 1) % 4),
                              "draft " + std::to_string(table.version % 50),
                              "m-" + table.id,
                              unix_now_ms(),
                              MovedBy::player};
        queued_[i] = Clock::now();
        store_.append_move(progress_of(table), move,
                           [this, i](Written written) { done(i, written == Written::committed); });
    }

    // On the store's thread.
    void done(std::size_t i, bool ok) {
        const std::chrono::duration<double, std::milli> waited = Clock::now() - queued_[i];
        result_.latencies_ms.push_back(waited.count());
        ++result_.moves;
        if (!ok) ++result_.failures;
        if (!stopping_) append(i);
    }

    Store& store_;
    std::vector<StoredTable> tables_;
    std::vector<Clock::time_point> queued_;
    Result result_;  // the store's thread only, until the store is closed
    std::atomic<bool> stopping_{false};
};

void remove_database(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
}

Result run(const std::string& path, const Mode& mode, std::size_t tables, double seconds) {
    remove_database(path);
    auto store = open_sqlite_store({.path = path,
                                    .group_commit_ms = mode.group_commit_ms,
                                    .group_commits = mode.group_commits});
    ClosedLoop loop(*store, tables);
    loop.create_tables();
    const auto start = Clock::now();
    loop.start();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    loop.stop();
    store.reset();  // commits what is queued and calls its Dones
    Result result = std::move(loop.result());
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    remove_database(path);
    return result;
}

double percentile(std::vector<double>& values, double fraction) {
    if (values.empty()) return 0;
    const auto rank = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank),
                     values.end());
    return values[rank];
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"gcor-store-bench: moves committed per second by the SQLite store"};
    std::size_t tables = 400;
    double seconds = 3;
    std::string path = (std::filesystem::temp_directory_path() / "gcor-store-bench.db").string();
    bool smoke = false;
    app.add_option("--tables", tables, "Tables moving at once")
        ->check(CLI::Range(std::size_t{1}, std::size_t{100'000}))
        ->capture_default_str();
    app.add_option("--seconds", seconds, "Seconds of each mode")
        ->check(CLI::Range(0.1, 600.0))
        ->capture_default_str();
    app.add_option("--path", path, "Database file (replaced, then removed)")->capture_default_str();
    app.add_flag("--smoke", smoke, "About one second in all, for CI: 50 tables, 0.3 s a mode");
    CLI11_PARSE(app, argc, argv);
    if (smoke) {
        tables = 50;
        seconds = 0.3;
    }

    const Mode modes[] = {{"group commit, 2 ms window", true, 2},
                          {"group commit, no window", true, 0},
                          {"one transaction per move", false, 0}};
    std::printf("%zu tables, %.1f s a mode, %s\n", tables, seconds, path.c_str());
    std::printf("| mode | moves/s | p50 commit ms | p99 commit ms |\n|---|---|---|---|\n");
    for (const Mode& mode : modes) {
        Result result = run(path, mode, tables, seconds);
        if (result.failures != 0) {
            std::fprintf(stderr, "%zu moves failed\n", result.failures);
            return 1;
        }
        std::printf("| %s | %.0f | %.2f | %.2f |\n", mode.name,
                    static_cast<double>(result.moves) / result.seconds,
                    percentile(result.latencies_ms, 0.50), percentile(result.latencies_ms, 0.99));
        std::fflush(stdout);
    }
    return 0;
}
