// The protocol of docs/protocol.md against the real cor-server: every error code, the lobby, whole
// games, reconnection, spectators, idempotent moves, two connections of one seat, leaving, and the
// JSON Schemas of protocol/schema.
#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "table_support.hpp"

namespace gcor::testing {
namespace {

// A whole game of test clients (one per seat without a bot) and bots, to the end.
void full_game(const Json& table_options, const std::vector<Json>& bots, std::uint64_t seed) {
    ServerProcess server(kFast);
    const int players = table_options["players"];
    int humans = players;
    for (const Json& bot : bots)
        humans -= bot.is_null() ? 0 : 1;
    std::vector<std::unique_ptr<Follower>> people;
    for (int i = 0; i < humans; ++i)
        people.push_back(std::make_unique<Follower>(server.port(), "P" + std::to_string(i)));
    const std::string table = create(*people[0], create_request(table_options, bots));
    for (int i = 1; i < humans; ++i)
        sit(*people[static_cast<std::size_t>(i)], table);
    std::set<int> seats;
    for (const auto& person : people)
        seats.insert(*person->seat);
    CHECK(seats.size() == people.size());
    for (std::size_t seat = 0; seat < bots.size(); ++seat)
        if (!bots[seat].is_null()) CHECK(seats.count(static_cast<int>(seat)) == 0);
    start(*people.back(), pointers(people));
    for (const auto& person : people) {
        CHECK(person->version == 0);
        CHECK(person->view["viewer"] == *person->seat);
    }

    Game game{pointers(people), Rng{seed}};
    REQUIRE(game.play());
    CHECK(game.moves > 20);
    for (const auto& person : people) {
        CHECK(person->version == people[0]->version);
        CHECK(person->patches == static_cast<int>(person->version));  // every version, once
        check_final(*person);
    }
    // Finished tables leave the lobby's list; the players find them in "my games".
    CHECK_FALSE(listed(*people[0]->client, table).is_object());
    const auto mine = people[0]->client->request(Json{{"type", "my_games"}});
    REQUIRE(mine);
    Json summary;
    for (const Json& listed_game : (*mine)["games"])
        if (listed_game["id"] == table) summary = listed_game;
    REQUIRE(summary.is_object());
    CHECK(summary["your_turn"] == false);
    CHECK(summary["result"]["finished"] == true);
    CHECK(summary["status"] == "finished");
    CHECK(summary["version"] == people[0]->version);

    // A move after the end: game_over, and nothing changes.
    Follower& last = *people.back();
    check_error(ask(*last.client, move_request(last, "end", "after-the-end"), 99), "game_over", 99,
                table);
    CHECK(sync(last)["version"] == last.version);
    people.clear();
    CHECK(server.stop() == 0);
}

// ------------------------------------------------------------------------------------------------
// Errors

TEST_CASE("server errors: unreadable messages, unknown types, bad fields, hello first, bad token",
          "[server]") {
    // Many requests in a row: beyond the default burst of 40 they would be rate_limited.
    ServerProcess server(kFast);
    Client client(server.port());

    // Before hello.
    check_error(ask(client, Json{{"type", "list_tables"}}, 3), "hello_first", 3);
    check_error(ask(client, Json{{"type", "start"}, {"table", "t0000000000000000"}}, "s-1"),
                "hello_first", "s-1", "t0000000000000000");
    check_error(ask(client, Json{{"type", "hello"}, {"token", std::string(64, '0')}}, 4),
                "bad_token", 4);

    // Not JSON, or not an object: bad_json, and no id (none could be read).
    for (const char* text :
         {"{\"type\": \"hello\", \"id\": 5,", "not json", "[1, 2, 3]", "\"hello\"", "42", "null"}) {
        INFO(text);
        client.send_text(text);
        check_error(client.receive(), "bad_json");
    }

    // Nesting: 16 levels pass (the unknown member is then the problem), 17 do not.
    const auto nested = [](int depth) {
        return "{\"type\":\"hello\",\"id\":9,\"name\":\"Ann\",\"x\":" +
               std::string(static_cast<std::size_t>(depth - 1), '[') +
               std::string(static_cast<std::size_t>(depth - 1), ']') + "}";
    };
    client.send_text(nested(17));
    check_error(client.receive(), "too_deep");
    client.send_text(nested(16));
    check_error(client.receive(), "bad_field", 9);

    check_error(ask(client, Json{{"type", "dance"}}, 5), "unknown_type", 5);
    check_error(ask(client, Json{{"type", 7}}, 6), "bad_field", 6);
    check_error(ask(client, Json{{"name", "Ann"}}, 6), "bad_field", 6);

    // Ids are whole numbers or strings of at most 64 characters; others cannot be echoed.
    for (const std::string& text :
         {std::string(R"({"type":"hello","name":"Ann","id":[1]})"),
          std::string(R"({"type":"hello","name":"Ann","id":1.5})"),
          std::string(R"({"type":"hello","name":"Ann","id":{"n":1}})"),
          R"({"type":"hello","name":"Ann","id":")" + std::string(65, 'x') + "\"}"}) {
        INFO(text);
        client.send_text(text);
        check_error(client.receive(), "bad_field");
    }

    // hello's members.
    check_error(ask(client, Json{{"type", "hello"}}, 7), "bad_field", 7);                // missing
    check_error(ask(client, Json{{"type", "hello"}, {"name", 42}}, 8), "bad_field", 8);  // type
    check_error(ask(client, Json{{"type", "hello"}, {"name", "Ann"}, {"colour", "red"}}, 9),
                "bad_field", 9);  // unknown member
    check_error(
        ask(client, Json{{"type", "hello"}, {"name", "Ann"}, {"token", std::string(64, '0')}}, 10),
        "bad_field", 10);  // a name and a token
    for (const std::string& name : {std::string(), std::string("   "), std::string(33, 'a'),
                                    std::string("Ann\tBob"), std::string("Ann\x7f")}) {
        INFO("name \"" << name << "\"");
        check_error(ask(client, Json{{"type", "hello"}, {"name", name}}, 11), "bad_field", 11);
    }

    // The welcome echoes a string id.
    const auto welcome = ask(client, Json{{"type", "hello"}, {"name", "Ann"}}, "first");
    REQUIRE(welcome);
    INFO(welcome->dump());
    REQUIRE(type_of(*welcome) == "welcome");
    CHECK((*welcome)["id"] == "first");
    CHECK((*welcome)["user"]["name"] == "Ann");
    CHECK((*welcome)["user"]["id"].is_number_integer());
    const std::string token = (*welcome)["token"];
    CHECK(token.size() == 64);
    CHECK(token.find_first_not_of("0123456789abcdef") == std::string::npos);

    // A second hello.
    check_error(ask(client, Json{{"type", "hello"}, {"name", "Bob"}}, 12), "bad_field", 12);
    check_error(ask(client, Json{{"type", "hello"}, {"token", token}}, 13), "bad_field", 13);

