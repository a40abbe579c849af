#pragma once
// The store's group-commit writer: one thread that runs queued writes against the writer
// connection, one transaction per group of writes, and tells each write whether it committed.
// It knows nothing of what the writes contain.
#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server {

// The write-ahead log's checkpoint interval in pages, as open_writer sets it and as the writer
// restores it when the disk has room again.
constexpr int kCheckpointPages = 4000;

class SqliteWriter {
  public:
    // Runs a write's statements inside the current transaction; throws on failure.
    using Apply = std::function<void()>;

    // Starts the thread gcor-writer, which alone uses `db` from then on. `probe` is a small real
    // write, tried every 5 seconds while failing with nothing queued, to learn that the disk is
    // back. `options` gives the grouping window and the observers (on_commit, on_failure).
    SqliteWriter(SQLite::Database& db, const SqliteOptions& options, Apply probe);
    // Writes everything queued, then stops the thread.
    ~SqliteWriter();
    SqliteWriter(const SqliteWriter&) = delete;
    SqliteWriter& operator=(const SqliteWriter&) = delete;

    // Queues `apply`; `done` runs on the writer thread once its transaction committed or failed.
    void enqueue(Apply apply, Store::Done done);
    // Queues `apply` and waits until its transaction ended: true when it committed.
    bool write_and_wait(Apply apply);
    // Waits until everything queued before has been written: true when the last commit worked.
    bool flush();

  private:
    struct Write {
        Apply apply;
        Store::Done done;
    };

    void run();
    bool commit(std::span<Write> writes);
    bool try_commit(std::span<Write> writes, std::string& error, bool& disk_full);
    bool checkpoint() noexcept;
    void adapt_to_free_space();
    void probe();
    void rollback() noexcept;

    SQLite::Database& db_;
    const SqliteOptions options_;
    const Apply probe_;
    // BEGIN, COMMIT and ROLLBACK are prepared once: sqlite3_exec would parse them at every commit.
    SQLite::Statement begin_;
    SQLite::Statement commit_;
    SQLite::Statement rollback_;

    std::mutex queue_mutex_;
    std::condition_variable queue_changed_;
    std::vector<Write> queue_;
    std::chrono::steady_clock::time_point first_queued_;  // of the oldest write in queue_
    bool stopping_ = false;
    // Writer thread only:
    bool failing_ = false;    // the last transaction failed
    bool low_space_ = false;  // checkpointing every kLowSpaceCheckpointPages
    std::chrono::steady_clock::time_point space_checked_{};
    const std::filesystem::path folder_;
    std::thread thread_;  // last: it starts once everything above exists
};

}  // namespace gcor::server
