// A table's chat through the protocol: delivery to seats and spectators, the snapshot's lines and
// the history's pages, a restart, every limit and setting with its code, mutes and an admin's
// deletion (docs/protocol.md, "Chat").
#include <catch2/catch.hpp>

#include <fstream>

#include "server_support.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

Json chat_request(const std::string& table, const std::string& text) {
    return Json{{"type", "chat"}, {"table", table}, {"text", text}};
}

Json history_request(const std::string& table, std::optional<std::uint64_t> before = std::nullopt,
                     std::optional<int> limit = std::nullopt) {
    Json request{{"type", "chat_history"}, {"table", table}};
    if (before) request["before"] = *before;
    if (limit) request["limit"] = *limit;
    return request;
}

std::uint64_t user_id(const Follower& follower) {
    return follower.user["id"].get<std::uint64_t>();
}

// Writes a line and returns the writer's copy (the reply), checked member by member.
Json say(Follower& writer, const std::string& text) {
    const auto reply = writer.request(chat_request(writer.table, text));
    REQUIRE(reply);
    INFO(reply->dump());
    REQUIRE(type_of(*reply) == "chat");
    CHECK((*reply)["table"] == writer.table);
    CHECK((*reply)["text"] == text);
    CHECK((*reply)["from"]["user"] == user_id(writer));
    CHECK((*reply)["from"]["name"] == writer.name);
    CHECK((*reply)["from"]["seat"] == (writer.seat ? Json(*writer.seat) : Json()));
    CHECK((*reply)["n"].get<std::uint64_t>() >= 1);
    CHECK((*reply)["at"].get<std::int64_t>() > 1'700'000'000'000);
    return *reply;
}

// The next chat line `reader` gets for its table.
Json heard(Follower& reader) {
    const auto line = reader.client->wait_for(of_type("chat", reader.table));
    REQUIRE(line);
    CHECK_FALSE(line->contains("id"));  // not the reader's request
    return *line;
}

std::vector<std::uint64_t> numbers(const Json& lines) {
    std::vector<std::uint64_t> result;
    for (const Json& line : lines)
        result.push_back(line["n"].get<std::uint64_t>());
    return result;
}

std::vector<std::uint64_t> range(std::uint64_t first, std::uint64_t last) {
    std::vector<std::uint64_t> result;
    for (std::uint64_t n = first; n <= last; ++n)
        result.push_back(n);
    return result;
}

Json history(Follower& reader, std::optional<std::uint64_t> before = std::nullopt,
             std::optional<int> limit = std::nullopt) {
    const auto page = reader.request(history_request(reader.table, before, limit));
    REQUIRE(page);
    INFO(page->dump());
    REQUIRE(type_of(*page) == "chat_history");
    CHECK((*page)["table"] == reader.table);
    return *page;
}

void watch(Follower& spectator, const std::string& table) {
    spectator.follow(table);
    const auto watched = spectator.request(spectator.about_table("watch"));
    REQUIRE(watched);
    REQUIRE((type_of(*watched) == "table" || type_of(*watched) == "snapshot"));
}

int next_id() {
    static int id = 1000;
    return ++id;
}

// `request` is refused with `code` (the reply carries the request's id); returns the reply.
Json refused(Follower& follower, const Json& request, const std::string& code) {
    const int id = next_id();
    const auto reply = ask(*follower.client, request, id);
    check_error(reply, code, id);
    return *reply;
}

