// Loading a stored table (docs/architecture.md, "Server"): on the blocking pool, never on an I/O
// thread or under the lobby's lock, one load per table at a time. The store is made slow for
// real: the test holds PostgreSQL's lock on the moves, so that a load waits in the database until
// the test lets it go, and counts the loads waiting there.
#include <libpq-fe.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "postgres_support.hpp"
#include "table_support.hpp"

using namespace gcor::testing;

namespace {

// A server on a fresh database with `tables` stored tables not in memory (it restarted since):
// one I/O thread, as on a two-core machine, and no deadline sweep to read the store meanwhile.
struct DormantTables {
    std::string url = PostgresServer::shared().create_database();
    std::unique_ptr<ServerProcess> server;
    std::vector<std::string> tables;

    explicit DormantTables(int count) {
        std::vector<std::string> args = kFast;
        args.insert(args.end(),
                    {"--database", url, "--threads", "1", "--deadline-sweep-ms", "60000"});
        server = std::make_unique<ServerProcess>(args);
        Follower creator(server->port(), "Creator");
        for (int i = 0; i < count; ++i)
            tables.push_back(create(creator, create_request(options(2))));
        creator.client.reset();
        server.reset();
        server = std::make_unique<ServerProcess>(args);
    }
};

// Holds PostgreSQL's lock on the moves while it lives (or until released): loads wait for it.
class MovesLocked {
  public:
    explicit MovesLocked(const std::string& url)
        : connection_(PQconnectdb(url.c_str()), &PQfinish) {
        REQUIRE(PQstatus(connection_.get()) == CONNECTION_OK);
        exec("BEGIN");
        exec("LOCK TABLE moves IN ACCESS EXCLUSIVE MODE");
    }
    void release() { exec("COMMIT"); }

  private:
    void exec(const char* sql) {
        std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(connection_.get(), sql),
                                                             &PQclear);
        REQUIRE(PQresultStatus(result.get()) == PGRES_COMMAND_OK);
    }
    std::unique_ptr<PGconn, decltype(&PQfinish)> connection_;
};

// The loads waiting for the lock on the moves.
int loads_waiting(const std::string& url) {
    return std::stoi(PostgresServer::query(
        url, "SELECT count(*) FROM pg_locks WHERE relation = 'moves'::regclass AND NOT granted"));
}

// Waits until `count` loads wait for the lock, then a little more for any that would follow.
int loads_waiting_settled(const std::string& url, int count) {
    for (int i = 0; i < 250 && loads_waiting(url) < count; ++i)
        std::this_thread::sleep_for(20ms);
    std::this_thread::sleep_for(300ms);
    return loads_waiting(url);
}

// Asks to watch `table`, answered later.
void watch(Follower& watcher, const std::string& table) {
    watcher.client->send(Json{{"type", "watch"}, {"table", table}, {"id", "w"}});
}

// The answer to watch: a table not started yet answers with its summary.
bool watched(Follower& watcher, const std::string& table, std::chrono::milliseconds timeout) {
    const auto answer = watcher.client->wait_for(
        [](const Json& message) { return message.contains("id") && message["id"] == "w"; },
        timeout);
    return answer && type_of(*answer) == "table" && table_of(*answer) == table;
}

}  // namespace

TEST_CASE("table loads: a table loading from a slow store holds up no lobby request",
          "[lobby][postgres]") {
    DormantTables dormant(1);
    Follower watcher(dormant.server->port(), "Watcher");
    Follower lobby(dormant.server->port(), "Lobby");
    MovesLocked locked(dormant.url);
    watch(watcher, dormant.tables[0]);
    REQUIRE(loads_waiting_settled(dormant.url, 1) == 1);

    // The listing reads the tables' rows, not their moves: it is answered while the load waits.
    const auto listing = lobby.client->request(Json{{"type", "list_tables"}}, 3s);
    REQUIRE(listing);
    CHECK(type_of(*listing) == "tables");
    const auto subscribed = lobby.client->request(Json{{"type", "subscribe_lobby"}}, 3s);
    REQUIRE(subscribed);
    CHECK(type_of(*subscribed) == "tables");
    CHECK_FALSE(watched(watcher, dormant.tables[0], 0ms));

    locked.release();
    CHECK(watched(watcher, dormant.tables[0], 10s));
}

TEST_CASE("table loads: requests for one dormant table wait for its one load, and all are answered",
          "[lobby][postgres]") {
    DormantTables dormant(2);
    const std::uint16_t port = dormant.server->port();
    std::vector<std::unique_ptr<Follower>> first_table;
    for (int i = 0; i < 4; ++i)
        first_table.push_back(std::make_unique<Follower>(port, "Watcher" + std::to_string(i)));
    Follower other_table(port, "Other");
    MovesLocked locked(dormant.url);
    for (auto& watcher : first_table)
        watch(*watcher, dormant.tables[0]);
    // Four requests for the first table are one load; the blocking pool has two threads, so a
    // second load of it would be waiting by now.
    CHECK(loads_waiting_settled(dormant.url, 1) == 1);
    // Another table loads beside it: the count sees every load that waits.
    watch(other_table, dormant.tables[1]);
    CHECK(loads_waiting_settled(dormant.url, 2) == 2);

    locked.release();
    for (auto& watcher : first_table)
        CHECK(watched(*watcher, dormant.tables[0], 10s));
    CHECK(watched(other_table, dormant.tables[1], 10s));
}
