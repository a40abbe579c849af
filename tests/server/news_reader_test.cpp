// A table's news reader on its own, with a table that only records what it is asked: which news
// is applied at once, which is read from the store, when the table is in step again, when it
// reloads, and which state "before the news" the lobby, the turn and the bots are compared with.
#include <catch2/catch.hpp>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tables/news_reader.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {
namespace {

class FakeTable : public NewsTarget, public ChatNews {
  public:
    explicit FakeTable(CommitPipeline& pipeline) : pipeline_(pipeline) {
        copy.status = TableStatus::playing;
    }

    Copy news_copy() const override { return copy; }
    bool seated_as(const std::vector<StoredSeat>& stored) const override { return stored == seats; }
    void when_ready(std::function<void()> work) override { pipeline_.when_ready(std::move(work)); }
    void read_since(std::uint64_t version, OnRead done) override {
        reads.push_back(version);
        pending_read = std::move(done);
    }
    bool apply_stored_change(const StoredMove& change) override {
        if (change.move == refused_move) {
            pipeline_.retire();
            return false;
        }
        applied.push_back(change.seq);
        copy.version = change.seq;
        ++copy.revision;
        copy.to_act = static_cast<engine::Seat>((copy.to_act + 1) % 3);
        return true;
    }
    void in_step(const InStep& row) override {
        copy.revision = row.revision;
        steps.push_back(row);
    }
    void reload(const StoredTable& row) override {
        reloaded.push_back(row.revision);
        pipeline_.retire();
    }
    void retire_closed() override {
        closed = true;
        pipeline_.retire();
    }
    void read_chat_line(std::uint64_t n) override { chat_read.push_back(n); }
    void on_chat_deleted(std::uint64_t n) override { chat_deleted.push_back(n); }

    // Answers the read under way with the store's table.
    void answer(const std::optional<LoadedTable>& stored, bool read = true) {
        REQUIRE(pending_read);
        auto done = std::exchange(pending_read, {});
        done(read, stored);
    }

    Copy copy;
    std::vector<StoredSeat> seats;
    std::string refused_move;
    std::vector<std::uint64_t> reads;  // the versions read after
    OnRead pending_read;
    std::vector<std::uint64_t> applied;
    std::vector<InStep> steps;
    std::vector<std::uint64_t> reloaded;
    bool closed = false;
    std::vector<std::uint64_t> chat_read;
    std::vector<std::uint64_t> chat_deleted;

  private:
    CommitPipeline& pipeline_;
};

struct Fixture {
    CommitPipeline pipeline;
    FakeTable table{pipeline};
    NewsReader news{"t1", pipeline, table, table};
};

StoredMove stored_move(std::uint64_t seq, UnixMs at, std::string text = "pass") {
    StoredMove move;
    move.seq = seq;
    move.move = std::move(text);
    move.at = at;
    return move;
}

StoreNews row_news(std::uint64_t revision, std::uint64_t version,
                   std::optional<UnixMs> deadline = std::nullopt) {
    StoreNews news;
    news.kind = StoreNews::Kind::table;
    news.revision = revision;
    news.version = version;
    news.status = TableStatus::playing;
    news.deadline = deadline;
    return news;
}

// The row's news of one move, which carries the move (as the store's triggers write it).
StoreNews moved_news(std::uint64_t revision, std::uint64_t seq, UnixMs at,
                     std::optional<UnixMs> deadline = std::nullopt) {
    StoreNews news = row_news(revision, seq, deadline);
    news.move = R"({"seq":)" + std::to_string(seq) + R"(,"seat":0,"move":"pass","move_id":"",)" +
                R"("at":)" + std::to_string(at) + R"(,"by":"player"})";
    return news;
}

LoadedTable stored_table(std::uint64_t revision, std::uint64_t version,
                         std::vector<StoredMove> moves = {}) {
    LoadedTable loaded;
    loaded.table.revision = revision;
    loaded.table.version = version;
    loaded.table.status = TableStatus::playing;
    loaded.table.deadline = 9000;
    loaded.moves = std::move(moves);
    return loaded;
}

StoreNews vacation_news() {
    StoreNews news;
    news.kind = StoreNews::Kind::vacation;
    return news;
}

}  // namespace

