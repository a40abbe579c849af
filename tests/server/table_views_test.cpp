// A table's views on their own: the state for one viewer (the summary before the start, as a
// reply when a request asked; a snapshot of the game as its seat sees it, with the chat lines
// it reads, after), again for a slow reader that follows the table, a message to everyone, and
// the summary to the followers, to the lobby (only made when somebody listens), or to both.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "table_part_support.hpp"
#include "tables/table.hpp"
#include "tables/table_views.hpp"

namespace gcor::server {
namespace {

using protocol::Json;

// What the part sent, and whether each was a reply (with the request id it answered).
class ViewsPartPeer final : public Peer {
  public:
    std::vector<Json> sent;
    std::vector<Json> reply_ids;  // null for a message that answered no request
    void send(Message message) override {
        sent.push_back(Json::parse(*message));
        reply_ids.emplace_back();
    }
    void send_reply(Message message, const Json& id) override {
        sent.push_back(Json::parse(*message));
        reply_ids.push_back(id);
    }
    void end_session(std::uint64_t) override {}
};

class ViewsPartGuards final : public ChatGuards {
  public:
    std::set<std::pair<std::uint64_t, std::uint64_t>> muted_pairs;  // (reader, writer)
    bool is_admin(const User&) const override { return false; }
    bool muted(std::uint64_t user, std::uint64_t other) const override {
        return muted_pairs.contains({user, other});
    }
    std::optional<std::chrono::milliseconds> take_line(std::uint64_t, Clock::time_point) override {
        return std::nullopt;
    }
};

// The lobby as the views see it: the summaries it was given, made when somebody listens.
class ViewsPartHost final : public TableHost {
  public:
    bool listening = true;
    std::vector<std::pair<bool, Json>> published;  // (public, summary)
    void forget(const std::string&, const Table*) override {}
    void find(const std::string&, OnFound) override {}
    void publish(bool is_public, const std::function<Json()>& summary) override {
        if (listening) published.emplace_back(is_public, summary());
    }
};

const User kViewsPartAnn{7, "ann", false};
const User kViewsPartBob{8, "bob", false};

struct ViewsPartFixture {
    Metrics metrics;
    std::string id = "t1";
    protocol::TableSettings settings;
    ViewsPartGuards guards;
    ChatLines chat{settings, guards};
    CountedStatus status{metrics};
    TableSeats seats{2};
    TableGame game{true};
    Followers followers;
    int summaries = 0;  // how often the part asked for the table's summary
    ViewsPartHost host;
    TableViews views{id, host, true, metrics, status, game, chat, followers, [this] {
                         ++summaries;
                         return Json{{"id", "t1"}, {"status", "made here"}};
                     }};
    std::shared_ptr<ViewsPartPeer> ann = std::make_shared<ViewsPartPeer>();
    std::shared_ptr<ViewsPartPeer> bob = std::make_shared<ViewsPartPeer>();