    // Other requests: members missing, of the wrong type, out of range, unknown; bad move texts.
    const std::string t = "t0000000000000000";
    const std::vector<Json> bad{
        Json{{"type", "sit"}},                                                    // missing table
        Json{{"type", "sit"}, {"table", t}, {"seat", "two"}},                     // wrong type
        Json{{"type", "sit"}, {"table", t}, {"seat", 4}},                         // out of range
        Json{{"type", "sit"}, {"table", t}, {"seat", -1}},                        // out of range
        Json{{"type", "sit"}, {"table", 17}},                                     // wrong type
        Json{{"type", "watch"}, {"table", "t/../x"}},                             // not a table id
        Json{{"type", "start"}, {"table", t}, {"seat", 1}},                       // unknown member
        Json{{"type", "list_tables"}, {"players", "4"}},                          // wrong type
        Json{{"type", "list_tables"}, {"players", 5}},                            // out of range
        Json{{"type", "list_tables"}, {"open", 1}},                               // wrong type
        Json{{"type", "list_tables"}, {"rules", "house"}},                        // no such rules
        Json{{"type", "list_tables"}, {"colour", "red"}},                         // unknown member
        Json{{"type", "subscribe_lobby"}, {"now", true}},                         // unknown member
        Json{{"type", "unsubscribe_lobby"}, {"now", true}},                       // unknown member
        Json{{"type", "create_table"}},                                           // missing options
        Json{{"type", "create_table"}, {"options", {{"players", 5}}}},            // out of range
        Json{{"type", "create_table"}, {"options", {{"rules", "yucata"}}}},       // missing players
        Json{{"type", "create_table"}, {"options", {{"players", 2}, {"x", 1}}}},  // unknown
        Json{{"type", "create_table"}, {"options", {{"players", 2}}}, {"bots", {"smart"}}},
        Json{{"type", "create_table"},
             {"options", {{"players", 2}}},
             {"bots", {nullptr, "random", "greedy"}}},  // more entries than seats
        Json{{"type", "create_table"}, {"options", {{"players", 2}}}, {"public", "yes"}},
        Json{{"type", "create_table"}, {"options", {{"players", 2}}}, {"seat", 0}},
        move_json(t, 0, "m1", "build 17 1, 0"),  // a space too many
        move_json(t, 0, "m1", "draft 90"),       // no such card
        move_json(t, 0, "m1", "place"),
        move_json(t, 0, "m1", "build 17 +1,0"),
        move_json(t, 0, "m1", ""),
        move_json(t, 0, "m1", "place 01"),       // the move's text is "place 1"
        move_json(t, 0, "m1", "build 31 0,01"),  // the move's text is "build 31 0,1"
        move_json(t, 0, "m1", 17),               // wrong type
        move_json(t, 0, "", "end"),              // empty move_id
        move_json(t, 0, std::string(65, 'm'), "end"),
        move_json(t, -1, "m1", "end"),  // negative version
        move_json(t, "0", "m1", "end"),
        Json{{"type", "move"}, {"table", t}, {"move_id", "m1"}, {"move", "end"}},  // no version
    };
    int id = 100;
    for (const Json& request : bad) {
        INFO(request.dump());
        // The table the request named comes back with the error (docs/protocol.md, "Errors").
        const bool names_t = request.contains("table") && request["table"] == t;
        check_error(ask(client, request, id), "bad_field", id, names_t ? t : std::string());
        ++id;
    }

