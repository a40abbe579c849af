// Leagues and ratings through the real server: a whole simulated season from sign-up to the next
// season's divisions, who may manage a league, and rated tables.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "gcor/engine/rng.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

struct Member {
    std::string name;
    std::uint64_t id = 0;
    std::string token;
    std::unique_ptr<Client> client;
};

Member register_user(const ServerProcess& server, const std::string& name) {
    const auto made =
        server.post("/api/register", Json{{"name", name}, {"password", "long enough pw"}}.dump());
    REQUIRE(made.first == 201);
    const Json body = api_body(made);
    return Member{name, body["user"]["id"].get<std::uint64_t>(), body["token"], nullptr};
}

void connect(const ServerProcess& server, Member& member) {
    member.client = std::make_unique<Client>(server.port());
    member.client->keep_turn_notices = true;
    const auto welcome = member.client->request(Json{{"type", "hello"}, {"token", member.token}});
    REQUIRE(welcome);
    REQUIRE((*welcome)["type"] == "welcome");
}

// Plays a season's table to its end, each seat by its member's client.
void play_table(std::map<std::uint64_t, Member*>& members, const Json& table, engine::Rng& rng) {
    std::vector<Client*> seats;
    for (const Json& player : table["players"])
        seats.push_back(members.at(player["id"].get<std::uint64_t>())->client.get());
    play_table_to_the_end(table["id"], seats, rng);
}

// Every table of a season, from its page.
std::vector<Json> tables_of(const Json& season) {
    std::vector<Json> tables;
    for (const Json& division : season["divisions"])
        for (const Json& table : division["tables"])
            tables.push_back(table);
    return tables;
}

std::set<std::uint64_t> ids_of(const Json& users) {
    std::set<std::uint64_t> ids;
    for (const Json& user : users)
        ids.insert((user.contains("user") ? user["user"]["id"] : user["id"]).get<std::uint64_t>());
    return ids;
}

// The standings of a division worked out here from its tables' places and scores, with league
// points {2, 1, 0}: user -> {played, points, score}.
std::map<std::uint64_t, std::array<int, 3>> expected_standings(const Json& division) {
    std::map<std::uint64_t, std::array<int, 3>> expected;
    for (const Json& player : division["players"])
        expected[player["id"].get<std::uint64_t>()] = {0, 0, 0};
    for (const Json& table : division["tables"])
        for (std::size_t seat = 0; seat < table["players"].size(); ++seat) {
            auto& row = expected[table["players"][seat]["id"].get<std::uint64_t>()];
            row[0] += 1;
            row[1] += std::array<int, 3>{2, 1, 0}[table["places"][seat].get<std::size_t>() - 1];
            row[2] += table["scores"][seat].get<int>();
        }
    return expected;
}

// The leaderboard once `games` seat results are rated (ratings follow a game's end shortly).
Json settled_ratings(const ServerProcess& server, std::size_t games) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const Json board = api_body(server.get("/api/ratings"));
        std::size_t rated = 0;
        for (const Json& row : board["players"])
            rated += row["games"].get<std::size_t>();
        if (rated == games) return board;
        std::this_thread::sleep_for(50ms);
    }
    FAIL("the games were not all rated");
    return {};
}

}  // namespace

