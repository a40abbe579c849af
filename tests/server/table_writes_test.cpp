// A table's writes on their own, over a store of the test's that answers when told: a save and an
// append at the row's next revision, a close at its current one; the outcome on the strand and
// kept; the work held back meanwhile runs after the write's own `done`, in order.
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tables/table_writes.hpp"

namespace gcor::server {
namespace {

namespace net = boost::asio;

// The store's table writes, answered by the test (answer()).
class WritesPartStorage final : public TableStorage {
  public:
    std::vector<std::string> calls;
    std::vector<std::uint64_t> revisions;
    std::vector<TableDone> pending;

    void save_table(const StoredTable& table, TableDone done) override {
        calls.push_back("save " + table.id);
        revisions.push_back(table.revision);
        pending.push_back(std::move(done));
    }
    void remove_table(const std::string& id, std::uint64_t revision, TableDone done) override {
        calls.push_back("remove " + id);
        revisions.push_back(revision);
        pending.push_back(std::move(done));
    }
    void append_move(const TableProgress& table, const StoredMove& move, TableDone done) override {
        calls.push_back("append " + move.move);
        revisions.push_back(table.revision);
        pending.push_back(std::move(done));
    }
    std::optional<LoadedTable> load_table(const std::string&) override { return std::nullopt; }
    std::optional<LoadedTable> load_table_since(const std::string&, std::uint64_t) override {
        return std::nullopt;
    }

    void answer(Written written) {
        REQUIRE_FALSE(pending.empty());
        TableDone done = std::move(pending.front());
        pending.erase(pending.begin());
        done(written);
    }
};

struct WritesPartFixture {
    net::io_context io;
    TableWrites::Strand strand = net::make_strand(io);
    WritesPartStorage store;
    CommitPipeline pipeline{CommitPipeline::Stage::ready};
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    TableWrites writes{store, pipeline, strand, [this] { return owner; }};
    std::vector<std::string> order;

    StoredTable row() const {
        StoredTable table;
        table.id = "t1";
        table.revision = writes.revision();
        return table;
    }
    void run() {
        io.restart();
        io.run();
    }
};

// One of several tables writing through one io_context.
struct WritesPartTable {
    WritesPartTable(net::io_context& io, WritesPartStorage& store, std::shared_ptr<int> owner)
        : strand(net::make_strand(io)), writes{store, pipeline, strand, [owner] {
                                                   return owner;
                                               }} {}

    void append(TableWrites::Done done) {
        writes.append([] { return TableProgress{}; }, StoredMove{}, std::move(done));
    }

    TableWrites::Strand strand;
    CommitPipeline pipeline{CommitPipeline::Stage::ready};
    TableWrites writes;
};

}  // namespace

TEST_CASE(
    "table writes: a save at the next revision, its outcome on the strand, then the work "
    "held back",
    "[server]") {
    WritesPartFixture at;
    at.writes.set_revision(4);
    at.writes.save([&] { return at.row(); },
                   [&](Written written) {
                       CHECK(at.strand.running_in_this_thread());
                       CHECK(written == Written::committed);
                       at.order.push_back("done");
                   });
    CHECK(at.store.calls == std::vector<std::string>{"save t1"});
    CHECK(at.store.revisions == std::vector<std::uint64_t>{5});
    CHECK(at.pipeline.stage() == CommitPipeline::Stage::committing);
    at.pipeline.when_ready([&] { at.order.push_back("held back"); });
    CHECK(at.order.empty());

    at.store.answer(Written::committed);  // on the store's thread: nothing runs here yet
    CHECK(at.order.empty());
    at.run();
    CHECK(at.order == std::vector<std::string>{"done", "held back"});
    CHECK(at.pipeline.stage() == CommitPipeline::Stage::ready);
    CHECK(at.writes.last() == Written::committed);
    CHECK(at.writes.revision() == 5);
}

TEST_CASE("table writes: an append at the next revision, a refused one kept as the last outcome",
          "[server]") {
    WritesPartFixture at;
    at.writes.set_revision(2);
    at.writes.count_move();  // another process's move: one revision of the row
    CHECK(at.writes.revision() == 3);
    StoredMove move;
    move.move = "m1";
    Written seen = Written::committed;
    at.writes.append(
        [&] {
            TableProgress progress;
            progress.revision = at.writes.revision();
            return progress;
        },
        move, [&](Written written) { seen = written; });
    CHECK(at.store.calls == std::vector<std::string>{"append m1"});
    CHECK(at.store.revisions == std::vector<std::uint64_t>{4});
    at.store.answer(Written::conflict);
    at.run();
    CHECK(seen == Written::conflict);
    CHECK(at.writes.last() == Written::conflict);
}

TEST_CASE("table writes: a close removes the row at its current revision", "[server]") {
    WritesPartFixture at;
    at.writes.set_revision(7);
    bool removed = false;
    at.writes.remove("t1", [&](Written written) { removed = written == Written::committed; });
    CHECK(at.store.calls == std::vector<std::string>{"remove t1"});
    CHECK(at.store.revisions == std::vector<std::uint64_t>{7});
    CHECK(at.pipeline.stage() == CommitPipeline::Stage::committing);
    at.store.answer(Written::committed);
    at.run();
    CHECK(removed);
    CHECK(at.writes.revision() == 7);
}

TEST_CASE(
    "table writes: the outcomes of several tables answered together each reach their strand, "
    "also when one table's handler throws",
    "[server]") {
    net::io_context io;
    WritesPartStorage store;
    const auto owner = std::make_shared<int>(0);
    WritesPartTable throwing(io, store, owner);
    WritesPartTable second(io, store, owner);
    WritesPartTable third(io, store, owner);
    std::vector<std::string> order;
    throwing.append([](Written) { throw std::runtime_error("the first table's handler"); });
    second.append([&](Written written) {
        CHECK(second.strand.running_in_this_thread());
        order.push_back(written == Written::committed ? "second committed" : "second failed");
    });
    third.append([&](Written written) {
        CHECK(third.strand.running_in_this_thread());
        order.push_back(written == Written::conflict ? "third refused" : "third not refused");
    });
    // One group commit's outcomes, in the store's order, before the I/O thread runs any.
    store.answer(Written::committed);
    store.answer(Written::committed);
    store.answer(Written::conflict);
    CHECK(order.empty());

    // As the server's fence runs its I/O threads: the exception ends its handler's work only.
    int failures = 0;
    for (bool done = false; !done;) {
        try {
            io.run();
            done = true;
        } catch (const std::runtime_error& error) {
            CHECK(std::string(error.what()) == "the first table's handler");
            ++failures;
        }
    }
    CHECK(failures == 1);
    CHECK(order == std::vector<std::string>{"second committed", "third refused"});
    CHECK(second.pipeline.stage() == CommitPipeline::Stage::ready);
    CHECK(third.writes.last() == Written::conflict);
    CHECK(third.pipeline.stage() == CommitPipeline::Stage::ready);
}

}  // namespace gcor::server
