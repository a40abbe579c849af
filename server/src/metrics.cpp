#include "metrics.hpp"

#include <algorithm>
#include <sstream>

namespace gcor::server {

void DurationHistogram::observe(std::chrono::nanoseconds duration) {
    const double seconds = std::chrono::duration<double>(duration).count();
    std::size_t bucket = 0;
    while (bucket < kBuckets.size() && seconds > kBuckets[bucket])
        ++bucket;
    buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
    count_.fetch_add(1, std::memory_order_relaxed);
    sum_ns_.fetch_add(static_cast<std::uint64_t>(std::max<std::int64_t>(0, duration.count())),
                      std::memory_order_relaxed);
}

void DurationHistogram::render(std::ostream& out, const char* name) const {
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
        cumulative += buckets_[i].load();
        out << name << "_bucket{le=\"" << kBuckets[i] << "\"} " << cumulative << '\n';
    }
    cumulative += buckets_[kBuckets.size()].load();
    out << name << "_bucket{le=\"+Inf\"} " << cumulative << '\n';
    out << name << "_sum " << static_cast<double>(sum_ns_.load()) / 1e9 << '\n';
    out << name << "_count " << count_.load() << '\n';
}

std::string Metrics::render() const {
    std::ostringstream out;
    auto metric = [&](const char* name, const char* type, const char* help) {
        out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
    };
    metric("gcor_connections", "gauge", "Open WebSocket connections.");
    out << "gcor_connections " << connections.load() << '\n';
    metric("gcor_connections_total", "counter", "WebSocket connections accepted.");
    out << "gcor_connections_total " << connections_total.load() << '\n';
    metric("gcor_connections_evicted_total", "counter",
           "Connections waiting for a request, closed to let a new one in (the server was full).");
    out << "gcor_connections_evicted_total " << connections_evicted.load() << '\n';
    metric("gcor_tables", "gauge", "Tables by state.");
    out << "gcor_tables{state=\"waiting\"} " << tables_waiting.load() << '\n';
    out << "gcor_tables{state=\"playing\"} " << tables_playing.load() << '\n';
    out << "gcor_tables{state=\"finished\"} " << tables_finished.load() << '\n';
    metric("gcor_moves_total", "counter", "Moves applied (players and bots).");
    out << "gcor_moves_total " << moves.load() << '\n';
    metric("gcor_messages_received_total", "counter", "WebSocket messages received.");
    out << "gcor_messages_received_total " << messages_received.load() << '\n';
    metric("gcor_bytes_sent_total", "counter", "WebSocket payload bytes queued for sending.");
    out << "gcor_bytes_sent_total " << bytes_sent.load() << '\n';
    metric("gcor_slow_reader_snapshots_total", "counter",
           "Snapshots sent instead of patches a slow reader missed.");
    out << "gcor_slow_reader_snapshots_total " << snapshots_for_slow_readers.load() << '\n';
    metric("gcor_handler_failures_total", "counter",
           "Exceptions that ended a connection's or a timer's work (each is logged: a bug).");
    out << "gcor_handler_failures_total " << handler_failures.load() << '\n';
    metric("gcor_mails_total", "counter",
           "Mails taken from the queue: sent to the relay, dropped (no longer wanted), or failed "
           "(given up after every attempt).");
    out << "gcor_mails_total{outcome=\"sent\"} " << mails_sent.load() << '\n';
    out << "gcor_mails_total{outcome=\"dropped\"} " << mails_dropped.load() << '\n';
    out << "gcor_mails_total{outcome=\"failed\"} " << mails_failed.load() << '\n';
    metric("gcor_analyses_total", "counter",
           "Game reviews computed by this process: done (kept in the store), or cancelled (ended "
           "without a result).");
    out << "gcor_analyses_total{outcome=\"done\"} " << analyses_done.load() << '\n';
    out << "gcor_analyses_total{outcome=\"cancelled\"} " << analyses_cancelled.load() << '\n';
    metric("gcor_errors_total", "counter", "Error replies by code.");
    for (std::size_t i = 0; i < errors_.size(); ++i)
        out << "gcor_errors_total{code=\""
            << protocol::error_id(static_cast<protocol::ErrorCode>(i)) << "\"} "
            << errors_[i].load() << '\n';
    metric("gcor_move_seconds", "histogram",
           "Time from a move's arrival at its table to its patches being queued.");
    move_seconds.render(out, "gcor_move_seconds");
    metric("gcor_store_commit_seconds", "histogram",
           "Time of each committed store transaction, from BEGIN to the end of COMMIT (the sync "
           "included).");
    store_commit_seconds.render(out, "gcor_store_commit_seconds");
    metric("gcor_store_writes_total", "counter",
           "Writes (a move, a table, a user...) in committed store transactions.");
    out << "gcor_store_writes_total " << store_writes.load() << '\n';
    const StorageHealth storage = storage_health();
    metric(
        "gcor_store_failures_total", "counter",
        "Store transactions that failed (a full disk, an I/O error): their changes were refused.");
    out << "gcor_store_failures_total " << storage.failures << '\n';
    metric("gcor_store_failing", "gauge",
           "1 from a failed store transaction to the next commit (GET /healthz answers 503).");
    out << "gcor_store_failing " << (storage.failing ? 1 : 0) << '\n';
    return out.str();
}

void Metrics::storage_failed(std::string error) {
    std::lock_guard lock(storage_mutex_);
    if (!storage_.failing)
        storage_.since_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    storage_.failing = true;
    ++storage_.failures;
    storage_.error = std::move(error);
    storage_failing_.store(true, std::memory_order_relaxed);
}

void Metrics::storage_works() {
    if (!storage_failing_.load(std::memory_order_relaxed)) return;
    std::lock_guard lock(storage_mutex_);
    storage_.failing = false;
    storage_failing_.store(false, std::memory_order_relaxed);
}

Metrics::StorageHealth Metrics::storage_health() const {
    std::lock_guard lock(storage_mutex_);
    return storage_;
}

}  // namespace gcor::server