TEST_CASE("news reader: the next move applies at once, and its row puts the table in step",
          "[server]") {
    Fixture f;
    f.table.copy = {.version = 4, .revision = 10, .status = TableStatus::playing, .to_act = 2};
    f.news.on_news(moved_news(11, 5, 1234, 7777));
    CHECK(f.table.applied == std::vector<std::uint64_t>{5});
    REQUIRE(f.table.steps.size() == 1);
    const NewsTarget::InStep& step = f.table.steps.front();
    CHECK(step.revision == 11);
    CHECK(step.deadline == 7777);
    CHECK(step.status_before == TableStatus::playing);
    CHECK(step.to_act_before == 2);  // before the move, not after it
    CHECK(step.last_move_at == 1234);
    CHECK(f.pipeline.rows_awaited() == 0);
    CHECK(f.table.reads.empty());
}

TEST_CASE("news reader: a move that is not the next one, or not while playing, reads the store",
          "[server]") {
    Fixture f;
    f.table.copy.version = 4;
    f.table.copy.revision = 10;
    f.news.on_news(moved_news(10, 4, 1));  // known
    CHECK(f.table.reads.empty());
    f.news.on_news(moved_news(12, 6, 1));  // one is missing
    CHECK(f.table.applied.empty());
    CHECK(f.table.reads == std::vector<std::uint64_t>{4});

    Fixture waiting;
    waiting.table.copy.status = TableStatus::waiting;
    waiting.news.on_news(moved_news(1, 1, 1));
    CHECK(waiting.table.applied.empty());
    CHECK(waiting.table.reads == std::vector<std::uint64_t>{0});
}

TEST_CASE("news reader: a move's news not understood reads the store", "[server]") {
    Fixture f;
    StoreNews news = moved_news(1, 1, 1);
    news.move = R"({"seq":1})";
    f.news.on_news(news);
    CHECK(f.table.applied.empty());
    CHECK(f.table.reads == std::vector<std::uint64_t>{0});
}

TEST_CASE("news reader: a move waits for the table's own commit", "[server]") {
    Fixture f;
    f.pipeline.begin_commit();
    f.news.on_news(moved_news(1, 1, 1));
    CHECK(f.table.applied.empty());
    f.pipeline.committed();
    CHECK(f.table.applied == std::vector<std::uint64_t>{1});
}

TEST_CASE("news reader: a move heard during a read has the store read once more", "[server]") {
    Fixture f;
    f.table.copy.revision = 1;
    f.news.on_news(vacation_news());
    REQUIRE(f.table.reads.size() == 1);
    f.news.on_news(moved_news(2, 1, 1));
    CHECK(f.table.applied.empty());  // the read under way may be older than the move
    f.table.answer(stored_table(1, 0));
    CHECK(f.table.reads.size() == 2);
}

TEST_CASE("news reader: a row that is not the move's alone is read", "[server]") {
    Fixture f;
    f.table.copy = {.version = 1, .revision = 3, .status = TableStatus::playing, .to_act = 0};
    f.news.on_news(row_news(3, 1));  // known, nothing awaited
    CHECK(f.table.reads.empty());

    // The move applies, but its row is two revisions on (a seat changed with it, say): read.
    f.news.on_news(moved_news(5, 2, 100));
    CHECK(f.table.applied == std::vector<std::uint64_t>{2});
    CHECK(f.pipeline.rows_awaited() == 1);
    CHECK(f.table.steps.empty());
    REQUIRE(f.table.reads == std::vector<std::uint64_t>{2});

    // The store has nothing more: the row is the move's, compared with the table before it.
    f.table.answer(stored_table(5, 2));
    REQUIRE(f.table.steps.size() == 1);
    CHECK(f.table.steps.front().to_act_before == 0);
    CHECK(f.table.steps.front().last_move_at == 100);
    CHECK(f.table.steps.front().deadline == 9000);
    CHECK(f.pipeline.rows_awaited() == 0);
}

TEST_CASE("news reader: a row written without a revision, or removed, is read", "[server]") {
    Fixture f;
    f.table.copy.revision = 3;
    f.news.on_news(row_news(0, 0));  // a league's new table, say
    CHECK(f.table.reads.size() == 1);

    Fixture removed;
    removed.table.copy.revision = 3;
    StoreNews news = row_news(2, 0);
    news.removed = true;
    removed.news.on_news(news);
    CHECK(removed.table.reads.size() == 1);
}

