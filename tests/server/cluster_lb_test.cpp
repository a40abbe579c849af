// Two cor-server nodes on one PostgreSQL database behind HAProxy with docker/haproxy.cfg: the
// topology of docker/compose.cluster.yaml, as processes on loopback.
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "haproxy_support.hpp"
#include "postgres_support.hpp"
#include "server_support.hpp"

using namespace gcor::testing;

namespace {

// Both nodes on one fresh database, the balancer in front of them.
struct BalancedCluster {
    std::string url = PostgresServer::shared().create_database();
    ServerProcess node1{{"--database", url}};
    ServerProcess node2{{"--database", url}};
    HaproxyProcess balancer{node1.port(), node2.port()};
};

// Polls `holds` until it is true or `limit` passed; whether it became true.
bool cluster_until(const std::function<bool()>& holds, std::chrono::milliseconds limit = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!holds()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(20ms);
    }
    return true;
}

// A node's open WebSockets, as its /metrics says.
int node_connections(const ServerProcess& node) {
    return static_cast<int>(metric(node, "gcor_connections"));
}

// The status of GET `path` on `port` (0: no answer).
int status_of_get(std::uint16_t port, const std::string& path) {
    RawConnection connection(port);
    if (!connection.send("GET " + path +
                         " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
        return 0;
    return connection.status();
}

// A guest through the balancer who created a two-seat table with a bot and started it.
struct BalancedPlayer {
    std::unique_ptr<Client> client;
    std::string token;
    std::string table;
};

BalancedPlayer player_with_a_table(std::uint16_t port, const std::string& name) {
    BalancedPlayer player;
    player.client = std::make_unique<Client>(port);
    player.token = player.client->hello(name);
    const auto created = player.client->request(
        Json{{"type", "create_table"},
             {"options", {{"players", 2}, {"rules", "yucata"}, {"shrine", false}}},
             {"bots", {nullptr, "random"}}});
    REQUIRE(created);
    INFO(created->dump());
    REQUIRE(type_of(*created) == "table_created");
    player.table = (*created)["table"]["id"].get<std::string>();
    // The creator is seated after the reply; only a seated player may start.
    REQUIRE(player.client->wait_for([&](const Json& message) {
        return type_of(message) == "seated" && message["table"] == player.table;
    }));
    const auto started = player.client->request(Json{{"type", "start"}, {"table", player.table}});
    REQUIRE(started);
    INFO(started->dump());
    REQUIRE(type_of(*started) == "started");
    return player;
}

bool lists(Client& client, const std::string& table) {
    const auto listing = client.request(Json{{"type", "list_tables"}});
    if (!listing || type_of(*listing) != "tables") return false;
    for (const Json& summary : (*listing)["tables"])
        if (summary["id"] == table) return true;
    return false;
}

// Reads what has arrived; whether the connection is closed.
bool closes(Client& client) {
    while (!client.closed() && client.receive(10ms)) {
    }
    return client.closed();
}

}  // namespace

TEST_CASE("cluster: GET /healthz through HAProxy answers 200", "[cluster][postgres]") {
    BalancedCluster cluster;
    CHECK(status_of_get(cluster.balancer.port(), "/healthz") == 200);
    CHECK(status_of_get(cluster.balancer.port(), "/no-such-file") == 404);
    INFO(cluster.balancer.log());
    CHECK(cluster.balancer.running());
}

TEST_CASE("cluster: WebSockets through HAProxy go to the node with fewer, and each plays there",
          "[cluster][postgres]") {
    BalancedCluster cluster;
    auto both = [&] { return node_connections(cluster.node1) + node_connections(cluster.node2); };
    constexpr int kPlayers = 4;
    std::vector<BalancedPlayer> players;
    std::vector<bool> on_node1;  // by player
    for (int i = 0; i < kPlayers; ++i) {
        const int before = node_connections(cluster.node1);
        players.push_back(player_with_a_table(cluster.balancer.port(), "p" + std::to_string(i)));
        CHECK(lists(*players.back().client, players.back().table));
        REQUIRE(cluster_until([&] { return both() == i + 1; }));
        on_node1.push_back(node_connections(cluster.node1) > before);
    }
    INFO(cluster.balancer.log());
    // Opened one after the other, each to the node with fewer: two and two.
    CHECK(node_connections(cluster.node1) == kPlayers / 2);
    CHECK(node_connections(cluster.node2) == kPlayers / 2);

    // The first player's node loses both its players: the next two connections both go there,
    // where taking turns would send one to each node.
    const bool emptied_node1 = on_node1.front();
    for (std::size_t i = 0; i < players.size(); ++i)
        if (on_node1[i] == emptied_node1) players[i].client.reset();
    REQUIRE(cluster_until([&] { return both() == kPlayers / 2; }));
    for (int i = 0; i < kPlayers / 2; ++i)
        players.push_back(player_with_a_table(cluster.balancer.port(), "q" + std::to_string(i)));
    REQUIRE(cluster_until([&] { return both() == kPlayers; }));
    CHECK(node_connections(cluster.node1) == kPlayers / 2);
    CHECK(node_connections(cluster.node2) == kPlayers / 2);
}

TEST_CASE(
    "cluster: when a node dies its WebSockets close, and players reconnect through HAProxy "
    "to the other node and get their tables",
    "[cluster][postgres]") {
    BalancedCluster cluster;
    constexpr int kPlayers = 4;
    std::vector<BalancedPlayer> players;
    for (int i = 0; i < kPlayers; ++i)
        players.push_back(player_with_a_table(cluster.balancer.port(), "p" + std::to_string(i)));
    REQUIRE(cluster_until([&] {
        return node_connections(cluster.node1) == kPlayers / 2 &&
               node_connections(cluster.node2) == kPlayers / 2;
    }));

    cluster.node1.kill_hard();
    // The dead node's players see their WebSocket close; the others stay connected.
    REQUIRE(cluster_until(
        [&] {
            int closed = 0;
            for (BalancedPlayer& player : players)
                closed += closes(*player.client) ? 1 : 0;
            return closed == kPlayers / 2;
        },
        10s));
    INFO(cluster.balancer.log());

    for (BalancedPlayer& player : players) {
        if (!player.client->closed()) continue;
        // Like the browser client: connect again through the balancer until it answers.
        std::optional<Json> welcome;
        const bool reconnected = cluster_until(
            [&] {
                try {
                    player.client = std::make_unique<Client>(cluster.balancer.port());
                    welcome =
                        player.client->request(Json{{"type", "hello"}, {"token", player.token}});
                    return welcome && type_of(*welcome) == "welcome";
                } catch (const std::exception&) {
                    return false;
                }
            },
            10s);
        REQUIRE(reconnected);
        const auto snapshot =
            player.client->request(Json{{"type", "sync"}, {"table", player.table}});
        REQUIRE(snapshot);
        INFO(snapshot->dump().substr(0, 300));
        CHECK(type_of(*snapshot) == "snapshot");
        CHECK((*snapshot)["table"] == player.table);
    }
    // Every player is on the surviving node.
    CHECK(cluster_until([&] { return node_connections(cluster.node2) == kPlayers; }));
    for (BalancedPlayer& player : players)
        CHECK_FALSE(closes(*player.client));
}
