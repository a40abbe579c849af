// Two cor-server processes on one PostgreSQL database, and what is about users rather than tables:
// messages to a user reach their connections on the other node (an invitation, its decline),
// presence counts across nodes (a friend online there, offline once that node dies), and a name
// changed on one node (an erased account, a guest who registered) reaches the tables the other
// node holds.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "postgres_support.hpp"
#include "table_support.hpp"

using namespace gcor::testing;

namespace {

// Heartbeats this often, so that a dead node is forgotten within a second.
const std::vector<std::string> kUsersBeat{"--presence-beat-ms", "200"};

// Two nodes on a fresh database.
struct UsersCluster {
    std::string url = PostgresServer::shared().create_database();
    std::unique_ptr<ServerProcess> one = start();
    std::unique_ptr<ServerProcess> two = start();

    std::unique_ptr<ServerProcess> start() const {
        std::vector<std::string> args = kFast;
        args.insert(args.end(), {"--database", url});
        args.insert(args.end(), kUsersBeat.begin(), kUsersBeat.end());
        return std::make_unique<ServerProcess>(args);
    }
};

// A user registered through `server`: their token and id.
struct UsersAccount {
    std::string token;
    std::uint64_t id = 0;
};
UsersAccount users_register(const ServerProcess& server, const std::string& name,
                            const std::string& guest_token = "") {
    const auto made = server.post(
        "/api/register", Json{{"name", name}, {"password", "long enough pw"}}.dump(), guest_token);
    INFO(made.second);
    REQUIRE(made.first == 201);
    const Json body = Json::parse(made.second);
    return {body["token"], body["user"]["id"]};
}

// `name` registered through `server` and connected to it.
struct UsersPlayer {
    UsersAccount account;
    Follower follower;
    UsersPlayer(const ServerProcess& server, const std::string& name)
        : account(users_register(server, name)),
          follower(server.port(), account.token, Follower::with_token) {}
};

// Whether `server` shows `friend_id` online to the user of `token` (GET /api/friends).
bool users_online(const ServerProcess& server, const std::string& token, std::uint64_t friend_id) {
    const auto [status, body] = server.get("/api/friends", token);
    REQUIRE(status == 200);
    const Json answer = Json::parse(body);
    for (const Json& listed : answer["friends"])
        if (listed["user"] == friend_id) return listed["online"];
    FAIL("not a friend: " << friend_id);
    return false;
}

// Asks until `server` shows the friend as `online` (at most `patience`); whether it did.
bool users_online_becomes(const ServerProcess& server, const std::string& token,
                          std::uint64_t friend_id, bool online,
                          std::chrono::milliseconds patience) {
    const auto until = std::chrono::steady_clock::now() + patience;
    while (users_online(server, token, friend_id) != online) {
        if (std::chrono::steady_clock::now() > until) return false;
        std::this_thread::sleep_for(50ms);
    }
    return true;
}

// Waits until `follower` hears its table's summary naming seat `seat` `name`.
void users_wait_for_name(Follower& follower, int seat, const std::string& name) {
    const auto renamed = follower.client->wait_for(
        [&](const Json& m) {
            const Json* summary = type_of(m) == "table"      ? &m["table"]
                                  : type_of(m) == "snapshot" ? &m["summary"]
                                                             : nullptr;
            return summary && table_of(m) == follower.table &&
                   (*summary)["seats"][seat].value("name", "") == name;
        },
        10s);
    INFO(follower.name << " waits to see seat " << seat << " named " << name);
    CHECK(renamed);
}

}  // namespace

TEST_CASE(
    "cluster users: an invitation reaches the invitee on the other node, the decline the host",
    "[cluster][postgres]") {
    UsersCluster cluster;
    UsersPlayer ann(*cluster.one, "Ann");
    UsersPlayer ben(*cluster.two, "Ben");
    Follower& host = ann.follower;
    Follower& invitee = ben.follower;

    const std::string table =
        create(host, create_request(options(2), {}, {{"invite", Json::array({ben.account.id})}}));
    const auto invitation = invitee.client->wait_for(of_type("invitation", table), 10s);
    REQUIRE(invitation);
    CHECK((*invitation)["from"] == Json{{"user", ann.account.id}, {"name", "Ann"}});

    const auto declined = invitee.request(Json{{"type", "decline"}, {"table", table}});
    REQUIRE(declined);
    CHECK(type_of(*declined) == "declined");
    const auto told = host.client->wait_for(of_type("invitation_declined", table), 10s);
    REQUIRE(told);
    CHECK((*told)["user"] == Json{{"user", ben.account.id}, {"name", "Ben"}});
    // Each node told its own connections only: Ben heard of his invitation once.
    int invitations = 0;
    for (const std::string& text : invitee.client->received_texts)
        invitations += type_of(Json::parse(text)) == "invitation" ? 1 : 0;
    CHECK(invitations == 1);
}

TEST_CASE("cluster users: a friend connected to the other node is online, offline once it dies",
          "[cluster][postgres]") {
    UsersCluster cluster;
    const UsersAccount ann = users_register(*cluster.one, "Ann");
    const UsersAccount ben = users_register(*cluster.one, "Ben");
    REQUIRE(cluster.one->put("/api/friends/" + std::to_string(ben.id), "", ann.token).first == 200);
    CHECK_FALSE(users_online(*cluster.one, ann.token, ben.id));

    {
        Follower on_two(cluster.two->port(), ben.token, Follower::with_token);
        CHECK(users_online_becomes(*cluster.one, ann.token, ben.id, true, 5s));
    }
    // His connection closed: gone from node two's users at once, not at its next beat.
    CHECK(users_online_becomes(*cluster.one, ann.token, ben.id, false, 5s));

    Follower again(cluster.two->port(), ben.token, Follower::with_token);
    CHECK(users_online_becomes(*cluster.one, ann.token, ben.id, true, 5s));
    // Node two dies without a word: after three missed beats (0.6 s) node one forgets its users.
    cluster.two->kill_hard();
    CHECK(users_online_becomes(*cluster.one, ann.token, ben.id, false, 5s));
}

TEST_CASE("cluster users: an account erased on one node shows as deleted at the other's tables",
          "[cluster][postgres]") {
    UsersCluster cluster;
    UsersPlayer ann(*cluster.two, "Ann");
    UsersPlayer ben(*cluster.two, "Ben");
    Follower& ann_two = ann.follower;
    Follower& ben_two = ben.follower;
    const std::string table = create(ann_two, create_request(options(2)));
    CHECK(sit(ben_two, table) == 1);
    start(ann_two, {&ann_two, &ben_two});

    const auto erased =
        cluster.one->remove("/api/account", ben.account.token, R"({"password":"long enough pw"})");
    INFO(erased.second);
    REQUIRE(erased.first == 200);
    users_wait_for_name(ann_two, 1, "deleted player " + std::to_string(ben.account.id));
    // His session ended on node one: his connection to node two closes too.
    CHECK(ben_two.client->wait_for([](const Json&) { return false; }, 5s) == std::nullopt);
    CHECK(ben_two.client->closed());
}

TEST_CASE("cluster users: a guest who registers on one node is renamed at the other's tables",
          "[cluster][postgres]") {
    UsersCluster cluster;
    Follower ann(cluster.two->port(), "Ann");
    Follower gus(cluster.two->port(), "Gus");
    const std::string table = create(ann, create_request(options(3)));
    CHECK(sit(gus, table) == 1);
    users_register(*cluster.one, "Gaius", gus.token);
    users_wait_for_name(ann, 1, "Gaius");
}