    // None of it created a table, and the connection is still served.
    const auto tables = client.request(Json{{"type", "list_tables"}});
    REQUIRE(tables);
    REQUIRE(type_of(*tables) == "tables");
    CHECK((*tables)["tables"].empty());
    CHECK(server.running());
}

TEST_CASE("server hello: hellos sent at once are answered in order, and make one guest",
          "[server]") {
    // Slow commits keep the first hello's guest unwritten while the second one arrives.
    std::vector<std::string> args = kFast;
    args.insert(args.end(), {"--group-commit-ms", "50"});
    ServerProcess server(args);
    Client client(server.port());
    client.send(Json{{"type", "hello"}, {"token", std::string(64, '0')}, {"id", 1}});
    client.send(Json{{"type", "hello"}, {"name", "Ann"}, {"id", 2}});
    client.send(Json{{"type", "hello"}, {"name", "Bob"}, {"id", 3}});
    const auto bad_token = client.wait_for([](const Json& m) { return m.value("id", 0) == 1; });
    const auto welcome = client.wait_for([](const Json& m) { return m.value("id", 0) == 2; });
    const auto again = client.wait_for([](const Json& m) { return m.value("id", 0) == 3; });
    REQUIRE(bad_token);
    REQUIRE(welcome);
    REQUIRE(again);
    CHECK(type_of(*bad_token) == "error");
    REQUIRE(type_of(*welcome) == "welcome");
    CHECK((*welcome)["user"]["name"] == "Ann");
    check_error(again, "bad_field", 3);
    // The third hello made no guest: the next guest's id is the one after Ann's.
    Client other(server.port());
    const auto next = ask(other, Json{{"type", "hello"}, {"name", "Cid"}}, 1);
    REQUIRE(next);
    REQUIRE(type_of(*next) == "welcome");
    CHECK((*next)["user"]["id"] == (*welcome)["user"]["id"].get<std::uint64_t>() + 1);
}

TEST_CASE("server errors: a name has 1 to 32 characters, counted as characters", "[server]") {
    ServerProcess server(kFast);
    Client client(server.port());
    // 32 characters, 64 bytes of UTF-8: docs/protocol.md counts characters.
    std::string name;
    for (int i = 0; i < 32; ++i)
        name += "\xc3\xa9";  // é
    const auto welcome = ask(client, Json{{"type", "hello"}, {"name", name}}, 1);
    REQUIRE(welcome);
    INFO(welcome->dump());
    CHECK(type_of(*welcome) == "welcome");
}

TEST_CASE("server errors: table requests refused before the start change nothing", "[server]") {
    std::vector<std::string> args = kFast;
    args.insert(args.end(), {"--max-tables", "3"});
    ServerProcess server(args);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower cid(server.port(), "Cid");
    Follower dan(server.port(), "Dan");
    const std::string table = create(ann, create_request(options(3), {nullptr, "greedy"}));
    CHECK(*ann.seat == 0);
    Json before = listed_when(*dan.client, table, seat_is(0, "human"));
    REQUIRE(before.is_object());
    const auto unchanged = [&] { CHECK(plain(listed(*dan.client, table)) == plain(before)); };

    // No such table, for every request that names one.
    const std::string missing = "t0000000000000000";
    int id = 20;
    for (const Json& request :
         {Json{{"type", "sit"}, {"table", missing}}, Json{{"type", "leave"}, {"table", missing}},
          Json{{"type", "start"}, {"table", missing}}, Json{{"type", "watch"}, {"table", missing}},
          Json{{"type", "sync"}, {"table", missing}}, move_json(missing, 0, "m", "end")}) {
        INFO(request.dump());
        check_error(ask(*bob.client, request, id), "not_found", id, missing);
        ++id;
    }

    check_error(ask(*bob.client, Json{{"type", "sit"}, {"table", table}, {"seat", 0}}, 30),
                "seat_taken", 30, table);
    unchanged();
    check_error(ask(*bob.client, Json{{"type", "sit"}, {"table", table}, {"seat", 1}}, "bot"),
                "seat_taken", "bot", table);  // a bot's seat
    unchanged();
    check_error(ask(*bob.client, Json{{"type", "sit"}, {"table", table}, {"seat", 3}}, 31),
                "bad_field", 31);  // a 3-player table has no seat 3
    unchanged();
    check_error(ask(*ann.client, Json{{"type", "sit"}, {"table", table}}, 32), "already_seated", 32,
                table);
    check_error(ask(*ann.client, Json{{"type", "sit"}, {"table", table}, {"seat", 2}}, 33),
                "already_seated", 33, table);
    unchanged();
    check_error(ask(*bob.client, Json{{"type", "start"}, {"table", table}}, 35), "not_seated", 35,
                table);
    unchanged();
    check_error(ask(*ann.client, move_json(table, 0, "early", "end"), 36), "not_started", 36,
                table);
    unchanged();
    check_error(ask(*ann.client, ann.about_table("start"), 37), "not_full", 37, table);
    unchanged();

    CHECK(sit(bob, table) == 2);
    before = listed_when(*dan.client, table, seat_is(2, "human"));
    check_error(ask(*cid.client, Json{{"type", "sit"}, {"table", table}}, 38), "table_full", 38,
                table);
    unchanged();

    // A table without spectators: only its players may watch it.
    const std::string closed =
        create(cid, create_request(options(2), {nullptr, "random"}, Json{{"spectators", false}}));
    check_error(ask(*dan.client, Json{{"type", "watch"}, {"table", closed}}, 39),
                "spectators_not_allowed", 39, closed);
    check_error(ask(*dan.client, Json{{"type", "sync"}, {"table", closed}}, 40),
                "spectators_not_allowed", 40, closed);
    const auto watched = ask(*cid.client, Json{{"type", "watch"}, {"table", closed}}, 41);
    REQUIRE(watched);
    CHECK(type_of(*watched) == "table");  // before the start: the summary
    CHECK(table_of(*watched) == closed);

    // The server holds --max-tables tables.
    create(dan, create_request(options(2), {}, Json{{"sit", false}}));
    check_error(ask(*dan.client, create_request(options(2)), 42), "table_full", 42);
    const auto tables = dan.request(Json{{"type", "list_tables"}});
    REQUIRE(tables);
    CHECK((*tables)["tables"].size() == 3);

    // After the start.
    const auto started = ask(*bob.client, bob.about_table("start"), 43);
    REQUIRE(started);
    REQUIRE(type_of(*started) == "started");
    const Json seats = listed_when(*dan.client, table, [](const Json& summary) {
        return summary["status"] == "playing";
    })["seats"];
    check_error(ask(*cid.client, Json{{"type", "sit"}, {"table", table}}, 44), "already_started",
                44, table);
    check_error(ask(*ann.client, ann.about_table("start"), 45), "already_started", 45, table);
    CHECK(plain(listed(*dan.client, table)["seats"]) == plain(seats));
    CHECK(listed(*dan.client, table)["status"] == "playing");
}

TEST_CASE("server errors: moves refused during a game leave its version unchanged", "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower eve(server.port(), "Eve");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    start(bob, {&ann, &bob});
    Follower& actor = ann.my_turn() ? ann : bob;
    Follower& other = ann.my_turn() ? bob : ann;
    REQUIRE(actor.my_turn());
    REQUIRE(actor.view["phase"] == "draft");
    Json before = sync(actor);
    const auto unchanged = [&] {
        const Json now = sync(actor);
        CHECK(now["version"] == before["version"]);
        CHECK(plain(now["view"]) == plain(before["view"]));
    };
    const std::string legal = actor.view["moves"][0];

    check_error(ask(*other.client, move_request(other, legal, "n-1"), 50), "not_your_turn", 50,
                table);
    unchanged();
    auto refused = ask(*actor.client, move_request(actor, "produce", "i-1"), 51);
    check_error(refused, "illegal_move", 51, table);
    CHECK((*refused)["reason"] == "wrong_phase");
    refused =
        ask(*actor.client, move_request(actor, "draft 0", "i-2"), 52);  // deck I: never drafted
    check_error(refused, "illegal_move", 52, table);
    CHECK((*refused)["reason"] == "card_not_available");
    unchanged();

    // A move on another version: stale_version, then a snapshot of the table as it is.
    check_error(ask(*actor.client, move_request(actor, legal, "s-1", actor.version + 5), 53),
                "stale_version", 53, table);
    auto snapshot = actor.client->receive();
    REQUIRE(snapshot);
    INFO(snapshot->dump().substr(0, 300));
    REQUIRE(type_of(*snapshot) == "snapshot");
    CHECK_FALSE(snapshot->contains("id"));
    CHECK((*snapshot)["table"] == table);
    CHECK((*snapshot)["version"] == actor.version);
    CHECK((*snapshot)["seat"] == *actor.seat);
    CHECK(plain((*snapshot)["view"]) == plain(before["view"]));
    unchanged();

    // The refused move ids were not taken: the same id on the right version applies the move.
    const auto patch = ask(*actor.client, move_request(actor, legal, "s-1"), 54);
    REQUIRE(patch);
    INFO(patch->dump());
    REQUIRE(acknowledges(*patch, "s-1"));
    CHECK((*patch)["id"] == 54);
    CHECK((*patch)["to"] == actor.version + 1);
    actor.absorb(*patch);
    ann.catch_up((*patch)["to"]);
    bob.catch_up((*patch)["to"]);
    before = sync(actor);

    // An older version, and a move by someone without a seat.
    Follower& mover = ann.my_turn() ? ann : bob;
    check_error(ask(*mover.client, move_request(mover, "end", "s-2", 0), 55), "stale_version", 55,
                table);
    snapshot = mover.client->wait_for(of_type("snapshot", table));
    REQUIRE(snapshot);
    CHECK((*snapshot)["version"] == before["version"]);
    eve.table = table;
    check_error(ask(*eve.client, move_request(eve, "end", "e-1", before["version"]), 56),
                "not_seated", 56, table);
    unchanged();
}

TEST_CASE("server errors: rate_limited drops what comes beyond the burst", "[server]") {
    ServerProcess server({"--messages-per-second", "1", "--message-burst", "3"});
    Client client(server.port());
    client.hello("Ann");  // one of the 3
    for (int id = 1; id <= 4; ++id)
        client.send(Json{{"type", "create_table"}, {"id", id}, {"options", options(2)}});
    int created = 0, limited = 0;
    for (int i = 0; i < 4; ++i) {
        const auto reply = client.wait_for(
            [](const Json& m) { return type_of(m) == "table_created" || type_of(m) == "error"; });
        REQUIRE(reply);
        INFO(reply->dump());
        if (type_of(*reply) == "table_created") {
            ++created;
            CHECK((*reply)["id"] == created);  // the first two, in order
        } else {
            CHECK((*reply)["code"] == "rate_limited");
            CHECK_FALSE((*reply)["message"].get<std::string>().empty());
            // The message was dropped unread: an id, if any, is the request's.
            if (reply->contains("id")) CHECK(((*reply)["id"] == 3 || (*reply)["id"] == 4));
            ++limited;
        }
    }
    CHECK(created == 2);
    CHECK(limited == 2);
    // Dropped means not applied; three seconds later a listing (which takes the whole burst of 3
    // here: it counts as 5 messages, at most a burst) passes again.
    std::this_thread::sleep_for(3100ms);
    const auto tables = client.request(Json{{"type", "list_tables"}});
    REQUIRE(tables);
    INFO(tables->dump());
    REQUIRE(type_of(*tables) == "tables");
    CHECK((*tables)["tables"].size() == 2);
    const auto [status, metrics] = server.get("/metrics");
    CHECK(status == 200);
    CHECK(metrics.find("gcor_errors_total{code=\"rate_limited\"} 2\n") != std::string::npos);
}

// Listings read and render many tables: each counts as 5 messages (issue 18: 32 connections
// listing within the old limit halved the moves of a table beside them).
TEST_CASE("server errors: a listing counts as 5 messages of the rate limit", "[server]") {
    ServerProcess server;  // 20 messages a second, bursts of 40
    Client client(server.port());
    client.hello("Ann");
    // 20 listings count as 100 messages: more than the burst and what 3 s add to it.
    constexpr int kAsked = 20;
    for (int id = 0; id < kAsked; ++id)
        client.send(Json{{"type", (id % 2) ? "list_tables" : "my_games"}, {"id", id}});
    int listed = 0, limited = 0;
    for (int i = 0; i < kAsked; ++i) {
        const auto reply = client.receive();
        REQUIRE(reply);
        INFO(reply->dump());
        if (type_of(*reply) == "error") {
            CHECK((*reply)["code"] == "rate_limited");
            ++limited;
        } else {
            CHECK((type_of(*reply) == "tables" || type_of(*reply) == "my_games"));
            CHECK((*reply)["id"] == i);
            ++listed;
        }
    }
    CHECK(listed > 0);
    CHECK(limited > 0);
    CHECK(listed + limited == kAsked);
}

TEST_CASE("server errors: too_many_connections answers a connection over the limit with 429",
          "[server]") {
    ServerProcess server({"--connections-per-address", "2"});
    auto first = std::make_unique<Client>(server.port());
    Client second(server.port());
    first->hello("Ann");
    second.hello("Bob");
    CHECK_THROWS(Client(server.port()));
    // Plain HTTP counts too: /metrics is refused while the address's two places are taken.
    CHECK(server.get("/metrics").first == 429);
    // A closed connection gives its place back.
    first.reset();
    std::pair<int, std::string> metrics;
    for (int attempt = 0; attempt < 100 && metrics.first != 200; ++attempt) {
        std::this_thread::sleep_for(20ms);
        metrics = server.get("/metrics");
    }
    REQUIRE(metrics.first == 200);
    CHECK(metrics.second.find("gcor_errors_total{code=\"too_many_connections\"} 2\n") !=
          std::string::npos);
    std::unique_ptr<Client> third;
    for (int attempt = 0; attempt < 100 && !third; ++attempt) {
        try {
            third = std::make_unique<Client>(server.port());
        } catch (const std::exception&) {
            std::this_thread::sleep_for(20ms);
        }
    }
    REQUIRE(third);
    third->hello("Cid");
    CHECK(second.request(Json{{"type", "list_tables"}}));
}

// ------------------------------------------------------------------------------------------------
// The lobby

void check_summary(const Json& summary, const std::string& table, int players,
                   const std::string& rules) {
    INFO(summary.dump());
    REQUIRE(summary.is_object());
    CHECK(summary["id"] == table);
    CHECK(summary["options"]["players"] == players);
    CHECK(summary["options"]["rules"] == rules);
    CHECK(summary["seats"].size() == static_cast<std::size_t>(players));
    CHECK(summary["version"].is_number_unsigned());
    CHECK(summary["public"].is_boolean());
    CHECK(summary["spectators"].is_boolean());
}

std::vector<std::string> ids_of(const std::optional<Json>& tables) {
    REQUIRE(tables);
    INFO(tables->dump());
    REQUIRE(type_of(*tables) == "tables");
    std::vector<std::string> ids;
    for (const Json& summary : (*tables)["tables"])
        ids.push_back(summary["id"]);
    return ids;
}

TEST_CASE("server lobby: filters, private tables, subscriptions", "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower cid(server.port(), "Cid");
    Follower dan(server.port(), "Dan");
    Follower lou(server.port(), "Lou");  // stays subscribed

    const std::string four =
        create(ann, create_request(options(4, "yucata", true), {nullptr, "greedy"}));
    const std::string two =
        create(ann, create_request(options(2, "publisher"), {nullptr, "random"}));  // full
    const std::string hidden = create(ann, create_request(options(3), {}, Json{{"public", false}}));

    const auto all = ids_of(bob.request(Json{{"type", "list_tables"}}));
    CHECK(all == std::vector<std::string>{four, two});  // oldest first, not the private one
    const auto tables = bob.request(Json{{"type", "list_tables"}});
    check_summary((*tables)["tables"][0], four, 4, "yucata");
    const Json& summary = (*tables)["tables"][0];
    CHECK(summary["status"] == "waiting");
    CHECK(summary["public"] == true);
    CHECK(summary["spectators"] == true);
    CHECK(summary["version"] == 0);
    CHECK(summary["options"]["shrine"] == true);
    CHECK(plain(summary["seats"]) ==
          plain(Json::array({Json{{"kind", "human"}, {"user", ann.user["id"]}, {"name", "Ann"}},
                             Json{{"kind", "bot"}, {"bot", "greedy"}}, Json{{"kind", "open"}},
                             Json{{"kind", "open"}}})));
    check_summary((*tables)["tables"][1], two, 2, "publisher");

    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"open", true}})) ==
          std::vector<std::string>{four});
    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"open", false}})) ==
          std::vector<std::string>{four, two});
    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"players", 2}})) ==
          std::vector<std::string>{two});
    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"players", 3}})).empty());
    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"rules", "publisher"}})) ==
          std::vector<std::string>{two});
    CHECK(ids_of(bob.request(Json{
              {"type", "list_tables"}, {"rules", "yucata"}, {"players", 4}, {"open", true}})) ==
          std::vector<std::string>{four});
    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"rules", "yucata"}, {"players", 2}}))
              .empty());

    // A private table is joined by its id.
    CHECK(sit(dan, hidden) == 1);
    const auto watched = dan.request(Json{{"type", "watch"}, {"table", hidden}});
    REQUIRE(watched);
    CHECK(type_of(*watched) == "table");
    CHECK((*watched)["table"]["public"] == false);
    CHECK(std::find(all.begin(), all.end(), hidden) == all.end());
    CHECK(ids_of(bob.request(Json{{"type", "list_tables"}, {"players", 3}})).empty());

    // Subscribers get every public table, then their changes.
    CHECK(ids_of(lou.request(Json{{"type", "subscribe_lobby"}})) ==
          std::vector<std::string>{four, two});
    CHECK(ids_of(bob.request(Json{{"type", "subscribe_lobby"}})) ==
          std::vector<std::string>{four, two});
    sit(cid, four);
    for (Follower* subscriber : {&lou, &bob}) {
        const auto update = subscriber->client->wait_for(of_type("lobby_update", four));
        REQUIRE(update);
        INFO(update->dump());
        CHECK_FALSE(update->contains("id"));
        CHECK((*update)["table"]["seats"][2] ==
              Json{{"kind", "human"}, {"user", cid.user["id"]}, {"name", "Cid"}});
    }
    // The creator follows its table: it gets the new summary too.
    const auto changed = ann.client->wait_for([&](const Json& m) {
        return type_of(m) == "table" && table_of(m) == four &&
               m["table"]["seats"][2]["kind"] == "human";
    });
    REQUIRE(changed);
    CHECK_FALSE(changed->contains("id"));

    // Changes of the private table are not published: the next update Lou gets is a public one.
    sit(cid, hidden);
    REQUIRE(cid.request(Json{{"type", "watch"}, {"table", hidden}}));  // after the table published
    const std::string later = create(dan, create_request(options(2), {}, Json{{"sit", false}}));
    const auto update = lou.client->wait_for(of_type("lobby_update"));
    REQUIRE(update);
    CHECK(table_of(*update) == later);

    // After unsubscribe_lobby, Bob gets no more updates (Lou still does).
    const auto unsubscribed = ask(*bob.client, Json{{"type", "unsubscribe_lobby"}}, "u");
    REQUIRE(unsubscribed);
    CHECK(type_of(*unsubscribed) == "unsubscribed");
    while (bob.client->receive(20ms)) {
    }
    sit(dan, four);
    REQUIRE(lou.client->wait_for([&](const Json& m) {
        return type_of(m) == "lobby_update" && table_of(m) == four &&
               m["table"]["seats"][3]["kind"] == "human";
    }));
    CHECK_FALSE(bob.client->wait_for(of_type("lobby_update"), 300ms));
}

