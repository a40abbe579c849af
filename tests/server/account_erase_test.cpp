// A user's own data through the real server (docs/operations.md, "Your data"): the export of what
// is kept about them, and the deletion of their account as the other players see it.
#include <SQLiteCpp/SQLiteCpp.h>

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <tuple>

#include "postgres_support.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

constexpr const char* kErasurePassword = "roman roads lead home";

struct ErasureUser {
    std::string name;
    std::uint64_t id = 0;
    std::string token;
    std::unique_ptr<Client> client;
};

ErasureUser erasure_register(const ServerProcess& server, const std::string& name) {
    const auto made =
        server.post("/api/register", Json{{"name", name}, {"password", kErasurePassword}}.dump());
    REQUIRE(made.first == 201);
    const Json body = api_body(made);
    ErasureUser user{name, body["user"]["id"].get<std::uint64_t>(), body["token"], nullptr};
    user.client = std::make_unique<Client>(server.port());
    const auto welcome = user.client->request(Json{{"type", "hello"}, {"token", user.token}});
    REQUIRE(welcome);
    REQUIRE(type_of(*welcome) == "welcome");
    return user;
}

// A started two-player table of `first` (seat 0) and `second` (seat 1).
std::string erasure_table(ErasureUser& first, ErasureUser& second) {
    const auto created = first.client->request(
        Json{{"type", "create_table"}, {"options", {{"players", 2}, {"rules", "yucata"}}}});
    REQUIRE(created);
    REQUIRE(type_of(*created) == "table_created");
    const std::string table = (*created)["table"]["id"];
    const auto seated =
        second.client->request(Json{{"type", "sit"}, {"table", table}, {"seat", 1}});
    REQUIRE(seated);
    REQUIRE(type_of(*seated) == "seated");
    const auto started = first.client->request(Json{{"type", "start"}, {"table", table}});
    REQUIRE(started);
    REQUIRE(type_of(*started) == "started");
    return table;
}

// A league season of Ann (its organizer) and Ben: its one game played to the end, then the season
// closed, so that its final table is kept. The league's path, the game's table and Ben's seat.
std::tuple<std::string, std::string, int> erasure_finished_season(const ServerProcess& server,
                                                                  ErasureUser& ann,
                                                                  ErasureUser& ben) {
    const auto made =
        server.post("/api/leagues",
                    Json{{"name", "Forum"},
                         {"options", {{"players", 2}, {"rules", "yucata"}, {"shrine", false}}},
                         {"division_size", 2}}
                        .dump(),
                    ann.token);
    REQUIRE(made.first == 201);
    const std::string league =
        "/api/leagues/" + std::to_string(api_body(made)["id"].get<std::uint64_t>());
    REQUIRE(server.post(league + "/seasons", "{}", ann.token).first == 201);
    for (const ErasureUser* member : {&ann, &ben})
        REQUIRE(server.post(league + "/signup", "{}", member->token).first == 200);
    REQUIRE(server.post(league + "/seasons/1/start", "{}", ann.token).first == 200);
    const Json game = api_body(server.get(league + "/seasons/1"))["divisions"][0]["tables"][0];
    std::vector<Client*> players;
    int ben_seat = 0;
    for (const Json& player : game["players"]) {
        if (player["id"] == ben.id) ben_seat = static_cast<int>(players.size());
        players.push_back(player["id"] == ann.id ? ann.client.get() : ben.client.get());
    }
    engine::Rng rng(11);
    play_table_to_the_end(game["id"], players, rng);
    REQUIRE(server.post(league + "/seasons/1/close", "{}", ann.token).first == 200);
    return {league, game["id"], ben_seat};
}

std::string erasure_text_of_record(const ServerProcess& server, const std::string& table) {
    const auto record = server.get("/api/tables/" + table + "/record");
    REQUIRE(record.first == 200);
    return record.second;
}

