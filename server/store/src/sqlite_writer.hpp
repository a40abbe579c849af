#pragma once
// The SQLite store's group-commit writer: the generic GroupWriter with SQLite's transactions, and
// what SQLite needs to keep writing on a full disk (its write-ahead log checkpointed to make room).
#include <SQLiteCpp/SQLiteCpp.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>

#include "gcor/store/store.hpp"
#include "group_writer.hpp"

namespace gcor::server {

// The write-ahead log's checkpoint interval in pages, as open_writer sets it and as the writer
// restores it when the disk has room again.
constexpr int kCheckpointPages = 4000;

// SQLite's side of the writer: BEGIN IMMEDIATE ... COMMIT on the writer's connection.
class SqliteTransactions final : public WriterBackend {
  public:
    SqliteTransactions(SQLite::Database& db, const std::string& path, GroupWriter::Apply probe);

    void transact(const std::function<void()>& body) override;
    // On a full disk, a write-ahead log that holds most of the free space is emptied into the
    // database (a TRUNCATE checkpoint) and the transaction is tried once more: otherwise a disk
    // smaller than the log's checkpoint interval would stop every write for good. A checkpoint that
    // made no room is not tried again for a second, so that the writes behind it fail fast.
    bool recovered_from(const std::exception& failure) override;
    void committed() override { adapt_to_free_space(); }
    void before_probe() override { checkpoint(); }
    void probe_write() override { probe_(); }

  private:
    bool checkpoint() noexcept;
    void wait_for_locks(int milliseconds) noexcept;
    void adapt_to_free_space();
    void rollback() noexcept;

    SQLite::Database& db_;
    const GroupWriter::Apply probe_;
    // BEGIN, COMMIT and ROLLBACK are prepared once: sqlite3_exec would parse them at every commit.
    SQLite::Statement begin_;
    SQLite::Statement commit_;
    SQLite::Statement rollback_;
    bool low_space_ = false;  // checkpointing every kLowSpaceCheckpointPages
    std::chrono::steady_clock::time_point space_checked_{};
    std::chrono::steady_clock::time_point checkpoint_failed_{};  // the last that made no room
    const std::filesystem::path folder_;
};

class SqliteWriter {
  public:
    using Apply = GroupWriter::Apply;

    // Starts the thread gcor-writer, which alone uses `db` from then on. `probe` is a small real
    // write, tried every 5 seconds while failing with nothing queued, to learn that the disk is
    // back. `options` gives the grouping window and the observers (on_commit, on_failure).
    SqliteWriter(SQLite::Database& db, const SqliteOptions& options, Apply probe);

    // Queues `apply`; `done` runs on the writer thread once its transaction committed or failed.
    void enqueue(Apply apply, Store::TableDone done) {
        writer_.enqueue(std::move(apply), std::move(done));
    }
    void enqueue(Apply apply, Store::Done done) {
        writer_.enqueue(std::move(apply), std::move(done));
    }
    // Queues `apply` and waits until its transaction ended: true when it committed.
    bool write_and_wait(Apply apply) { return writer_.write_and_wait(std::move(apply)); }
    // Waits until everything queued before has been written: true when the last commit worked.
    bool flush() { return writer_.flush(); }

  private:
    SqliteTransactions transactions_;
    GroupWriter writer_;  // last: its thread starts once the transactions exist
};

}  // namespace gcor::server
