// GET and DELETE /api/tables/{id}/analysis (docs/protocol.md, "Game review") on a real server:
// only finished games, signed-in players only; started, then 202 with its progress, then 200 with
// the review, served again from the store without recomputing, also by a restarted server; one
// running review per user, a daily limit, cancelling, and ids that name nothing.
#include <SQLiteCpp/SQLiteCpp.h>

#include <catch2/catch.hpp>

#include <thread>

#include "table_support.hpp"

namespace gcor::testing {
namespace {

constexpr const char* kReviewPassword = "long enough pw";

std::string review_path(const std::string& table) {
    return "/api/tables/" + table + "/analysis";
}

// A registered player's session token.
std::string review_player(const ServerProcess& server, const std::string& name) {
    const Json made = api_body(
        server.post("/api/register", Json{{"name", name}, {"password", kReviewPassword}}.dump()));
    return made.at("token");
}

// A finished 2-player game of `host` (random moves) against a greedy bot; its table id.
std::string review_game(const ServerProcess& server, const std::string& token, std::uint64_t seed) {
    Follower host(server.port(), token, Follower::with_token);
    const std::string table =
        create(host, create_request(options(2, "publisher"), {nullptr, "greedy"}));
    start(host, {&host});
    Game game{{&host}, Rng{seed}};
    REQUIRE(game.play());
    return table;
}

// GET the review until it is done (200); the answers while it ran are checked on the way.
Json review_when_done(const ServerProcess& server, const std::string& table,
                      const std::string& token) {
    for (int attempt = 0; attempt < 1200; ++attempt) {
        const auto answer = server.get(review_path(table), token);
        INFO(answer.second);
        if (answer.first == 200) return api_body(answer);
        REQUIRE(answer.first == 202);
        const Json progress = api_body(answer);
        CHECK(progress.at("done").get<int>() <= progress.at("total").get<int>());
        std::this_thread::sleep_for(50ms);
    }
    FAIL("the review of " << table << " did not end");
    return {};
}

// Waits until GET /metrics says `name` is `value`.
void review_metric_reaches(const ServerProcess& server, const std::string& name, double value) {
    for (int attempt = 0; attempt < 600 && metric(server, name) != value; ++attempt)
        std::this_thread::sleep_for(20ms);
    CHECK(metric(server, name) == value);
}

const std::string kReviewsDone = R"(gcor_analyses_total{outcome="done"})";
const std::string kReviewsCancelled = R"(gcor_analyses_total{outcome="cancelled"})";

}  // namespace

TEST_CASE("game review: a finished game is reviewed once, kept, and served again after a restart",
          "[analysis]") {
    Database database;
    const auto args = database.args({"--analysis-worlds", "2"});
    std::string table;
    std::string ann;
    Json review;
    {
        ServerProcess server(args);
        ann = review_player(server, "Ann");
        // Not finished yet: refused, and nothing starts.
        Follower host(server.port(), ann, Follower::with_token);
        const std::string waiting = create(host, create_request(options(2)));
        CHECK(api_refusal(server.get(review_path(waiting), ann), 409) == "not_finished");

        table = review_game(server, ann, 46);
        // Signed out, a bad id, an unknown one, a query, another method.
        CHECK(api_refusal(server.get(review_path(table)), 401) == "bad_token");
        CHECK(api_refusal(server.get(review_path(table), std::string(64, 'f')), 401) ==
              "bad_token");
        CHECK(api_refusal(server.get(review_path("nope!"), ann), 404) == "not_found");
        CHECK(api_refusal(server.get(review_path("t0000000000000000"), ann), 404) == "not_found");
        CHECK(api_refusal(server.get(review_path(table) + "?worlds=9", ann), 400) == "bad_field");
        CHECK(api_refusal(server.post(review_path(table), "{}", ann), 400) == "bad_field");
        // A guest may not start one.
        Follower gus(server.port(), "Gus");
        CHECK(api_refusal(server.get(review_path(table), gus.token), 403) == "registered_only");

        const auto first = server.get(review_path(table), ann);
        REQUIRE(first.first == 202);
        CHECK(api_body(first).contains("done"));
        review = review_when_done(server, table, ann);
        CHECK(review.at("table") == table);
        const Json& analysis = review.at("analysis");
        CHECK(analysis.at("worlds") == 2);
        REQUIRE_FALSE(analysis.at("decisions").empty());
        CHECK(analysis.at("players").size() == 2);
        // Without undos each move of the record is the stored change of its index.
        const Json& changes = review.at("changes");
        for (const Json& decision : analysis.at("decisions")) {
            const std::size_t move = decision.at("move");
            REQUIRE(move < changes.size());
            CHECK(changes[move] == move);
        }
        review_metric_reaches(server, kReviewsDone, 1);

        // Asked again, by her or a guest: the same review, not computed again.
        CHECK(api_body(server.get(review_path(table), ann)) == review);
        CHECK(api_body(server.get(review_path(table), gus.token)) == review);
        CHECK(metric(server, kReviewsDone) == 1);
        // Nothing runs to be cancelled.
        CHECK(api_refusal(server.remove(review_path(table), ann), 404) == "not_found");
    }
    // A restarted server serves it from the store and computes nothing.
    ServerProcess again(args);
    CHECK(api_body(again.get(review_path(table), ann)) == review);
    CHECK(metric(again, kReviewsDone) == 0);
}

TEST_CASE("game review: one running per user, a daily limit, cancelled by who started it",
          "[analysis]") {
    // Enough worlds that a review runs for a while.
    const Database database;
    ServerProcess server(
        database.args({"--analysis-worlds", "400", "--analyses-per-day", "2", "--admin", "Root"}));
    const std::string ann = review_player(server, "Ann");
    const std::string ben = review_player(server, "Ben");
    const std::string root = review_player(server, "Root");
    // Games first: a review on the bot pool slows the bots down.
    const std::string one = review_game(server, ann, 7);
    const std::string two = review_game(server, ann, 8);
    const std::string three = review_game(server, ben, 9);

    REQUIRE(server.get(review_path(one), ann).first == 202);
    // Asked again while it runs: its progress, not a second start.
    REQUIRE(server.get(review_path(one), ben).first == 202);
    CHECK(api_refusal(server.get(review_path(two), ann), 429) == "analysis_busy");
    CHECK(api_refusal(server.remove(review_path(one), ben), 403) == "forbidden");
    CHECK(api_refusal(server.remove(review_path(one), ann, "{\"now\":1}"), 400) == "bad_field");
    CHECK(api_body(server.remove(review_path(one), ann)).at("cancelled") == true);
    review_metric_reaches(server, kReviewsCancelled, 1);

    // The second start of the day, cancelled by an admin.
    REQUIRE(server.get(review_path(two), ann).first == 202);
    CHECK(api_body(server.remove(review_path(two), root)).at("cancelled") == true);
    review_metric_reaches(server, kReviewsCancelled, 2);
    CHECK(metric(server, kReviewsDone) == 0);

    // Cancelled reviews count: a third start today is refused; another player may start one.
    CHECK(api_refusal(server.get(review_path(one), ann), 400) == "limit_reached");
    REQUIRE(server.get(review_path(three), ben).first == 202);
    CHECK(api_body(server.remove(review_path(three), ben)).at("cancelled") == true);
    review_metric_reaches(server, kReviewsCancelled, 3);
}

TEST_CASE("game review: listed in the asker's export, and their erasure keeps the game's review",
          "[analysis][accounts]") {
    Database database;
    const auto count = [&](const std::string& sql) {
        SQLite::Database stored(database.dir + "/cor.db", SQLite::OPEN_READONLY);
        stored.setBusyTimeout(5000);
        return stored.execAndGet(sql).getInt64();
    };
    std::string ann;
    std::string done;
    Json review;
    {
        ServerProcess server(database.args({"--analysis-worlds", "2"}));
        ann = review_player(server, "Ann");
        done = review_game(server, ann, 47);
        review = review_when_done(server, done, ann);
        const Json exported = api_body(server.get("/api/account/export", ann));
        REQUIRE(exported.at("reviews").size() == 1);
        CHECK(exported["reviews"][0].at("table") == done);
        CHECK(exported["reviews"][0].at("done") == true);
        CHECK(exported["reviews"][0].at("started").get<std::int64_t>() > 0);
        // Another user's export does not list it.
        const std::string ben = review_player(server, "Ben");
        CHECK(api_body(server.get("/api/account/export", ben)).at("reviews").empty());
    }
    // A slow review of another game still runs when Ann deletes her account.
    ServerProcess server(database.args({"--analysis-worlds", "400"}));
    const std::string running = review_game(server, ann, 48);
    REQUIRE(server.get(review_path(running), ann).first == 202);
    CHECK(count("SELECT count(*) FROM analysis_starts") == 2);
    REQUIRE(server.remove("/api/account", ann, Json{{"password", kReviewPassword}}.dump()).first ==
            200);
    CHECK(count("SELECT count(*) FROM analyses WHERE user_id <> 0") == 0);
    CHECK(count("SELECT count(*) FROM analysis_starts") == 0);
    CHECK(count("SELECT count(*) FROM analyses WHERE table_id = '" + running + "'") == 0);
    // The finished review is the game's: still served, unchanged, to anyone signed in.
    const std::string ben = api_body(server.post(
        "/api/login", Json{{"name", "Ben"}, {"password", kReviewPassword}}.dump()))["token"];
    CHECK(api_body(server.get(review_path(done), ben)) == review);
    // The stopped review's taker finds its claim gone at its next renewal and ends it.
    review_metric_reaches(server, kReviewsCancelled, 1);
    CHECK(metric(server, kReviewsDone) == 0);
}

}  // namespace gcor::testing
