#pragma once
// The stores' group-commit writer: one thread that runs queued writes on one connection, one
// transaction per group of writes, and tells each write whether it committed. It knows neither
// what the writes contain nor which database runs them: a WriterBackend opens and ends the
// transactions (sqlite_writer.hpp, and the PostgreSQL store's).
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server {

// How writes are grouped, and who hears of each commit and failure (as in SqliteOptions).
struct GroupCommitOptions {
    int group_commit_ms = 0;
    bool group_commits = true;
    std::function<void(std::chrono::nanoseconds, std::size_t writes)> on_commit = {};
    std::function<void(const std::string& error)> on_failure = {};
};

// What a table's write throws when the database holds a newer row than the one it was made on
// (or none): another process changed the table first. Not a failure of the store: the write is
// refused alone, and the store goes on as it was. One refused before it changed anything
// (`wrote_nothing`) leaves its transaction usable: the rest of its group commits without it,
// rather than each write being tried again in a transaction of its own.
struct WriteConflict : std::runtime_error {
    explicit WriteConflict(const std::string& what, bool refused_before_writing = false)
        : std::runtime_error(what), wrote_nothing(refused_before_writing) {}
    bool wrote_nothing;
};

// What the writer needs of a database; called on the writer thread only.
class WriterBackend {
  public:
    virtual ~WriterBackend() = default;
    // Runs `body` (a group's writes) in one transaction and commits it; throws, having rolled
    // back, when any of it failed.
    virtual void transact(const std::function<void()>& body) = 0;
    // After `failure`: true when the backend made it worth trying the transaction once more.
    virtual bool recovered_from(const std::exception& /*failure*/) { return false; }
    // Whether `failure` may be the fault of one write in the group, so that the group is tried
    // again write by write; false when the database was out of reach for all of them.
    virtual bool may_be_one_write(const std::exception& /*failure*/) { return true; }
    // After each commit.
    virtual void committed() {}
    // While failing with nothing queued: what precedes the probe, and the probe itself, a small
    // real write (run inside a transaction) whose commit tells that writing works again.
    virtual void before_probe() {}
    virtual void probe_write() = 0;
};

class GroupWriter {
  public:
    // Runs a write's statements inside the current transaction; throws on failure.
    using Apply = std::function<void()>;

    // Starts the thread gcor-writer, which alone uses `backend` from then on.
    GroupWriter(WriterBackend& backend, GroupCommitOptions options);
    // Writes everything queued, then stops the thread.
    ~GroupWriter();
    GroupWriter(const GroupWriter&) = delete;
    GroupWriter& operator=(const GroupWriter&) = delete;

    // Queues `apply`; `done` runs on the writer thread once its transaction committed or failed.
    void enqueue(Apply apply, Store::TableDone done);
    void enqueue(Apply apply, Store::Done done);
    // Queues `apply` and waits until its transaction ended: true when it committed.
    bool write_and_wait(Apply apply);
    // Waits until everything queued before has been written: true when the last commit worked.
    bool flush();

  private:
    struct Write {
        Apply apply;
        Store::TableDone done;
        bool refused = false;  // in the last transaction tried: a conflict that wrote nothing
    };

    void run();
    void write_group(std::span<Write> writes);
    Written commit(std::span<Write> writes);
    void probe();

    WriterBackend& backend_;
    const GroupCommitOptions options_;

    std::mutex queue_mutex_;
    std::condition_variable queue_changed_;
    std::vector<Write> queue_;
    std::chrono::steady_clock::time_point first_queued_;  // of the oldest write in queue_
    bool stopping_ = false;
    // Writer thread only:
    bool failing_ = false;                   // the last transaction failed
    bool failure_may_be_one_write_ = false;  // ... and one of its writes may be the cause
    std::thread thread_;                     // last: it starts once everything above exists
};

}  // namespace gcor::server