TEST_CASE("server lobby: list_tables in pages: limit, after and next", "[server]") {
    ServerProcess server(kFast);
    Client client(server.port());
    client.hello("Ann");
    std::set<std::string> created;
    for (int i = 0; i < 7; ++i) {
        const auto reply =
            client.request(Json{{"type", "create_table"}, {"options", options(2)}, {"sit", false}});
        REQUIRE(reply);
        REQUIRE(type_of(*reply) == "table_created");
        created.insert((*reply)["table"]["id"].get<std::string>());
    }
    // One page of all of them (the default limit is 50): no next.
    const auto all = client.request(Json{{"type", "list_tables"}});
    REQUIRE(all);
    REQUIRE((*all)["tables"].size() == 7);
    CHECK_FALSE(all->contains("next"));
    std::vector<std::string> oldest_first;
    for (const Json& summary : (*all)["tables"])
        oldest_first.push_back(summary["id"]);
    CHECK(std::set<std::string>(oldest_first.begin(), oldest_first.end()) == created);

    // Pages of 3: 3, 3 and 1, each `next` the last table of its page, in the same order.
    std::vector<std::string> paged;
    Json request{{"type", "list_tables"}, {"limit", 3}};
    std::vector<std::size_t> sizes;
    for (int page = 0; page < 5; ++page) {
        const auto reply = client.request(request);
        REQUIRE(reply);
        REQUIRE(type_of(*reply) == "tables");
        sizes.push_back((*reply)["tables"].size());
        for (const Json& summary : (*reply)["tables"])
            paged.push_back(summary["id"]);
        if (!reply->contains("next")) break;
        CHECK((*reply)["next"] == paged.back());
        request["after"] = (*reply)["next"];
    }
    CHECK(sizes == std::vector<std::size_t>{3, 3, 1});
    CHECK(paged == oldest_first);

    // subscribe_lobby answers the first page.
    const auto subscribed = client.request(Json{{"type", "subscribe_lobby"}});
    REQUIRE(subscribed);
    CHECK((*subscribed)["tables"].size() == 7);

    // Limits and cursors that are not right.
    int id = 40;
    for (const Json& bad :
         {Json{{"type", "list_tables"}, {"limit", 0}}, Json{{"type", "list_tables"}, {"limit", 51}},
          Json{{"type", "list_tables"}, {"limit", "3"}},
          Json{{"type", "list_tables"}, {"after", "x"}},
          Json{{"type", "list_tables"}, {"after", 3}}}) {
        INFO(bad.dump());
        check_error(ask(client, bad, id), "bad_field", id);
        ++id;
    }
    check_error(ask(client, Json{{"type", "list_tables"}, {"after", "t0000000000000000"}}, id),
                "not_found", id);
}

