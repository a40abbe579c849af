// A table's refusals on their own: an error reply naming the table and the request, a blocked
// user told the table is not there, a refusal on a copy held back while the store may be read
// first, and a change not stored answered by the latest write's outcome.
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <memory>
#include <string>
#include <vector>

#include "tables/table_refusals.hpp"

namespace gcor::server {
namespace {

namespace net = boost::asio;
using protocol::ErrorCode;
using protocol::Json;

// The replies the part sent, each with the request id it answered.
class RefusalsPartPeer final : public Peer {
  public:
    std::vector<Json> replies;
    std::vector<Json> reply_ids;
    void send(Message) override { FAIL("a refusal is a reply"); }
    void send_reply(Message message, const Json& id) override {
        replies.push_back(Json::parse(*message));
        reply_ids.push_back(id);
    }
    void end_session(std::uint64_t) override {}
};

class RefusalsPartBlocks final : public BlockedUsers {
  public:
    std::uint64_t blocker = 0;
    std::uint64_t blocked_user = 0;
    bool blocked(std::uint64_t by, std::uint64_t user) const override {
        return by == blocker && user == blocked_user;
    }
};

// A store whose every write ends as `outcome`, at once.
class RefusalsPartStorage final : public TableStorage {
  public:
    Written outcome = Written::committed;
    void save_table(const StoredTable&, TableDone done) override { done(outcome); }
    void remove_table(const std::string&, std::uint64_t, TableDone done) override { done(outcome); }
    void append_move(const TableProgress&, const StoredMove&, TableDone done) override {
        done(outcome);
    }
    std::optional<LoadedTable> load_table(const std::string&) override { return std::nullopt; }
    std::optional<LoadedTable> load_table_since(const std::string&, std::uint64_t) override {
        return std::nullopt;
    }
};

const User kRefusalsPartAnn{7, "ann", false};
const User kRefusalsPartBob{8, "bob", false};

struct RefusalsPartFixture {
    net::io_context io;
    TableWrites::Strand strand = net::make_strand(io);
    RefusalsPartStorage store;
    CommitPipeline pipeline{CommitPipeline::Stage::ready};
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    TableWrites writes{store, pipeline, strand, [this] { return owner; }};
    Metrics metrics;
    RefusalsPartBlocks blocks;
    std::string id = "t1";
    TableRefusals refusals{id, kRefusalsPartAnn.id, metrics, blocks, writes};
    std::shared_ptr<RefusalsPartPeer> peer = std::make_shared<RefusalsPartPeer>();

    // The table's latest write ends as `outcome`.
    void write(Written outcome) {
        store.outcome = outcome;
        writes.save([] { return StoredTable{}; }, [](Written) {});
        io.restart();
        io.run();
        REQUIRE(writes.last() == outcome);
    }
};

}  // namespace

TEST_CASE("table refusals: an error names the table and answers the request", "[server]") {
    RefusalsPartFixture at;
    at.refusals.error(at.peer, ErrorCode::seat_taken, "that seat is taken", Json(4));
    at.refusals.error(at.peer, ErrorCode::bad_field, "no such seat", Json(), "why");

    REQUIRE(at.peer->replies.size() == 2);
    CHECK(at.peer->replies[0] == Json{{"type", "error"},
                                      {"code", "seat_taken"},
                                      {"message", "that seat is taken"},
                                      {"id", 4},
                                      {"table", "t1"}});
    CHECK(at.peer->reply_ids[0] == Json(4));
    CHECK(at.peer->replies[1]["reason"] == "why");
    CHECK_FALSE(at.peer->replies[1].contains("id"));
}

TEST_CASE("table refusals: the creator's blocked users are told the table is not there",
          "[server]") {
    RefusalsPartFixture at;
    at.blocks.blocker = kRefusalsPartAnn.id;
    at.blocks.blocked_user = kRefusalsPartBob.id;

    CHECK_FALSE(at.refusals.kept_away(at.peer, kRefusalsPartAnn, Json(1)));
    CHECK(at.peer->replies.empty());

    CHECK(at.refusals.kept_away(at.peer, kRefusalsPartBob, Json(2)));
    REQUIRE(at.peer->replies.size() == 1);
    CHECK(at.peer->replies[0]["code"] == "not_found");
    CHECK(at.peer->replies[0]["message"] == "no table \"t1\"");
    CHECK(at.peer->replies[0]["id"] == 2);
}

TEST_CASE("table refusals: a refusal on the copy waits while the store may be read first",
          "[server]") {
    RefusalsPartFixture at;
    Recheck recheck{.allowed = true};
    at.refusals.refuse_on_copy(at.peer, recheck, ErrorCode::already_started, "the game has started",
                               Json(3));
    CHECK(recheck.wanted);
    CHECK(at.peer->replies.empty());

    // Run again once the table has read the store: no longer allowed, refused.
    recheck.allowed = false;
    at.refusals.refuse_on_copy(at.peer, recheck, ErrorCode::already_started, "the game has started",
                               Json(3));
    CHECK_FALSE(recheck.wanted);
    REQUIRE(at.peer->replies.size() == 1);
    CHECK(at.peer->replies[0]["code"] == "already_started");
}

TEST_CASE("table refusals: a change not stored is stale after a conflict, else a failure",
          "[server]") {
    RefusalsPartFixture at;
    at.write(Written::failed);
    at.refusals.not_saved(at.peer, Json(5));
    at.write(Written::conflict);
    at.refusals.not_saved(at.peer, Json(6));

    REQUIRE(at.peer->replies.size() == 2);
    CHECK(at.peer->replies[0]["code"] == "storage_failed");
    CHECK(at.peer->replies[0]["id"] == 5);
    CHECK(at.peer->replies[1]["code"] == "stale_version");
    CHECK(at.peer->replies[1]["id"] == 6);
}

}  // namespace gcor::server