TEST_CASE("chat: seats and spectators, before and during the game, kept across a restart",
          "[chat][store]") {
    Database db;
    auto server = std::make_unique<ServerProcess>(db.args());
    Follower ann(server->port(), "Ann");
    Follower bob(server->port(), "Bob");
    Follower spec(server->port(), "Spec");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    watch(spec, table);
    CHECK(listed(*spec.client, table)["chat"] == "all");

    // In the waiting room: a seat's line reaches the other seat and the spectator, once.
    const Json first = say(ann, "hello <b>all</b> & welcome");
    CHECK(first["n"] == 1);
    for (Follower* reader : {&bob, &spec}) {
        const Json line = heard(*reader);
        CHECK(line["n"] == 1);
        CHECK(line["text"] == "hello <b>all</b> & welcome");  // text as written, never markup
        CHECK(line["from"] == first["from"]);
        CHECK(line["at"] == first["at"]);
    }
    // A spectator writes too (seat null).
    const Json railing = say(spec, "good luck, both of you");
    CHECK(railing["n"] == 2);
    CHECK(railing["from"]["seat"].is_null());
    CHECK(heard(ann)["n"] == 2);
    CHECK(heard(bob)["n"] == 2);

    // During the game: the snapshot carries the lines, oldest first.
    start(ann, {&ann, &bob});
    const Json third = say(bob, "gl hf");
    CHECK(third["from"]["seat"] == 1);
    CHECK(heard(ann)["n"] == 3);
    const Json snapshot = sync(spec);
    REQUIRE(snapshot["chat"].is_array());
    CHECK(numbers(snapshot["chat"]) == range(1, 3));
    CHECK(snapshot["chat"][2]["text"] == "gl hf");
    const std::uint64_t version = snapshot["version"];

    // Kept across a restart: the snapshot and the history have every line.
    server->kill_hard();
    server = std::make_unique<ServerProcess>(db.args());
    Follower ann_again(server->port(), ann.token, Follower::with_token);
    ann_again.follow(table);
    ann_again.seat = ann.seat;
    const Json restored = sync(ann_again);
    CHECK(restored["version"] == version);
    CHECK(numbers(restored["chat"]) == range(1, 3));
    CHECK(restored["chat"][0]["text"] == "hello <b>all</b> & welcome");
    CHECK(restored["chat"][1]["from"]["seat"].is_null());
    // Numbering goes on after the restart.
    CHECK(say(ann_again, "still here")["n"] == 4);

    // Pages back: the newest `limit` before `before`, oldest first; "more" while older ones exist.
    const Json newest = history(ann_again, std::nullopt, 2);
    CHECK(numbers(newest["lines"]) == range(3, 4));
    CHECK(newest["more"] == true);
    const Json older = history(ann_again, 3, 2);
    CHECK(numbers(older["lines"]) == range(1, 2));
    CHECK(older["more"] == false);
    CHECK(numbers(history(ann_again)["lines"]) == range(1, 4));
    CHECK(history(ann_again, 1)["lines"].empty());
}

TEST_CASE("chat: a snapshot carries the last 50 lines, the history pages through the rest",
          "[chat]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    start(ann, {&ann, &bob});
    // 63 lines from 21 spectators, 3 each (a user's burst).
    std::vector<std::unique_ptr<Follower>> crowd;
    for (int i = 0; i < 21; ++i) {
        crowd.push_back(std::make_unique<Follower>(server.port(), "Fan " + std::to_string(i)));
        watch(*crowd.back(), table);
        for (int line = 0; line < 3; ++line)
            say(*crowd.back(), "line " + std::to_string(3 * i + line + 1));
    }
    const Json snapshot = sync(bob);
    CHECK(numbers(snapshot["chat"]) == range(14, 63));
    CHECK(snapshot["chat"].back()["text"] == "line 63");
    const Json before = history(bob, 14, 200);
    CHECK(numbers(before["lines"]) == range(1, 13));
    CHECK(before["more"] == false);
    const Json page = history(bob, 14, 10);
    CHECK(numbers(page["lines"]) == range(4, 13));
    CHECK(page["more"] == true);
}