TEST_CASE("server lobby: a playing table's summary counts the moves applied", "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower lou(server.port(), "Lou");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    start(ann, {&ann, &bob});
    Game game{{&ann, &bob}, Rng{81}};
    REQUIRE_FALSE(game.play([&] { return game.moves >= 10; }));
    const Json summary = listed(*lou.client, table);
    INFO(summary.dump());
    CHECK(summary["status"] == "playing");
    CHECK(summary["version"] ==
          ann.version);  // docs/protocol.md: "version counts the moves applied"
}

// ------------------------------------------------------------------------------------------------
// Whole games

TEST_CASE("server games: two humans, to the end", "[server]") {
    full_game(options(2, "yucata", true), {}, 11);
}

TEST_CASE("server games: three humans, publisher rules, to the end", "[server]") {
    full_game(options(3, "publisher", false), {}, 12);
}

TEST_CASE("server games: four humans, to the end", "[server]") {
    full_game(options(4, "yucata", false), {}, 13);
}

TEST_CASE("server games: two humans and two bots, to the end", "[server]") {
    full_game(options(4, "publisher", true), {"greedy", nullptr, "random", nullptr}, 14);
}

// ------------------------------------------------------------------------------------------------
// Reconnection, spectators, idempotency, several connections, leaving

TEST_CASE("server reconnect: a player comes back with its token and finishes the game",
          "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    const std::string table = create(ann, create_request(options(2, "yucata", true)));
    sit(bob, table);
    start(ann, {&ann, &bob});
    Game game{{&ann, &bob}, Rng{21}};
    // Play until Bob has moved a few times and it is Bob's turn again.
    REQUIRE_FALSE(game.play([&] { return bob.moves_sent >= 6 && bob.my_turn(); }));
    // Bob's last move is sent, and then his connection is lost before he reads anything.
    const Json last = move_request(bob, bob.view["moves"][0], "Bob-last");
    const auto applied = bob.request(last);
    REQUIRE(applied);
    REQUIRE(acknowledges(*applied, "Bob-last"));
    const Json seat = *bob.seat;
    bob.client.reset();
    ann.catch_up((*applied)["to"]);

    // Ann plays on while it is her turn.
    game.followers = {&ann};
    REQUIRE_FALSE(game.play([&] { return !ann.my_turn(); }));

    // Bob is back: the same user, his last move acknowledged again, his seat's snapshot.
    bob.client = std::make_unique<Client>(server.port());
    const auto welcome = bob.request(Json{{"type", "hello"}, {"token", bob.token}});
    REQUIRE(welcome);
    INFO(welcome->dump());
    REQUIRE(type_of(*welcome) == "welcome");
    CHECK(plain((*welcome)["user"]) == plain(bob.user));
    CHECK((*welcome)["token"] == bob.token);
    const auto again = bob.request(last);
    REQUIRE(again);
    INFO(again->dump());
    REQUIRE(type_of(*again) == "ack");
    CHECK((*again)["version"] == (*applied)["to"]);
    CHECK((*again)["move_id"] == "Bob-last");
    const Json snapshot = sync(bob);
    CHECK(snapshot["seat"] == seat);
    CHECK(snapshot["view"]["viewer"] == seat);
    CHECK(snapshot["version"] == ann.version);
    bob.absorb(snapshot);
    CHECK(bob.my_turn());

    game.followers = {&ann, &bob};
    REQUIRE(game.play());
    check_final(ann);
    check_final(bob);
}

