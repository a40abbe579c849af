// Table names (given at creation, kept across a restart) and a player's finished games and
// figures (GET /api/users/{id}/games and /figures) through the real server.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "table_support.hpp"

namespace gcor::testing {
namespace {

Json user_games_body(const std::pair<int, std::string>& response, int status = 200) {
    INFO(response.second);
    CHECK(response.first == status);
    const Json body = Json::parse(response.second, nullptr, false);
    REQUIRE(body.is_object());
    return body;
}

std::string user_games_path(const Follower& player, const std::string& query = "",
                            const std::string& what = "games") {
    return "/api/users/" + std::to_string(player.user["id"].get<std::uint64_t>()) + "/" + what +
           (query.empty() ? "" : "?" + query);
}

// Plays a whole game at a new table of `players` (Ann creates it with `extra` settings), with
// greedy bots in the seats `bots` names; returns its id.
std::string user_games_play(Follower& ann, Follower& bob, const Json& table_options,
                            const std::vector<Json>& bots, const Json& extra = Json::object()) {
    const std::string table = create(ann, create_request(table_options, bots, extra));
    sit(bob, table);
    start(ann, {&ann, &bob});
    Game game;
    game.followers = {&ann, &bob};
    REQUIRE(game.play());
    return table;
}

}  // namespace

TEST_CASE("table names: trimmed, checked by the chat's rules, kept across a restart",
          "[server][games]") {
    const Database db;
    std::string named;
    std::string unnamed;
    {
        ServerProcess server(db.args());
        Follower ann(server.port(), "Ann");
        const auto created =
            ann.request(create_request(options(2), {}, Json{{"name", "  Friday at Ann's  "}}));
        REQUIRE(created);
        REQUIRE(type_of(*created) == "table_created");
        CHECK((*created)["table"]["name"] == "Friday at Ann's");
        named = (*created)["table"]["id"].get<std::string>();
        const auto plain = ann.request(create_request(options(3), {}, Json{{"sit", false}}));
        REQUIRE(plain);
        REQUIRE(type_of(*plain) == "table_created");
        CHECK_FALSE((*plain)["table"].contains("name"));  // the client names it by its players
        unnamed = (*plain)["table"]["id"].get<std::string>();

        std::string longest;
        for (int i = 0; i < 60; ++i)
            longest += "é";
        const auto long_ok =
            ann.request(create_request(options(2), {}, Json{{"name", longest}, {"sit", false}}));
        REQUIRE(long_ok);
        CHECK((*long_ok)["table"]["name"] == longest);
        for (const Json& bad : {Json(longest + "e"), Json(std::string(61, 'x')), Json("   "),
                                Json(""), Json("bell\a"), Json("two\nlines"),
                                Json("right \u202e to left"), Json(17), Json(nullptr)}) {
            INFO(bad.dump());
            const auto refused =
                ann.request(create_request(options(2), {}, Json{{"name", bad}, {"sit", false}}));
            REQUIRE(refused);
            CHECK(type_of(*refused) == "error");
            CHECK((*refused)["code"] == "bad_field");
        }
        REQUIRE(server.stop() == 0);
    }
    ServerProcess again(db.args());
    Client reader(again.port());
    reader.hello("Reader");
    CHECK(listed(reader, named)["name"] == "Friday at Ann's");
    const Json plain = listed(reader, unnamed);
    REQUIRE(plain.is_object());
    CHECK_FALSE(plain.contains("name"));
}

TEST_CASE("a player's games: newest first, paged, filtered, with opponents, and their figures",
          "[server][games]") {
    ServerProcess server(kFast);
    Follower ann(server.port(), "Ann");
    Follower bob(server.port(), "Bob");
    Follower cid(server.port(), "Cid");
    const std::string named =
        user_games_play(ann, bob, options(2), {}, Json{{"name", "Via Appia"}});
    const std::string publisher = user_games_play(ann, bob, options(2, "publisher", true), {});
    const std::string with_bot =
        user_games_play(ann, bob, options(3), {nullptr, nullptr, "greedy"});
    const std::string unlisted = user_games_play(ann, bob, options(2), {}, Json{{"public", false}});
    // A table not played to its end is no finished game.
    create(ann, create_request(options(2)));

    // Anybody sees the listed games, newest first; Ann herself sees her unlisted one too.
    const Json seen = user_games_body(server.get(user_games_path(ann)));
    REQUIRE(seen["games"].size() == 3);
    CHECK(seen["next"].is_null());
    CHECK(seen["games"][0]["table"] == with_bot);
    CHECK(seen["games"][1]["table"] == publisher);
    CHECK(seen["games"][2]["table"] == named);
    const Json own = user_games_body(server.get(user_games_path(ann), ann.token));
    REQUIRE(own["games"].size() == 4);
    CHECK(own["games"][0]["table"] == unlisted);
    CHECK(user_games_body(server.get(user_games_path(bob), ann.token))["games"].size() == 3);

    const Json& first = seen["games"][2];
    CHECK(first["name"] == "Via Appia");
    CHECK(first["rules"] == "yucata");
    CHECK(first["players"] == 2);
    CHECK(first["rated"] == false);
    CHECK(first["shrine"] == false);
    CHECK(first["seat"] != first["opponents"][0]["seat"]);
    REQUIRE(first["opponents"].size() == 1);
    CHECK(first["opponents"][0]["user"] == bob.user["id"]);
    CHECK(first["opponents"][0]["name"] == "Bob");
    CHECK(first["place"].is_number_integer());
    CHECK(first["score"].is_number_integer());
    CHECK(first["opponents"][0]["place"].is_number_integer());
    CHECK(first["finished"].get<std::int64_t>() <=
          seen["games"][1]["finished"].get<std::int64_t>());
    CHECK_FALSE(seen["games"][1].contains("name"));
    // The replay carries the name too.
    CHECK(user_games_body(server.get("/api/tables/" + named + "/replay"))["name"] == "Via Appia");
    CHECK_FALSE(
        user_games_body(server.get("/api/tables/" + publisher + "/replay")).contains("name"));
    CHECK(seen["games"][1]["shrine"] == true);
    const Json& bots_game = seen["games"][0];
    REQUIRE(bots_game["opponents"].size() == 2);
    CHECK(bots_game["opponents"][1]["bot"] == "greedy");
    CHECK_FALSE(bots_game["opponents"][1].contains("user"));
    for (const Json& game : own["games"]) {  // nothing private
        CHECK_FALSE(game.contains("chat"));
        CHECK_FALSE(game.contains("seed"));
    }

    // Pages of one, each's "next" the cursor of the one after, give the same list.
    std::vector<std::string> paged;
    std::string query = "limit=1";
    for (int page = 0; page < 10; ++page) {
        const Json body = user_games_body(server.get(user_games_path(ann, query), ann.token));
        REQUIRE(body["games"].size() <= 1);
        for (const Json& game : body["games"])
            paged.push_back(game["table"].get<std::string>());
        if (body["next"].is_null()) break;
        query = "limit=1&before=" + body["next"].get<std::string>();
    }
    CHECK(paged == std::vector<std::string>{unlisted, with_bot, publisher, named});
    const Json two = user_games_body(server.get(user_games_path(ann, "limit=2"), ann.token));
    REQUIRE(two["games"].size() == 2);
    const Json rest = user_games_body(
        server.get(user_games_path(ann, "before=" + two["next"].get<std::string>() + "&limit=100"),
                   ann.token));
    REQUIRE(rest["games"].size() == 2);
    CHECK(rest["games"][0]["table"] == publisher);
    CHECK(rest["next"].is_null());

    auto tables_for = [&](const std::string& filter) {
        const Json body = user_games_body(server.get(user_games_path(ann, filter), ann.token));
        std::vector<std::string> tables;
        for (const Json& game : body["games"])
            tables.push_back(game["table"].get<std::string>());
        return tables;
    };
    CHECK(tables_for("rules=publisher") == std::vector<std::string>{publisher});
    CHECK(tables_for("players=3") == std::vector<std::string>{with_bot});
    CHECK(tables_for("rated=true").empty());
    CHECK(tables_for("rated=false&rules=yucata&players=2") ==
          std::vector<std::string>{unlisted, named});

    // Refused queries: bad_field, 400.
    for (const char* bad :
         {"limit=0", "limit=101", "limit=ten", "limit=", "limit", "limit=1&limit=2", "before=12",
          "before=x-t0123456789abcdef", "before=1-t01234", "rules=chess", "players=1", "players=5",
          "rated=yes", "rated=1", "page=2", "&", "limit=020"}) {
        INFO(bad);
        CHECK(user_games_body(server.get(user_games_path(ann, bad)), 400)["code"] == "bad_field");
    }
    CHECK(user_games_body(server.get(user_games_path(ann, "limit=1", "figures")), 400)["code"] ==
          "bad_field");
    CHECK(user_games_body(server.get(user_games_path(ann), "not-a-token"), 401)["code"] ==
          "bad_token");
    CHECK(user_games_body(server.get("/api/users/999999/games"), 404)["code"] == "not_found");
    CHECK(user_games_body(server.get("/api/users/999999/figures"), 404)["code"] == "not_found");
    CHECK(user_games_body(server.get(user_games_path(ann, "", "other")), 404)["code"] ==
          "not_found");
    CHECK(user_games_body(server.post(user_games_path(ann), "{}"), 400)["code"] == "bad_field");

    // A player with no games: empty pages and no figures.
    const Json none = user_games_body(server.get(user_games_path(cid)));
    CHECK(none["games"].empty());
    CHECK(none["next"].is_null());
    CHECK(user_games_body(server.get(user_games_path(cid, "", "figures")))["figures"].empty());

    // Figures per rules, from every finished game (the unlisted one too): as the games say.
    struct FiguresWanted {
        int games = 0;
        int wins = 0;
        int total = 0;
        int best = 0;
    };
    std::map<std::string, FiguresWanted> expected;
    for (const Json& game : own["games"]) {
        FiguresWanted& figures = expected[game["rules"].get<std::string>()];
        const int score = game["score"];
        figures.best = figures.games == 0 ? score : std::max(figures.best, score);
        ++figures.games;
        figures.wins += game["place"] == 1 ? 1 : 0;
        figures.total += score;
    }
    const Json figures =
        user_games_body(server.get(user_games_path(ann, "", "figures")))["figures"];
    REQUIRE(figures.size() == 2);
    for (const Json& row : figures) {
        INFO(row.dump());
        const FiguresWanted& want = expected.at(row["rules"].get<std::string>());
        CHECK(row["games"] == want.games);
        CHECK(row["wins"] == want.wins);
        CHECK(row["best_score"] == want.best);
        CHECK(row["win_rate"].get<double>() ==
              Approx(static_cast<double>(want.wins) / want.games).margin(0.001));
        CHECK(row["mean_score"].get<double>() ==
              Approx(static_cast<double>(want.total) / want.games).margin(0.05));
    }
    CHECK(expected.at("yucata").games == 3);
}

}  // namespace gcor::testing
