// The report's summary line for people.
#include <cstdio>
#include <string>

#include "loadgen/modes.hpp"

namespace gcor::loadgen {

namespace {

// "p50 <= 1 ms, p99 <= 5 ms, p99.9 <= 10 ms" from a histogram's percentiles as bucket bounds.
std::string bucket_bounds(const Json& percentiles) {
    auto bound = [](const Json& ms) {
        if (ms.is_null()) return std::string("above the last bucket");
        char text[32];
        std::snprintf(text, sizeof text, "<= %g ms", ms.get<double>());
        return std::string(text);
    };
    return "p50 " + bound(percentiles["p50_at_most"]) + ", p99 " +
           bound(percentiles["p99_at_most"]) + ", p99.9 " + bound(percentiles["p999_at_most"]);
}

}  // namespace

void print_summary(const Json& report) {
    const std::string mode = report["mode"];
    std::printf("%s: ", mode.c_str());
    if (mode == "game" || mode == "calibration") {
        std::printf(
            "%.0f moves/s (%s loop, %d tables), latency to the last seat p50 %.2f ms, p99 "
            "%.2f ms, p99.9 %.2f ms, max %.2f ms; patch median %d B/seat",
            report["moves_per_s"].get<double>(), report["loop"].get<std::string>().c_str(),
            report["tables"].get<int>(), report["latency_ms"]["p50"].get<double>(),
            report["latency_ms"]["p99"].get<double>(), report["latency_ms"]["p999"].get<double>(),
            report["latency_ms"]["max"].get<double>(), report["patch_bytes"]["median"].get<int>());
        if (report.contains("patch_operation_bytes"))
            std::printf(" (its operations %d B)",
                        report["patch_operation_bytes"]["median"].get<int>());
        if (report.contains("server")) {
            const Json& server = report["server"];
            std::printf("; server %.1f µs CPU/move (", server["cpu_us_per_move"].get<double>());
            const char* separator = "";
            for (const auto& [thread, us] : server["cpu_us_per_move_by_thread"].items()) {
                std::printf("%s%s %.1f", separator, thread.c_str(), us.get<double>());
                separator = ", ";
            }
            std::printf("), %.2f cores, RSS %ld KiB", server["cpu_cores"].get<double>(),
                        server["rss_kb"].get<long>());
        }
        std::printf("; load generator %.1f µs CPU/move",
                    report["loadgen_cpu_us_per_move"].get<double>());
        if (report.contains("server_move_ms"))
            std::printf("; server's own time per move %s",
                        bucket_bounds(report["server_move_ms"]).c_str());
        if (report.contains("server_commit_ms"))
            std::printf("; its store's commits %s",
                        bucket_bounds(report["server_commit_ms"]).c_str());
        if (report.contains("nodes")) {
            std::printf("; %zu nodes (ports", report["nodes"].size());
            for (const auto& node : report["nodes"])
                std::printf(" %d", node["port"].get<int>());
            std::printf("), spread %s", report["spread"].get<std::string>().c_str());
        }
        if (report.contains("nodes") || report.value("reconnects", 0) > 0)
            std::printf("; %llu reconnects, longest stall %.0f ms",
                        report["reconnects"].get<unsigned long long>(),
                        report["longest_stall_ms"].get<double>());
        if (mode == "game")
            std::printf("; %llu games, %llu invalid, %llu errors",
                        report["games"].get<unsigned long long>(),
                        report["invalid_games"].get<unsigned long long>(),
                        report["errors"].get<unsigned long long>());
    } else if (mode == "idle") {
        std::printf("%zu of %zu connections open after %.0f s",
                    report["still_open"].get<std::size_t>(),
                    report["connections"].get<std::size_t>(), report["held_s"].get<double>());
        if (report.contains("server"))
            std::printf("; server RSS %ld KiB, %.0f B per connection",
                        report["server"]["rss_kb_all_open"].get<long>(),
                        report["server"]["rss_bytes_per_connection"].get<double>());
    } else if (mode == "dormant") {
        std::printf(
            "%d stored tables; server RSS %ld KiB (empty database: %ld KiB), %ld KiB after "
            "watching %d",
            report["tables"].get<int>(), report["server"]["rss_kb_dormant"].get<long>(),
            report["server"]["rss_kb_empty_database"].get<long>(),
            report["server"]["rss_kb_after_watching"].get<long>(),
            report["server"]["watched"].get<int>());
    } else if (mode == "lobby") {
        std::printf(
            "%d stored tables loaded by %d clients in %.2f s; list_tables meanwhile: %llu round "
            "trips, p50 %.2f ms, p99 %.2f ms, max %.2f ms",
            report["loaded"].get<int>(), report["watchers"].get<int>(),
            report["load_all_s"].get<double>(),
            static_cast<unsigned long long>(report["lobby"]["round_trips"].get<std::uint64_t>()),
            report["lobby"]["p50_ms"].get<double>(), report["lobby"]["p99_ms"].get<double>(),
            report["lobby"]["max_ms"].get<double>());
    }
    std::printf(" [%s]\n", report["ok"].get<bool>() ? "ok" : "FAILED");
    if (report.contains("problems") && report["problems"].is_array())
        for (const auto& problem : report["problems"])
            std::printf("  problem: %s\n", problem.get<std::string>().c_str());
}

}  // namespace gcor::loadgen
