// The HTTP API against its JSON Schemas (protocol/schema/http, docs/protocol.md "HTTP API"): every
// endpoint of a real server answering and refusing, each exchange recorded and checked by
// schema_check.py --http; and the checker failing answers that do not match.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "mail_support.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

constexpr const char* kExchangeSite = "http://rome.example.org";
constexpr const char* kExchangePassword = "long enough pw";

// Sends requests of the HTTP API and keeps each with its answer: the lines of schema_check.py
// --http.
class ExchangeLog {
  public:
    explicit ExchangeLog(const ServerProcess& server) : server_(&server) {}
    void use(const ServerProcess& server) { server_ = &server; }

    // The answer to a request that must succeed with `status`; a null `body` sends none.
    Json ok(const std::string& method, const std::string& target, int status,
            const Json& body = Json(), const std::string& token = "") {
        const auto [answered, answer] =
            exchange(method, target, body.is_null() ? "" : body.dump(), token);
        INFO(method << " " << target << ": " << answer.dump());
        REQUIRE(answered == status);
        return answer;
    }
    // The error code of a request that must be refused with `status`; `body` is sent as it is.
    std::string refused(const std::string& method, const std::string& target, int status,
                        const std::string& body = "", const std::string& token = "") {
        const auto [answered, answer] = exchange(method, target, body, token);
        INFO(method << " " << target << ": " << answer.dump());
        CHECK(answered == status);
        return answer.value("code", "");
    }

    std::vector<Json> exchanges;
    std::set<std::string> codes;

  private:
    std::pair<int, Json> exchange(const std::string& method, const std::string& target,
                                  const std::string& body, const std::string& token) {
        const auto [status, text] = server_->http_request(method, target, body, token);
        INFO(method << " " << target << " answered " << status << ": " << text);
        const Json answer = Json::parse(text, nullptr, false);
        REQUIRE(answer.is_object());
        Json line{{"method", method}, {"target", target}, {"status", status}, {"answer", answer}};
        // A body that is not JSON (sent to be refused) is left out: no schema is about it.
        const Json request = Json::parse(body, nullptr, false);
        if (!body.empty() && !request.is_discarded()) line["request"] = request;
        exchanges.push_back(std::move(line));
        if (status >= 400) codes.insert(answer.value("code", ""));
        return {status, answer};
    }

    const ServerProcess* server_;
};

std::string exchange_lines(const std::vector<Json>& exchanges) {
    std::string lines;
    for (const Json& exchange : exchanges)
        lines += exchange.dump() + "\n";
    return lines;
}

// schema_check.py --http on `exchanges`: its exit status and output.
std::pair<int, std::string> exchange_check(const std::string& dir, const std::string& name,
                                           const std::vector<Json>& exchanges) {
    const std::string file = dir + "/" + name + ".jsonl";
    std::ofstream(file) << exchange_lines(exchanges);
    return schema_check(file, true);
}

// The first recorded exchange of `method` on `target` answered `status`; its index.
std::size_t exchange_index(const std::vector<Json>& exchanges, const std::string& method,
                           const std::string& target, int status) {
    for (std::size_t i = 0; i < exchanges.size(); ++i)
        if (exchanges[i]["method"] == method && exchanges[i]["target"] == target &&
            exchanges[i]["status"] == status)
            return i;
    FAIL("no " << method << " " << target << " answered " << status);
    return 0;
}

Json exchange_credentials(const std::string& name) {
    return Json{{"name", name}, {"password", kExchangePassword}};
}

std::string user_path(const char* list, const Json& user) {
    return std::string("/api/") + list + "/" + std::to_string(user["id"].get<std::uint64_t>());
}

// A registered player's connection following `table` from a fresh snapshot, at its seat.
std::unique_ptr<Follower> exchange_seated(const ServerProcess& server, const std::string& token,
                                          const std::string& table) {
    auto follower = std::make_unique<Follower>(server.port(), token, Follower::with_token);
    follower->follow(table);
    const Json snapshot = sync(*follower);
    follower->absorb(snapshot);
    follower->seat = snapshot["seat"].get<int>();
    return follower;
}

// The links starting with `prefix` (after the site) in the mails received, oldest first, once
// there are `count`.
std::vector<std::string> mailed_links(const SmtpRelay& relay, const std::string& prefix,
                                      std::size_t count) {
    const std::string site = kExchangeSite;
    std::vector<std::string> links;
    for (int attempt = 0; attempt < 500; ++attempt) {
        links.clear();
        for (const Mail& mail : relay.mails())
            if (mail.text.find(site + prefix) != std::string::npos)
                links.push_back(link_in(mail.text, site + prefix).substr(site.size()));
        if (links.size() >= count) break;
        std::this_thread::sleep_for(20ms);
    }
    REQUIRE(links.size() == count);
    return links;
}

}  // namespace

