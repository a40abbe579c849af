// A table's whole log, paged (the `log` request), the replay of a finished game
// (GET /api/tables/{id}/replay) and waiting tables that everybody left (docs/protocol.md).
#include <catch2/catch.hpp>

#include "gcor/engine/event.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/view_json.hpp"
#include "server_support.hpp"

namespace gcor::testing {
namespace {

std::string code_of(const std::optional<Json>& reply) {
    return reply && reply->contains("code") ? (*reply)["code"].get<std::string>() : "";
}

// A 2-player game between two test clients, both seats known to the test (table 0 of the server
// is dealt from --test-seed 1000): the engine's state and every event, as the server made them.
struct KnownGame {
    Client ann, bo;
    std::string table;
    std::vector<std::string> names;
    engine::State state;
    std::vector<engine::Event> events;
    std::uint64_t version = 0;

    explicit KnownGame(std::uint16_t port) : ann(port), bo(port) {
        ann.hello("Ann");
        bo.hello("Bo");
        const auto created =
            ann.request(Json{{"type", "create_table"},
                             {"options", {{"players", 2}, {"rules", "yucata"}, {"shrine", true}}}});
        REQUIRE(created);
        table = (*created)["table"]["id"];
        REQUIRE(ann.wait_for([](const Json& m) { return m["type"] == "seated"; }));
        REQUIRE(bo.request(Json{{"type", "sit"}, {"table", table}, {"seat", 1}}));
        const auto started = ann.request(Json{{"type", "start"}, {"table", table}});
        REQUIRE(started);
        const auto snapshot = ann.wait_for([](const Json& m) { return m["type"] == "snapshot"; });
        REQUIRE(snapshot);
        for (const Json& seat : (*snapshot)["summary"]["seats"])
            names.push_back(seat["name"]);
        state = engine::Rules::make({2, engine::Variant::yucata, true})->new_game(1000, &events);
    }

    // Plays `moves` moves (or to the end), each seat its first legal move.
    void play(int moves) {
        for (int i = 0; i < moves && !state.over(); ++i) {
            const engine::Seat seat = state.to_act();
            const engine::Move move = state.legal_moves(seat).front();
            Client& mover = seat == 0 ? ann : bo;
            const std::string move_id = "m" + std::to_string(version);
            const auto patch = mover.request(Json{{"type", "move"},
                                                  {"table", table},
                                                  {"version", version},
                                                  {"move_id", move_id},
                                                  {"move", move.to_string()}});
            REQUIRE(patch);
            REQUIRE(acknowledges(*patch, move_id));
            // The players keep the default preference: their turns wait for their end.
            REQUIRE(state.apply(seat, move, &events, true) == engine::MoveError::none);
            ++version;
        }
    }

