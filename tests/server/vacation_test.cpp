// Vacations (docs/protocol.md, "Vacations") against the real server: the HTTP API, correspondence
// deadlines pushed back while a player is away, summaries that say so, and a restart.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "table_support.hpp"

namespace gcor::testing {
namespace {

constexpr std::int64_t kDayMs = 86'400'000;

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

Json parse(const std::pair<int, std::string>& reply) {
    return Json::parse(reply.second);
}

std::string code_of(const std::pair<int, std::string>& reply) {
    const Json body = Json::parse(reply.second, nullptr, false);
    return body.is_object() && body.contains("code") ? body["code"].get<std::string>() : "";
}

Json game_of(Client& client, const std::string& table) {
    const auto mine = client.request(Json{{"type", "my_games"}});
    REQUIRE(mine);
    REQUIRE(type_of(*mine) == "my_games");
    for (const Json& game : (*mine)["games"])
        if (game["id"] == table) return game;
    FAIL("table " << table << " is not among my games");
    return Json();
}

// A started two-player table of `player` (joining) and a guest (creating), played until it is
// `player`'s turn.
struct TableAtTheirTurn {
    std::unique_ptr<Follower> guest, player;
    std::string table;

    TableAtTheirTurn(std::uint16_t port, const std::string& token, const std::string& guest_name,
                     const Json& time_control) {
        guest = std::make_unique<Follower>(port, guest_name);
        player = std::make_unique<Follower>(port, token, Follower::with_token);
        table =
            create(*guest, create_request(options(2), {}, Json{{"time_control", time_control}}));
        sit(*player, table);
        REQUIRE(type_of(*guest->request(guest->about_table("start"))) == "started");
        guest->catch_up(0);
        player->catch_up(0);
        Game play{{guest.get(), player.get()}};
        while (!player->my_turn())
            play.move(*guest);
    }
};

// A started two-player correspondence table where `token`'s user acts first, nobody having moved:
// its id. The deal is the test seed's, so a few tables find one.
std::string first_turn_table(std::uint16_t port, const std::string& token) {
    for (int attempt = 0; attempt < 8; ++attempt) {
        Follower guest(port, "Otho");
        Follower player(port, token, Follower::with_token);
        const std::string table = create(
            guest,
            create_request(options(2), {},
                           Json{{"time_control", {{"kind", "correspondence"}, {"days", 2}}}}));
        sit(player, table);
        REQUIRE(type_of(*guest.request(guest.about_table("start"))) == "started");
        player.catch_up(0);
        if (player.my_turn()) return table;
    }
    FAIL("no deal of 8 lets the player act first");
    return {};
}

TEST_CASE("vacations: correspondence deadlines wait, summaries say so, a restart keeps both",
          "[vacation]") {
    Database db;
    auto server = std::make_unique<ServerProcess>(db.args());
    const auto registered =
        server->post("/api/register", Json{{"name", "Cassia"}, {"password", "far-away"}}.dump());
    REQUIRE(registered.first == 201);
    const std::string token = parse(registered)["token"];

    TableAtTheirTurn letters(server->port(), token, "Titus",
                             Json{{"kind", "correspondence"}, {"days", 3}});
    TableAtTheirTurn quick(server->port(), token, "Livia",
                           Json{{"kind", "realtime"}, {"seconds", 3600}});
    // A table in its first turn, hers: after the restart it is loaded from the store, and learns
    // when its turn began from its stored deadline.
    const std::string opening = first_turn_table(server->port(), token);
    const std::int64_t opening_deadline = game_of(*quick.player->client, opening)["deadline"];
    // And one where she has just moved: the turn comes back to her during the vacation.
    TableAtTheirTurn returning(server->port(), token, "Marcus",
                               Json{{"kind", "correspondence"}, {"days", 3}});
    {
        Game play{{returning.guest.get(), returning.player.get()}};
        while (returning.player->my_turn())
            play.move(*returning.player);
    }
    const Json before = game_of(*letters.player->client, letters.table);
    const std::int64_t plain_deadline = before["deadline"];
    const std::int64_t quick_deadline = game_of(*quick.player->client, quick.table)["deadline"];
    CHECK_FALSE(before["seats"][*letters.player->seat].contains("away_until"));

    const Json nothing = parse(server->get("/api/vacation", token));
    CHECK(nothing == Json{{"vacation", nullptr}, {"days_left", 30}, {"days_per_year", 30}});

    // Two days away from now.
    const std::int64_t asked_at = now_ms();
    const auto declared =
        server->post("/api/vacation", Json{{"to", asked_at + 2 * kDayMs}}.dump(), token);
    REQUIRE(declared.first == 200);
    const Json vacation = parse(declared)["vacation"];
    const std::int64_t from = vacation["from"];
    const std::int64_t to = vacation["to"];
    CHECK(from >= asked_at);
    CHECK(to == asked_at + 2 * kDayMs);
    // 28 days left, or 29 when the two days reach into next year by more than a day.
    const int days_left = parse(declared)["days_left"];
    CHECK(days_left >= 28);
    CHECK(days_left <= 29);
    const std::int64_t pushed = plain_deadline + (to - from);

    // The other player's page hears of it: the seat is away, the deadline moved back by the time
    // away.
    const auto told = letters.guest->client->wait_for(
        [&](const Json& message) {
            return type_of(message) == "table" &&
                   message["table"]["seats"][*letters.player->seat].contains("away_until");
        },
        5s);
    REQUIRE(told);
    CHECK((*told)["table"]["seats"][*letters.player->seat]["away_until"] == to);
    CHECK((*told)["table"]["deadline"] == pushed);
    CHECK_FALSE((*told)["table"]["seats"][*letters.guest->seat].contains("away_until"));
    // The first-turn table is pushed back too (it is in memory: the change reaches it by itself).
    std::int64_t opening_pushed = 0;
    for (int attempt = 0; attempt < 100 && opening_pushed != opening_deadline + (to - from);
         ++attempt) {
        std::this_thread::sleep_for(20ms);
        opening_pushed = game_of(*quick.player->client, opening)["deadline"];
    }
    CHECK(opening_pushed == opening_deadline + (to - from));
    const Json mine = game_of(*letters.player->client, letters.table);
    CHECK(mine["deadline"] == pushed);
    CHECK(mine["seats"][*letters.player->seat]["away_until"] == to);
    // A real-time table shows the vacation but its clock does not wait.
    const Json fast = game_of(*quick.player->client, quick.table);
    CHECK(fast["deadline"] == quick_deadline);
    CHECK(fast["seats"][*quick.player->seat]["away_until"] == to);

    // A turn that begins during the vacation begins at its end; the table's followers are told
    // the deadline, which they could not work out from the move.
    {
        Game play{{returning.guest.get(), returning.player.get()}};
        while (!returning.player->my_turn())
            play.move(*returning.guest);
    }
    CHECK(game_of(*returning.player->client, returning.table)["deadline"] == to + 3 * kDayMs);
    // The moves' catching up may have read it already, or it is still on its way.
    const auto tells_deadline = [&](const Json& message) {
        return type_of(message) == "table" &&
               message["table"].value("deadline", std::int64_t{0}) == to + 3 * kDayMs;
    };
    const auto& texts = returning.guest->client->received_texts;
    CHECK((std::ranges::any_of(
               texts, [&](const std::string& text) { return tells_deadline(Json::parse(text)); }) ||
           returning.guest->client->wait_for(tells_deadline, 5s)));

    // Refused: more days than a year allows, guests, bad bodies; nothing changes.
    CHECK(code_of(server->post("/api/vacation", Json{{"to", from + 31 * kDayMs}}.dump(), token)) ==
          "limit_reached");
    CHECK(code_of(server->post("/api/vacation",
                               Json{{"from", from + kDayMs}, {"to", from + 40 * kDayMs}}.dump(),
                               token)) == "limit_reached");
    CHECK(code_of(server->post("/api/vacation", Json{{"to", to}}.dump(), letters.guest->token)) ==
          "registered_only");
    CHECK(server->get("/api/vacation", letters.guest->token).first == 403);
    CHECK(code_of(server->get("/api/vacation")) == "bad_token");
    for (const std::string body :
         {R"({"to":"tomorrow"})", R"({"to":1.5e12})", R"({"to":-1})", R"({})", R"([])", "{",
          R"({"to":9007199254740993})", R"({"to":9007199254740992})",
          R"({"from":1,"to":2000000000000})", R"({"to":2000000000000,"why":"sea"})"}) {
        INFO(body);
        const auto refused = server->post("/api/vacation", body, token);
        CHECK(refused.first == 400);
        CHECK((code_of(refused) == "bad_field" || code_of(refused) == "bad_json"));
    }
    const auto backwards = Json{{"from", from + 2 * kDayMs}, {"to", from + kDayMs}}.dump();
    CHECK(code_of(server->post("/api/vacation", backwards, token)) == "bad_field");
    const Json unchanged = parse(server->get("/api/vacation", token));
    CHECK(unchanged["vacation"] == Json{{"from", from}, {"to", to}});
    CHECK(unchanged["days_left"] == days_left);

    // The summaries follow the schema.
    const std::string file = db.dir + "/messages.jsonl";
    {
        std::ofstream lines(file);
        for (const std::string& text : letters.guest->client->received_texts)
            lines << Json{{"direction", "received"}, {"message", Json::parse(text)}}.dump() << '\n';
    }
    const auto [status, output] = schema_check(file);
    INFO(output);
    CHECK(status == 0);

    // After a restart: the vacation and the deadline it pushed stay.
    REQUIRE(server->stop() == 0);
    server = std::make_unique<ServerProcess>(db.args());
    letters.player->reconnect(server->port());
    CHECK(parse(server->get("/api/vacation", token))["vacation"] ==
          Json{{"from", from}, {"to", to}});
    const Json restored = game_of(*letters.player->client, letters.table);
    CHECK(restored["deadline"] == pushed);
    CHECK(restored["seats"][*letters.player->seat]["away_until"] == to);

    // Ended early: the deadline keeps only the time she was away, and the seat is back.
    const std::int64_t ending = now_ms();
    const auto ended = server->remove("/api/vacation", token);
    REQUIRE(ended.first == 200);
    CHECK(parse(ended)["vacation"].is_null());
    const std::int64_t away = now_ms() - from;
    const auto back = letters.player->client->wait_for(
        [&](const Json& message) {
            return type_of(message) == "table" &&
                   !message["table"]["seats"][*letters.player->seat].contains("away_until");
        },
        5s);
    REQUIRE(back);
    const std::int64_t deadline = (*back)["table"]["deadline"];
    CHECK(game_of(*letters.player->client, letters.table)["deadline"] == deadline);
    // The turn's start is the last move's stored time, a few milliseconds after the deadline's.
    CHECK(deadline >= plain_deadline + (ending - from));
    CHECK(deadline <= plain_deadline + away + 1000);
    CHECK(deadline < pushed);
    // The first-turn table, loaded from the store for the change, moved back as much.
    std::int64_t opening_now = opening_pushed;
    for (int attempt = 0; attempt < 100 && opening_now == opening_pushed; ++attempt) {
        std::this_thread::sleep_for(20ms);
        opening_now = game_of(*letters.player->client, opening)["deadline"];
    }
    CHECK(opening_now >= opening_deadline + (ending - from));
    CHECK(opening_now <= opening_deadline + away);
}

}  // namespace
}  // namespace gcor::testing