TEST_CASE("http schemas: every endpoint's answers and refusals match protocol/schema/http",
          "[http][schema]") {
    char pattern[] = "/tmp/gcor-http-schema-XXXXXX";
    const std::string dir = mkdtemp(pattern);
    SmtpRelay relay;
    std::vector<std::string> args{"--smtp-url",          relay.url(),
                                  "--smtp-from",         "Rome <noreply@rome.example.org>",
                                  "--public-url",        kExchangeSite,
                                  "--mail-delay",        "0",
                                  "--password-attempts", "1000",
                                  "--analysis-worlds",   "2"};
    args.insert(args.end(), kFast.begin(), kFast.end());
    ServerProcess server(args);
    ExchangeLog api(server);

    // Accounts.
    const Json ann = api.ok("POST", "/api/register", 201, exchange_credentials("Ann"));
    const Json ben = api.ok("POST", "/api/register", 201, exchange_credentials("Ben"));
    const Json cato = api.ok("POST", "/api/register", 201, exchange_credentials("Cato"));
    const std::string ann_token = ann["token"], ben_token = ben["token"];
    const std::string cato_token = cato["token"];
    CHECK(api.refused("POST", "/api/register", 409, exchange_credentials("ann").dump()) ==
          "name_taken");
    CHECK(api.refused("POST", "/api/register", 400, R"({"name":"Dido","password":"short"})") ==
          "bad_field");
    CHECK(api.refused("POST", "/api/register", 400, "{nope") == "bad_json");
    CHECK(api.refused("POST", "/api/register", 400, std::string(20, '[') + std::string(20, ']')) ==
          "too_deep");
    api.ok("POST", "/api/login", 200, exchange_credentials("ann"));
    CHECK(api.refused("POST", "/api/login", 401, R"({"name":"ann","password":"wrong one"})") ==
          "bad_credentials");

    // Settings: the preferences, the webhook, mails, vacations.
    api.ok("GET", "/api/preferences", 200, Json(), ann_token);
    api.ok("POST", "/api/preferences", 200, Json{{"confirm_turn", false}}, ann_token);
    api.ok("POST", "/api/preferences", 200, Json::object(), ann_token);
    CHECK(api.refused("POST", "/api/preferences", 400, R"({"confirm_turn":1})", ann_token) ==
          "bad_field");
    api.ok("GET", "/api/webhook", 200, Json(), ann_token);
    api.ok("POST", "/api/webhook", 200, Json{{"url", "http://127.0.0.1:9/turn"}}, ann_token);
    api.ok("POST", "/api/webhook", 200, Json{{"url", ""}}, ann_token);
    CHECK(api.refused("POST", "/api/webhook", 400, R"({"url":"ftp://x"})", ann_token) ==
          "bad_field");
    CHECK(api.refused("GET", "/api/webhook", 401) == "bad_token");
    api.ok("GET", "/api/email", 200, Json(), ann_token);
    api.ok("POST", "/api/email", 200, Json{{"email", "ann@example.org"}, {"language", "de"}},
           ann_token);
    const auto confirm = mailed_links(relay, "/api/email/confirm?token=", 1);
    REQUIRE(server.get(confirm[0]).first == 200);  // a page, not the API
    const Json mail = api.ok("POST", "/api/email", 200,
                             Json{{"frequency", "off"}, {"invitations", true}}, ann_token);
    CHECK(mail["confirmed"] == true);
    CHECK(api.refused("POST", "/api/email", 400, R"({"frequency":"hourly"})", ann_token) ==
          "bad_field");
    Follower gus(server.port(), "Gus");  // a guest
    CHECK(api.refused("POST", "/api/email", 403, R"({"email":"gus@example.org"})", gus.token) ==
          "registered_only");
    const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
    const std::int64_t day = 24 * 3600 * 1000;
    api.ok("GET", "/api/vacation", 200, Json(), ann_token);
    const Json away = api.ok("POST", "/api/vacation", 200,
                             Json{{"from", now + day}, {"to", now + 3 * day}}, ann_token);
    CHECK(away["vacation"].is_object());
    api.ok("DELETE", "/api/vacation", 200, Json::object(), ann_token);
    api.ok("POST", "/api/vacation", 200, Json{{"to", now + 2 * day}}, cato_token);
    CHECK(api.refused("POST", "/api/vacation", 400, R"({"to":"soon"})", ann_token) == "bad_field");
    CHECK(api.refused("GET", "/api/vacation", 403, "", gus.token) == "registered_only");

    // Friends and blocks.
    const Json& ben_user = ben["user"];
    api.ok("PUT", user_path("friends", ben_user), 200, Json(), ann_token);
    const Json friends = api.ok("GET", "/api/friends", 200, Json(), ann_token);
    CHECK(friends["friends"].size() == 1);
    api.ok("DELETE", user_path("friends", ben_user), 200, Json::object(), ann_token);
    api.ok("PUT", user_path("friends", ben_user), 200, Json::object(), ann_token);
    api.ok("PUT", user_path("friends", cato["user"]), 200, Json(), ann_token);
    api.ok("DELETE", user_path("friends", cato["user"]), 200, Json(), ann_token);
    CHECK(api.refused("PUT", user_path("friends", ann["user"]), 400, "", ann_token) == "bad_field");
    CHECK(api.refused("PUT", user_path("friends", gus.user), 404, "", ann_token) == "not_found");
    CHECK(api.refused("PUT", user_path("friends", ben_user), 400, R"({"note":"x"})", ann_token) ==
          "bad_field");
    CHECK(api.refused("GET", "/api/friends", 403, "", gus.token) == "registered_only");
    api.ok("PUT", user_path("blocks", gus.user), 200, Json::object(), ann_token);
    api.ok("GET", "/api/blocks", 200, Json(), ann_token);
    api.ok("DELETE", user_path("blocks", gus.user), 200, Json(), ann_token);
    api.ok("DELETE", user_path("blocks", gus.user), 200, Json::object(), ann_token);
    api.ok("PUT", user_path("blocks", gus.user), 200, Json(), ann_token);
    CHECK(api.refused("PUT", "/api/blocks", 400, "", ann_token) == "bad_field");
    CHECK(api.refused("GET", "/api/blocks", 401) == "bad_token");

    // An invitation to a named table, with a chat line and a mute for the export.
    Follower host(server.port(), ann_token, Follower::with_token);
    const std::string invited = create(
        host,
        create_request(options(2), {}, Json{{"invite", Json::array({"Ben"})}, {"name", "Friday"}}));
    const Json invitations = api.ok("GET", "/api/invitations", 200, Json(), ben_token);
    REQUIRE(invitations["invitations"].size() == 1);
    CHECK(invitations["invitations"][0]["table"]["name"] == "Friday");
    CHECK(api.refused("POST", "/api/invitations", 400, "", ben_token) == "bad_field");
    CHECK(api.refused("GET", "/api/invitations", 401) == "bad_token");
    const auto line =
        host.request(Json{{"type", "chat"}, {"table", invited}, {"text", "ave, Ben"}});
    REQUIRE(line);
    REQUIRE(type_of(*line) == "chat");
    REQUIRE(host.request(Json{{"type", "mute"}, {"user", gus.user["id"]}}));

    // A league season from sign-up to its close: a rated game, finished.
    const Json league_body{{"name", "Rome League"}, {"options", options(2)}, {"days", 3},
                           {"points", {2, 0}},      {"undo", false},         {"chat", "players"}};
    const Json league = api.ok("POST", "/api/leagues", 201, league_body, ann_token);
    const std::string at = "/api/leagues/" + std::to_string(league["id"].get<int>());
    CHECK(api.refused("POST", "/api/leagues", 403, league_body.dump(), gus.token) ==
          "registered_only");
    CHECK(api.refused("POST", "/api/leagues", 400, R"({"name":"No options"})", ann_token) ==
          "bad_field");
    api.ok("GET", "/api/leagues", 200);
    api.ok("POST", at + "/seasons", 201, Json::object(), ann_token);
    CHECK(api.refused("POST", at + "/seasons", 409, "", ann_token) == "wrong_state");
    api.ok("POST", at + "/signup", 200, Json(), ann_token);
    api.ok("POST", at + "/signup", 200, Json::object(), ben_token);
    api.ok("POST", at + "/signup", 200, Json(), cato_token);
    api.ok("POST", at + "/withdraw", 200, Json::object(), cato_token);
    CHECK(api.refused("POST", at + "/withdraw", 404, "", cato_token) == "not_found");
    CHECK(api.refused("POST", at + "/seasons/1/start", 403, "", ben_token) == "forbidden");
    const Json started = api.ok("POST", at + "/seasons/1/start", 200, Json::object(), ann_token);
    REQUIRE(started["divisions"].size() == 1);
    REQUIRE(started["divisions"][0]["tables"].size() == 1);
    const std::string rated = started["divisions"][0]["tables"][0]["id"];
    CHECK(api.refused("POST", at + "/seasons/1/close", 409, "", ann_token) == "wrong_state");
    api.ok("GET", at + "/seasons/1", 200);
    api.ok("GET", "/api/tables/" + rated + "/record", 200);  // playing: its commitment only
    {
        const auto ann_seat = exchange_seated(server, ann_token, rated);
        const auto ben_seat = exchange_seated(server, ben_token, rated);
        Game game{{ann_seat.get(), ben_seat.get()}, Rng{41}};
        REQUIRE(game.play());
    }
    const Json closed = api.ok("POST", at + "/seasons/1/close", 200, Json::object(), ann_token);
    CHECK(closed["status"] == "finished");
    CHECK(api.refused("POST", at + "/seasons/1/close", 409, "{}", ann_token) == "wrong_state");
    CHECK(api.refused("POST", at + "/seasons/1/start", 409, "", ann_token) == "wrong_state");
    api.ok("GET", at, 200);
    api.ok("GET", at + "/seasons/2", 200);
    CHECK(api.refused("GET", "/api/leagues/99", 404) == "not_found");

    // A game against a bot, recorded while it is played and after; its replay.
    const std::string bot_game =
        create(host, create_request(options(2, "publisher", true), {nullptr, "greedy"}));
    start(host, {&host});
    api.ok("GET", "/api/tables/" + bot_game + "/record", 200);
    Game game{{&host}, Rng{42}};
    REQUIRE(game.play());
    const std::string finished = "/api/tables/" + bot_game;
    api.ok("GET", finished + "/record", 200);
    api.ok("GET", "/api/tables/" + invited + "/record", 200);  // waiting
    CHECK(api.refused("GET", "/api/tables/t0000000000000000/record", 404) == "not_found");
    const Json replay = api.ok("GET", finished + "/replay", 200);
    api.ok("GET", finished + "/replay?move=" + replay["moves"].dump(), 200);
    CHECK(api.refused("GET", finished + "/replay?move=100000", 400) == "bad_field");
    CHECK(api.refused("GET", "/api/tables/" + invited + "/replay", 404) == "not_found");

    // Its review: started (202), then kept (200).
    api.ok("GET", finished + "/analysis", 202, Json(), ann_token);
    for (int attempt = 0; attempt < 600; ++attempt) {
        if (server.get(finished + "/analysis", ann_token).first == 200) break;
        std::this_thread::sleep_for(50ms);
    }
    api.ok("GET", finished + "/analysis", 200, Json(), ann_token);
    CHECK(api.refused("GET", "/api/tables/" + invited + "/analysis", 409, "", ann_token) ==
          "not_finished");
    CHECK(api.refused("GET", finished + "/analysis", 401) == "bad_token");

    // A player's games and figures, profiles and the leaderboard (once the rated game is rated).
    const std::string ann_at = user_path("users", ann["user"]);
    for (int attempt = 0; attempt < 100; ++attempt) {
        if (Json::parse(server.get("/api/ratings").second)["players"].size() == 2) break;
        std::this_thread::sleep_for(50ms);
    }
    // With her token Ann sees her unlisted (league) game too: two games, two pages.
    const Json page = api.ok("GET", ann_at + "/games?limit=1", 200, Json(), ann_token);
    REQUIRE(page["next"].is_string());
    api.ok("GET", ann_at + "/games?before=" + page["next"].get<std::string>(), 200, Json(),
           ann_token);
    api.ok("GET", ann_at + "/games?rules=yucata&players=2&rated=true", 200);
    api.ok("GET", ann_at + "/figures", 200);
    CHECK(api.refused("GET", ann_at + "/games?limit=0", 400) == "bad_field");
    CHECK(api.refused("GET", ann_at + "/figures?rules=yucata", 400) == "bad_field");
    CHECK(api.refused("GET", "/api/users/999999/games", 404) == "not_found");
    CHECK(api.refused("GET", ann_at + "/games", 401, "", std::string(64, 'f')) == "bad_token");
    const Json profile = api.ok("GET", ann_at, 200);
    CHECK(profile["history"].size() == 1);
    api.ok("GET", user_path("users", gus.user), 200);
    const Json board = api.ok("GET", "/api/ratings?limit=5", 200);
    CHECK(board["players"].size() == 2);
    CHECK(api.refused("GET", "/api/ratings?limit=0", 400) == "bad_field");

    // Ann's data.
    const Json data = api.ok("GET", "/api/account/export", 200, Json(), ann_token);
    CHECK(data["games"].size() == 3);
    CHECK(data["chat"].size() == 1);
    CHECK(data["account"]["friends"].size() == 1);
    CHECK(data["account"]["blocks"].size() == 1);
    CHECK_FALSE(data["leagues"].empty());
    CHECK(data["rating_history"].size() == 1);
    CHECK(api.refused("GET", "/api/account/export?all=1", 400, "", ann_token) == "bad_field");
    CHECK(api.refused("DELETE", "/api/account/export", 400, "", ann_token) == "bad_field");

    // Passwords: a change, then a forgotten one mailed and reset (which ends Ann's sessions).
    api.ok("POST", "/api/password", 200,
           Json{{"old", kExchangePassword}, {"new", "another long one"}}, ann_token);
    CHECK(api.refused("POST", "/api/password", 401,
                      Json{{"old", "not it at all"}, {"new", "a third long one"}}.dump(),
                      ann_token) == "bad_credentials");
    CHECK(api.refused("POST", "/api/password", 400, R"({"old":"another long one"})", ann_token) ==
          "bad_field");
    CHECK(api.refused("POST", "/api/password", 403, R"({"old":"x","new":"long enough 2"})",
                      gus.token) == "registered_only");
    api.ok("POST", "/api/password/forgot", 202, Json{{"email", "ann@example.org"}});
    const std::string prefix = "/#/reset?token=";
    const std::string first = mailed_links(relay, prefix, 1)[0].substr(prefix.size());
    api.ok("POST", "/api/password/forgot", 202, Json{{"email", "ANN@example.org"}});
    const std::string second = mailed_links(relay, prefix, 2)[1].substr(prefix.size());
    CHECK(api.refused("POST", "/api/password/reset", 401,
                      Json{{"token", first}, {"password", "reset long one"}}.dump()) ==
          "bad_token");  // replaced by the second link
    CHECK(api.refused("POST", "/api/password/reset", 400,
                      Json{{"token", second}, {"password", "short"}}.dump()) == "bad_field");
    const Json reset = api.ok("POST", "/api/password/reset", 200,
                              Json{{"token", second}, {"password", "reset long one"}});
    CHECK(reset["user"]["id"] == ann["user"]["id"]);
    CHECK(api.refused("POST", "/api/password/forgot", 400, R"({"email":"no address"})") ==
          "bad_field");
    for (int request = 0; request < 3; ++request)
        api.ok("POST", "/api/password/forgot", 202, Json{{"email", "nobody@example.org"}});
    CHECK(api.refused("POST", "/api/password/forgot", 429, R"({"email":"nobody@example.org"})") ==
          "rate_limited");
    CHECK(api.refused("GET", "/api/webhook", 401, "", ann_token) == "bad_token");  // ended

    // A guest registers keeping its user id; another deletes its account.
    const Json registered =
        api.ok("POST", "/api/register", 201, exchange_credentials("Gus"), gus.token);
    CHECK(registered["user"]["id"] == gus.user["id"]);
    CHECK(api.refused("POST", "/api/register", 409, exchange_credentials("Gaius").dump(),
                      ben_token) == "wrong_state");
    CHECK(api.refused("POST", "/api/register", 401, exchange_credentials("Gaius").dump(),
                      std::string(64, 'e')) == "bad_token");
    Follower dido(server.port(), "Dido");
    CHECK(api.refused("DELETE", "/api/account", 400, R"({"password":"x"})", dido.token) ==
          "bad_field");
    api.ok("DELETE", "/api/account", 200, Json::object(), dido.token);
    CHECK(api.refused("DELETE", "/api/account", 401, R"({"password":"not it at all"})",
                      cato_token) == "bad_credentials");
    CHECK(api.refused("DELETE", "/api/account", 400, "{}", cato_token) == "bad_field");
    const Json erased =
        api.ok("DELETE", "/api/account", 200, Json{{"password", kExchangePassword}}, cato_token);
    CHECK(erased["name"] == "deleted player " + cato["user"]["id"].dump());

    api.ok("POST", "/api/logout", 200, Json(), ben_token);
    CHECK(api.refused("POST", "/api/logout", 401, "", ben_token) == "bad_token");

    // A server without an SMTP relay takes no address and mails no forgotten password.
    {
        ServerProcess mailless(kFast);
        api.use(mailless);
        const Json eve = api.ok("POST", "/api/register", 201, exchange_credentials("Eve"));
        CHECK(api.refused("POST", "/api/email", 503, R"({"email":"eve@example.org"})",
                          eve["token"]) == "mail_unavailable");
        CHECK(api.refused("POST", "/api/password/forgot", 503, R"({"email":"eve@example.org"})") ==
              "mail_unavailable");
        api.use(server);
    }

    // A review that runs long enough to be refused a second one, and cancelled.
    {
        std::vector<std::string> slow_args = kFast;
        slow_args.insert(slow_args.end(), {"--analysis-worlds", "400"});
        ServerProcess slow(slow_args);
        api.use(slow);
        const Json eve = api.ok("POST", "/api/register", 201, exchange_credentials("Eve"));
        Follower eve_host(slow.port(), eve["token"], Follower::with_token);
        const std::string first_review =
            "/api/tables/" +
            create(eve_host, create_request(options(2, "publisher"), {nullptr, "greedy"}));
        start(eve_host, {&eve_host});
        REQUIRE((Game{{&eve_host}, Rng{43}}.play()));
        const std::string second_review =
            "/api/tables/" +
            create(eve_host, create_request(options(2, "publisher"), {nullptr, "greedy"}));
        start(eve_host, {&eve_host});
        REQUIRE((Game{{&eve_host}, Rng{44}}.play()));
        api.ok("GET", first_review + "/analysis", 202, Json(), eve["token"]);
        CHECK(api.refused("GET", second_review + "/analysis", 429, "", eve["token"]) ==
              "analysis_busy");
        api.ok("DELETE", first_review + "/analysis", 200, Json::object(), eve["token"]);
        api.use(server);
    }

    for (const char* code :
         {"bad_json", "too_deep", "bad_field", "bad_token", "not_found", "rate_limited",
          "bad_credentials", "name_taken", "forbidden", "registered_only", "wrong_state",
          "mail_unavailable", "not_finished", "analysis_busy"}) {
        INFO(code);
        CHECK(api.codes.contains(code));
    }
    const auto [status, output] = exchange_check(dir, "exchanges", api.exchanges);
    INFO(output);
    CHECK(status == 0);
    CHECK(output.find(std::to_string(api.exchanges.size()) + " passed, 0 failed") !=
          std::string::npos);

    // The checker fails an answer that lacks a member, has one too many, or has a status its code
    // does not have; and a recording that leaves a schema unused.
    {
        std::vector<Json> wrong = api.exchanges;
        const std::size_t listed = exchange_index(wrong, "GET", "/api/invitations", 200);
        wrong[listed]["answer"]["invitations"][0].erase("expires");
        const std::size_t friends_listed = exchange_index(wrong, "GET", "/api/friends", 200);
        wrong[friends_listed]["answer"]["friends"][0]["mail"] = "ben@example.org";
        const std::size_t missing =
            exchange_index(wrong, "GET", "/api/tables/t0000000000000000/record", 404);
        wrong[missing]["status"] = 400;
        const auto [wrong_status, wrong_output] = exchange_check(dir, "wrong", wrong);
        INFO(wrong_output);
        CHECK(wrong_status == 1);
        CHECK(wrong_output.find("line " + std::to_string(listed + 1) +
                                ": GET /api/invitations 200: FAILED\n  answer at "
                                "/invitations/0: 'expires' is a required property") !=
              std::string::npos);
        CHECK(wrong_output.find("line " + std::to_string(friends_listed + 1) +
                                ": GET /api/friends 200: FAILED") != std::string::npos);
        CHECK(wrong_output.find("('mail' was unexpected)") != std::string::npos);
        CHECK(wrong_output.find("not_found is answered 404, not 400") != std::string::npos);
        CHECK(wrong_output.find(std::to_string(wrong.size() - 3) + " passed, 3 failed") !=
              std::string::npos);
    }
    {
        const auto [partial_status, partial_output] =
            exchange_check(dir, "partial", {api.exchanges.front()});
        INFO(partial_output);
        CHECK(partial_status == 1);
        CHECK(partial_output.find("no line used http/delete_api_account.answer.json") !=
              std::string::npos);
        CHECK(partial_output.find("1 passed, 0 failed") != std::string::npos);
    }
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
}

}  // namespace gcor::testing