TEST_CASE("league: a whole season from sign-up to promotion and the next season's divisions",
          "[server][league]") {
    const Database db;
    auto server = std::make_unique<ServerProcess>(db.args({"--admin", "Boss"}));
    Member organizer = register_user(*server, "Organizer");
    Member boss = register_user(*server, "boss");
    std::vector<Member> players;
    for (int i = 0; i < 10; ++i)
        players.push_back(register_user(*server, "player" + std::to_string(i)));
    std::map<std::uint64_t, Member*> by_id;
    for (Member& player : players) {
        connect(*server, player);
        by_id[player.id] = &player;
    }

    const Json settings{{"name", "Rome League"},
                        {"options", {{"players", 3}, {"rules", "yucata"}, {"shrine", false}}},
                        {"division_size", 4},
                        {"promote", 1},
                        {"relegate", 1},
                        {"days", 2},
                        {"undo", false},
                        {"chat", "players"}};
    const auto made = server->post("/api/leagues", settings.dump(), organizer.token);
    REQUIRE(made.first == 201);
    const Json league = api_body(made);
    CHECK(league["points"] == Json::array({2, 1, 0}));
    CHECK(league["undo"] == false);
    CHECK(league["chat"] == "players");
    CHECK(league["time_control"] ==
          Json{{"kind", "correspondence"}, {"days", 2}, {"on_timeout", "forfeit"}});
    const std::string base = "/api/leagues/" + std::to_string(league["id"].get<int>());

    // Sign-up opens when the organizer says so; a season needs a table's worth of players.
    CHECK(api_refusal(server->post(base + "/signup", "", players[0].token), 409) == "wrong_state");
    REQUIRE(server->post(base + "/seasons", "", organizer.token).first == 201);
    CHECK(api_refusal(server->post(base + "/seasons", "", organizer.token), 409) == "wrong_state");
    for (int i = 0; i < 2; ++i)
        REQUIRE(server->post(base + "/signup", "", players[i].token).first == 200);
    CHECK(api_refusal(server->post(base + "/seasons/1/start", "", organizer.token), 409) ==
          "wrong_state");
    CHECK(server->post(base + "/withdraw", "", players[1].token).first == 200);
    CHECK(api_refusal(server->post(base + "/withdraw", "", players[1].token), 404) == "not_found");
    for (int i : {2, 3, 4, 5, 6, 7, 8, 9, 1})
        REQUIRE(server->post(base + "/signup", "", players[i].token).first == 200);
    Json season = api_body(server->get(base + "/seasons/1"));
    CHECK(season["status"] == "signup");
    CHECK(season["signups"].size() == 10);
    CHECK(season["divisions"].empty());

    // The admin starts it: ten newcomers in sign-up order (player1 signed up again last) into
    // divisions of 4: 4, 4 and 2; two cannot fill a table of 3 and join the division above.
    const auto started = server->post(base + "/seasons/1/start", "", boss.token);
    REQUIRE(started.first == 200);
    season = api_body(started);
    CHECK(season["status"] == "playing");
    REQUIRE(season["divisions"].size() == 2);
    CHECK(ids_of(season["divisions"][0]["players"]) ==
          std::set<std::uint64_t>{players[0].id, players[2].id, players[3].id, players[4].id});
    CHECK(season["divisions"][1]["players"].size() == 6);
    CHECK(api_refusal(server->post(base + "/seasons/1/start", "", boss.token), 409) ==
          "wrong_state");

    // The schedule: tables of 3 from one division, every pair meets, games per player within 1.
    for (const Json& division : season["divisions"]) {
        const auto members = ids_of(division["players"]);
        std::map<std::pair<std::uint64_t, std::uint64_t>, int> pairs;
        std::map<std::uint64_t, int> games;
        for (const Json& table : division["tables"]) {
            REQUIRE(table["players"].size() == 3);
            CHECK(table["status"] == "playing");
            for (const Json& a : table["players"]) {
                const auto id = a["id"].get<std::uint64_t>();
                CHECK(members.contains(id));
                ++games[id];
                for (const Json& b : table["players"])
                    if (id < b["id"].get<std::uint64_t>())
                        ++pairs[{id, b["id"].get<std::uint64_t>()}];
            }
        }
        CHECK(pairs.size() == members.size() * (members.size() - 1) / 2);
        const auto [fewest, most] = std::minmax_element(
            games.begin(), games.end(), [](auto& a, auto& b) { return a.second < b.second; });
        CHECK(most->second - fewest->second <= 1);
        CHECK(games.size() == members.size());
    }

    // Each player is told of each of its tables, which are rated league games in "my games".
    for (const Json& table : tables_of(season))
        for (const Json& player : table["players"]) {
            Client& client = *by_id.at(player["id"].get<std::uint64_t>())->client;
            CHECK(client.wait_for([&](const Json& m) {
                return type_of(m) == "league_table" && m["table"]["id"] == table["id"];
            }));
        }
    const auto mine = players[0].client->request(Json{{"type", "my_games"}});
    REQUIRE(mine);
    REQUIRE_FALSE((*mine)["games"].empty());
    for (const Json& game : (*mine)["games"]) {
        CHECK(game["rated"] == true);
        CHECK(game["undo"] == false);  // the league's choices
        CHECK(game["chat"] == "players");
        CHECK(game["league"] ==
              Json{{"id", league["id"]}, {"name", "Rome League"}, {"season", 1}, {"division", 1}});
    }

    // Only the organizer or an admin closes it, and only once every game is over.
    CHECK(api_refusal(server->post(base + "/seasons/1/close", "", players[0].token), 403) ==
          "forbidden");
    CHECK(api_refusal(server->post(base + "/seasons/1/close", "", organizer.token), 409) ==
          "wrong_state");

    engine::Rng rng(7);
    for (const Json& table : tables_of(season))
        play_table(by_id, table, rng);

    // Standings: league points by place, then the score; every game counted once.
    season = api_body(server->get(base + "/seasons/1"));
    std::map<std::uint64_t, int> played;
    for (const Json& division : season["divisions"]) {
        const auto expected = expected_standings(division);
        const Json& rows = division["standings"];
        REQUIRE(rows.size() == expected.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const auto user = rows[i]["user"]["id"].get<std::uint64_t>();
            const auto& want = expected.at(user);
            CHECK(rows[i]["played"] == want[0]);
            CHECK(rows[i]["points"] == want[1]);
            CHECK(rows[i]["score"] == want[2]);
            played[user] = want[0];
            if (i > 0) {
                const Json& above = rows[i - 1];
                CHECK(std::pair(above["points"].get<int>(), above["score"].get<int>()) >=
                      std::pair(rows[i]["points"].get<int>(), rows[i]["score"].get<int>()));
                CHECK(above["rank"] <= rows[i]["rank"]);
            }
        }
    }

    // Ratings: every game rated once; all ten are provisional and change by the same K, so the
    // changes add up to nothing (up to rounding); a sole winner gains, a sole last loses.
    const Json board = settled_ratings(*server, 3 * tables_of(season).size());
    REQUIRE(board["players"].size() == 10);
    long sum = 0;
    for (const Json& row : board["players"]) {
        CHECK(row["games"] == played.at(row["user"]["id"].get<std::uint64_t>()));
        CHECK(row["provisional"] == true);
        sum += row["rating"].get<long>() - 1500;
    }
    CHECK(std::abs(sum) <= 10);
    for (const Json& table : tables_of(season)) {
        const Json& places = table["places"];
        for (std::size_t seat = 0; seat < places.size(); ++seat) {
            const int place = places[seat];
            const auto same = std::count(places.begin(), places.end(), places[seat]);
            if (same != 1 || (place != 1 && place != 3)) continue;
            const Json profile = api_body(server->get(
                "/api/users/" + std::to_string(table["players"][seat]["id"].get<std::uint64_t>())));
            const auto entry =
                std::find_if(profile["history"].begin(), profile["history"].end(),
                             [&](const Json& change) { return change["table"] == table["id"]; });
            REQUIRE(entry != profile["history"].end());
            CHECK((*entry)["place"] == place);
            if (place == 1) CHECK((*entry)["after"] > (*entry)["before"]);
            if (place == 3) CHECK((*entry)["after"] < (*entry)["before"]);
        }
    }

    // Closing: the last of division 1 goes down, the first of division 2 goes up, and season 2
    // opens for sign-up.
    const auto closed = server->post(base + "/seasons/1/close", "", organizer.token);
    REQUIRE(closed.first == 200);
    season = api_body(closed);
    CHECK(season["status"] == "finished");
    const Json& top = season["divisions"][0];
    const Json& second = season["divisions"][1];
    CHECK(top["promoted"].empty());
    CHECK(top["relegated"] == Json::array({top["standings"][3]["user"]["id"]}));
    CHECK(second["promoted"] == Json::array({second["standings"][0]["user"]["id"]}));
    CHECK(second["relegated"].empty());
    const Json league_now = api_body(server->get(base));
    REQUIRE(league_now["seasons"].size() == 2);
    CHECK(league_now["seasons"][1]["status"] == "signup");

    // Season 2: everyone returns (in another order) with a newcomer, who starts at the bottom.
    Member newcomer = register_user(*server, "newcomer");
    for (int i = 9; i >= 0; --i)
        REQUIRE(
            server->post(base + "/signup", "", players[static_cast<std::size_t>(i)].token).first ==
            200);
    REQUIRE(server->post(base + "/signup", "", newcomer.token).first == 200);
    const auto next = server->post(base + "/seasons/2/start", "", organizer.token);
    REQUIRE(next.first == 200);
    const Json season2 = api_body(next);
    REQUIRE(season2["divisions"].size() == 3);
    auto user_at = [](const Json& division, std::size_t row) {
        return division["standings"][row]["user"]["id"].get<std::uint64_t>();
    };
    CHECK(ids_of(season2["divisions"][0]["players"]) ==
          std::set<std::uint64_t>{user_at(top, 0), user_at(top, 1), user_at(top, 2),
                                  user_at(second, 0)});
    CHECK(ids_of(season2["divisions"][1]["players"]) ==
          std::set<std::uint64_t>{user_at(top, 3), user_at(second, 1), user_at(second, 2),
                                  user_at(second, 3)});
    CHECK(ids_of(season2["divisions"][2]["players"]) ==
          std::set<std::uint64_t>{user_at(second, 4), user_at(second, 5), newcomer.id});

    // Every message a player sent and received follows the schemas, league_table included.
    Recording recording;
    recording.add(*players[0].client, true);
    CHECK(recording.received.contains("league_table"));
    const std::string messages = db.dir + "/messages.jsonl";
    std::ofstream(messages) << recording.lines.str();
    const auto [status, output] = schema_check(messages);
    INFO(output);
    CHECK(status == 0);

    // A restart keeps the final table, the new season and the ratings.
    REQUIRE(server->stop() == 0);
    for (Member& player : players)
        player.client.reset();
    server = std::make_unique<ServerProcess>(db.args());
    CHECK(plain(api_body(server->get(base + "/seasons/1"))) == plain(season));
    CHECK(api_body(server->get(base + "/seasons/2"))["status"] == "playing");
    CHECK(plain(api_body(server->get("/api/ratings"))) == plain(board));
}

}  // namespace gcor::testing

