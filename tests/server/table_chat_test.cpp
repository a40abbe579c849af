// A table's chat at work, with a store that answers when the test says: a line reaches nobody
// before it is stored, then every follower but its writer's connection and those who muted it; a
// refusal, or a read of the store first; deletions by admins only; pages of older lines; the
// lines and deletions of other server processes; and the table kept alive by pending work.
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tables/table_chat.hpp"

namespace gcor::server {
namespace {

using protocol::Json;

class ChatPartPeer final : public Peer {
  public:
    std::vector<Json> received;
    void send(Message message) override { received.push_back(Json::parse(*message)); }
    void send_reply(Message message, const Json&) override { send(std::move(message)); }
    void end_session(std::uint64_t) override {}
};

// The chat's store calls; a write is answered when the test calls `finish`.
class ChatPartStore final : public ChatStorage {
  public:
    std::vector<StoredChatLine> stored;
    std::vector<Done> pending;
    std::vector<std::uint64_t> deleted;
    bool fail_reads = false;

    void append_chat(const std::string&, const StoredChatLine& line, Done done) override {
        stored.push_back(line);
        pending.push_back(std::move(done));
    }
    void delete_chat(const std::string&, std::uint64_t n, Done done) override {
        deleted.push_back(n);
        pending.push_back(std::move(done));
    }
    std::vector<StoredChatLine> chat_lines(const std::string&, std::optional<std::uint64_t> before,
                                           std::size_t limit) override {
        if (fail_reads) throw StorageFailure("disk gone");
        std::vector<StoredChatLine> page;
        for (const StoredChatLine& line : stored)
            if (!before || line.n < *before) page.push_back(line);
        if (page.size() > limit) page.erase(page.begin(), page.end() - static_cast<long>(limit));
        return page;
    }
    void finish(bool ok) {
        REQUIRE(pending.size() == 1);
        auto done = std::exchange(pending, {});
        done.front()(ok);
    }
};

class ChatPartGuards final : public ChatGuards {
  public:
    std::set<std::pair<std::uint64_t, std::uint64_t>> muted_pairs;  // (reader, writer)
    std::uint64_t admin = 0;
    int lines_left = 100;
    bool is_admin(const User& user) const override { return user.id == admin; }
    bool muted(std::uint64_t user, std::uint64_t other) const override {
        return muted_pairs.contains({user, other});
    }
    std::optional<std::chrono::milliseconds> take_line(std::uint64_t, Clock::time_point) override {
        if (lines_left == 0) return std::chrono::milliseconds(2500);
        --lines_left;
        return std::nullopt;
    }
};

const User kChatPartAnn{7, "ann", false};
const User kChatPartBob{8, "bob", false};
const User kChatPartEve{9, "eve", false};  // a spectator

// The table's writes and blocks, which the chat's error replies never ask (only the refusals'
// own checks do).
class ChatPartTableStorage final : public TableStorage, public BlockedUsers {
  public:
    void save_table(const StoredTable&, TableDone) override { FAIL("the chat saves no table"); }
    void remove_table(const std::string&, std::uint64_t, TableDone) override {
        FAIL("the chat removes no table");
    }
    void append_move(const TableProgress&, const StoredMove&, TableDone) override {
        FAIL("the chat stores no move");
    }
    std::optional<LoadedTable> load_table(const std::string&) override { return std::nullopt; }
    std::optional<LoadedTable> load_table_since(const std::string&, std::uint64_t) override {
        return std::nullopt;
    }
    bool blocked(std::uint64_t, std::uint64_t) const override { return false; }
};

struct ChatPartFixture {
    boost::asio::io_context io;  // the table's strand's
    boost::asio::io_context blocking;
    TableChat::Strand strand{boost::asio::make_strand(io)};
    std::string id = "t1";
    protocol::TableSettings settings;
    ChatPartStore store;
    ChatPartGuards guards;
    Metrics metrics;
    TableSeats seats{2};
    Followers followers;
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    ChatPartTableStorage table_store;
    CommitPipeline pipeline{CommitPipeline::Stage::ready};
    TableWrites writes{table_store, pipeline, strand, [this] { return owner; }};
    TableRefusals refusals{id, 0, metrics, table_store, writes};
    TableChat chat{id,       settings, store, guards,    refusals,
                   blocking, strand,   seats, followers, [this] { return owner; }};
    std::shared_ptr<ChatPartPeer> ann = std::make_shared<ChatPartPeer>();
    std::shared_ptr<ChatPartPeer> bob = std::make_shared<ChatPartPeer>();
    std::shared_ptr<ChatPartPeer> eve = std::make_shared<ChatPartPeer>();