// The cards of a spectator's hands: only ones that were in the offer before, or shrines.
void check_spectator_stream(const std::vector<std::string>& texts, const std::string& table) {
    std::set<int> public_cards{80, 81, 82, 83};
    Json view;
    bool have_view = false;
    int hidden = 0, patches = 0;
    const auto check_cards = [&](const Json& cards, const std::string& where) {
        for (const Json& card : cards) {
            if (card.is_null()) continue;  // a card of a hand the viewer does not know
            INFO(where << ": card " << card);
            CHECK(public_cards.count(card.get<int>()) == 1);
        }
    };
    for (const std::string& text : texts) {
        const Json message = Json::parse(text);
        const std::string type = type_of(message);
        if ((type != "snapshot" && type != "patch") || table_of(message) != table) continue;
        if (type == "snapshot") {
            CHECK(message["seat"].is_null());
            view = message["view"];
            have_view = true;
        } else {
            REQUIRE(have_view);
            for (const Json& op : message["ops"]) {
                const std::string path = op["path"];
                if (path.size() >= 5 && path.substr(path.size() - 5) == "/hand")
                    check_cards(op["value"], "patch " + path);
            }
            view = view.patch(message["ops"]);
            ++patches;
        }
        CHECK(view["viewer"].is_null());
        CHECK(view["moves"].empty());
        if (view["draft"].is_object()) CHECK(view["draft"]["cards"].empty());
        if (view["school"].is_object()) CHECK(view["school"]["cards"].empty());
        for (const Json& player : view["players"]) {
            check_cards(player["hand"], "view");
            hidden += std::ranges::count(player["hand"], nullptr) > 0 ? 1 : 0;
        }
        for (const Json& card : view["offer"])
            public_cards.insert(card.get<int>());
    }
    CHECK(patches > 50);
    CHECK(hidden > 0);  // the test saw hands with cards it may not know
}

TEST_CASE("server spectators: patches without hidden cards, moves refused", "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower eve(server.port(), "Eve");
    const std::string table =
        create(ann, create_request(options(3, "yucata", true), {nullptr, nullptr, "greedy"}));
    sit(bob, table);
    start(ann, {&ann, &bob});
    // Eve watches the started game before anyone took a card from the offer.
    eve.table = table;
    const std::size_t first = eve.client->received_texts.size();
    const auto snapshot = eve.request(eve.about_table("watch"));
    REQUIRE(snapshot);
    REQUIRE(type_of(*snapshot) == "snapshot");
    CHECK((*snapshot)["seat"].is_null());
    CHECK((*snapshot)["view"]["viewer"].is_null());
    eve.absorb(*snapshot);

    Game game{{&ann, &bob, &eve}, Rng{31}};
    // When it is Ann's turn (nobody else moves), Eve tries one of Ann's moves.
    REQUIRE_FALSE(game.play([&] { return game.moves >= 40 && ann.my_turn(); }));
    const std::string legal = ann.view["moves"][0];
    const std::uint64_t version = eve.version;
    CHECK(version == ann.version);
    check_error(ask(*eve.client, move_request(eve, legal, "e-1"), 70), "not_seated", 70, table);
    CHECK(sync(eve)["version"] == version);  // nothing applied
    REQUIRE(game.play());
    check_final(eve);
    check_final(ann);
    check_spectator_stream(std::vector<std::string>(eve.client->received_texts.begin() +
                                                        static_cast<std::ptrdiff_t>(first),
                                                    eve.client->received_texts.end()),
                           table);
}

TEST_CASE("server moves: the same move_id twice is acknowledged twice and applied once",
          "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    start(ann, {&ann, &bob});
    Game game{{&ann, &bob}, Rng{41}};
    REQUIRE_FALSE(game.play([&] { return game.moves >= 5; }));
    Follower& mover = ann.my_turn() ? ann : bob;
    Follower& other = ann.my_turn() ? bob : ann;
    const std::uint64_t version = mover.version;
    const Json request = move_request(mover, mover.view["moves"][0], "twice");
    const auto first = ask(*mover.client, request, 1);
    const auto second = ask(*mover.client, request, 2);
    REQUIRE(first);
    REQUIRE(second);
    INFO(first->dump() << " then " << second->dump());
    REQUIRE(acknowledges(*first, "twice"));
    CHECK((*first)["id"] == 1);
    REQUIRE(type_of(*second) == "ack");
    CHECK((*second)["id"] == 2);
    CHECK((*first)["to"] == version + 1);
    CHECK((*second)["version"] == version + 1);
    CHECK((*second)["move_id"] == "twice");
    CHECK((*second)["table"] == table);
    // With the version it now has, and even another move text: still the first answer.
    const auto third = ask(*mover.client, move_request(mover, "end", "twice", version + 1), 3);
    REQUIRE(third);
    INFO(third->dump());
    REQUIRE(type_of(*third) == "ack");
    CHECK((*third)["version"] == version + 1);
    // One patch for the move, no more.
    mover.absorb(*first);
    other.catch_up(version + 1);
    CHECK(sync(other)["version"] == version + 1);
    CHECK(sync(mover)["version"] == version + 1);
    CHECK_FALSE(other.client->wait_for(of_type("patch"), 200ms));
    CHECK(other.version == version + 1);
    game.moves = 0;
    REQUIRE(game.play());
    check_final(ann);
    check_final(bob);
}

TEST_CASE(
    "server moves: two connections of one seat both follow it, their moves are served in order",
    "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    const std::string table = create(ann, create_request(options(2, "yucata", true)));
    sit(bob, table);
    start(bob, {&ann, &bob});
    // Ann's second connection: the same user, the same seat.
    Follower ann2(server.port(), "Ann2");
    ann2.client = std::make_unique<Client>(server.port());
    const auto welcome = ann2.request(Json{{"type", "hello"}, {"token", ann.token}});
    REQUIRE(welcome);
    REQUIRE(type_of(*welcome) == "welcome");
    CHECK(plain((*welcome)["user"]) == plain(ann.user));
    ann2.table = table;
    const auto snapshot = ann2.request(ann2.about_table("watch"));
    REQUIRE(snapshot);
    REQUIRE(type_of(*snapshot) == "snapshot");
    CHECK((*snapshot)["seat"] == *ann.seat);
    ann2.seat = ann.seat;
    ann2.absorb(*snapshot);

    Game game{{&bob, &ann, &ann2}, Rng{51}};
    REQUIRE_FALSE(game.play([&] { return game.moves >= 30 && ann.my_turn(); }));
    CHECK(ann2.moves_sent > 0);  // both connections have moved
    CHECK(ann.moves_sent > 0);
    CHECK(plain(ann.view) == plain(ann2.view));

    // Both connections move on the same version: one is applied, the other is stale.
    const std::uint64_t version = ann.version;
    const int patches = ann.patches;
    const int patches2 = ann2.patches;
    Json first = move_request(ann, ann.view["moves"][0], "race-1");
    first["id"] = "r1";
    Json second = move_request(ann2, ann2.view["moves"].back(), "race-2");
    second["id"] = "r2";
    ann.client->send(first);
    ann2.client->send(second);
    const auto has_id = [](const char* id) {
        return [id](const Json& m) { return m.contains("id") && m["id"] == id; };
    };
    const auto reply1 = ann.client->wait_for(has_id("r1"));
    const auto reply2 = ann2.client->wait_for(has_id("r2"));
    REQUIRE(reply1);
    REQUIRE(reply2);
    INFO(reply1->dump() << " and " << reply2->dump());
    const bool first_won = acknowledges(*reply1, "race-1");
    CHECK(first_won != acknowledges(*reply2, "race-2"));  // exactly one applied
    const auto& acked = first_won ? *reply1 : *reply2;
    CHECK(acked["to"] == version + 1);
    check_error(first_won ? reply2 : reply1, "stale_version", first_won ? "r2" : "r1", table);
    Follower& winner = first_won ? ann : ann2;
    Follower& loser = first_won ? ann2 : ann;
    winner.absorb(acked);
    const auto fresh = loser.client->wait_for(of_type("snapshot", table));
    REQUIRE(fresh);
    CHECK((*fresh)["version"] == version + 1);
    for (Follower* follower : {&ann, &ann2, &bob})
        follower->catch_up(version + 1);
    CHECK(ann.patches == patches + 1);
    CHECK(ann2.patches == patches2 + 1);
    CHECK(sync(bob)["version"] == version + 1);
    CHECK(plain(ann.view) == plain(ann2.view));

    REQUIRE(game.play());
    CHECK(ann.patches == ann2.patches);
    check_final(ann);
    check_final(ann2);
    check_final(bob);
}