TEST_CASE("chat: every limit and setting has its code, and a refused line reaches nobody",
          "[chat]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);

    // The text: 1 to 500 characters (not bytes), not only spaces, no control characters, line
    // separators or bidirectional overrides; only the members of a chat request.
    std::string longest;
    for (int i = 0; i < 500; ++i)
        longest += "é";
    CHECK(say(ann, longest)["text"] == longest);
    CHECK(heard(bob)["text"] == longest);
    for (const std::string& bad :
         {std::string(), std::string("   "), longest + "e", std::string("bell\a"),
          std::string("two\nlines"), std::string("tab\there"), std::string("del\x7f"),
          std::string("c1 \xc2\x85"), std::string("line \xe2\x80\xa8 separator"),
          std::string("\xe2\x80\xae"
                      "desrever"),
          std::string("\xe2\x81\xa6isolate")}) {
        INFO(bad);
        const Json reply = refused(ann, chat_request(table, bad), "bad_field");
        CHECK(reply["table"] == table);
    }
    Json extra = chat_request(table, "hi");
    extra["colour"] = "red";
    refused(ann, extra, "bad_field");
    refused(ann, Json{{"type", "chat"}, {"table", table}, {"text", 7}}, "bad_field");
    refused(ann, chat_request("t0000000000000000", "anyone?"), "not_found");
    refused(ann, history_request(table, std::nullopt, 0), "bad_field");
    refused(ann, history_request(table, std::nullopt, 201), "bad_field");
    refused(ann, history_request(table, 0), "bad_field");

    // The rate: bursts of 3, then one line per 2 seconds. Of 8 lines sent at once (well within
    // 10 seconds) some are refused, and only the others reach Bob.
    int accepted = 0;
    int limited = 0;
    for (int i = 0; i < 8; ++i) {
        const auto reply = ann.request(chat_request(table, "spam " + std::to_string(i)));
        REQUIRE(reply);
        if (type_of(*reply) == "chat") {
            ++accepted;
        } else {
            check_error(reply, "rate_limited", (*reply)["id"]);
            CHECK((*reply)["message"].get<std::string>().find("wait") != std::string::npos);
            ++limited;
        }
    }
    CHECK(accepted >= 2);  // the burst of 3, less the longest line written above
    CHECK(limited >= 1);
    for (int i = 0; i < accepted; ++i)
        CHECK(heard(bob)["text"].get<std::string>().starts_with("spam "));
    // Nothing else came: the next line Bob hears is his own table's next one, numbered on.
    const Json after = say(bob, "calm down");
    CHECK(after["n"] == 2 + accepted);
    CHECK(history(ann)["lines"].size() == static_cast<std::size_t>(2 + accepted));

    // Settings: "players" lets spectators read but not write; "off" lets nobody write; a table
    // without spectators refuses those without a seat.
    Follower spec(server.port(), "Spec");
    Follower fay(server.port(), "Fay");
    const std::string players_only =
        create(fay, create_request(options(2), {}, Json{{"chat", "players"}}));
    watch(spec, players_only);
    CHECK(listed(*spec.client, players_only)["chat"] == "players");
    const Json no_spectators =
        refused(spec, chat_request(players_only, "me too"), "chat_not_allowed");
    CHECK(no_spectators["message"].get<std::string>().find("only the players") !=
          std::string::npos);
    say(fay, "players only here");
    CHECK(heard(spec)["text"] == "players only here");

    Follower cy(server.port(), "Cy");
    const std::string silent = create(cy, create_request(options(2), {}, Json{{"chat", "off"}}));
    refused(cy, chat_request(silent, "anyone?"), "chat_not_allowed");
    CHECK(history(cy)["lines"].empty());

    Follower di(server.port(), "Di");
    const std::string private_table =
        create(di, create_request(options(2), {}, Json{{"spectators", false}}));
    refused(spec, chat_request(private_table, "let me in"), "spectators_not_allowed");
    refused(spec, history_request(private_table), "spectators_not_allowed");

    Follower ed(server.port(), "Ed");
    refused(ed, create_request(options(2), {}, Json{{"chat", "loud"}}), "bad_field");
    refused(ed, create_request(options(2), {}, Json{{"chat", true}}), "bad_field");
}

TEST_CASE(
    "chat: a user who neither sits nor watches may not write; a badly formed line is bad_field "
    "first; refused lines do not count against the rate",
    "[chat]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    const std::string table = create(ann, create_request(options(2)));
    Follower eve(server.port(), "Eve");  // does not watch the table (yet)
    eve.follow(table);

    const Json outside =
        refused(eve, chat_request(table, "hello from nowhere"), "chat_not_allowed");
    CHECK(outside["message"].get<std::string>().find("watch") != std::string::npos);
    // Badly formed and not allowed: bad_field, whatever the table would say.
    refused(eve, chat_request(table, "two\nlines"), "bad_field");
    Follower cy(server.port(), "Cy");
    const std::string silent = create(cy, create_request(options(2), {}, Json{{"chat", "off"}}));
    refused(cy, chat_request(silent, std::string(501, 'a')), "bad_field");

    // More refused lines than a burst, then Eve watches: her whole burst is still hers.
    for (int i = 0; i < 6; ++i)
        refused(eve, chat_request(table, "still outside " + std::to_string(i)), "chat_not_allowed");
    watch(eve, table);
    for (int i = 1; i <= 3; ++i) {
        CHECK(say(eve, "line " + std::to_string(i))["n"] == i);  // nothing refused was written
        CHECK(heard(ann)["text"] == "line " + std::to_string(i));
    }
    refused(eve, chat_request(table, "a fourth at once"), "rate_limited");

    // A seat writes from any of its connections, following the table or not: the seat is where
    // the player is.
    Follower ann_phone(server.port(), ann.token, Follower::with_token);
    ann_phone.follow(table);
    ann_phone.seat = ann.seat;
    CHECK(say(ann_phone, "from my phone")["from"]["seat"] == 0);
    // A spectator who stopped watching writes no more.
    const auto left = eve.request(eve.about_table("leave"));
    REQUIRE(left);
    REQUIRE(type_of(*left) == "left");
    refused(eve, chat_request(table, "bye"), "chat_not_allowed");
}

