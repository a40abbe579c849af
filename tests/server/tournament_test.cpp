// Tournaments through the real server (docs/tournaments.md): players who registered and guests
// who became users, a round whose deadline passes while the server is down (killed), and the
// tournament resumed by the restarted server to its end; on SQLite and on PostgreSQL.
#include <SQLiteCpp/SQLiteCpp.h>

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <memory>

#include "postgres_support.hpp"
#include "tournament_support.hpp"

namespace gcor::testing {
namespace {

constexpr std::int64_t kTourneyHourMs = 3'600'000;

// Where the server keeps its data, and how to make a round's deadline pass while it is down.
struct TourneyStore {
    std::vector<std::string> args;
    // Moves the deadline of the table `id` (its turn's and its round's) into the past.
    std::function<void(const std::string& id)> deadline_passes;
};

// Ann, Ben (registered), Cy and Dee (guests who registered) in a 2-round Swiss at tables of 2 with
// a round deadline. Round 1: one table is played out; nobody moves at the other. The server is
// killed, the other table's round deadline passes, and the restarted server decides that table by
// the timeout rule: both its players forfeit (dropped), and round 2 pairs the other two, who play
// it; the tournament then finishes.
void tourney_deadline_story(const TourneyStore& store) {
    auto server = std::make_unique<ServerProcess>(store.args);
    TourneyPlayer ann = tourney_player(*server, "Ann", false);
    TourneyPlayer ben = tourney_player(*server, "Ben", false);
    TourneyPlayer cy = tourney_player(*server, "Cyrus", true);
    TourneyPlayer dee = tourney_player(*server, "Delia", true);
    std::map<std::uint64_t, TourneyPlayer*> by_id;
    for (TourneyPlayer* player : {&ann, &ben, &cy, &dee})
        by_id[player->id] = player;

    const auto made = server->post("/api/tournaments",
                                   Json{{"name", "Ides Cup"},
                                        {"format", "swiss"},
                                        {"players_per_table", 2},
                                        {"rounds", 2},
                                        {"time_control", {{"kind", "correspondence"}, {"days", 3}}},
                                        {"round_deadline_hours", 1}}
                                       .dump(),
                                   ann.token);
    REQUIRE(made.first == 201);
    const std::string path = "/api/tournaments/" + std::to_string(api_body(made)["id"].get<int>());
    for (TourneyPlayer* player : {&ann, &ben, &cy, &dee})
        REQUIRE(server->post(path + "/join", "{}", player->token).first == 200);
    const std::int64_t started = tourney_now_ms();
    const auto start = server->post(path + "/start", "{}", ann.token);
    REQUIRE(start.first == 200);
    Json detail = api_body(start);
    REQUIRE(detail["rounds"].size() == 1);
    const Json round_one = detail["rounds"][0];
    REQUIRE(round_one["deadline"].is_number());
    CHECK(round_one["deadline"].get<std::int64_t>() >= started + kTourneyHourMs);
    CHECK(round_one["deadline"].get<std::int64_t>() <= tourney_now_ms() + kTourneyHourMs);
    REQUIRE(round_one["tables"].size() == 2);
    CHECK(round_one["byes"].empty());
    // Each player is told of their table; its summary carries the round's deadline.
    for (const Json& table : round_one["tables"])
        for (const Json& seat : table["seats"]) {
            const auto told = by_id.at(seat["user"])->client->wait_for([&](const Json& m) {
                return type_of(m) == "tournament_table" && m["table"]["id"] == table["table"];
            });
            REQUIRE(told);
            CHECK((*told)["table"]["tournament"]["deadline"] == round_one["deadline"]);
            CHECK((*told)["table"]["tournament"]["round"] == 1);
        }

    const Json& played = round_one["tables"][0];
    const Json& idle = round_one["tables"][1];
    engine::Rng rng(45);
    tourney_play(by_id, played, rng);
    server->kill_hard();
    store.deadline_passes(idle["table"]);

    server = std::make_unique<ServerProcess>(store.args);
    for (TourneyPlayer* player : {&ann, &ben, &cy, &dee})
        tourney_connect(*server, *player);
    detail =
        tourney_detail_when(*server, path, [](const Json& d) { return d["rounds"].size() == 2; });
    // The idle table ended by the timeout rule: both its players forfeited, and are dropped.
    const Json decided = detail["rounds"][0]["tables"][1];
    CHECK(decided["status"] == "finished");
    std::set<std::uint64_t> dropped;
    for (const Json& seat : decided["seats"]) {
        CHECK(seat["forfeited"] == true);
        CHECK(seat["points"] == 0);
        dropped.insert(seat["user"].get<std::uint64_t>());
    }
    for (const Json& player : detail["players"])
        CHECK(player["dropped"] == dropped.contains(player["user"].get<std::uint64_t>()));
    // Round 2: the two who played, together again (the only grouping), nobody waiting for the
    // dropped ones.
    const Json round_two = detail["rounds"][1];
    REQUIRE(round_two["tables"].size() == 1);
    std::set<std::uint64_t> seated;
    for (const Json& seat : round_two["tables"][0]["seats"])
        seated.insert(seat["user"].get<std::uint64_t>());
    std::set<std::uint64_t> played_by;
    for (const Json& seat : played["seats"])
        played_by.insert(seat["user"].get<std::uint64_t>());
    CHECK(seated == played_by);
    CHECK(round_two["byes"].empty());

    tourney_play(by_id, round_two["tables"][0], rng);
    detail =
        tourney_detail_when(*server, path, [](const Json& d) { return d["status"] == "finished"; });
    // The standings: the points of each game by place, Buchholz the opponents' points.
    std::map<std::uint64_t, int> points;
    std::map<std::uint64_t, std::vector<std::uint64_t>> opponents;
    for (const Json& round : detail["rounds"])
        for (const Json& table : round["tables"])
            for (const Json& seat : table["seats"]) {
                points[seat["user"]] += seat["points"].get<int>();
                for (const Json& other : table["seats"])
                    if (other["user"] != seat["user"])
                        opponents[seat["user"]].push_back(other["user"]);
            }
    REQUIRE(detail["standings"].size() == 4);
    int previous = 1'000;
    for (const Json& row : detail["standings"]) {
        const std::uint64_t user = row["user"];
        CHECK(row["points"] == points[user]);
        int buchholz = 0;
        for (const std::uint64_t opponent : opponents[user])
            buchholz += points[opponent];
        CHECK(row["buchholz"] == buchholz);
        CHECK(row["points"].get<int>() <= previous);
        previous = row["points"];
        CHECK(row["dropped"] == dropped.contains(user));
        CHECK(row["games"] == (dropped.contains(user) ? 1 : 2));
    }
    CHECK_FALSE(dropped.contains(detail["standings"][0]["user"].get<std::uint64_t>()));
}

}  // namespace

TEST_CASE("tournaments: a round deadline passes while the server is down, the others go on",
          "[tournament][server]") {
    const Database db;
    const std::string file = db.dir + "/cor.db";
    tourney_deadline_story(TourneyStore{
        db.args({"--deadline-sweep-ms", "50", "--bot-ms", "5"}), [&](const std::string& table) {
            SQLite::Database stored(file, SQLite::OPEN_READWRITE);
            stored.setBusyTimeout(5000);
            SQLite::Statement update(
                stored,
                "UPDATE tables SET deadline = 1, settings = json_set(settings, "
                "'$.tournament.deadline', 1) WHERE id = ?");
            update.bind(1, table);
            REQUIRE(update.exec() == 1);
        }});
}

TEST_CASE("tournaments on PostgreSQL: a round's deadline passes while the server is down",
          "[tournament][server][postgres]") {
    const std::string url = PostgresServer::shared().create_database();
    std::vector<std::string> args = kFast;
    // A deadline's claim is held 10 s (kDeadlineHeld) on PostgreSQL: the table's second forfeit
    // waits for it.
    args.insert(args.end(), {"--database", url, "--deadline-sweep-ms", "50", "--bot-ms", "5"});
    tourney_deadline_story(TourneyStore{args, [&](const std::string& table) {
                                            PostgresServer::query(
                                                url,
                                                "UPDATE tables SET deadline = 1, settings = "
                                                "jsonb_set(settings::jsonb, "
                                                "'{tournament,deadline}', '1')::text WHERE id = '" +
                                                    table + "'");
                                        }});
}

}  // namespace gcor::testing
