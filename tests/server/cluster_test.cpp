// Two cor-server processes ("nodes") on one PostgreSQL database, each with its own clients: what
// one node's players do reaches the other's followers, lobby and players; the database decides
// between two changes made at once; a node killed mid-game loses nothing acknowledged, and the
// other goes on with its players and its bots.
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "postgres_support.hpp"
#include "table_support.hpp"

using namespace gcor::testing;

namespace {

// Two nodes on a fresh database; `first` and `second` are the nodes' extra arguments.
struct Cluster {
    std::string url = PostgresServer::shared().create_database();
    std::unique_ptr<ServerProcess> one;
    std::unique_ptr<ServerProcess> two;

    explicit Cluster(const std::vector<std::string>& first = {},
                     const std::vector<std::string>& second = {})
        : one(std::make_unique<ServerProcess>(args(first))),
          two(std::make_unique<ServerProcess>(args(second))) {}

    std::vector<std::string> args(const std::vector<std::string>& extra) const {
        std::vector<std::string> result = kFast;
        result.insert(result.end(), {"--database", url});
        result.insert(result.end(), extra.begin(), extra.end());
        return result;
    }
};

// Waits until `follower`'s connection has a message about its table that satisfies `ready`.
Json wait_for_table(Follower& follower, const std::function<bool(const Json&)>& ready) {
    const auto message = follower.client->wait_for(
        [&](const Json& m) { return table_of(m) == follower.table && ready(m); }, 10s);
    INFO(follower.name << " waits for news of table " << follower.table);
    REQUIRE(message);
    return *message;
}

// Ann creates a two-player table on the first node, Bob sits on the second, Ann starts once her
// node shows Bob seated.
void seat_ann_and_bob(Follower& ann, Follower& bob) {
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    wait_for_table(ann, [](const Json& m) {
        return type_of(m) == "table" && m["table"]["seats"][1]["kind"] == "human";
    });
    start(ann, {&ann, &bob});
}

Json cluster_json(const std::string& body) {
    return Json::parse(body);
}

// Syncs both followers of one user's table until their nodes agree; the snapshot.
Json agreed(Follower& one, Follower& other) {
    for (int attempt = 0; attempt < 200; ++attempt) {
        const Json a = sync(one);
        const Json b = sync(other);
        if (a["version"] == b["version"] && plain(a["view"]) == plain(b["view"])) return a;
        std::this_thread::sleep_for(20ms);
    }
    FAIL("the two nodes never showed " << one.name << " the same table");
    return Json();
}

}  // namespace

TEST_CASE("cluster: a game across two nodes, each player's moves reach the other node as patches",
          "[cluster][postgres]") {
    Cluster cluster;
    Follower ann(cluster.one->port(), "Ann");
    Follower bob(cluster.two->port(), "Bob");
    seat_ann_and_bob(ann, bob);
    // A spectator on each node.
    Follower cat(cluster.two->port(), "Cat");
    Follower dan(cluster.one->port(), "Dan");
    for (Follower* spectator : {&cat, &dan}) {
        spectator->follow(ann.table);
        const auto watched = spectator->request(spectator->about_table("watch"));
        REQUIRE(watched);
        REQUIRE(type_of(*watched) == "snapshot");
        spectator->absorb(*watched);
    }

    Game game{{&ann, &bob, &cat, &dan}};
    REQUIRE(game.play());
    for (Follower* follower : {&ann, &bob, &cat, &dan}) {
        check_final(*follower);
        INFO(follower->name);
        // Every move after the start came as a patch, whichever node it was made on (Follower
        // checks that each patch continues the version it has).
        CHECK(follower->snapshots == 1);
        CHECK(follower->patches >= game.moves);
    }
    // Both nodes serve the same record.
    const auto record_one = cluster.one->get("/api/tables/" + ann.table + "/record");
    const auto record_two = cluster.two->get("/api/tables/" + ann.table + "/record");
    CHECK(record_one.first == 200);
    CHECK(record_one == record_two);
}