    ChatPartFixture() {
        seats.seat_person(0, kChatPartAnn);
        seats.seat_person(1, kChatPartBob);
        followers.follow(ann, 0, kChatPartAnn.id);
        followers.follow(bob, 1, kChatPartBob.id);
        followers.follow(eve, std::nullopt, kChatPartEve.id);
    }
    // Runs what the store's answers and reads posted to the strand and the blocking pool.
    void run() {
        blocking.restart();
        blocking.run();
        io.restart();
        io.run();
    }
    void write(const std::shared_ptr<ChatPartPeer>& peer, const User& user, std::string text) {
        Recheck recheck;
        chat.write(peer, user, protocol::requests::Chat{Json(1), id, std::move(text)}, recheck);
    }
};

}  // namespace

TEST_CASE("table chat: a line is stored, then sent to the followers who read its writer",
          "[server]") {
    ChatPartFixture f;
    f.guards.muted_pairs.insert({kChatPartEve.id, kChatPartAnn.id});
    f.write(f.ann, kChatPartAnn, "hello");
    REQUIRE(f.store.stored.size() == 1);
    CHECK(f.owner.use_count() > 1);  // the write keeps the table alive
    f.run();
    CHECK(f.ann->received.empty());  // nobody hears of a line before it is stored
    CHECK(f.bob->received.empty());

    f.store.finish(true);
    f.run();
    CHECK(f.owner.use_count() == 1);
    REQUIRE(f.ann->received.size() == 1);  // the writer's reply, with its request's id
    CHECK(f.ann->received[0]["type"] == "chat");
    CHECK(f.ann->received[0]["id"] == 1);
    CHECK(f.ann->received[0]["text"] == "hello");
    REQUIRE(f.bob->received.size() == 1);
    CHECK(f.bob->received[0]["n"] == 1);
    CHECK(f.bob->received[0]["from"]["seat"] == 0);
    CHECK_FALSE(f.bob->received[0].contains("id"));
    CHECK(f.eve->received.empty());  // muted ann
    CHECK(f.chat.lines().knows(1));
}

TEST_CASE("table chat: a line the store refused is kept by nobody", "[server]") {
    ChatPartFixture f;
    f.write(f.bob, kChatPartBob, "lost");
    f.store.finish(false);
    f.run();
    REQUIRE(f.bob->received.size() == 1);
    CHECK(f.bob->received[0]["code"] == "storage_failed");
    CHECK(f.ann->received.empty());
    CHECK_FALSE(f.chat.lines().knows(1));
}

TEST_CASE("table chat: refusals, the rate, and a read of the store before a spectator's refusal",
          "[server]") {
    ChatPartFixture f;
    auto stranger = std::make_shared<ChatPartPeer>();  // follows nothing
    Recheck recheck{.allowed = true};
    f.chat.write(stranger, kChatPartEve, protocol::requests::Chat{Json(2), f.id, "hi"}, recheck);
    CHECK(recheck.wanted);  // a seat taken elsewhere may lift it: the store is read first
    CHECK(stranger->received.empty());

    f.write(stranger, kChatPartEve, "hi");
    REQUIRE(stranger->received.size() == 1);
    CHECK(stranger->received[0]["code"] == "chat_not_allowed");

    f.guards.lines_left = 0;
    f.write(f.ann, kChatPartAnn, "too fast");
    REQUIRE(f.ann->received.size() == 1);
    CHECK(f.ann->received[0]["code"] == "rate_limited");
    CHECK(f.ann->received[0]["message"].get<std::string>().find("wait 3 s") != std::string::npos);
    CHECK(f.store.stored.empty());
}

TEST_CASE("table chat: only an admin deletes, only a line this copy numbered", "[server]") {
    ChatPartFixture f;
    f.guards.admin = kChatPartBob.id;
    f.write(f.ann, kChatPartAnn, "oops");
    f.store.finish(true);
    f.run();
    f.ann->received.clear();
    f.bob->received.clear();

    f.chat.remove(f.ann, kChatPartAnn, protocol::requests::DeleteChat{Json(3), f.id, 1});
    REQUIRE(f.ann->received.size() == 1);
    CHECK(f.ann->received[0]["code"] == "forbidden");
    f.chat.remove(f.bob, kChatPartBob, protocol::requests::DeleteChat{Json(4), f.id, 2});
    REQUIRE(f.bob->received.size() == 1);
    CHECK(f.bob->received[0]["code"] == "not_found");
    CHECK(f.store.deleted.empty());

    f.chat.remove(f.bob, kChatPartBob, protocol::requests::DeleteChat{Json(5), f.id, 1});
    CHECK(f.store.deleted == std::vector<std::uint64_t>{1});
    f.store.finish(true);
    f.run();
    CHECK(f.bob->received.back()["type"] == "chat_deleted");
    CHECK(f.bob->received.back()["id"] == 5);
    REQUIRE(f.ann->received.size() == 2);
    CHECK(f.ann->received.back() == Json{{"type", "chat_deleted"}, {"table", "t1"}, {"n", 1}});
    CHECK_FALSE(f.chat.lines().knows(1));
}

TEST_CASE("table chat: a page of older lines, without the lines of those the reader muted",
          "[server]") {
    ChatPartFixture f;
    for (std::uint64_t n = 1; n <= 4; ++n)
        f.store.stored.push_back(
            {n, n % 2 ? kChatPartAnn.id : kChatPartBob.id, "x", 0, "line " + std::to_string(n), 0});
    f.guards.muted_pairs.insert({kChatPartEve.id, kChatPartBob.id});
    Recheck recheck;
    f.chat.history(f.eve, kChatPartEve, protocol::requests::ChatHistory{Json(6), f.id, 4, 2},
                   recheck);
    CHECK(f.eve->received.empty());  // read on the blocking pool
    f.run();
    REQUIRE(f.eve->received.size() == 1);
    const Json& page = f.eve->received[0];
    CHECK(page["type"] == "chat_history");
    CHECK(page["more"] == true);         // a full page after line 1
    REQUIRE(page["lines"].size() == 1);  // lines 2 and 3, but bob's line 2 is muted
    CHECK(page["lines"][0]["n"] == 3);

    f.store.fail_reads = true;
    f.chat.history(f.eve, kChatPartEve, protocol::requests::ChatHistory{Json(7), f.id, {}, 2},
                   recheck);
    f.run();
    CHECK(f.eve->received.back()["code"] == "storage_failed");
    // The table's refusals answered it, from the blocking pool: naming the table.
    CHECK(f.eve->received.back()["table"] == "t1");
    CHECK(f.eve->received.back()["id"] == 7);

    ChatPartFixture closed;
    closed.settings.spectators = false;
    TableChat no_spectators{closed.id,        closed.settings,
                            closed.store,     closed.guards,
                            closed.refusals,  closed.blocking,
                            closed.strand,    closed.seats,
                            closed.followers, [&closed] { return closed.owner; }};
    Recheck allowed{.allowed = true};
    no_spectators.history(closed.eve, kChatPartEve,
                          protocol::requests::ChatHistory{Json(8), closed.id, {}, 2}, allowed);
    CHECK(allowed.wanted);
    CHECK(closed.eve->received.empty());
    no_spectators.history(closed.eve, kChatPartEve,
                          protocol::requests::ChatHistory{Json(8), closed.id, {}, 2}, recheck);
    REQUIRE(closed.eve->received.size() == 1);
    CHECK(closed.eve->received[0]["code"] == "spectators_not_allowed");
}

TEST_CASE("table chat: another server's line is read once and sent, its deletion reaches all",
          "[server]") {
    ChatPartFixture f;
    f.store.stored.push_back({1, kChatPartBob.id, "bob", 1, "from afar", 0});
    f.guards.muted_pairs.insert({kChatPartEve.id, kChatPartBob.id});
    ChatNews& news = f.chat;
    news.read_chat_line(1);
    f.run();
    REQUIRE(f.ann->received.size() == 1);
    CHECK(f.ann->received[0]["text"] == "from afar");
    CHECK(f.bob->received.size() == 1);
    CHECK(f.eve->received.empty());
    news.read_chat_line(1);  // known now
    f.run();
    CHECK(f.ann->received.size() == 1);

    news.read_chat_line(2);  // deleted before it was read: nothing
    f.run();
    CHECK(f.ann->received.size() == 1);

    news.on_chat_deleted(1);
    CHECK(f.ann->received.back()["type"] == "chat_deleted");
    CHECK(f.eve->received.size() == 1);
    CHECK_FALSE(f.chat.lines().knows(1));
}

}  // namespace gcor::server
