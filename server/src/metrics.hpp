#pragma once
// Counters for GET /metrics (Prometheus text format). Lock-free: any thread may count.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <string>

#include "gcor/protocol/messages.hpp"

namespace gcor::server {

// A Prometheus histogram of durations, in seconds, for any thread to observe.
class DurationHistogram {
  public:
    void observe(std::chrono::nanoseconds duration);
    // Its samples as `name_bucket{le=...}`, `name_sum` and `name_count` lines.
    void render(std::ostream& out, const char* name) const;

  private:
    // Bounds at the latency targets (p99 <= 2 ms, p99.9 <= 5 ms: docs/benchmarks.md), and
    // between them close enough to read a percentile off the buckets.
    static constexpr std::array<double, 15> kBuckets{0.00005, 0.0001, 0.00025, 0.0005, 0.00075,
                                                     0.001,   0.0015, 0.002,   0.003,  0.005,
                                                     0.0075,  0.01,   0.025,   0.05,   0.25};
    std::array<std::atomic<std::uint64_t>, kBuckets.size() + 1> buckets_{};
    std::atomic<std::uint64_t> count_{0};
    std::atomic<std::uint64_t> sum_ns_{0};
};

class Metrics {
  public:
    std::atomic<std::int64_t> connections{0};
    std::atomic<std::uint64_t> connections_total{0};
    // Connections waiting for a request (or draining), closed to let a new one in: the server was
    // full, or accept ran out of file descriptors.
    std::atomic<std::uint64_t> connections_evicted{0};
    std::atomic<std::int64_t> tables_waiting{0};
    std::atomic<std::int64_t> tables_playing{0};
    std::atomic<std::int64_t> tables_finished{0};
    std::atomic<std::uint64_t> moves{0};
    std::atomic<std::uint64_t> bytes_sent{0};
    std::atomic<std::uint64_t> messages_received{0};
    std::atomic<std::uint64_t> snapshots_for_slow_readers{0};
    std::atomic<std::uint64_t> store_writes{0};  // in committed transactions
    // Mails that left for the relay, were no longer wanted, or were given up.
    std::atomic<std::uint64_t> mails_sent{0};
    std::atomic<std::uint64_t> mails_dropped{0};
    std::atomic<std::uint64_t> mails_failed{0};
    // Game reviews computed and kept, or ended without a result (cancelled, or the server stopped).
    std::atomic<std::uint64_t> analyses_done{0};
    std::atomic<std::uint64_t> analyses_cancelled{0};
    // Exceptions caught by a handler's fence or the I/O loop's: each ended one piece of work.
    std::atomic<std::uint64_t> handler_failures{0};

    void count_error(protocol::ErrorCode code) {
        errors_[static_cast<std::size_t>(code)].fetch_add(1, std::memory_order_relaxed);
    }
    // Time from a move's arrival at its table to its patches being queued.
    DurationHistogram move_seconds;
    // Time from a store transaction's BEGIN to its COMMIT's return (the sync included).
    DurationHistogram store_commit_seconds;
    std::string render() const;

    // The store's health, for GET /healthz: failing from a failed transaction to the next commit.
    struct StorageHealth {
        bool failing = false;
        std::int64_t since_ms = 0;   // Unix time of the first failure in a row
        std::uint64_t failures = 0;  // transactions that failed, ever
        std::string error;           // SQLite's reason for the last failure
    };
    void storage_failed(std::string error);
    void storage_works();
    StorageHealth storage_health() const;

  private:
    std::atomic<bool> storage_failing_{false};  // read at every commit: no lock when all is well
    mutable std::mutex storage_mutex_;
    StorageHealth storage_;
    std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(protocol::kLastErrorCode) + 1>
        errors_{};
};

}  // namespace gcor::server