    void start() {
        seats.seat_person(0, kViewsPartAnn);
        seats.seat_person(1, kViewsPartBob);
        start_part_game(seats, game, status);
    }
    // A line from each player, bob's muted by ann.
    void chat_lines() {
        chat.keep({1, kViewsPartAnn.id, "ann", 0, "hello", 1000});
        chat.keep({2, kViewsPartBob.id, "bob", 1, "hi", 2000});
        guards.muted_pairs.insert({kViewsPartAnn.id, kViewsPartBob.id});
    }
};

}  // namespace

TEST_CASE("table views: before the start the state is the table's summary", "[server]") {
    ViewsPartFixture at;
    at.views.send_state(at.ann, std::nullopt, kViewsPartAnn.id, Json(3));
    at.views.send_state(at.ann, std::nullopt, kViewsPartAnn.id);

    REQUIRE(at.ann->sent.size() == 2);
    CHECK(at.ann->sent[0] ==
          Json{{"type", "table"}, {"table", {{"id", "t1"}, {"status", "made here"}}}, {"id", 3}});
    CHECK(at.ann->reply_ids[0] == Json(3));
    CHECK_FALSE(at.ann->sent[1].contains("id"));
    CHECK(at.ann->reply_ids[1].is_null());
    CHECK(at.summaries == 2);
}

TEST_CASE("table views: in the game the state is a snapshot as the seat sees it, with its chat",
          "[server]") {
    ViewsPartFixture at;
    at.start();
    at.chat_lines();
    at.views.send_state(at.ann, engine::Seat{0}, kViewsPartAnn.id, Json(4));
    at.views.send_state(at.bob, std::nullopt, kViewsPartBob.id);

    REQUIRE(at.ann->sent.size() == 1);
    const Json& snapshot = at.ann->sent[0];
    CHECK(snapshot["type"] == "snapshot");
    CHECK(snapshot["table"] == "t1");
    CHECK(snapshot["version"] == at.game.version());
    CHECK(snapshot["seat"] == 0);
    CHECK(snapshot["summary"]["status"] == "made here");
    CHECK(snapshot["id"] == 4);
    CHECK(at.ann->reply_ids[0] == Json(4));
    // ann muted bob: only her own line.
    REQUIRE(snapshot["chat"].size() == 1);
    CHECK(snapshot["chat"][0]["text"] == "hello");

    // A spectator's snapshot: no seat, no request answered, every line.
    REQUIRE(at.bob->sent.size() == 1);
    CHECK(at.bob->sent[0]["seat"].is_null());
    CHECK_FALSE(at.bob->sent[0].contains("id"));
    CHECK(at.bob->sent[0]["chat"].size() == 2);
    // The message as snapshot() makes it; a spectator sees the game otherwise.
    CHECK(snapshot == Json::parse(at.views.snapshot(engine::Seat{0}, kViewsPartAnn.id,
                                                    snapshot["summary"], Json(4))));
    CHECK(at.bob->sent[0]["view"] != snapshot["view"]);
}

TEST_CASE("table views: a slow reader that follows gets its state again, as it follows",
          "[server]") {
    ViewsPartFixture at;
    at.start();
    at.followers.follow(at.ann, engine::Seat{0}, kViewsPartAnn.id);

    at.views.resend_state(at.ann);
    at.views.resend_state(at.bob);  // follows nothing here: nothing sent

    REQUIRE(at.ann->sent.size() == 1);
    CHECK(at.ann->sent[0]["type"] == "snapshot");
    CHECK(at.ann->sent[0]["seat"] == 0);
    CHECK(at.bob->sent.empty());
    CHECK(at.metrics.snapshots_for_slow_readers.load() == 1);
}

TEST_CASE("table views: a broadcast reaches every follower", "[server]") {
    ViewsPartFixture at;
    at.followers.follow(at.ann, engine::Seat{0}, kViewsPartAnn.id);
    at.followers.follow(at.bob, std::nullopt, kViewsPartBob.id);

    at.views.broadcast(Json{{"type", "forfeited"}, {"table", "t1"}, {"seat", 1}});

    const Json expected{{"type", "forfeited"}, {"table", "t1"}, {"seat", 1}};
    REQUIRE(at.ann->sent.size() == 1);
    CHECK(at.ann->sent[0] == expected);
    REQUIRE(at.bob->sent.size() == 1);
    CHECK(at.bob->sent[0] == expected);
}

TEST_CASE("table views: the summary goes to the followers, the lobby, or both from one",
          "[server]") {
    ViewsPartFixture at;
    at.followers.follow(at.ann, engine::Seat{0}, kViewsPartAnn.id);
    const Json summary{{"type", "table"}, {"table", {{"id", "t1"}, {"status", "made here"}}}};

    at.views.broadcast_summary();
    REQUIRE(at.ann->sent.size() == 1);
    CHECK(at.ann->sent[0] == summary);
    CHECK(at.host.published.empty());

    at.views.publish();
    CHECK(at.ann->sent.size() == 1);
    REQUIRE(at.host.published.size() == 1);
    CHECK(at.host.published[0] == std::pair<bool, Json>{true, summary["table"]});

    at.summaries = 0;
    at.views.announce();
    REQUIRE(at.ann->sent.size() == 2);
    CHECK(at.ann->sent[1] == summary);
    REQUIRE(at.host.published.size() == 2);
    CHECK(at.host.published[1].second == summary["table"]);
    CHECK(at.summaries == 1);  // made once for both

    // Nobody listening in the lobby: the summary is not made for it.
    at.host.listening = false;
    at.summaries = 0;
    at.views.publish();
    CHECK(at.summaries == 0);
}

}  // namespace gcor::server