    // The log's events as `viewer` receives them.
    std::vector<Json> lines_for(std::optional<engine::Seat> viewer) const {
        return protocol::events_json(events, viewer).get<std::vector<Json>>();
    }
};

// The whole log, read backwards in pages of `limit`.
std::vector<Json> read_log(Client& client, const std::string& table, int limit) {
    std::vector<Json> lines;
    std::optional<std::uint64_t> before;
    for (int pages = 0; pages < 1000; ++pages) {
        Json request{{"type", "log"}, {"table", table}, {"limit", limit}};
        if (before) request["before"] = *before;
        const auto page = client.request(request);
        REQUIRE(page);
        INFO(page->dump());
        REQUIRE((*page)["type"] == "log");
        const std::uint64_t first = (*page)["first"];
        const auto got = (*page)["lines"].get<std::vector<Json>>();
        REQUIRE(first + got.size() == before.value_or((*page)["total"].get<std::uint64_t>()));
        lines.insert(lines.begin(), got.begin(), got.end());
        if (first == 0) break;
        before = first;
    }
    return lines;
}

// A game played as fast as the test can, and many pages: beyond a person's rate limit.
const std::vector<std::string> kFastClients{"--messages-per-second", "1000", "--message-burst",
                                            "1000"};

}  // namespace

TEST_CASE("server log: pages give every line once, each seat its own hidden cards", "[server]") {
    ServerProcess server(kFastClients);
    KnownGame game(server.port());
    game.play(60);
    const auto ann_lines = game.lines_for(0);
    const auto bo_lines = game.lines_for(1);
    REQUIRE(ann_lines != bo_lines);  // some card is known to one seat only
    CHECK(read_log(game.ann, game.table, 17) == ann_lines);
    CHECK(read_log(game.bo, game.table, 200) == bo_lines);
    Client spectator(server.port());
    spectator.hello("Cy");
    CHECK(read_log(spectator, game.table, 50) == game.lines_for(std::nullopt));

    // The newest page by default: 100 lines ending at the last.
    const auto newest = game.ann.request(Json{{"type", "log"}, {"table", game.table}});
    REQUIRE(newest);
    CHECK((*newest)["total"] == ann_lines.size());
    CHECK((*newest)["lines"].size() == std::min<std::size_t>(100, ann_lines.size()));
}

TEST_CASE("server log: bad fields and tables without a game are refused", "[server]") {
    ServerProcess server(kFastClients);
    KnownGame game(server.port());
    game.play(3);
    const std::uint64_t total = game.events.size();
    for (const Json& bad :
         {Json{{"limit", 0}}, Json{{"limit", 201}}, Json{{"limit", "5"}}, Json{{"before", -1}},
          Json{{"before", 1.5}}, Json{{"before", total + 1}}, Json{{"after", 3}}}) {
        INFO(bad.dump());
        Json request{{"type", "log"}, {"table", game.table}};
        request.update(bad);
        CHECK(code_of(game.ann.request(request)) == "bad_field");
    }
    CHECK(code_of(game.ann.request(Json{{"type", "log"}})) == "bad_field");
    CHECK(code_of(game.ann.request(Json{{"type", "log"}, {"table", "t0000000000000000"}})) ==
          "not_found");
    const auto waiting = game.ann.request(
        Json{{"type", "create_table"}, {"options", {{"players", 2}}}, {"sit", false}});
    REQUIRE(waiting);
    CHECK(code_of(game.ann.request(Json{{"type", "log"}, {"table", (*waiting)["table"]["id"]}})) ==
          "not_started");
}

TEST_CASE("server replay: a finished game move by move, its end the table's final view",
          "[server]") {
    ServerProcess server(kFastClients);
    KnownGame game(server.port());
    const std::string path = "/api/tables/" + game.table + "/replay";
    CHECK(server.get(path).first == 404);  // not finished
    game.play(100000);
    REQUIRE(game.state.over());
    const std::uint64_t total = game.version;

    auto replay_at = [&](const std::string& query) {
        const auto [status, body] = server.get(path + query);
        INFO(query << ": " << body);
        REQUIRE(status == 200);
        return Json::parse(body);
    };
    const Json start = replay_at("");
    CHECK(start["move"] == 0);
    CHECK(start["moves"] == total);
    CHECK(start["names"] == Json(game.names));
    // The seats as a summary shows them, for naming bots by level (the e2e table-bugs test).
    REQUIRE(start["seats"].size() == game.names.size());
    for (std::size_t seat = 0; seat < game.names.size(); ++seat) {
        CHECK(start["seats"][seat]["kind"] == "human");
        CHECK(start["seats"][seat]["name"] == game.names[seat]);
        CHECK(start["seats"][seat]["user"].is_number_unsigned());
    }
    const Json rounds = start["rounds"];
    REQUIRE(rounds.size() == 7);  // a 2-player game
    CHECK(replay_at("?move=0") == start);

    // A round's start, and the end: the engine's spectator view, with the log up to there.
    const std::uint64_t middle = rounds[3];
    const Json at_middle = replay_at("?move=" + std::to_string(middle));
    CHECK(at_middle["move"] == middle);
    CHECK(at_middle["view"]["round"] == 4);

    const Json end = replay_at("?move=" + std::to_string(total));
    CHECK(end["log"] == Json(game.lines_for(std::nullopt)));
    CHECK(plain(end["view"]) ==
          plain(protocol::view_to_json(engine::view_for(game.state, std::nullopt))));
    CHECK(!end["view"]["result"].is_null());
    // The table's own final spectator view.
    Client spectator(server.port());
    spectator.hello("Cy");
    const auto snapshot = spectator.request(Json{{"type", "watch"}, {"table", game.table}});
    REQUIRE(snapshot);
    REQUIRE((*snapshot)["type"] == "snapshot");
    CHECK(plain(end["view"]) == plain((*snapshot)["view"]));

    for (const std::string& bad : std::vector<std::string>{
             "?move=-1", "?move=x", "?move=", "?move=" + std::to_string(total + 1), "?moves=3",
             "?move=3&x=1", "?move=99999999999999999999"}) {
        const auto [status, body] = server.get(path + bad);
        INFO(bad << ": " << body);
        CHECK(status == 400);
        CHECK(Json::parse(body)["code"] == "bad_field");
    }
    CHECK(server.get("/api/tables/t0000000000000000/replay").first == 404);
    CHECK(server.get("/api/tables/nope/replay").first == 404);
}

TEST_CASE("server lobby: a waiting table that everybody left closes", "[server]") {
    ServerProcess server;
    Client ann(server.port());
    ann.hello("Ann");
    Client watcher(server.port());
    watcher.hello("Lu");
    REQUIRE(watcher.request(Json{{"type", "subscribe_lobby"}}));
    const auto created = ann.request(Json{
        {"type", "create_table"}, {"options", {{"players", 3}}}, {"bots", {nullptr, "greedy"}}});
    REQUIRE(created);
    const std::string table = (*created)["table"]["id"];
    REQUIRE(ann.wait_for([](const Json& m) { return m["type"] == "seated"; }));

    // Two people seated: one leaving keeps the table.
    Client bo(server.port());
    bo.hello("Bo");
    REQUIRE(bo.request(Json{{"type", "sit"}, {"table", table}}));
    const auto bo_left = bo.request(Json{{"type", "leave"}, {"table", table}});
    REQUIRE(bo_left);
    CHECK((*bo_left)["type"] == "left");
    REQUIRE(bo.request(Json{{"type", "watch"}, {"table", table}}));  // a spectator hears of it

    const auto left = ann.request(Json{{"type", "leave"}, {"table", table}});
    REQUIRE(left);
    CHECK((*left)["type"] == "left");
    const auto closed = watcher.wait_for([&](const Json& m) {
        return m["type"] == "lobby_update" && m["table"]["id"] == table &&
               m["table"]["status"] == "closed";
    });
    CHECK(closed);
    CHECK(bo.wait_for(
        [&](const Json& m) { return m["type"] == "table" && m["table"]["status"] == "closed"; }));
    const auto listing = watcher.request(Json{{"type", "list_tables"}});
    REQUIRE(listing);
    CHECK((*listing)["tables"].empty());
    CHECK(code_of(bo.request(Json{{"type", "sit"}, {"table", table}})) == "not_found");
    CHECK(server.get("/api/tables/" + table + "/record").first == 404);
    CHECK(server.stop() == 0);
}

}  // namespace gcor::testing
