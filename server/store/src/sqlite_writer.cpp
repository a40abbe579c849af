#include "sqlite_writer.hpp"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <cstdint>
#include <utility>

#include "sqlite_support.hpp"

namespace gcor::server {

namespace {

// With less free space than this, the log is checkpointed every kLowSpaceCheckpointPages instead
// (1 MiB: more checkpoints, slower moves), so that the log cannot take the room the database
// needs to grow into; with twice as much free again, back to kCheckpointPages.
constexpr std::uintmax_t kLowSpaceBytes = 64u << 20;
constexpr int kLowSpaceCheckpointPages = 256;
constexpr auto kSpaceCheckEvery = std::chrono::seconds(1);
// A checkpoint that makes room waits this long for the readers in its way (the server's own reads
// take milliseconds; a backup tool may hold its snapshot for minutes) rather than the connection's
// kBusyTimeoutMs: a write behind it, and every request deferred behind that write, would wait too.
constexpr int kCheckpointWaitMs = 200;
// After such a checkpoint failed, the writes of the next second fail without trying it again.
constexpr auto kRetryCheckpointAfter = std::chrono::seconds(1);

void run_statement(SQLite::Statement& statement) {
    statement.tryReset();
    statement.exec();
}

GroupCommitOptions grouping_of(const SqliteOptions& options) {
    return {options.group_commit_ms, options.group_commits, options.on_commit, options.on_failure};
}

}  // namespace

SqliteTransactions::SqliteTransactions(SQLite::Database& db, const std::string& path,
                                       GroupWriter::Apply probe)
    : db_(db),
      probe_(std::move(probe)),
      begin_(db_, "BEGIN IMMEDIATE"),
      commit_(db_, "COMMIT"),
      rollback_(db_, "ROLLBACK"),
      folder_(std::filesystem::absolute(std::filesystem::path(path)).parent_path()) {}

void SqliteTransactions::transact(const std::function<void()>& body) {
    run_statement(begin_);
    try {
        body();
        run_statement(commit_);
    } catch (...) {
        rollback();
        throw;
    }
}

bool SqliteTransactions::recovered_from(const std::exception& failure) {
    const auto* sqlite = dynamic_cast<const SQLite::Exception*>(&failure);
    if (sqlite == nullptr || sqlite->getErrorCode() != SQLITE_FULL) return false;
    // A checkpoint that just failed would fail again: the write fails at once instead.
    const auto now = std::chrono::steady_clock::now();
    if (now - checkpoint_failed_ < kRetryCheckpointAfter) return false;
    if (checkpoint()) return true;
    checkpoint_failed_ = now;
    return false;
}

// Copies the write-ahead log into the database and empties the log file; false when it could not
// (a reader in the way for longer than kCheckpointWaitMs, or no room for the database to grow).
bool SqliteTransactions::checkpoint() noexcept {
    wait_for_locks(kCheckpointWaitMs);
    bool emptied = false;
    try {
        SQLite::Statement truncate(db_, "PRAGMA wal_checkpoint(TRUNCATE)");
        emptied = truncate.executeStep() && truncate.getColumn(0).getInt() == 0;
        if (!emptied) spdlog::warn("store: a checkpoint to make room met a reader in its way");
    } catch (const std::exception& error) {
        spdlog::warn("store: a checkpoint to make room failed: {}", error.what());
    }
    wait_for_locks(kBusyTimeoutMs);
    return emptied;
}

void SqliteTransactions::wait_for_locks(int milliseconds) noexcept {
    try {
        db_.setBusyTimeout(milliseconds);
    } catch (const std::exception& error) {
        spdlog::warn("store: cannot set the writer's lock timeout: {}", error.what());
    }
}

// Checks the free space (at most once a second) and sizes the log's checkpoints to it.
void SqliteTransactions::adapt_to_free_space() {
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

void SqliteTransactions::rollback() noexcept {
    try {
        run_statement(rollback_);
    } catch (const std::exception&) {
        // A failed COMMIT may have ended the transaction already: nothing left to undo.
    }
}

SqliteWriter::SqliteWriter(SQLite::Database& db, const SqliteOptions& options, Apply probe)
    : transactions_(db, options.path, std::move(probe)),
      writer_(transactions_, grouping_of(options)) {}

}  // namespace gcor::server