TEST_CASE("chat: a muted user's lines reach the muter nowhere, and an admin deletes a line",
          "[chat][store]") {
    Database db;
    auto server = std::make_unique<ServerProcess>(db.args({"--admin", "Boss"}));
    const auto made = server->post("/api/register",
                                   Json{{"name", "Boss"}, {"password", "long enough pw"}}.dump());
    REQUIRE(made.first == 201);
    Follower boss(server->port(), Json::parse(made.second)["token"].get<std::string>(),
                  Follower::with_token);
    Follower ann(server->port(), "Ann");
    Follower bob(server->port(), "Bob");
    Follower spec(server->port(), "Spec");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    watch(spec, table);
    watch(boss, table);
    start(ann, {&ann, &bob});

    const Json early = say(bob, "before the mute");
    for (Follower* reader : {&ann, &spec, &boss})
        heard(*reader);

    // Refusals change nothing.
    refused(ann, Json{{"type", "mute"}, {"user", user_id(ann)}}, "bad_field");
    refused(ann, Json{{"type", "mute"}, {"user", 999'999'999}}, "not_found");
    refused(ann, Json{{"type", "mute"}, {"user", "Bob"}}, "bad_field");
    refused(ann, Json{{"type", "mute"}}, "bad_field");

    const auto muted = ann.request(Json{{"type", "mute"}, {"user", user_id(bob)}});
    REQUIRE(muted);
    CHECK(type_of(*muted) == "muted");
    CHECK((*muted)["users"] == Json::array({user_id(bob)}));
    // Ann's second connection is muted too, at once.
    Follower ann_phone(server->port(), ann.token, Follower::with_token);
    ann_phone.follow(table);
    sync(ann_phone);

    // Live: Bob's next line reaches the spectator, not Ann; the line after it (the spectator's)
    // is the first Ann hears.
    say(bob, "you cannot hear me");
    CHECK(heard(spec)["from"]["user"] == user_id(bob));
    say(spec, "I can");
    for (Follower* muter : {&ann, &ann_phone}) {
        const Json line = heard(*muter);
        CHECK(line["from"]["user"] == user_id(spec));
    }
    // Nor in a snapshot, nor in the history.
    auto writers = [](const Json& lines) {
        std::set<std::uint64_t> users;
        for (const Json& line : lines)
            users.insert(line["from"]["user"].get<std::uint64_t>());
        return users;
    };
    CHECK(writers(sync(ann)["chat"]) == std::set<std::uint64_t>{user_id(spec)});
    CHECK(writers(history(ann)["lines"]) == std::set<std::uint64_t>{user_id(spec)});
    CHECK(sync(spec)["chat"].size() == 3);

    // Kept: a new connection says whom the user muted, and still hears none of it.
    server->kill_hard();
    server = std::make_unique<ServerProcess>(db.args({"--admin", "Boss"}));
    auto welcome_of = [&](const std::string& token) {
        Client client(server->port());
        const auto welcome = client.request(Json{{"type", "hello"}, {"token", token}});
        REQUIRE(welcome);
        return *welcome;
    };
    CHECK(welcome_of(ann.token)["muted"] == Json::array({user_id(bob)}));
    CHECK(welcome_of(bob.token)["muted"] == Json::array());
    Follower ann_back(server->port(), ann.token, Follower::with_token);
    ann_back.follow(table);
    CHECK(writers(sync(ann_back)["chat"]) == std::set<std::uint64_t>{user_id(spec)});

    // Unmuted: every line of Bob's is there again.
    const auto unmuted = ann_back.request(Json{{"type", "unmute"}, {"user", user_id(bob)}});
    REQUIRE(unmuted);
    CHECK((*unmuted)["users"] == Json::array());
    CHECK(numbers(history(ann_back)["lines"]) == range(1, 3));

    // An admin deletes a line for everyone: live, in snapshots and in the history, for good.
    Follower boss_back(server->port(), boss.token, Follower::with_token);
    watch(boss_back, table);
    Follower spec_back(server->port(), spec.token, Follower::with_token);
    watch(spec_back, table);
    refused(ann_back, Json{{"type", "delete_chat"}, {"table", table}, {"n", 1}}, "forbidden");
    refused(boss_back, Json{{"type", "delete_chat"}, {"table", table}, {"n", 99}}, "not_found");
    refused(boss_back, Json{{"type", "delete_chat"}, {"table", table}, {"n", 0}}, "bad_field");
    const auto deleted =
        boss_back.request(Json{{"type", "delete_chat"}, {"table", table}, {"n", early["n"]}});
    REQUIRE(deleted);
    CHECK(type_of(*deleted) == "chat_deleted");
    CHECK((*deleted)["n"] == early["n"]);
    for (Follower* reader : {&ann_back, &spec_back}) {
        const auto gone = reader->client->wait_for(of_type("chat_deleted", table));
        REQUIRE(gone);
        CHECK((*gone)["n"] == early["n"]);
    }
    CHECK(numbers(sync(spec_back)["chat"]) == range(2, 3));
    server->kill_hard();
    server = std::make_unique<ServerProcess>(db.args({"--admin", "Boss"}));
    Follower spec_last(server->port(), spec.token, Follower::with_token);
    spec_last.follow(table);
    CHECK(numbers(sync(spec_last)["chat"]) == range(2, 3));
    CHECK(numbers(history(spec_last)["lines"]) == range(2, 3));
}

