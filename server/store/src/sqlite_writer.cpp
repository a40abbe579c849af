#include "sqlite_writer.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <cstdint>
#include <exception>
#include <future>
#include <memory>
#include <utility>

namespace gcor::server {

namespace {

// How often a failing store with nothing to write tries a write, to learn that the disk is back.
constexpr auto kProbeEvery = std::chrono::seconds(5);
// With less free space than this, the log is checkpointed every kLowSpaceCheckpointPages instead
// (1 MiB: more checkpoints, slower moves), so that the log cannot take the room the database
// needs to grow into; with twice as much free again, back to kCheckpointPages.
constexpr std::uintmax_t kLowSpaceBytes = 64u << 20;
constexpr int kLowSpaceCheckpointPages = 256;
constexpr auto kSpaceCheckEvery = std::chrono::seconds(1);

void run_statement(SQLite::Statement& statement) {
    statement.tryReset();
    statement.exec();
}

}  // namespace

SqliteWriter::SqliteWriter(SQLite::Database& db, const SqliteOptions& options, Apply probe)
    : db_(db),
      options_(options),
      probe_(std::move(probe)),
      begin_(db_, "BEGIN IMMEDIATE"),
      commit_(db_, "COMMIT"),
      rollback_(db_, "ROLLBACK"),
      folder_(std::filesystem::absolute(std::filesystem::path(options.path)).parent_path()),
      thread_([this] { run(); }) {}

SqliteWriter::~SqliteWriter() {
    {
        std::lock_guard lock(queue_mutex_);
        stopping_ = true;
    }
    queue_changed_.notify_one();
    thread_.join();
}

void SqliteWriter::enqueue(Apply apply, Store::Done done) {
    bool was_empty = false;
    {
        std::lock_guard lock(queue_mutex_);
        was_empty = queue_.empty();
        if (was_empty) first_queued_ = std::chrono::steady_clock::now();
        queue_.push_back({std::move(apply), std::move(done)});
    }
    if (was_empty) queue_changed_.notify_one();
}

bool SqliteWriter::write_and_wait(Apply apply) {
    auto committed = std::make_shared<std::promise<bool>>();
    std::future<bool> result = committed->get_future();
    enqueue(std::move(apply), [committed](bool ok) { committed->set_value(ok); });
    return result.get();
}

bool SqliteWriter::flush() {
    return write_and_wait([] {});
}

void SqliteWriter::run() {
    pthread_setname_np(pthread_self(), "gcor-writer");  // for top -H, perf and strace
    std::vector<Write> writes;
    for (;;) {
        {
            std::unique_lock lock(queue_mutex_);
            const auto ready = [this] { return stopping_ || !queue_.empty(); };
            if (!failing_) {
                queue_changed_.wait(lock, ready);
            } else if (!queue_changed_.wait_for(lock, kProbeEvery, ready)) {
                // Failing, and no write came to find out whether the disk is back.
                lock.unlock();
                probe();
                continue;
            }
            if (queue_.empty()) return;  // stopping, and everything queued is written
            if (options_.group_commits && options_.group_commit_ms > 0) {
                // Gather what arrives within the window the first queued write opened.
                const auto until =
                    first_queued_ + std::chrono::milliseconds(options_.group_commit_ms);
                queue_changed_.wait_until(lock, until, [this] { return stopping_; });
            }
            writes.swap(queue_);
        }
        if (options_.group_commits && writes.size() > 1 && commit(writes)) {
            for (Write& write : writes)
                write.done(true);
        } else {
            // Ungrouped, alone, or in a group that failed: one transaction each, so that a bad
            // write fails only itself.
            for (Write& write : writes)
                write.done(commit({&write, 1}));
        }
        writes.clear();
    }
}

// Commits `writes` in one transaction. On a full disk, a write-ahead log that holds most of the
// free space is emptied into the database (a TRUNCATE checkpoint) and the transaction is tried
// once more: otherwise a disk smaller than the log's checkpoint interval would stop every write
// for good.
bool SqliteWriter::commit(std::span<Write> writes) {
    const auto start = std::chrono::steady_clock::now();
    std::string error;
    bool disk_full = false;
    bool ok = try_commit(writes, error, disk_full);
    if (!ok && disk_full && checkpoint()) ok = try_commit(writes, error, disk_full);
    if (!ok) {
        spdlog::error("store: a transaction of {} writes failed: {}", writes.size(), error);
        failing_ = true;
        if (options_.on_failure) options_.on_failure(error);
        return false;
    }
    failing_ = false;
    adapt_to_free_space();
    // Outside the try: what the observer does cannot turn a commit into a failure.
    if (options_.on_commit)
        options_.on_commit(std::chrono::steady_clock::now() - start, writes.size());
    return true;
}

bool SqliteWriter::try_commit(std::span<Write> writes, std::string& error, bool& disk_full) {
    try {
        run_statement(begin_);
        try {
            for (Write& write : writes)
                write.apply();
            run_statement(commit_);
        } catch (...) {
            rollback();
            throw;
        }
        return true;
    } catch (const SQLite::Exception& failure) {
        disk_full = failure.getErrorCode() == SQLITE_FULL;
        error = failure.what();
    } catch (const std::exception& failure) {
        disk_full = false;
        error = failure.what();
    }
    return false;
}

// Copies the write-ahead log into the database and empties the log file; false when it could not
// (a reader in the way, or no room for the database to grow).
bool SqliteWriter::checkpoint() noexcept {
    try {
        SQLite::Statement truncate(db_, "PRAGMA wal_checkpoint(TRUNCATE)");
        return truncate.executeStep() && truncate.getColumn(0).getInt() == 0;
    } catch (const std::exception& error) {
        spdlog::warn("store: a checkpoint to make room failed: {}", error.what());
        return false;
    }
}

// Checks the free space (at most once a second) and sizes the log's checkpoints to it.
void SqliteWriter::adapt_to_free_space() {
    const auto now = std::chrono::steady_clock::now();
    if (now - space_checked_ < kSpaceCheckEvery) return;
    space_checked_ = now;
    std::error_code failed;
    const auto space = std::filesystem::space(folder_, failed);
    if (failed) return;
    const bool low =
        low_space_ ? space.available < 2 * kLowSpaceBytes : space.available < kLowSpaceBytes;
    if (low == low_space_) return;
    low_space_ = low;
    try {
        db_.exec("PRAGMA wal_autocheckpoint = " +
                 std::to_string(low ? kLowSpaceCheckpointPages : kCheckpointPages));
        if (low) checkpoint();  // give back the room the longer log took
        spdlog::warn("store: {} MiB free: the write-ahead log is checkpointed every {} pages",
                     space.available >> 20, low ? kLowSpaceCheckpointPages : kCheckpointPages);
    } catch (const std::exception& error) {
        spdlog::warn("store: cannot resize the write-ahead log: {}", error.what());
    }
}

// While failing with nothing to write: a checkpoint and the probe write (a real transaction,
// with its sync), so that health reports the disk's return.
void SqliteWriter::probe() {
    Write write{probe_, [](bool) {}};
    checkpoint();
    if (commit({&write, 1})) spdlog::info("store: writing works again");
}

void SqliteWriter::rollback() noexcept {
    try {
        run_statement(rollback_);
    } catch (const std::exception&) {
        // A failed COMMIT may have ended the transaction already: nothing left to undo.
    }
}

}  // namespace gcor::server
