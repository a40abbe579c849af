// Modes game and calibration: tables on worker threads, measured after a warm-up.
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/beast/http.hpp>

#include "loadgen/modes.hpp"
#include "loadgen/table_driver.hpp"

namespace gcor::loadgen {
namespace {

namespace http = beast::http;

// GET /metrics of the server under test; empty when it does not answer within 5 s.
std::string server_metrics(const tcp::endpoint& endpoint) {
    net::io_context io;
    beast::tcp_stream stream(io);
    http::request<http::empty_body> request{http::verb::get, "/metrics", 11};
    request.set(http::field::host, "127.0.0.1");
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    bool answered = false;
    stream.async_connect(endpoint, [&](beast::error_code error) {
        if (error) return;
        http::async_write(stream, request, [&](beast::error_code write_error, std::size_t) {
            if (write_error) return;
            http::async_read(stream, buffer, response,
                             [&](beast::error_code read_error, std::size_t) {
                                 answered = !read_error && response.result() == http::status::ok;
                             });
        });
    });
    io.run_for(5s);
    return answered ? std::move(response.body()) : std::string();
}

// The server's own histograms over the measured seconds: its time per move
// (gcor_move_seconds: a move's arrival at its table until its patches are queued, the commit
// included) and its store's commits (gcor_store_commit_seconds: BEGIN to the end of COMMIT, the
// sync included), which tells the disk's share of the former.
struct ServerHistograms {
    gcor::bench::BucketCounts moves;
    gcor::bench::BucketCounts commits;