namespace gcor::testing {

TEST_CASE("league: only organizers and admins manage, bad requests are refused and change nothing",
          "[server][league]") {
    const Database db;
    ServerProcess server(db.args({"--admin", "root"}));
    Member organizer = register_user(server, "Organizer");
    Member other = register_user(server, "other");
    Member root = register_user(server, "ROOT");  // admin names compare without regard to case
    Client guest(server.port());
    const std::string guest_token = guest.hello("Guest");
    // welcome tells the client who may do what.
    for (const auto& [token, guest_flag, admin_flag] :
         {std::tuple{root.token, false, true}, std::tuple{other.token, false, false},
          std::tuple{guest_token, true, false}}) {
        Client client(server.port());
        const auto welcome = client.request(Json{{"type", "hello"}, {"token", token}});
        REQUIRE(welcome);
        CHECK((*welcome)["user"]["guest"] == guest_flag);
        CHECK((*welcome)["user"].contains("admin") == admin_flag);
    }

    auto create = [&](const Json& body, const std::string& token) {
        return server.post("/api/leagues", body.dump(), token);
    };
    const Json options{{"players", 4}, {"rules", "publisher"}, {"shrine", true}};
    CHECK(api_refusal(create(Json{{"name", "L"}, {"options", options}}, ""), 401) == "bad_token");
    CHECK(api_refusal(create(Json{{"name", "L"}, {"options", options}}, guest_token), 403) ==
          "registered_only");
    for (const Json& bad : {Json{{"options", options}}, Json{{"name", ""}, {"options", options}},
                            Json{{"name", std::string(65, 'x')}, {"options", options}},
                            Json{{"name", "L\n"}, {"options", options}}, Json{{"name", "L"}},
                            Json{{"name", "L"}, {"options", {{"players", 5}}}},
                            Json{{"name", "L"}, {"options", options}, {"division_size", 3}},
                            Json{{"name", "L"}, {"options", options}, {"division_size", 13}},
                            Json{{"name", "L"}, {"options", options}, {"days", 0}},
                            Json{{"name", "L"}, {"options", options}, {"games_per_pairing", 5}},
                            Json{{"name", "L"}, {"options", options}, {"promote", 5}},
                            Json{{"name", "L"}, {"options", options}, {"points", {3, 2, 1}}},
                            Json{{"name", "L"}, {"options", options}, {"points", {1, 2, 3, 4}}},
                            Json{{"name", "L"}, {"options", options}, {"points", {3, 2, 1, -1}}},
                            Json{{"name", "L"}, {"options", options}, {"colour", "red"}}}) {
        INFO(bad.dump());
        CHECK(api_refusal(create(bad, organizer.token), 400) == "bad_field");
    }
    CHECK(api_refusal(server.post("/api/leagues", "[1]", organizer.token), 400) == "bad_json");
    // A member given twice (nested too) is refused, not read as its last value.
    CHECK(api_refusal(server.post("/api/leagues",
                                  R"({"name":"Twice","name":"Again","options":{"players":2}})",
                                  organizer.token),
                      400) == "bad_field");
    CHECK(api_refusal(server.post("/api/leagues",
                                  R"({"name":"Nested","options":{"players":2,"players":3}})",
                                  organizer.token),
                      400) == "bad_field");
    // Names are counted in characters: 64 of two bytes each are fine.
    std::string long_name;
    for (int i = 0; i < 64; ++i)
        long_name += "\u00e9";
    CHECK(create(Json{{"name", long_name}, {"options", options}}, other.token).first == 201);
    CHECK(api_body(server.get("/api/leagues"))["leagues"].size() == 1);

    const auto made =
        create(Json{{"name", "Via Appia"}, {"options", options}, {"points", {5, 3, 1, 0}}},
               organizer.token);
    REQUIRE(made.first == 201);
    const Json league = api_body(made);
    CHECK(league["division_size"] == 8);
    CHECK(league["points"] == Json::array({5, 3, 1, 0}));
    CHECK(api_refusal(create(Json{{"name", "VIA APPIA"}, {"options", options}}, other.token),
                      409) == "name_taken");
    const std::string base = "/api/leagues/" + std::to_string(league["id"].get<int>());

    // Managing: the organizer and admins only.
    CHECK(api_refusal(server.post(base + "/seasons", "", other.token), 403) == "forbidden");
    CHECK(api_refusal(server.post(base + "/seasons", "", guest_token), 403) == "forbidden");
    CHECK(server.post(base + "/seasons", "", root.token).first == 201);
    CHECK(api_refusal(server.post(base + "/signup", "", guest_token), 403) == "registered_only");
    for (const Member* member : {&organizer, &other, &root})
        CHECK(server.post(base + "/signup", "", member->token).first == 200);
    CHECK(server.post(base + "/signup", "", other.token).first == 200);  // twice: still once
    CHECK(api_body(server.get(base + "/seasons/1"))["signups"].size() == 3);
    CHECK(api_refusal(server.post(base + "/seasons/1/start", "", other.token), 403) == "forbidden");
    CHECK(api_refusal(server.post(base + "/seasons/1/close", "", organizer.token), 409) ==
          "wrong_state");
    CHECK(api_refusal(server.post(base + "/signup", R"({"x":1})", other.token), 400) ==
          "bad_field");

    // Unknown things and wrong methods.
    CHECK(api_refusal(server.get("/api/leagues/99"), 404) == "not_found");
    CHECK(api_refusal(server.get("/api/leagues/x1"), 404) == "not_found");
    CHECK(api_refusal(server.get("/api/leagues/01"), 404) == "not_found");
    CHECK(api_refusal(server.get(base + "/seasons/2"), 404) == "not_found");
    CHECK(api_refusal(server.get(base + "/seasons/1/nothing"), 404) == "not_found");
    CHECK(api_refusal(server.post(base + "/seasons/7/start", "", organizer.token), 404) ==
          "not_found");
    CHECK(api_refusal(server.post("/api/ratings", "", organizer.token), 400) == "bad_field");
    CHECK(api_refusal(server.get("/api/ratings?limit=0"), 400) == "bad_field");
    CHECK(api_refusal(server.get("/api/ratings?limit=501"), 400) == "bad_field");
    CHECK(api_refusal(server.get("/api/users/0"), 404) == "not_found");
    CHECK(api_refusal(server.get("/api/users/12345"), 404) == "not_found");
    const Json profile = api_body(server.get("/api/users/" + std::to_string(other.id)));
    CHECK(profile["rating"] == 1500);
    CHECK(profile["games"] == 0);
    CHECK(profile["provisional"] == true);
    CHECK(profile["leagues"] ==
          Json::array({Json{{"league", {{"id", league["id"]}, {"name", "Via Appia"}}},
                            {"season", 1},
                            {"status", "signup"},
                            {"division", nullptr}}}));
}

TEST_CASE("ratings: a rated table takes registered players only and rates them at the end",
          "[server][league]") {
    const Database db;
    ServerProcess server(db.args());
    Member ann = register_user(server, "ann");
    Member bob = register_user(server, "bob");
    connect(server, ann);
    connect(server, bob);
    Client guest(server.port());
    guest.hello("Guest");

    const Json options{{"players", 2}, {"rules", "yucata"}, {"shrine", false}};
    const Json rated{{"type", "create_table"}, {"options", options}, {"rated", true}};
    const auto by_guest = guest.request(rated);
    REQUIRE(by_guest);
    CHECK((*by_guest)["code"] == "registered_only");
    Json with_bot = rated;
    with_bot["bots"] = Json::array({nullptr, "greedy"});
    const auto refused = ann.client->request(with_bot);
    REQUIRE(refused);
    CHECK((*refused)["code"] == "bad_field");

    const auto created = ann.client->request(rated);
    REQUIRE(created);
    REQUIRE((*created)["type"] == "table_created");
    CHECK((*created)["table"]["rated"] == true);
    const std::string table = (*created)["table"]["id"];
    REQUIRE(ann.client->wait_for([](const Json& m) { return type_of(m) == "seated"; }));
    const auto guest_sits = guest.request(Json{{"type", "sit"}, {"table", table}});
    REQUIRE(guest_sits);
    CHECK((*guest_sits)["code"] == "registered_only");
    const auto bob_sits = bob.client->request(Json{{"type", "sit"}, {"table", table}});
    REQUIRE(bob_sits);
    REQUIRE((*bob_sits)["type"] == "seated");
    REQUIRE(bob.client->request(Json{{"type", "start"}, {"table", table}}));

    std::map<std::uint64_t, Member*> members{{ann.id, &ann}, {bob.id, &bob}};
    engine::Rng rng(3);
    play_table(members, Json{{"id", table}, {"players", {{{"id", ann.id}}, {{"id", bob.id}}}}},
               rng);
    const Json board = settled_ratings(server, 2);
    REQUIRE(board["players"].size() == 2);
    const Json record = api_body(server.get("/api/tables/" + table + "/record"));
    const Json& winners = record["winners"];
    for (const Json& row : board["players"]) {
        const bool won = row["user"]["id"] == (winners[0] == 0 ? ann.id : bob.id);
        INFO(row.dump() << " winners " << winners.dump());
        if (winners.size() == 1) CHECK((row["rating"] > 1500) == won);
        if (winners.size() == 2) CHECK(row["rating"] == 1500);
        const Json profile = api_body(
            server.get("/api/users/" + std::to_string(row["user"]["id"].get<std::uint64_t>())));
        REQUIRE(profile["history"].size() == 1);
        CHECK(profile["history"][0]["table"] == table);
        CHECK(profile["history"][0]["before"] == 1500);
        CHECK(profile["history"][0]["after"] == row["rating"]);
        CHECK(profile["history"][0]["players"] == 2);
    }
}

}  // namespace gcor::testing