TEST_CASE(
    "cluster: moves made at one version on both nodes, one is stored and the other is "
    "refused with stale_version",
    "[cluster][postgres]") {
    Cluster cluster;
    Follower ann(cluster.one->port(), "Ann");
    Follower bob(cluster.two->port(), "Bob");
    seat_ann_and_bob(ann, bob);
    // Ann again, on the other node.
    Follower ann_too(cluster.two->port(), ann.token, Follower::with_token);
    ann_too.follow(ann.table);
    ann_too.seat = ann.seat;

    int races = 0;
    int rounds = 0;
    for (; races < 6 && rounds < 60; ++rounds) {
        const Json state = agreed(ann, ann_too);
        if (!state["view"]["result"].is_null()) break;
        const std::uint64_t version = state["version"];
        const Json& legal = state["view"]["moves"];
        if (state["view"]["to_act"] != *ann.seat) {
            // Bob moves, on his node, at the version it shows him.
            const Json bobs = sync(bob);
            const auto reply =
                bob.request(move_json(bob.table, bobs["version"], "bob-" + std::to_string(rounds),
                                      bobs["view"]["moves"][0]));
            REQUIRE(reply);
            INFO(reply->dump());
            CHECK(acknowledges(*reply, "bob-" + std::to_string(rounds)));
            continue;
        }
        REQUIRE_FALSE(legal.empty());
        ++races;
        // The same seat's two moves at once, one per node.
        const std::string first_id = "one-" + std::to_string(rounds);
        const std::string second_id = "two-" + std::to_string(rounds);
        ann.client->send(move_json(ann.table, version, first_id, legal[0]));
        ann_too.client->send(move_json(ann.table, version, second_id, legal[legal.size() - 1]));
        const auto reply_of = [](Follower& who, const std::string& move_id) {
            return who.client->wait_for(
                [&](const Json& m) {
                    return acknowledges(m, move_id) ||
                           (type_of(m) == "error" && m["code"] == "stale_version");
                },
                10s);
        };
        const auto first = reply_of(ann, first_id);
        const auto second = reply_of(ann_too, second_id);
        REQUIRE(first);
        REQUIRE(second);
        INFO(first->dump() << "\n" << second->dump());
        const bool first_stored = acknowledges(*first, first_id);
        const bool second_stored = acknowledges(*second, second_id);
        CHECK(first_stored != second_stored);  // exactly one
        const Json& refused = first_stored ? *second : *first;
        CHECK(refused["code"] == "stale_version");
        // Both nodes go on from the move that was stored.
        const Json after = agreed(ann, ann_too);
        CHECK(after["version"] == version + 1);
    }
    CHECK(races >= 3);
    // The move log has one move per version: the game replays to the state both nodes show.
    const Json last = agreed(ann, ann_too);
    const auto bobs = sync(bob);
    CHECK(bobs["version"] == last["version"]);
}

TEST_CASE(
    "cluster: a node reads the table before refusing on its copy: a start right after a sit on "
    "the other node, a seat freed there",
    "[cluster][postgres]") {
    Cluster cluster;
    // A few rounds: each start races the news of the sit, which a refusal would have lost.
    for (int round = 0; round < 3; ++round) {
        const std::string n = std::to_string(round);
        Follower ann(cluster.one->port(), "Ann " + n);
        Follower bob(cluster.two->port(), "Bob " + n);
        const std::string table = create(ann, create_request(options(2)));
        sit(bob, table);
        const auto started = ann.request(ann.about_table("start"));
        REQUIRE(started);
        INFO(started->dump());
        CHECK(type_of(*started) == "started");
    }

    for (int round = 0; round < 3; ++round) {
        const std::string n = std::to_string(round);
        Follower ann(cluster.one->port(), "Ann " + n);
        Follower bob(cluster.two->port(), "Bob " + n);
        Follower cy(cluster.one->port(), "Cy " + n);
        const std::string table = create(ann, create_request(options(2)));
        sit(bob, table, 1);
        wait_for_table(ann, [](const Json& m) {
            return type_of(m) == "table" && m["table"]["seats"][1]["kind"] == "human";
        });
        // Bob leaves on the second node; Cy takes his seat on the first, which saw him seated.
        const auto left = bob.request(bob.about_table("leave"));
        REQUIRE(left);
        REQUIRE(type_of(*left) == "left");
        const auto seated = cy.request(Json{{"type", "sit"}, {"table", table}, {"seat", 1}});
        REQUIRE(seated);
        INFO(seated->dump());
        CHECK(type_of(*seated) == "seated");
    }
}