bool erasure_contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The whole story on one server: Ann and Ben finish a game, start another and chat; Ben exports
// his data, fails to delete his account with a wrong password, then deletes it. `month_passes`
// moves the stored release of erased names into the past, as 30 days would.
void erasure_story(const ServerProcess& server, const std::function<void()>& month_passes) {
    ErasureUser ann = erasure_register(server, "Ann");
    ErasureUser ben = erasure_register(server, "Ben");
    const std::string deleted = "deleted player " + std::to_string(ben.id);
    REQUIRE(server.post("/api/webhook", R"({"url":"http://127.0.0.1:9/ann-secret"})", ann.token)
                .first == 200);
    REQUIRE(server.post("/api/webhook", R"({"url":"http://127.0.0.1:9/ben"})", ben.token).first ==
            200);

    const auto [league, finished, ben_seat] = erasure_finished_season(server, ann, ben);
    CHECK(erasure_contains(server.get(league + "/seasons/1").second, "\"Ben\""));
    const std::string running = erasure_table(ann, ben);
    const std::pair<ErasureUser*, const char*> lines[] = {{&ann, "ave from Ann"},
                                                          {&ben, "salve from Ben"}};
    for (const auto& [user, text] : lines) {
        const auto said =
            user->client->request(Json{{"type", "chat"}, {"table", running}, {"text", text}});
        REQUIRE(said);
        REQUIRE(type_of(*said) == "chat");
    }

    {
        const auto exported = server.get("/api/account/export", ben.token);
        REQUIRE(exported.first == 200);
        const Json data = api_body(exported);
        CHECK(data["account"]["id"] == ben.id);
        CHECK(data["account"]["name"] == "Ben");
        CHECK(data["account"]["guest"] == false);
        CHECK(data["account"]["webhook"] == "http://127.0.0.1:9/ben");
        REQUIRE(data["games"].size() == 2);
        for (const Json& game : data["games"])
            REQUIRE(game["record"].is_object());
        CHECK(data["games"][0]["seat"] == 1);
        CHECK(data["games"][1]["seat"] == ben_seat);
        REQUIRE(data["leagues"].size() == 1);
        CHECK(data["leagues"][0]["season"] == 1);
        CHECK(data["games"][0]["table"] == running);  // unfinished first
        CHECK(data["games"][1]["table"] == finished);
        CHECK(data["games"][1]["record"] ==
              api_body(server.get("/api/tables/" + finished + "/record")));
        REQUIRE(data["chat"].size() == 1);
        CHECK(data["chat"][0]["text"] == "salve from Ben");
        CHECK(data["chat"][0]["table"] == running);
        // Nothing of Ann's own: her webhook, her chat line.
        CHECK_FALSE(erasure_contains(exported.second, "ann-secret"));
        CHECK_FALSE(erasure_contains(exported.second, "ave from Ann"));
        RawConnection raw(server.port());
        raw.send(
            "GET /api/account/export HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            "Authorization: Bearer " +
            ben.token + "\r\n\r\n");
        CHECK(erasure_contains(raw.receive(10s), "attachment; filename=\"gcor-account-" +
                                                     std::to_string(ben.id) + ".json\""));
        CHECK(api_refusal(server.get("/api/account/export"), 401) == "bad_token");
        CHECK(api_refusal(server.post("/api/account/export", "{}", ben.token), 400) == "bad_field");
        CHECK(api_refusal(server.get("/api/account/export?all=1", ben.token), 400) == "bad_field");
    }

    // Refusals change nothing.
    CHECK(api_refusal(server.remove("/api/account", ben.token, R"({"password":"not my password"})"),
                      401) == "bad_credentials");
    CHECK(api_refusal(server.remove("/api/account", ben.token), 400) == "bad_field");
    CHECK(api_refusal(server.remove("/api/account", ben.token, R"({"password":7})"), 400) ==
          "bad_field");
    CHECK(api_refusal(server.remove("/api/account", ben.token,
                                    Json{{"password", kErasurePassword}, {"also", "x"}}.dump()),
                      400) == "bad_field");
    CHECK(
        api_refusal(server.remove("/api/account", "", Json{{"password", kErasurePassword}}.dump()),
                    401) == "bad_token");
    CHECK(api_refusal(
              server.post("/api/account", Json{{"password", kErasurePassword}}.dump(), ben.token),
              400) == "bad_field");
    CHECK(server.get("/api/webhook", ben.token).first == 200);
    CHECK(erasure_contains(erasure_text_of_record(server, finished), "\"Ben\""));
    CHECK(table_snapshot(*ann.client, running)["chat"].size() == 2);

    const auto erased =
        server.remove("/api/account", ben.token, Json{{"password", kErasurePassword}}.dump());
    REQUIRE(erased.first == 200);
    CHECK(api_body(erased)["name"] == deleted);

    // Every session ends, its WebSocket too; the name no longer logs in, and is not free.
    REQUIRE(ben.client->wait_for([](const Json&) { return false; }, 5s) == std::nullopt);
    CHECK(ben.client->closed());
    CHECK(api_refusal(server.get("/api/webhook", ben.token), 401) == "bad_token");
    CHECK(api_refusal(server.post("/api/login",
                                  Json{{"name", "Ben"}, {"password", kErasurePassword}}.dump()),
                      401) == "bad_credentials");
    CHECK(api_refusal(server.post("/api/register",
                                  Json{{"name", "ben"}, {"password", kErasurePassword}}.dump()),
                      409) == "name_taken");

    // Ann's finished game keeps its moves and scores, under the new name.
    const std::string record = erasure_text_of_record(server, finished);
    CHECK(erasure_contains(record, deleted));
    CHECK_FALSE(erasure_contains(record, "\"Ben\""));
    CHECK(api_body(server.get("/api/users/" + std::to_string(ben.id)))["user"]["name"] == deleted);
    // The season's kept final table and the leaderboard too.
    const std::string season = server.get(league + "/seasons/1").second;
    CHECK(erasure_contains(season, deleted));
    CHECK_FALSE(erasure_contains(season, "\"Ben\""));
    CHECK_FALSE(erasure_contains(server.get("/api/ratings").second, "\"Ben\""));

    // The running game goes on: Ben's seat forfeited, his chat line gone, and Ann finishes it.
    const auto forfeited = ann.client->wait_for(
        [&](const Json& m) { return type_of(m) == "forfeited" && m["table"] == running; }, 10s);
    REQUIRE(forfeited);
    CHECK((*forfeited)["seat"] == 1);
    const Json snapshot = table_snapshot(*ann.client, running);
    REQUIRE(snapshot["chat"].size() == 1);
    CHECK(snapshot["chat"][0]["text"] == "ave from Ann");
    CHECK(snapshot["summary"]["seats"][1]["name"] == deleted);
    CHECK(snapshot["summary"]["seats"][1]["forfeited"] == true);
    engine::Rng rng(12);
    play_table_to_the_end(running, {ann.client.get(), nullptr}, rng);
    const Json result = api_body(server.get("/api/tables/" + running + "/record"));
    CHECK(erasure_contains(result.dump(), deleted));
    CHECK(table_snapshot(*ann.client, running)["summary"]["result"]["forfeited"] ==
          Json::array({1}));

    // After 30 days the name is free; the old records keep the deleted player.
    month_passes();
    const auto again =
        server.post("/api/register", Json{{"name", "Ben"}, {"password", kErasurePassword}}.dump());
    REQUIRE(again.first == 201);
    CHECK(api_body(again)["user"]["id"] != ben.id);
    CHECK(erasure_contains(erasure_text_of_record(server, finished), deleted));
}

// Ben's tournaments: one running (paired with Ann and Cy) and one in sign-up; his export lists
// both; once he deletes his account, the sign-up is gone and the running one names him anew.
void erasure_tournaments(const ServerProcess& server) {
    ErasureUser ann = erasure_register(server, "Ann");
    ErasureUser ben = erasure_register(server, "Ben");
    ErasureUser cy = erasure_register(server, "Cyrus");
    const std::string deleted = "deleted player " + std::to_string(ben.id);
    auto create = [&](const std::string& name) {
        const auto made =
            server.post("/api/tournaments",
                        Json{{"name", name},
                             {"format", "swiss"},
                             {"players_per_table", 2},
                             {"rounds", 2},
                             {"time_control", {{"kind", "correspondence"}, {"days", 3}}}}
                            .dump(),
                        ann.token);
        REQUIRE(made.first == 201);
        return "/api/tournaments/" + std::to_string(api_body(made)["id"].get<std::uint64_t>());
    };
    const std::string running = create("Spring Cup");
    for (const ErasureUser* player : {&ann, &ben, &cy})
        REQUIRE(server.post(running + "/join", "{}", player->token).first == 200);
    REQUIRE(server.post(running + "/start", "{}", ann.token).first == 200);
    const std::string upcoming = create("Summer Cup");
    for (const ErasureUser* player : {&ann, &ben})
        REQUIRE(server.post(upcoming + "/join", "{}", player->token).first == 200);

    const Json data = api_body(server.get("/api/account/export", ben.token));
    REQUIRE(data["tournaments"].size() == 2);
    CHECK(data["tournaments"][0]["tournament"]["name"] == "Summer Cup");  // the latest sign-up
    CHECK(data["tournaments"][0]["status"] == "signup");
    CHECK(data["tournaments"][0]["seed"] == 0);
    CHECK(data["tournaments"][1]["tournament"]["name"] == "Spring Cup");
    CHECK(data["tournaments"][1]["status"] == "running");
    CHECK(data["tournaments"][1]["seed"].get<int>() >= 1);
    CHECK(data["tournaments"][1]["withdrawn"] == false);
    CHECK(erasure_contains(server.get(running).second, "\"Ben\""));

    REQUIRE(server.remove("/api/account", ben.token, Json{{"password", kErasurePassword}}.dump())
                .first == 200);
    const Json signup = api_body(server.get(upcoming));
    CHECK(signup["player_count"] == 1);
    REQUIRE(signup["players"].size() == 1);
    CHECK(signup["players"][0]["user"] == ann.id);
    // The running tournament keeps his entry, his round and his standing, under the new name.
    const std::string kept = server.get(running).second;
    CHECK_FALSE(erasure_contains(kept, "\"Ben\""));
    const Json detail = Json::parse(kept);
    CHECK(detail["player_count"] == 3);
    int named = 0;
    for (const Json& player : detail["players"])
        named += player["user"] == ben.id && player["name"] == deleted;
    for (const Json& row : detail["standings"])
        named += row["user"] == ben.id && row["name"] == deleted;
    for (const Json& table : detail["rounds"][0]["tables"])
        for (const Json& seat : table["seats"])
            named += seat["user"] == ben.id && seat["name"] == deleted;
    for (const Json& bye : detail["rounds"][0]["byes"])
        named += bye["user"] == ben.id && bye["name"] == deleted;
    CHECK(named == 3);  // players, standings, and a seat or the bye
    CHECK(api_body(server.get("/api/account/export", ann.token))["tournaments"].size() == 2);
}

}  // namespace

TEST_CASE("account erase: a tournament's sign-up goes, a running one renames the player",
          "[accounts]") {
    ServerProcess server(kFast);
    erasure_tournaments(server);
}

TEST_CASE("account erase on PostgreSQL: tournaments", "[accounts][postgres]") {
    const std::string url = PostgresServer::shared().create_database();
    std::vector<std::string> args = kFast;
    args.insert(args.end(), {"--database", url});
    ServerProcess server(args);
    erasure_tournaments(server);
}

TEST_CASE(
    "account erase: export, a refused deletion, then the deletion as the other player sees it",
    "[accounts]") {
    ServerProcess server(kFast);
    erasure_story(server, [&] {
        SQLite::Database stored(server.dir() + "/cor.db", SQLite::OPEN_READWRITE);
        stored.setBusyTimeout(5000);
        stored.exec("UPDATE users SET name_released = 0 WHERE name_released IS NOT NULL");
    });
}

TEST_CASE("account erase on PostgreSQL: export and deletion", "[accounts][postgres]") {
    const std::string url = PostgresServer::shared().create_database();
    std::vector<std::string> args = kFast;
    args.insert(args.end(), {"--database", url});
    ServerProcess server(args);
    erasure_story(server, [&] {
        PostgresServer::query(url,
                              "UPDATE users SET name_released = 0 WHERE name_released IS NOT NULL");
    });
}

TEST_CASE(
    "account erase: a guest deletes theirs without a password, and their waiting seat is freed",
    "[accounts]") {
    ServerProcess server(kFast);
    Client guest(server.port());
    const std::string token = guest.hello("Gaius");
    ErasureUser ann = erasure_register(server, "Ann");
    const auto created = ann.client->request(
        Json{{"type", "create_table"}, {"options", {{"players", 2}, {"rules", "yucata"}}}});
    REQUIRE(created);
    const std::string table = (*created)["table"]["id"];
    REQUIRE(type_of(*guest.request(Json{{"type", "sit"}, {"table", table}, {"seat", 1}})) ==
            "seated");

    CHECK(api_refusal(server.remove("/api/account", token, R"({"password":"anything"})"), 400) ==
          "bad_field");
    const auto erased = server.remove("/api/account", token, "{}");
    REQUIRE(erased.first == 200);
    CHECK(guest.wait_for([](const Json&) { return false; }, 5s) == std::nullopt);
    CHECK(guest.closed());
    // The seat is open again for anybody.
    const auto freed = ann.client->wait_for(
        [&](const Json& m) {
            return type_of(m) == "table" && m["table"]["id"] == table &&
                   m["table"]["seats"][1]["kind"] == "open";
        },
        10s);
    CHECK(freed);
}

}  // namespace gcor::testing
