// Mode idle: many connections that only say hello, held open; the server's memory per connection.
#include <algorithm>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "loadgen/connection.hpp"
#include "loadgen/modes.hpp"

namespace gcor::loadgen {

// Opens `connections` WebSockets that only say hello, and holds them.
Json run_idle(const Options& options, const Target& target, Json report) {
    const pid_t pid = target.first().pid;
    Shared shared;
    net::io_context io(1);
    std::vector<std::unique_ptr<Connection>> connections;
    std::size_t welcomed = 0;
    std::size_t opened = 0;
    std::size_t next = 0;
    const std::size_t total = static_cast<std::size_t>(options.connections);
    const std::size_t baseline_at = std::min<std::size_t>(100, total / 10);
    gcor::bench::ProcessSample baseline;
    std::size_t problems = 0;
    // At most kHandshakes at once: the listen backlog stays short. The first baseline_at
    // connections are opened alone.
    constexpr std::size_t kHandshakes = 256;
    std::function<void()> open_next = [&] {
        if (next >= total) return;
        const std::size_t i = next++;
        connections.push_back(std::make_unique<Connection>(io, shared));
        Connection& connection = *connections.back();
        connection.open(
            target.first().endpoint,
            [&, i](bool ok) {
                if (!ok) {
                    ++problems;
                    if (welcomed + problems == total) return io.stop();
                    return open_next();
                }
                ++opened;
                connections[i]->send(
                    Out{{"type", "hello"}, {"name", "idle" + std::to_string(i)}}.dump());
            },
            [&](std::string_view text, Clock::time_point) {
                if (gcor::bench::message_type(text) != "welcome") {
                    ++problems;
                    return;
                }
                if (++welcomed == baseline_at) {
                    // Taken with no handshake in flight: their passing memory, counted in the
                    // baseline and then reused, would make the figure per connection look smaller.
                    if (pid) baseline = gcor::bench::sample_process(pid);
                    for (std::size_t more = 0; more < kHandshakes; ++more)
                        open_next();
                } else if (welcomed > baseline_at) {
                    open_next();
                }
                if (welcomed + problems >= total) io.stop();
            });
    };
    const auto start = Clock::now();
    const auto before = pid ? gcor::bench::sample_process(pid) : gcor::bench::ProcessSample{};
    for (std::size_t i = 0; i < (baseline_at > 0 ? baseline_at : kHandshakes); ++i)
        open_next();
    std::thread stopper([&] {
        // Gives up if the connections are not all open within a few minutes.
        for (int i = 0; i < 3000 && !io.stopped(); ++i)
            std::this_thread::sleep_for(100ms);
        io.stop();
    });
    io.run();
    stopper.join();
    const double opening = std::chrono::duration<double>(Clock::now() - start).count();
    const auto all_open = pid ? gcor::bench::sample_process(pid) : gcor::bench::ProcessSample{};
    // Hold them: the server pings idle connections, the pending reads answer.
    io.restart();
    net::steady_timer hold(io);
    hold.expires_after(std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.seconds)));
    hold.async_wait([&](beast::error_code) { io.stop(); });
    io.run();
    const auto held = pid ? gcor::bench::sample_process(pid) : gcor::bench::ProcessSample{};
    std::size_t still_open = 0;
    for (const auto& connection : connections)
        if (connection->is_open()) ++still_open;
    shared.stopping = true;

    report["connections"] = total;
    report["welcomed"] = welcomed;
    report["still_open"] = still_open;
    report["problems"] = problems;
    report["open_s"] = opening;
    report["held_s"] = options.seconds;
    if (all_open.ok) {
        const double per = welcomed > baseline_at
                               ? static_cast<double>(all_open.rss_kb - baseline.rss_kb) * 1024.0 /
                                     static_cast<double>(welcomed - baseline_at)
                               : 0;
        report["server"] = {
            {"rss_kb_before", before.rss_kb},      {"rss_kb_baseline", baseline.rss_kb},
            {"baseline_connections", baseline_at}, {"rss_kb_all_open", all_open.rss_kb},
            {"rss_kb_after_hold", held.rss_kb},    {"rss_bytes_per_connection", per}};
    }
    report["load_average"] = load_average();
    report["ok"] = welcomed == total && still_open == total && problems == 0;
    return report;
}

}  // namespace gcor::loadgen