    static ServerHistograms read(const std::string& metrics) {
        return {gcor::bench::read_histogram(metrics, "gcor_move_seconds"),
                gcor::bench::read_histogram(metrics, "gcor_store_commit_seconds")};
    }
    ServerHistograms since(const ServerHistograms& earlier) const {
        return {moves.since(earlier.moves), commits.since(earlier.commits)};
    }
    void add(const ServerHistograms& other) {
        moves.add(other.moves);
        commits.add(other.commits);
    }
};

// A histogram's percentiles as the bounds of the buckets that hold them; null when above the
// last bound.
Json bucket_percentiles(const gcor::bench::BucketCounts& measured) {
    auto ms = [&](double fraction) {
        const double bound = measured.percentile_bound(fraction);
        return std::isinf(bound) ? Json(nullptr) : Json(bound * 1e3);
    };
    return {{"count", measured.count()},
            {"p50_at_most", ms(0.50)},
            {"p99_at_most", ms(0.99)},
            {"p999_at_most", ms(0.999)}};
}

}  // namespace

Json run_tables(const Options& options, const Target& target, Json report) {
    Shared shared;
    const int threads = std::max(1, std::min(options.threads, options.tables));
    std::vector<std::unique_ptr<net::io_context>> ios;
    std::vector<Tally> tallies(static_cast<std::size_t>(threads));
    std::vector<std::vector<std::unique_ptr<TableDriver>>> drivers(
        static_cast<std::size_t>(threads));
    Pacing pacing;
    if (options.rate > 0)
        pacing.interval = std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(options.tables / options.rate));
    for (int t = 0; t < threads; ++t)
        ios.push_back(std::make_unique<net::io_context>(1));
    std::vector<tcp::endpoint> endpoints;
    for (const Node& node : target.nodes)
        endpoints.push_back(node.endpoint);
    for (int i = 0; i < options.tables; ++i) {
        const auto t = static_cast<std::size_t>(i % threads);
        const auto index = static_cast<std::uint64_t>(i);
        if (options.mode == "calibration")
            drivers[t].push_back(
                make_calibration_table(*ios[t], shared, tallies[t], options, pacing, index));
        else
            drivers[t].push_back(
                make_game_table(*ios[t], shared, tallies[t], options, pacing, index));
        drivers[t].back()->start(endpoints, options.spread == "seats");
    }
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] { ios[static_cast<std::size_t>(t)]->run(); });

    const double load_before = load_average();
    std::this_thread::sleep_for(std::chrono::duration<double>(options.warmup));
    // The calibration server has no /metrics.
    const bool histogram = options.mode == "game";
    // Per node: a node that died meanwhile has no figures after (its moves are not counted).
    auto read_histograms = [&] {
        std::vector<ServerHistograms> read;
        for (const Node& node : target.nodes)
            read.push_back(histogram ? ServerHistograms::read(server_metrics(node.endpoint))
                                     : ServerHistograms{});
        return read;
    };
    auto sample_nodes = [&] {
        std::vector<gcor::bench::ProcessSample> samples;
        for (const Node& node : target.nodes)
            samples.push_back(node.pid ? gcor::bench::sample_process(node.pid)
                                       : gcor::bench::ProcessSample{});
        return samples;
    };
    const auto timed_before = read_histograms();
    const auto server_before = sample_nodes();
    rusage self_before{};
    getrusage(RUSAGE_SELF, &self_before);
    const auto started = Clock::now();
    shared.measure_start.store(started.time_since_epoch().count(), std::memory_order_relaxed);
    shared.measuring.store(true, std::memory_order_release);
    // A smoke run of games also goes on until a game is complete (at most a minute): under the
    // sanitizers a game takes several seconds.
    const auto planned = std::chrono::duration<double>(options.seconds);
    auto more = [&] {
        const auto measured = Clock::now() - started;
        return measured < planned ||
               (options.smoke && options.mode == "game" && shared.games == 0 && measured < 60s);
    };
    while (more())
        std::this_thread::sleep_for(20ms);
    shared.measuring = false;
    const auto ended = Clock::now();
    const double elapsed = std::chrono::duration<double>(ended - started).count();
    const auto server_after = sample_nodes();
    rusage self_after{};
    getrusage(RUSAGE_SELF, &self_after);
    const auto timed_after = read_histograms();
    ServerHistograms timed;
    for (std::size_t i = 0; i < target.nodes.size(); ++i)
        timed.add(timed_after[i].since(timed_before[i]));
    const double load_after = load_average();
    shared.stopping = true;
    for (auto& io : ios)
        io->stop();
    for (std::thread& worker : workers)
        worker.join();

    Tally total;
    for (const Tally& tally : tallies)
        total.merge(tally);
    // A table still waiting for a move at the end stalled until the end.
    for (const auto& thread_drivers : drivers)
        for (const auto& driver : thread_drivers)
            total.longest_stall =
                std::max(total.longest_stall, driver->stall_until(started, ended));
    const auto moves = shared.moves.load();
    auto cpu = [](const rusage& usage) {
        return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
               static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    };
    auto ms = [](std::uint64_t ns) { return static_cast<double>(ns) / 1e6; };
    report["tables"] = options.tables;
    report["connections"] = options.tables * kSeats;
    report["connected"] = shared.connected.load();
    report["failed_connections"] = shared.failed_connections.load();
    report["closed_by_server"] = shared.closed.load();
    report["loop"] = options.rate > 0 ? "fixed rate" : "closed";
    if (options.rate > 0) report["target_rate"] = options.rate;
    report["loadgen_threads"] = threads;
    report["warmup_s"] = options.warmup;
    report["seconds"] = elapsed;
    report["moves"] = moves;
    report["moves_per_s"] = static_cast<double>(moves) / elapsed;
    report["moves_all"] = total.moves;
    report["games"] = shared.games.load();
    report["invalid_games"] = total.invalid_games;
    report["errors"] = total.errors;
    if (options.verify) report["verified_patches"] = total.verified_patches;
    report["latency_ms"] = {{"p50", ms(total.latency.percentile(0.50))},
                            {"p90", ms(total.latency.percentile(0.90))},
                            {"p99", ms(total.latency.percentile(0.99))},
                            {"p999", ms(total.latency.percentile(0.999))},
                            {"max", ms(total.latency.max())},
                            {"mean", ms(static_cast<std::uint64_t>(total.latency.mean()))}};
    report["patch_bytes"] = {{"median", total.patch_bytes.percentile(0.5)},
                             {"p90", total.patch_bytes.percentile(0.9)},
                             {"mean", total.patch_bytes.mean()},
                             {"count", total.patch_bytes.count()}};
    if (total.operation_bytes.count() > 0)
        report["patch_operation_bytes"] = {{"median", total.operation_bytes.percentile(0.5)},
                                           {"p90", total.operation_bytes.percentile(0.9)}};
    // CPU and memory of each node, and their sum (over the nodes with both samples: a node
    // that died is left out).
    Json nodes = Json::array();
    double server_cpu = 0;
    std::map<std::string, double> server_cpu_by_thread;  // summed over the nodes, by name
    long rss_kb = 0;
    int nodes_sampled = 0;
    for (std::size_t i = 0; i < target.nodes.size(); ++i) {
        const Node& node = target.nodes[i];
        Json entry{{"port", node.endpoint.port()}, {"pid", node.pid}};
        if (server_before[i].ok && server_after[i].ok) {
            const double cpu_s = server_after[i].cpu_seconds - server_before[i].cpu_seconds;
            entry["cpu_s"] = cpu_s;
            entry["cpu_cores"] = cpu_s / elapsed;
            entry["rss_kb"] = server_after[i].rss_kb;
            server_cpu += cpu_s;
            for (const auto& [name, seconds] : server_after[i].cpu_seconds_by_thread) {
                const auto before = server_before[i].cpu_seconds_by_thread.find(name);
                server_cpu_by_thread[name] +=
                    seconds -
                    (before == server_before[i].cpu_seconds_by_thread.end() ? 0 : before->second);
            }
            rss_kb += server_after[i].rss_kb;
            ++nodes_sampled;
        }
        if (timed_after[i].moves.count() > 0)
            entry["server_move_ms"] =
                bucket_percentiles(timed_after[i].moves.since(timed_before[i].moves));
        nodes.push_back(std::move(entry));
    }
    const auto per_move_us = [moves](double seconds) {
        return moves ? seconds / static_cast<double>(moves) * 1e6 : 0;
    };
    if (nodes_sampled > 0) {
        // Where the server's CPU goes, thread by thread (the I/O threads under the server's
        // name, the store's writer as gcor-writer): on a machine whose cores the load generator
        // shares, this says what of a move is the network's, the game's and the store's.
        Json by_thread = Json::object();
        for (const auto& [name, seconds] : server_cpu_by_thread)
            if (seconds > 0) by_thread[name] = per_move_us(seconds);
        report["server"] = {{"cpu_s", server_cpu},
                            {"cpu_cores", server_cpu / elapsed},
                            {"cpu_us_per_move", per_move_us(server_cpu)},
                            {"cpu_us_per_move_by_thread", std::move(by_thread)},
                            {"rss_kb", rss_kb}};
        if (target.nodes.size() == 1)
            report["server"]["pid"] = target.first().pid;
        else
            report["server"]["nodes_sampled"] = nodes_sampled;
    }
    if (target.nodes.size() > 1) {
        report["nodes"] = nodes;
        report["spread"] = options.spread;
    }
    report["reconnects"] = shared.reconnects.load();
    report["resyncs"] = shared.resyncs.load();
    report["longest_stall_ms"] =
        std::chrono::duration<double, std::milli>(total.longest_stall).count();
    if (timed.moves.count() > 0) report["server_move_ms"] = bucket_percentiles(timed.moves);
    if (timed.commits.count() > 0) report["server_commit_ms"] = bucket_percentiles(timed.commits);
    const double self_cpu = cpu(self_after) - cpu(self_before);
    report["loadgen_cpu_cores"] = self_cpu / elapsed;
    report["loadgen_cpu_us_per_move"] = per_move_us(self_cpu);
    report["load_average"] = {{"before", load_before}, {"after", load_after}};
    report["problems"] = total.problems;
    report["ok"] =
        moves > 0 && total.invalid_games == 0 && total.errors == 0 &&
        shared.failed_connections == 0 &&
        (shared.closed == 0 || (target.nodes.size() > 1 && shared.reconnects == shared.closed)) &&
        (options.mode == "calibration" || !options.smoke ||
         (shared.games > 0 && timed.moves.count() > 0 && timed.commits.count() > 0));
    return report;
}

}  // namespace gcor::loadgen
