#pragma once
// A table's writes to the store: each goes through the commit pipeline (later work waits for it),
// a row's save and a move's append at the row's next revision, a close at its current one; the
// outcome comes back on the table's strand, where it is kept (last()) for the replies of the
// requests refused because of it. Used on the table's strand; the table that owns it is kept
// alive by each write (`owner`). The outcomes of one io_context's tables reach their strands
// through one WriteOutcomes (table_writes.cpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "gcor/store/store.hpp"
#include "tables/commit_pipeline.hpp"
#include "tables/table_services.hpp"

namespace gcor::server {

class WriteOutcomes;

// What a part whose change is stored asks of its table, on its strand: the table makes the row.
class SavingTable {
  public:
    virtual ~SavingTable() = default;
    // Stores the table as it is now (seats, status) at its next revision; then `then(ok)` on the
    // strand (not ok: the table retired; TableWrites::last() says why).
    virtual void save(std::function<void(bool ok)> then) = 0;
};

class TableWrites {
  public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    using Owner = std::function<std::shared_ptr<void>()>;
    // On the strand, with the write's outcome; the work held back runs after it.
    using Done = std::function<void(Written)>;

    // Every reference outlives the part (the table holds them, or the server does).
    TableWrites(TableStorage& store, CommitPipeline& pipeline, Strand& strand, Owner owner);

    // The stored row's revision (StoredTable::revision): each write makes the next one.
    std::uint64_t revision() const { return revision_; }
    // The row as the store has it (a table restored, or in step with others' changes again).
    void set_revision(std::uint64_t revision) { revision_ = revision; }
    // A move another process stored is one revision of the row: this table's own next change
    // names the right one even before the row's news has come.
    void count_move() { ++revision_; }
    // The outcome of the latest write.
    Written last() const { return last_; }

    // Stores the row that `row()` makes at the next revision.
    void save(const std::function<StoredTable()>& row, Done done);
    // Appends `move` with the row's progress that `progress()` makes at the next revision.
    void append(const std::function<TableProgress()>& progress, const StoredMove& move, Done done);
    // Removes the table `id` at its current revision.
    void remove(const std::string& id, Done done);

  private:
    friend class WriteOutcomes;

    // The store's callback (on its thread): `done` on the strand, then the held-back work.
    TableStorage::TableDone on_strand(Done done);
    // On the strand: the write ended.
    void ended(Written written, const Done& done);

    TableStorage& store_;
    CommitPipeline& pipeline_;
    Strand& strand_;
    WriteOutcomes& outcomes_;  // of the strand's io_context
    const Owner owner_;
    std::uint64_t revision_ = 0;
    Written last_ = Written::committed;
};

}  // namespace gcor::server
