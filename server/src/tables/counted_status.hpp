#pragma once
// A table's status (waiting, playing, finished), counted in the metrics' gauges of the tables in
// memory by status for as long as the table lives: made waiting, moved from gauge to gauge as it
// changes, taken off when the table goes. It reads as the status it holds. A value on the
// table's strand; the gauges are atomics that /metrics reads from any thread.
#include <atomic>
#include <cstdint>

#include "gcor/store/store.hpp"
#include "metrics.hpp"

namespace gcor::server {

class CountedStatus {
  public:
    // `metrics` outlives the tables that the io_context still holds at shutdown.
    explicit CountedStatus(Metrics& metrics) : metrics_(metrics) { gauge(status_).fetch_add(1); }
    ~CountedStatus() { gauge(status_).fetch_sub(1); }
    CountedStatus(const CountedStatus&) = delete;
    CountedStatus& operator=(const CountedStatus&) = delete;

    operator TableStatus() const { return status_; }
    void set(TableStatus status) {
        gauge(status_).fetch_sub(1);
        gauge(status).fetch_add(1);
        status_ = status;
    }

  private:
    std::atomic<std::int64_t>& gauge(TableStatus status) const {
        return status == TableStatus::waiting   ? metrics_.tables_waiting
               : status == TableStatus::playing ? metrics_.tables_playing
                                                : metrics_.tables_finished;
    }

    Metrics& metrics_;
    TableStatus status_ = TableStatus::waiting;
};

}  // namespace gcor::server
