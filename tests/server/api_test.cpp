// The HTTP API as a hostile or careless client uses it (docs/protocol.md, "HTTP API"): ids that
// are not ids, password guessing, a flood of logins, and a logout while WebSockets are open.
#include <atomic>
#include <catch2/catch.hpp>
#include <future>
#include <thread>

#include "server_support.hpp"

namespace gcor::testing {
namespace {

Json parse_body(const std::string& text) {
    return Json::parse(text, nullptr, false);
}

std::string credentials(const std::string& name, const std::string& password) {
    return Json{{"name", name}, {"password", password}}.dump();
}

std::string code_of(const std::pair<int, std::string>& reply) {
    const Json body = parse_body(reply.second);
    return body.is_object() && body.contains("code") ? body["code"].get<std::string>() : "";
}

// A raw POST of `body` to `path` from the loopback address `from`: status line and headers,
// and the body.
std::string post_from(std::uint16_t port, const char* from, const std::string& path,
                      const std::string& body) {
    RawConnection connection(port, from);
    connection.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                    "Content-Type: application/json\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n\r\n" + body);
    return connection.receive(10s);
}

int status_of(const std::string& reply) {
    return reply.rfind("HTTP/1.1 ", 0) == 0 ? std::stoi(reply.substr(9, 3)) : 0;
}

}  // namespace

TEST_CASE("server api: ids that are not ids are not found, and the storage is not blamed",
          "[server]") {
    ServerProcess server;
    for (const std::string path :
         {"/api/users/\xff", "/api/leagues/\xff", "/api/tables/\xff/record",
          "/api/leagues/1/seasons/\xff", "/api/tables/t0000000000000000/record",
          "/api/tables/T0000000000000000/record", "/api/tables/x/record", "/api/users/-1"}) {
        INFO(path);
        const auto reply = server.get(path);
        CHECK(reply.first == 404);
        CHECK(code_of(reply) == "not_found");  // a JSON body, even when the path is not UTF-8
    }
    CHECK(metric(server, "gcor_errors_total{code=\"storage_failed\"}") == 0);
    CHECK(metric(server, "gcor_errors_total{code=\"internal\"}") == 0);
}

TEST_CASE("server api: password attempts are limited per address", "[server]") {
    ServerProcess server({"--password-attempts", "3"});
    const auto port = server.port();
    for (int attempt = 0; attempt < 3; ++attempt)
        CHECK(status_of(post_from(port, "127.0.0.2", "/api/login",
                                  credentials("Nobody", "wrong password"))) == 401);
    const std::string refused =
        post_from(port, "127.0.0.2", "/api/register", credentials("Newcomer", "long enough pw"));
    CHECK(status_of(refused) == 429);
    CHECK(refused.find("\r\nRetry-After: ") != std::string::npos);
    CHECK(refused.find("\"rate_limited\"") != std::string::npos);
    // Another address is not held back by this one.
    CHECK(status_of(post_from(port, "127.0.0.3", "/api/register",
                              credentials("Newcomer", "long enough pw"))) == 201);
}

TEST_CASE("server api: an account takes a few wrong passwords, from any address", "[server]") {
    ServerProcess server;
    const auto port = server.port();
    REQUIRE(server.post("/api/register", credentials("Livia", "aqueducts-forever")).first == 201);
    REQUIRE(server.post("/api/register", credentials("Marcus", "roads-forever")).first == 201);
    // Five guesses, each from an address of its own, and in varied case.
    const char* guessers[] = {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"};
    for (const char* from : guessers)
        CHECK(status_of(post_from(port, from, "/api/login",
                                  credentials("liVIA", "guess " + std::string(from)))) == 401);
    // The sixth is refused before the password is read: even the right one waits.
    const std::string locked =
        post_from(port, "127.0.0.7", "/api/login", credentials("Livia", "aqueducts-forever"));
    CHECK(status_of(locked) == 429);
    CHECK(locked.find("\r\nRetry-After: ") != std::string::npos);
    // Other accounts log in as usual.
    CHECK(status_of(post_from(port, "127.0.0.7", "/api/login",
                              credentials("Marcus", "roads-forever"))) == 200);
}

TEST_CASE("server api: a flood of logins does not delay other requests", "[server]") {
    ServerProcess server;
    REQUIRE(server.post("/api/register", credentials("Livia", "aqueducts-forever")).first == 201);
    // Each wrong password costs a hash (about 0.1 s of a core): 16 of them keep the hashing
    // threads busy for a second or more.
    constexpr int kLogins = 16;
    std::atomic<int> finished = 0;
    std::vector<std::future<int>> logins;
    for (int i = 0; i < kLogins; ++i)
        logins.push_back(std::async(std::launch::async, [&, i] {
            const auto reply = server.post("/api/login", credentials("Nobody", std::to_string(i)));
            ++finished;
            return reply.first;
        }));
    std::this_thread::sleep_for(200ms);  // the logins are in, the first ones being hashed
    // Answered from the other pool: most logins are still waiting when these are answered
    // (on one shared pool they waited behind all of them).
    CHECK(server.get("/api/ratings").first == 200);
    Client guest(server.port());
    CHECK(!guest.hello("Guest").empty());
    const int done_when_answered = finished;
    CHECK(done_when_answered < kLogins / 2);
    for (auto& login : logins)
        CHECK(login.get() == 401);
}

TEST_CASE("server api: logout ends the WebSockets of that session, not the others", "[server]") {
    ServerProcess server;
    const auto registered = server.post("/api/register", credentials("Livia", "aqueducts-forever"));
    REQUIRE(registered.first == 201);
    const std::string first = parse_body(registered.second)["token"];
    const auto login = server.post("/api/login", credentials("Livia", "aqueducts-forever"));
    REQUIRE(login.first == 200);
    const std::string second = parse_body(login.second)["token"];

    Client leaving(server.port()), staying(server.port());
    REQUIRE(leaving.request(Json{{"type", "hello"}, {"token", first}}));
    REQUIRE(staying.request(Json{{"type", "hello"}, {"token", second}}));
    REQUIRE(server.post("/api/logout", "", first).first == 200);

    // The logged-out connection is closed (1008, policy) and can act no more.
    CHECK(!leaving.receive(5s));
    CHECK(leaving.closed());
    CHECK(leaving.close_code() == 1008);
    // The other session goes on: it may still create a table.
    const auto created =
        staying.request(Json{{"type", "create_table"}, {"options", Json{{"players", 2}}}});
    REQUIRE(created);
    CHECK(type_of(*created) == "table_created");
}

}  // namespace gcor::testing
