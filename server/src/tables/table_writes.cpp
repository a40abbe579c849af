#include "tables/table_writes.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/execution_context.hpp>
#include <boost/asio/post.hpp>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace gcor::server {

// The writes' outcomes on their way from the store's thread to the tables' strands, one of these
// per io_context (an Asio service). A post per outcome from the store's thread, which is no Asio
// thread, would allocate its handler and the strand's turn from the heap every time; here the
// outcomes wait in a list and one post per batch (a group commit's) hands them over on an I/O
// thread, where each dispatch to a strand reuses that thread's recycled handler memory.
class WriteOutcomes final : public boost::asio::execution_context::service {
  public:
    static inline boost::asio::execution_context::id id;

    explicit WriteOutcomes(boost::asio::io_context& io) : service(io), io_(io) {}

    struct Outcome {
        TableWrites* writes;
        std::shared_ptr<void> owner;  // keeps `writes` alive
        TableWrites::Done done;
        Written written;
    };

    // Thread-safe.
    void deliver(Outcome outcome) {
        bool first = false;
        {
            std::lock_guard lock(mutex_);
            first = pending_.empty();
            pending_.push_back(std::move(outcome));
        }
        // A hand-over is on its way while the list is not empty.
        if (first) boost::asio::post(io_, [this] { hand_over(); });
    }

  private:
    void hand_over() {
        std::vector<Outcome> outcomes;
        {
            std::lock_guard lock(mutex_);
            outcomes.swap(pending_);
            pending_.reserve(outcomes.size());  // the next batch's room at once, not by doubling
        }
        std::size_t next = 0;
        try {
            while (next < outcomes.size()) {
                Outcome& outcome = outcomes[next++];
                // On this I/O thread an idle strand runs it at once.
                boost::asio::dispatch(outcome.writes->strand_, [outcome = std::move(outcome)] {
                    outcome.writes->ended(outcome.written, outcome.done);
                });
            }
        } catch (...) {
            // One table's handler threw (the I/O thread's fence logs it): the other tables'
            // outcomes are handed over all the same.
            for (; next < outcomes.size(); ++next)
                deliver(std::move(outcomes[next]));
            throw;
        }
    }

    // The io_context ends: the outcomes not handed over let their tables go.
    void shutdown() override {
        std::vector<Outcome> dropped;
        std::lock_guard lock(mutex_);
        dropped.swap(pending_);
    }

    boost::asio::io_context& io_;
    std::mutex mutex_;
    std::vector<Outcome> pending_;
};

TableWrites::TableWrites(TableStorage& store, CommitPipeline& pipeline, Strand& strand, Owner owner)
    : store_(store),
      pipeline_(pipeline),
      strand_(strand),
      outcomes_(boost::asio::use_service<WriteOutcomes>(strand.get_inner_executor().context())),
      owner_(std::move(owner)) {}

TableStorage::TableDone TableWrites::on_strand(Done done) {
    return [this, owner = owner_(), done = std::move(done)](Written written) mutable {
        outcomes_.deliver({this, std::move(owner), std::move(done), written});
    };
}

void TableWrites::ended(Written written, const Done& done) {
    last_ = written;
    done(written);
    pipeline_.committed();
}

void TableWrites::save(const std::function<StoredTable()>& row, Done done) {
    pipeline_.begin_commit();
    ++revision_;
    store_.save_table(row(), on_strand(std::move(done)));
}

void TableWrites::append(const std::function<TableProgress()>& progress, const StoredMove& move,
                         Done done) {
    pipeline_.begin_commit();
    ++revision_;
    store_.append_move(progress(), move, on_strand(std::move(done)));
}

void TableWrites::remove(const std::string& id, Done done) {
    pipeline_.begin_commit();
    store_.remove_table(id, revision_, on_strand(std::move(done)));
}

}  // namespace gcor::server