TEST_CASE("cluster: chat lines, lobby updates and turn notices reach users on the other node",
          "[cluster][postgres]") {
    Cluster cluster;
    Follower lena(cluster.two->port(), "Lena");  // looks at the lobby on the second node
    const auto subscribed = lena.request(Json{{"type", "subscribe_lobby"}});
    REQUIRE(subscribed);

    Follower ann(cluster.one->port(), "Ann");
    const std::string table = create(ann, create_request(options(2)));
    // The table made on the first node shows up in the second node's lobby, with Ann seated.
    const auto listed_there = lena.client->wait_for(
        [&](const Json& m) {
            return type_of(m) == "lobby_update" && table_of(m) == table &&
                   m["table"]["seats"][0]["kind"] == "human";
        },
        10s);
    CHECK(listed_there);

    Follower bob(cluster.two->port(), "Bob");
    sit(bob, table);
    wait_for_table(ann, [](const Json& m) {
        return type_of(m) == "table" && m["table"]["seats"][1]["kind"] == "human";
    });
    Follower lars(cluster.one->port(), "Lars");  // the lobby on the first node
    REQUIRE(lars.request(Json{{"type", "subscribe_lobby"}}));
    start(ann, {&ann, &bob});
    // The start, made on the first node, reaches the lobby of both.
    for (Follower* watcher : {&lena, &lars}) {
        INFO(watcher->name);
        const auto started = watcher->client->wait_for(
            [&](const Json& m) {
                return type_of(m) == "lobby_update" && table_of(m) == table &&
                       m["table"]["status"] == "playing";
            },
            10s);
        CHECK(started);
    }

    // Chat from either node reaches the other.
    REQUIRE(ann.request(Json{{"type", "chat"}, {"table", table}, {"text", "hello from one"}}));
    const auto heard = bob.client->wait_for(
        [](const Json& m) { return type_of(m) == "chat" && m["text"] == "hello from one"; }, 10s);
    REQUIRE(heard);
    CHECK((*heard)["from"]["name"] == "Ann");
    const auto answer =
        bob.request(Json{{"type", "chat"}, {"table", table}, {"text", "hello from two"}});
    REQUIRE(answer);
    CHECK(type_of(*answer) == "chat");
    const auto answered = ann.client->wait_for(
        [](const Json& m) { return type_of(m) == "chat" && m["text"] == "hello from two"; }, 10s);
    REQUIRE(answered);
    CHECK((*answered)["n"] == (*heard)["n"].get<int>() + 1);

    // Bob also has a connection on the second node that does not follow the table: when Ann's
    // move on the first node makes it his turn, it is told there.
    Follower bob_elsewhere(cluster.two->port(), bob.token, Follower::with_token);
    bob_elsewhere.client->keep_turn_notices = true;
    Game game{{&ann, &bob}};
    bool ann_moved = false;
    for (int moves = 0; moves < 80 && !(ann_moved && bob.my_turn()); ++moves) {
        ann_moved = ann.my_turn();
        game.move(ann_moved ? ann : bob);
    }
    REQUIRE(ann_moved);
    REQUIRE(bob.my_turn());
    const auto notice = bob_elsewhere.client->wait_for(
        [&](const Json& m) {
            return of_type("your_turn", table)(m) && m["version"] == bob.version;
        },
        10s);
    REQUIRE(notice);
    CHECK((*notice)["seat"] == *bob.seat);
    CHECK((*notice)["version"] == bob.version);
}

TEST_CASE(
    "cluster: a node killed with kill -9 loses nothing acknowledged, and its player and its "
    "bot go on from the other node",
    "[cluster][postgres]") {
    // The first node's bot waits two seconds before moving: long enough to die before it does.
    Cluster cluster({"--bot-delay-ms", "2000"});
    Follower ann(cluster.one->port(), "Ann");
    const std::string table = create(ann, create_request(options(2), {nullptr, "greedy"}));
    start(ann, {&ann});
    Follower cat(cluster.two->port(), "Cat");  // watches on the second node
    cat.follow(table);
    const auto watched = cat.request(cat.about_table("watch"));
    REQUIRE(watched);
    cat.absorb(*watched);

    // Ann moves until the bot is to act, then her node dies before the bot's move.
    Game game{{&ann, &cat}};
    Json last_ack;
    for (int moves = 0; moves < 40; ++moves) {
        if (!ann.my_turn()) {
            REQUIRE(ann.next(10s));  // the bot's move
            continue;
        }
        last_ack = game.move(ann);
        if (!ann.my_turn()) break;
    }
    REQUIRE_FALSE(ann.my_turn());
    const std::uint64_t acknowledged = last_ack["to"];
    cluster.one->kill_hard();

    // The second node makes the bot's move once the first has not (within seconds).
    cat.catch_up(acknowledged);
    INFO("the bot's move after the first node died");
    REQUIRE(cat.next(15s));
    CHECK(cat.version > acknowledged);

    // Ann comes back through the second node and plays the game out there.
    ann.reconnect(cluster.two->port());
    CHECK(ann.version >= acknowledged + 1);
    Game rest{{&ann, &cat}};
    REQUIRE(rest.play());
    check_final(ann);
    check_final(cat);
}

TEST_CASE("cluster: a vacation declared through one node counts on the other",
          "[cluster][postgres]") {
    Cluster cluster;
    const auto registered = cluster.one->post(
        "/api/register", Json{{"name", "Livia"}, {"password", "aqueducts-forever"}}.dump());
    REQUIRE(registered.first == 201);
    const std::string token = cluster_json(registered.second)["token"];
    // Each node knows her vacations (none) before the change.
    CHECK(cluster_json(cluster.one->get("/api/vacation", token).second)["vacation"].is_null());
    CHECK(cluster_json(cluster.two->get("/api/vacation", token).second)["vacation"].is_null());

    const std::int64_t to = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count() +
                            2 * 24 * 3600 * 1000LL;
    const auto declared = cluster.two->post("/api/vacation", Json{{"to", to}}.dump(), token);
    REQUIRE(declared.first == 200);
    Json seen;
    for (int attempt = 0; attempt < 100; ++attempt) {
        seen = cluster_json(cluster.one->get("/api/vacation", token).second);
        if (!seen["vacation"].is_null()) break;
        std::this_thread::sleep_for(50ms);
    }
    CHECK(seen["vacation"]["to"] == to);
    CHECK(seen == cluster_json(declared.second));
}