TEST_CASE("news reader: the moves lacking are applied from a read, in order", "[server]") {
    Fixture f;
    f.table.copy = {.version = 1, .revision = 3, .status = TableStatus::playing, .to_act = 1};
    f.news.on_news(vacation_news());
    f.table.answer(stored_table(
        8, 3,
        {stored_move(1, 50), stored_move(2, 60), stored_move(3, 70, std::string(kUndoText))}));
    CHECK(f.table.applied == std::vector<std::uint64_t>{2, 3});
    REQUIRE(f.table.steps.size() == 1);
    CHECK(f.table.steps.front().revision == 8);
    CHECK(f.table.steps.front().to_act_before == 1);
    CHECK(f.table.steps.front().last_move_at == 60);  // an undo restarts no clock
    CHECK(f.table.reloaded.empty());
}

TEST_CASE("news reader: more than moves changed, the table reloads", "[server]") {
    SECTION("the seats") {
        Fixture f;
        f.news.on_news(vacation_news());
        LoadedTable stored = stored_table(2, 0);
        StoredSeat seat;
        seat.kind = SeatKind::human;
        seat.user = 7;
        stored.table.seats.push_back(seat);
        f.table.answer(stored);
        CHECK(f.table.reloaded == std::vector<std::uint64_t>{2});
    }
    SECTION("a gap in the moves") {
        Fixture f;
        f.news.on_news(vacation_news());
        f.table.answer(stored_table(2, 3, {stored_move(2, 1), stored_move(3, 1)}));
        CHECK(f.table.reloaded == std::vector<std::uint64_t>{2});
        CHECK(f.table.applied.empty());
    }
    SECTION("a waiting table") {
        Fixture f;
        f.table.copy.status = TableStatus::waiting;
        f.news.on_news(vacation_news());
        f.table.answer(stored_table(2, 0));
        CHECK(f.table.reloaded == std::vector<std::uint64_t>{2});
    }
}

TEST_CASE("news reader: a move that does not apply stops the catch-up", "[server]") {
    Fixture f;
    f.table.refused_move = "bad";
    f.news.on_news(vacation_news());
    f.table.answer(stored_table(5, 2, {stored_move(1, 1, "bad"), stored_move(2, 1)}));
    CHECK(f.table.applied.empty());
    CHECK(f.table.steps.empty());
    CHECK(f.pipeline.retired());
}

TEST_CASE("news reader: a table gone from the store retires closed", "[server]") {
    Fixture f;
    f.news.on_news(vacation_news());
    f.table.answer(std::nullopt);
    CHECK(f.table.closed);
    f.news.on_news(vacation_news());  // a retired table hears nothing more
    CHECK(f.table.reads.size() == 1);
}

TEST_CASE("news reader: a failed read changes nothing", "[server]") {
    Fixture f;
    f.news.on_news(vacation_news());
    f.table.answer(stored_table(5, 0), false);
    CHECK(f.table.reloaded.empty());
    CHECK(f.table.steps.empty());
    CHECK_FALSE(f.pipeline.reading());
}

TEST_CASE("news reader: a reread runs after a read that starts after it", "[server]") {
    Fixture f;
    f.table.copy.revision = 1;
    f.news.on_news(vacation_news());
    int ran = 0;
    f.news.reread([&] { ++ran; });
    f.table.answer(stored_table(1, 0));  // nothing new
    CHECK(ran == 0);                     // the read under way may be older than the request
    REQUIRE(f.table.reads.size() == 2);
    f.table.answer(stored_table(1, 0));
    CHECK(ran == 1);
}

TEST_CASE("news reader: a table that reloads runs the rereads still waiting", "[server]") {
    Fixture f;
    f.news.on_news(vacation_news());
    int ran = 0;
    f.news.reread([&] { ++ran; });
    f.table.copy.status = TableStatus::waiting;
    f.table.answer(stored_table(2, 0));  // reloads: no read follows
    CHECK(f.table.reloaded.size() == 1);
    CHECK(f.table.reads.size() == 1);
    CHECK(ran == 1);  // it finds the table retired and asks the lobby again
}

TEST_CASE("news reader: chat news go to the table's chat", "[server]") {
    Fixture f;
    StoreNews news;
    news.kind = StoreNews::Kind::chat;
    news.chat_line = 4;
    f.news.on_news(news);
    news.chat_deleted = true;
    f.news.on_news(news);
    CHECK(f.table.chat_read == std::vector<std::uint64_t>{4});
    CHECK(f.table.chat_deleted == std::vector<std::uint64_t>{4});
}

}  // namespace gcor::server