TEST_CASE("chat: a user mutes at most 200 others", "[chat]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    std::vector<std::uint64_t> others;
    for (int i = 0; i < 201; ++i) {
        Client guest(server.port());
        const auto welcome =
            guest.request(Json{{"type", "hello"}, {"name", "G" + std::to_string(i)}});
        REQUIRE(welcome);
        others.push_back((*welcome)["user"]["id"].get<std::uint64_t>());
    }
    for (std::size_t i = 0; i < 200; ++i) {
        const auto reply = ann.request(Json{{"type", "mute"}, {"user", others[i]}});
        REQUIRE(reply);
        REQUIRE(type_of(*reply) == "muted");
    }
    const Json full = refused(ann, Json{{"type", "mute"}, {"user", others[200]}}, "limit_reached");
    CHECK(full["message"].get<std::string>().find("200") != std::string::npos);
    // Muting one already muted, or unmuting, still works.
    const auto again = ann.request(Json{{"type", "mute"}, {"user", others[0]}});
    REQUIRE(again);
    CHECK((*again)["users"].size() == 200);
    const auto fewer = ann.request(Json{{"type", "unmute"}, {"user", others[0]}});
    REQUIRE(fewer);
    CHECK((*fewer)["users"].size() == 199);
}

TEST_CASE("chat: the messages match their schemas", "[chat][schema]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower spec(server.port(), "Spec");
    const std::string table = create(ann, create_request(options(2), {}, Json{{"chat", "all"}}));
    sit(bob, table);
    watch(spec, table);
    start(ann, {&ann, &bob});
    const Json line = say(ann, "hi");
    heard(bob);
    say(spec, "hello from the rail");
    spec.request(Json{{"type", "mute"}, {"user", user_id(bob)}});
    spec.request(Json{{"type", "unmute"}, {"user", user_id(bob)}});
    history(bob, 2, 1);
    sync(spec);
    spec.request(Json{{"type", "delete_chat"}, {"table", table}, {"n", line["n"]}});  // forbidden

    Recording recording;
    for (Follower* client : {&ann, &bob, &spec})
        recording.add(*client->client, true);
    for (const char* type : {"chat", "chat_history", "mute", "unmute", "delete_chat"})
        CHECK(recording.sent.contains(type));
    for (const char* type : {"chat", "chat_history", "muted", "snapshot", "welcome"})
        CHECK(recording.received.contains(type));
    CHECK(recording.codes.contains("forbidden"));
    const std::string messages = server.dir() + "/chat_messages.jsonl";
    std::ofstream(messages) << recording.lines.str();
    const auto [status, output] = schema_check(messages);
    INFO(output);
    CHECK(status == 0);
}

}  // namespace
}  // namespace gcor::testing