TEST_CASE("server leave: before the start it frees the seat, after it the seat stays", "[server]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower cid(server.port(), "Cid");
    const std::string table = create(ann, create_request(options(2)));
    CHECK(sit(bob, table) == 1);
    const auto left = ask(*bob.client, bob.about_table("leave"), "bye");
    REQUIRE(left);
    INFO(left->dump());
    REQUIRE(type_of(*left) == "left");
    CHECK((*left)["table"] == table);
    CHECK(listed(*ann.client, table)["seats"][1] == Json{{"kind", "open"}});
    REQUIRE(ann.client->wait_for([&](const Json& m) {
        return type_of(m) == "table" && m["table"]["seats"][1]["kind"] == "open";
    }));
    check_error(ask(*bob.client, bob.about_table("start"), 1), "not_seated", 1, table);
    while (bob.client->receive(50ms)) {  // the summary of his own leave came before "left"
    }

    CHECK(sit(cid, table) == 1);
    // Bob's connection follows the table no more.
    CHECK_FALSE(bob.client->wait_for(of_type("table", table), 200ms));
    start(cid, {&ann, &cid});
    Game game{{&ann, &cid}, Rng{61}};
    REQUIRE_FALSE(game.play([&] { return game.moves >= 6 && ann.my_turn(); }));

    const auto left_game = ask(*cid.client, cid.about_table("leave"), 2);
    REQUIRE(left_game);
    REQUIRE(type_of(*left_game) == "left");
    game.followers = {&ann};
    game.move(ann);
    CHECK_FALSE(cid.client->wait_for(of_type("patch", table), 200ms));  // not following
    const Json summary = listed(*ann.client, table);
    CHECK(summary["seats"][1] ==
          Json{{"kind", "human"}, {"user", cid.user["id"]}, {"name", "Cid"}});
    CHECK(summary["status"] == "playing");
    // The seat is still Cid's: sync gives its snapshot, and Cid plays on.
    const Json snapshot = sync(cid);
    CHECK(snapshot["seat"] == 1);
    CHECK(snapshot["version"] == ann.version);
    cid.absorb(snapshot);
    game.followers = {&ann, &cid};
    REQUIRE(game.play());
    check_final(ann);
    check_final(cid);
}

// ------------------------------------------------------------------------------------------------
// JSON Schemas

