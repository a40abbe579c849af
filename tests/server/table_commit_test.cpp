// A table's commit pipeline on its own: which work waits for a write, in which order it runs,
// what a retirement changes, and how reads of other processes' news follow one another.
#include <catch2/catch.hpp>
#include <string>

#include "tables/commit_pipeline.hpp"

namespace gcor::server {

using Stage = CommitPipeline::Stage;

TEST_CASE("commit pipeline: work waits for the write in flight, then runs in order", "[server]") {
    CommitPipeline pipeline;
    std::string ran;
    pipeline.when_ready([&] { ran += 'a'; });
    CHECK(ran == "a");
    pipeline.begin_commit();
    CHECK(pipeline.stage() == Stage::committing);
    pipeline.when_ready([&] { ran += 'b'; });
    pipeline.when_ready([&] { ran += 'c'; });
    CHECK(ran == "a");
    pipeline.committed();
    CHECK(pipeline.stage() == Stage::ready);
    CHECK(ran == "abc");
}

namespace {

// Work that counts how often it was copied or moved: each hand-off of a request costs that.
struct CommitCountedWork {
    int* handoffs;
    std::string* ran;
    char name;
    CommitCountedWork(int& count, std::string& log, char letter)
        : handoffs(&count), ran(&log), name(letter) {}
    CommitCountedWork(const CommitCountedWork& other)
        : handoffs(other.handoffs), ran(other.ran), name(other.name) {
        ++*handoffs;
    }
    CommitCountedWork(CommitCountedWork&& other) noexcept
        : handoffs(other.handoffs), ran(other.ran), name(other.name) {
        ++*handoffs;
    }
    void operator()() const { *ran += name; }
};

}  // namespace

TEST_CASE("commit pipeline: work that runs at once is run where it is, work that waits is kept",
          "[server]") {
    CommitPipeline pipeline;
    int handoffs = 0;
    std::string ran;
    pipeline.when_ready(CommitCountedWork(handoffs, ran, 'a'));
    CHECK(ran == "a");
    CHECK(handoffs == 0);  // not made a std::function (a copy of every capture) to run now
    pipeline.begin_commit();
    pipeline.when_ready(CommitCountedWork(handoffs, ran, 'b'));
    CHECK(ran == "a");
    CHECK(handoffs >= 1);  // kept until the write is stored
    pipeline.committed();
    CHECK(ran == "ab");
}

TEST_CASE("commit pipeline: work that begins a commit holds back the work after it", "[server]") {
    CommitPipeline pipeline;
    std::string ran;
    pipeline.begin_commit();
    pipeline.when_ready([&] {
        ran += 'b';
        pipeline.begin_commit();
    });
    pipeline.when_ready([&] { ran += 'c'; });
    pipeline.committed();
    CHECK(ran == "b");
    CHECK(pipeline.stage() == Stage::committing);
    pipeline.committed();
    CHECK(ran == "bc");
}

TEST_CASE("commit pipeline: a new table takes no work before its first commit", "[server]") {
    CommitPipeline pipeline(Stage::unsaved);
    bool ran = false;
    pipeline.when_ready([&] { ran = true; });
    CHECK_FALSE(ran);
    pipeline.begin_commit();
    CHECK_FALSE(ran);
    pipeline.committed();
    CHECK(ran);
}

TEST_CASE("commit pipeline: a failed write retires the table, and its held work still runs",
          "[server]") {
    CommitPipeline pipeline;
    int ran = 0;
    pipeline.begin_commit();
    pipeline.when_ready([&] { ran += pipeline.retired() ? 10 : 1; });
    pipeline.retire();
    pipeline.committed();
    CHECK(pipeline.stage() == Stage::retired);
    CHECK(ran == 10);  // it ran, and found the table retired (it asks the lobby again)
    pipeline.when_ready([&] { ++ran; });
    CHECK(ran == 11);
}

TEST_CASE("commit pipeline: rows awaited from news until the table's own commit", "[server]") {
    CommitPipeline pipeline;
    pipeline.move_heard();
    pipeline.move_heard();
    CHECK(pipeline.rows_awaited() == 2);
    pipeline.row_heard();
    CHECK(pipeline.rows_awaited() == 0);
    pipeline.move_heard();
    pipeline.begin_commit();  // the row is the table's own again
    CHECK(pipeline.rows_awaited() == 0);
}

TEST_CASE("commit pipeline: one read of the news at a time, once more if asked meanwhile",
          "[server]") {
    CommitPipeline pipeline;
    CHECK_FALSE(pipeline.reading());
    CHECK(pipeline.request_read());
    CHECK(pipeline.reading());
    CHECK_FALSE(pipeline.request_read());  // under way: asked again
    CHECK_FALSE(pipeline.request_read());  // still one more, not two
    CHECK(pipeline.read_finished());       // the caller reads once more
    CHECK_FALSE(pipeline.reading());
    CHECK(pipeline.request_read());
    CHECK_FALSE(pipeline.read_finished());  // nothing asked meanwhile
    CHECK_FALSE(pipeline.reading());
}

TEST_CASE("commit pipeline: rereads wait for a read that starts after them", "[server]") {
    CommitPipeline pipeline;
    int ran = 0;
    pipeline.after_next_read([&] { ++ran; });
    auto first = pipeline.take_rereads();
    REQUIRE(first.size() == 1);
    pipeline.after_next_read([&] { ran += 10; });
    CHECK(pipeline.take_rereads().size() == 1);
    CHECK(pipeline.take_rereads().empty());
    for (auto& work : first)
        work();
    CHECK(ran == 1);
}

}  // namespace gcor::server
