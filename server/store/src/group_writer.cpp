#include "group_writer.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <future>
#include <memory>
#include <utility>

namespace gcor::server {

namespace {

// How often a failing store with nothing to write tries a write, to learn that it can again.
constexpr auto kProbeEvery = std::chrono::seconds(5);

}  // namespace

GroupWriter::GroupWriter(WriterBackend& backend, GroupCommitOptions options)
    : backend_(backend), options_(std::move(options)), thread_([this] { run(); }) {}

GroupWriter::~GroupWriter() {
    {
        std::lock_guard lock(queue_mutex_);
        stopping_ = true;
    }
    queue_changed_.notify_one();
    thread_.join();
}

void GroupWriter::enqueue(Apply apply, Store::Done done) {
    enqueue(std::move(apply),
            [done = std::move(done)](Written written) { done(written == Written::committed); });
}

void GroupWriter::enqueue(Apply apply, Store::TableDone done) {
    bool was_empty = false;
    {
        std::lock_guard lock(queue_mutex_);
        was_empty = queue_.empty();
        if (was_empty) first_queued_ = std::chrono::steady_clock::now();
        queue_.push_back({std::move(apply), std::move(done)});
    }
    if (was_empty) queue_changed_.notify_one();
}

bool GroupWriter::write_and_wait(Apply apply) {
    auto committed = std::make_shared<std::promise<bool>>();
    std::future<bool> result = committed->get_future();
    enqueue(std::move(apply),
            [committed](Written written) { committed->set_value(written == Written::committed); });
    return result.get();
}

bool GroupWriter::flush() {
    return write_and_wait([] {});
}

void GroupWriter::run() {
    pthread_setname_np(pthread_self(), "gcor-writer");  // for top -H, perf and strace
    std::vector<Write> writes;
    for (;;) {
        {
            std::unique_lock lock(queue_mutex_);
            const auto ready = [this] { return stopping_ || !queue_.empty(); };
            if (!failing_) {
                queue_changed_.wait(lock, ready);
            } else if (!queue_changed_.wait_for(lock, kProbeEvery, ready)) {
                // Failing, and no write came to find out whether writing works again.
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
        write_group(writes);
        writes.clear();
    }
}

namespace {

// A write's outcome in a transaction that ended `written`.
Written outcome_of(bool refused, Written written) {
    return written == Written::committed && refused ? Written::conflict : written;
}

}  // namespace

void GroupWriter::write_group(std::span<Write> writes) {
    const bool grouped = options_.group_commits && writes.size() > 1;
    const Written written = grouped ? commit(writes) : Written::failed;
    if (grouped && written == Written::committed) {
        for (Write& write : writes)
            write.done(outcome_of(write.refused, Written::committed));
    } else if (grouped && written == Written::failed && !failure_may_be_one_write_) {
        // The database was out of reach: each write alone would only fail again.
        for (Write& write : writes)
            write.done(Written::failed);
    } else {
        // Ungrouped, alone, or in a group that failed: one transaction each, so that a bad
        // write fails only itself.
        for (Write& write : writes) {
            const Written alone = commit({&write, 1});
            write.done(outcome_of(write.refused, alone));
        }
    }
}

Written GroupWriter::commit(std::span<Write> writes) {
    const auto start = std::chrono::steady_clock::now();
    const auto body = [writes] {
        for (Write& write : writes) {
            write.refused = false;
            try {
                write.apply();
            } catch (const WriteConflict& conflict) {
                if (!conflict.wrote_nothing) throw;
                write.refused = true;  // the others go on
            }
        }
    };
    for (bool retried = false;; retried = true) {
        try {
            backend_.transact(body);
            break;
        } catch (const WriteConflict& conflict) {
            // Another process changed a table first: that write is refused (alone, when the
            // group is tried again write by write), and writing works as before.
            spdlog::debug("store: a write conflicts: {}", conflict.what());
            return Written::conflict;
        } catch (const std::exception& failure) {
            if (!retried && backend_.recovered_from(failure)) continue;
            spdlog::error("store: a transaction of {} writes failed: {}", writes.size(),
                          failure.what());
            failing_ = true;
            failure_may_be_one_write_ = backend_.may_be_one_write(failure);
            if (options_.on_failure) options_.on_failure(failure.what());
            return Written::failed;
        }
    }
    failing_ = false;
    backend_.committed();
    // Outside the try: what the observer does cannot turn a commit into a failure.
    if (options_.on_commit)
        options_.on_commit(std::chrono::steady_clock::now() - start, writes.size());
    return Written::committed;
}

void GroupWriter::probe() {
    backend_.before_probe();
    Write write{[this] { backend_.probe_write(); }, [](Written) {}};
    if (commit({&write, 1}) == Written::committed) spdlog::info("store: writing works again");
}

}  // namespace gcor::server