TEST_CASE("schemas: every message of a game and a sample of each error and lobby message",
          "[server][schema]") {
    char pattern[] = "/tmp/gcor-schema-XXXXXX";
    const std::string dir = mkdtemp(pattern);
    Recording recording;
    {
        ServerProcess server(kFast);
        Follower lou(server.port(), "Lou");
        Follower ann(server.port(), "Ann");
        Follower bob(server.port(), "Bob");
        Follower eve(server.port(), "Eve");
        Client errors(server.port());  // its requests are wrong on purpose

        // The lobby.
        REQUIRE(lou.request(Json{{"type", "subscribe_lobby"}}));
        const std::string table = create(
            ann, create_request(options(2, "yucata", true), {nullptr, nullptr},
                                Json{{"public", true}, {"spectators", true}, {"sit", true}}));
        const std::string other = create(
            bob, create_request(options(3, "publisher", false), {nullptr, "random", "greedy"}));
        REQUIRE(bob.request(Json{{"type", "watch"}, {"table", other}}));
        // Its only person leaves: the table closes (a summary with the status "closed").
        REQUIRE(bob.request(Json{{"type", "leave"}, {"table", other}}));
        create(lou, create_request(options(3, "publisher", false), {nullptr, "random", "greedy"}));
        sit(bob, table);
        REQUIRE(lou.request(
            Json{{"type", "list_tables"}, {"open", true}, {"players", 3}, {"rules", "publisher"}}));
        // A page with `next`, and the page after it.
        const auto first_page = lou.request(Json{{"type", "list_tables"}, {"limit", 1}});
        REQUIRE(first_page);
        REQUIRE(first_page->contains("next"));
        REQUIRE(lou.request(
            Json{{"type", "list_tables"}, {"limit", 1}, {"after", (*first_page)["next"]}}));
        REQUIRE(lou.request(Json{{"type", "unsubscribe_lobby"}}));
        const std::string waiting = create(
            ann, create_request(options(3), {nullptr, "random"}, Json{{"spectators", false}}));
        const std::string full =
            create(ann, create_request(options(2, "publisher"), {nullptr, "greedy"}));

        // Errors before and without a game.
        errors.send(Json{{"type", "list_tables"}, {"id", "early"}});            // hello_first
        errors.send_text("{nope");                                              // bad_json
        errors.send_text("[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]");           // too_deep
        errors.send(Json{{"type", "dance"}, {"id", "x"}});                      // unknown_type
        errors.send(Json{{"type", "hello"}, {"token", std::string(64, 'f')}});  // bad_token
        errors.hello("Err");
        errors.send(Json{{"type", "hello"}, {"name", "Err"}});                // bad_field
        errors.send(Json{{"type", "sit"}, {"table", "t0000000000000000"}});   // not_found
        errors.send(Json{{"type", "sit"}, {"table", full}});                  // table_full
        errors.send(Json{{"type", "sit"}, {"table", waiting}, {"seat", 0}});  // seat_taken
        errors.send(Json{{"type", "watch"}, {"table", waiting}});         // spectators_not_allowed
        errors.send(Json{{"type", "start"}, {"table", waiting}});         // not_seated
        REQUIRE(ann.request(Json{{"type", "sit"}, {"table", waiting}}));  // already_seated
        REQUIRE(ann.request(move_json(waiting, 0, "m", "end")));          // not_started
        REQUIRE(ann.request(Json{{"type", "start"}, {"table", waiting}}));  // not_full
        ann.follow(table);

        // The game.
        start(bob, {&ann, &bob});
        REQUIRE(ann.request(Json{{"type", "start"}, {"table", table}}));  // already_started
        eve.table = table;
        const auto watched = eve.request(eve.about_table("watch"));
        REQUIRE(watched);
        eve.absorb(*watched);
        Follower& actor = ann.my_turn() ? ann : bob;
        Follower& other_seat = ann.my_turn() ? bob : ann;
        REQUIRE(other_seat.request(move_request(other_seat, actor.view["moves"][0], "a")));  // turn
        REQUIRE(actor.request(move_request(actor, "produce", "b")));                 // illegal_move
        REQUIRE(actor.request(move_request(actor, "end", "c", actor.version + 3)));  // stale
        REQUIRE(actor.client->wait_for(of_type("snapshot", table)));
        Game game{{&ann, &bob, &eve}, Rng{71}};
        // A move taken back, then an undo with nothing left to take back (cannot_undo).
        auto may_undo = [&] { return ann.view["undo"] == true || bob.view["undo"] == true; };
        REQUIRE_FALSE(game.play(may_undo));
        Follower& undoer = ann.view["undo"] == true ? ann : bob;
        while (undoer.view["undo"] == true) {
            const auto undone =
                undoer.request(Json{{"type", "undo"},
                                    {"table", table},
                                    {"version", undoer.version},
                                    {"move_id", "u" + std::to_string(undoer.version)}});
            REQUIRE(undone);
            undoer.absorb(*undone);
            for (Follower* follower : {&ann, &bob, &eve})
                follower->catch_up(undoer.version);
        }
        REQUIRE(undoer.request(Json{{"type", "undo"},
                                    {"table", table},
                                    {"version", undoer.version},
                                    {"move_id", "nothing"}}));  // cannot_undo
        REQUIRE(game.play());
        for (Follower* follower : {&ann, &bob, &eve})
            check_final(*follower);
        REQUIRE(type_of(*game.last_mover->request(game.last_move)) == "ack");  // a retry
        REQUIRE(ann.request(move_request(ann, "end", "late")));                // game_over
        REQUIRE(ann.request(Json{{"type", "log"}, {"table", table}, {"before", 9}, {"limit", 5}}));
        // Views of four seats, decks III and IV, publisher rules.
        create(ann, create_request(options(4, "publisher", true),
                                   {nullptr, "greedy", nullptr, "random"}));
        sit(bob, ann.table);
        start(bob, {&ann, &bob});
        Game bigger{{&ann, &bob}, Rng{72}};
        REQUIRE(bigger.play());
        check_final(ann);
        check_final(bob);
        // The errors client's 11 errors (table errors come from the tables, in any order).
        const auto errors_seen = [&] {
            return std::count_if(
                errors.received_texts.begin(), errors.received_texts.end(),
                [](const std::string& text) { return type_of(Json::parse(text)) == "error"; });
        };
        while (errors_seen() < 11 && errors.receive(2s)) {
        }
        CHECK(errors_seen() == 11);
        // Some of what the other tables did meanwhile.
        while (lou.client->receive(20ms) || bob.client->receive(1ms) || ann.client->receive(1ms)) {
        }
        for (Follower* follower : {&lou, &ann, &bob, &eve})
            recording.add(*follower->client, true);
        recording.add(errors, false);
    }
    {
        ServerProcess server({"--messages-per-second", "1", "--message-burst", "2"});
        Client limited(server.port());
        limited.hello("Quick");
        limited.send(Json{{"type", "list_tables"}, {"id", 1}});
        limited.send(Json{{"type", "list_tables"}, {"id", 2}});
        REQUIRE(limited.wait_for(of_type("error")));
        recording.add(limited, true);
    }
    for (const char* type :
         {"hello", "list_tables", "subscribe_lobby", "unsubscribe_lobby", "create_table", "sit",
          "leave", "start", "watch", "sync", "move", "undo"})
        CHECK(recording.sent.count(type) == 1);
    for (const char* type :
         {"welcome", "tables", "lobby_update", "unsubscribed", "table_created", "seated", "table",
          "left", "started", "snapshot", "patch", "ack", "error"})
        CHECK(recording.received.count(type) == 1);
    for (const char* code : {"bad_json",        "too_deep",     "unknown_type",
                             "bad_field",       "hello_first",  "bad_token",
                             "not_found",       "table_full",   "seat_taken",
                             "already_seated",  "not_seated",   "not_started",
                             "already_started", "not_full",     "spectators_not_allowed",
                             "not_your_turn",   "illegal_move", "stale_version",
                             "game_over",       "rate_limited", "cannot_undo"}) {
        INFO(code);
        CHECK(recording.codes.count(code) == 1);
    }

    const std::string file = dir + "/messages.jsonl";
    std::ofstream(file) << recording.lines.str();
    const auto [status, output] = schema_check(file);
    INFO(output);
    CHECK(status == 0);
    const std::string text = recording.lines.str();
    const auto lines = std::count(text.begin(), text.end(), '\n');
    CHECK(lines > 500);
    CHECK(output.find(std::to_string(lines) + " passed, 0 failed") != std::string::npos);

    // The schemas are strict: each of these breaks the protocol in one place.
    const std::string summary =
        R"({"id":"t0123456789abcdef","options":{"players":2,"rules":"yucata","shrine":false},)"
        R"("status":"waiting","seats":[{"kind":"open"},{"kind":"open"}],"public":true,)"
        R"("spectators":true,"time_control":{"kind":"none"},"undo":true,"version":0})";
    const std::vector<std::string> broken{
        R"({"direction":"sent","message":{"type":"hello","name":"Ann","colour":"red"}})",
        R"({"direction":"sent","message":{"type":"hello"}})",
        R"({"direction":"sent","message":{"type":"sit","table":"t0123456789abcdef","seat":"1"}})",
        R"({"direction":"sent","message":{"type":"move","table":"t0123456789abcdef","version":1,"move_id":"a","move":"build 17 1, 0"}})",
        R"({"direction":"sent","message":{"type":"welcome","user":{"id":1,"name":"A"},"token":"x"}})",
        R"({"direction":"received","message":{"type":"error","code":"oops","message":"x"}})",
        R"({"direction":"received","message":{"type":"error","code":"illegal_move","message":"x","table":"t0123456789abcdef"}})",
        R"({"direction":"received","message":{"type":"error","code":"stale_version","message":"x"}})",
        R"({"direction":"received","message":{"type":"error","code":"bad_json","message":""}})",
        R"({"direction":"received","message":{"type":"ack","table":"t0123456789abcdef","move_id":"a"}})",
        R"({"direction":"received","message":{"type":"patch","table":"t0123456789abcdef","from":1,"to":2,"ops":[{"op":"replace","path":"/round"}],"log":[]}})",
        R"({"direction":"received","message":{"type":"lobby_update","table":)" + summary +
            R"(,"id":3}})",
        R"({"direction":"received","message":{"type":"table","table":)" +
            summary.substr(0, summary.size() - 1) + R"(,"owner":1}}})",
        R"({"direction":"received","message":{"type":"seated","table":"t0123456789abcdef","seat":4}})",
        R"({"direction":"received","message":{"type":"hello","name":"Ann"}})",
    };
    std::ofstream(dir + "/broken.jsonl") << [&] {
        std::string joined;
        for (const std::string& line : broken)
            joined += line + "\n";
        return joined;
    }();
    const auto [broken_status, broken_output] = schema_check(dir + "/broken.jsonl");
    INFO(broken_output);
    CHECK(broken_status == 1);
    CHECK(broken_output.find("0 passed, " + std::to_string(broken.size()) + " failed") !=
          std::string::npos);
    if (status == 0 && broken_status == 1) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gcor::testing
