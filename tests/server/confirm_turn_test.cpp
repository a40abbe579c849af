// A player's preference that the end of their turn waits for their own end move (docs/protocol.md,
// "Preferences"; docs/rules.md, "Taking moves back"): its endpoints, read strictly; a waiting turn
// as the players see it, taken back, kept across a restart, and in the record that `cor replay`
// checks.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "gcor/protocol/game_json.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

Json confirm_turn_preferences(const ServerProcess& server, const std::string& token) {
    const auto response = server.get("/api/preferences", token);
    CHECK(response.first == 200);
    return api_body(response);
}

Json confirm_turn_welcome(std::uint16_t port, const std::string& token) {
    Client client(port);
    const auto welcome = client.request(Json{{"type", "hello"}, {"token", token}});
    REQUIRE(welcome);
    REQUIRE(type_of(*welcome) == "welcome");
    return *welcome;
}

// Whether it is `player`'s turn with nothing left but to end it.
bool confirm_turn_only_done(const Follower& player) {
    return player.my_turn() && player.view["moves"] == Json::array({"end"});
}

TEST_CASE("preferences: read and changed over HTTP, strictly, and in the welcome",
          "[preferences]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");  // a guest: guests play, so they have preferences too
    const Json on{{"confirm_turn", true}};
    const Json off{{"confirm_turn", false}};
    CHECK(confirm_turn_preferences(server, ann.token) == on);
    CHECK(confirm_turn_welcome(server.port(), ann.token)["preferences"] == on);

    CHECK(api_body(server.post("/api/preferences", off.dump(), ann.token)) == off);
    CHECK(confirm_turn_preferences(server, ann.token) == off);
    CHECK(confirm_turn_welcome(server.port(), ann.token)["preferences"] == off);
    // Nothing given, nothing changed.
    CHECK(api_body(server.post("/api/preferences", "{}", ann.token)) == off);

    // Refused requests change nothing.
    for (const char* body :
         {R"({"confirm_turn":"yes"})", R"({"confirm_turn":1})", R"({"confirm_turn":null})",
          R"({"confirm_turn":true,"colour":1})", R"({"Confirm_turn":true})"}) {
        INFO(body);
        CHECK(api_refusal(server.post("/api/preferences", body, ann.token), 400) == "bad_field");
    }
    CHECK(api_refusal(server.post("/api/preferences", "[true]", ann.token), 400) == "bad_json");
    CHECK(api_refusal(server.post("/api/preferences", "{", ann.token), 400) == "bad_json");
    CHECK(api_refusal(server.post("/api/preferences", on.dump(), "no-such-token"), 401) ==
          "bad_token");
    CHECK(api_refusal(server.get("/api/preferences"), 401) == "bad_token");
    CHECK(api_refusal(server.remove("/api/preferences", ann.token), 400) == "bad_field");
    CHECK(confirm_turn_preferences(server, ann.token) == off);

    // Each user has their own.
    Follower bob(server.port(), "Bob");
    CHECK(confirm_turn_preferences(server, bob.token) == on);
}

// `cor replay` on a record: its exit code.
int confirm_turn_cor_replay(const std::string& record) {
    char pattern[] = "/tmp/cor-record-XXXXXX";
    const int fd = mkstemp(pattern);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(pattern) << record;
    const std::string command = std::string(COR_PATH) + " replay " + pattern + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    std::remove(pattern);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_CASE(
    "confirm_turn: with it a turn with nothing left waits for its player's end and its move "
    "stays undoable, across a restart; without it the turn ends; the record replays",
    "[preferences][undo][store]") {
    Database db;
    const auto args = db.args({"--test-seed", "4242"});
    auto server = std::make_unique<ServerProcess>(args);
    Follower ann(server->port(), "Ann");
    Follower bob(server->port(), "Bob");
    REQUIRE(api_body(server->post("/api/preferences", R"({"confirm_turn":false})", bob.token)) ==
            Json{{"confirm_turn", false}});
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table, 1);
    start(ann, {&ann, &bob});

    Game game{{&ann, &bob}, Rng{43}};
    int ann_waits = 0;
    int bob_waits = 0;
    bool undone = false;
    bool restarted = false;
    REQUIRE(game.play([&] {
        // Bob's turns end with the rules, as before: never only Done left.
        if (confirm_turn_only_done(bob)) ++bob_waits;
        if (!confirm_turn_only_done(ann)) return false;
        ++ann_waits;
        // Ann's move before it stood: nothing was revealed. Undo it once.
        if (!undone && ann.view["undo"] == true) {
            const std::uint64_t version = ann.version;
            const Json request{{"type", "undo"},
                               {"table", table},
                               {"version", version},
                               {"move_id", "undo-before-done"}};
            const auto patch = ann.request(request);
            REQUIRE(patch);
            REQUIRE(acknowledges(*patch, "undo-before-done"));
            ann.absorb(*patch);
            bob.catch_up(version + 1);
            CHECK(ann.my_turn());
            CHECK(ann.view["moves"].size() > 1);  // back before the move: more than Done
            undone = true;
            return false;
        }
        // The waiting turn survives kill -9: the table replays it from the store.
        if (undone && !restarted) {
            const Json before = plain(ann.view);
            const std::uint64_t version = ann.version;
            server->kill_hard();
            server = std::make_unique<ServerProcess>(args);
            ann.reconnect(server->port());
            bob.reconnect(server->port());
            CHECK(ann.version == version);
            CHECK(plain(ann.view) == before);
            CHECK(confirm_turn_only_done(ann));
            restarted = true;
        }
        return false;
    }));
    INFO(ann_waits << " waits");
    CHECK(undone);
    CHECK(restarted);
    CHECK(bob_waits == 0);

    // The record names the moves after which a turn waited, and replays with them.
    const auto [status, body] = server->get("/api/tables/" + table + "/record");
    REQUIRE(status == 200);
    const auto record = protocol::parse_record(Json::parse(body));
    REQUIRE(record);
    CHECK_FALSE(record->waited.empty());
    // Every wait Ann saw is there but the one whose move she took back.
    CHECK(record->waited.size() == static_cast<std::size_t>(ann_waits - 1));
    for (const std::size_t waited : record->waited)
        CHECK(record->moves.at(waited + 1) == engine::Move::end_turn());
    const protocol::Replay replayed = protocol::replay(*record);
    REQUIRE_FALSE(replayed.refused_index);
    CHECK(plain(protocol::result_to_json(replayed.state)["scores"]) ==
          plain(ann.view["result"]["scores"]));
    CHECK(confirm_turn_cor_replay(body) == 0);
    // Without the waits the record is another game: cor replay says so.
    Json without = Json::parse(body);
    without.erase("waited");
    CHECK(confirm_turn_cor_replay(without.dump()) == 1);
}

}  // namespace
}  // namespace gcor::testing
