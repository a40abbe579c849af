// Plain HTTP as a hostile peer sends it (docs/protocol.md, "HTTP" and "Limits"): oversized and
// malformed requests, trailers, silent connections, connection limits, WebSocket upgrades, and
// the shutdown. Each request is written byte for byte on a raw socket.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <memory>
#include <thread>

#include "server_support.hpp"

namespace gcor::testing {
namespace {

const std::string kChunkedGet =
    "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n";

std::string trailer_field(std::size_t value_bytes) {
    return "X-T: " + std::string(value_bytes, 't') + "\r\n";
}

void check_healthz(ServerProcess& server) {
    REQUIRE(server.running());
    CHECK(server.get("/healthz").first == 200);
}

// A client's masked WebSocket frame (RFC 6455, 5.2) with a zero mask, so the payload is as is.
std::string client_frame(int opcode, bool fin, std::string_view payload) {
    std::string frame(1, static_cast<char>((fin ? 0x80 : 0) | opcode));
    if (payload.size() < 126) {
        frame += static_cast<char>(0x80 | payload.size());
    } else if (payload.size() < 65536) {
        frame += static_cast<char>(0x80 | 126);
        frame += static_cast<char>(payload.size() >> 8);
        frame += static_cast<char>(payload.size() & 0xff);
    } else {
        frame += static_cast<char>(0x80 | 127);
        for (int shift = 56; shift >= 0; shift -= 8)
            frame += static_cast<char>((payload.size() >> shift) & 0xff);
    }
    frame += std::string(4, '\0');
    frame += payload;
    return frame;
}

std::string upgrade_request(std::string_view key) {
    return "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " +
           std::string(key) + "\r\n\r\n";
}

constexpr std::string_view kGoodKey = "dGhlIHNhbXBsZSBub25jZQ==";

}  // namespace

TEST_CASE("server http: a trailer field of 64 KiB gets 431, not the end of the process",
          "[server]") {
    ServerProcess server;
    {
        RawConnection get(server.port());
        REQUIRE(get.send(kChunkedGet + trailer_field(65536) + "\r\n"));
        CHECK(get.status() == 431);
    }
    check_healthz(server);
    {
        RawConnection login(server.port());
        REQUIRE(
            login.send("POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                       "\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n" +
                       trailer_field(65536) + "\r\n"));
        CHECK(login.status() == 431);
    }
    check_healthz(server);
    // A trailer that fits is still served.
    RawConnection small(server.port());
    REQUIRE(small.send(kChunkedGet + trailer_field(100) + "\r\n"));
    CHECK(small.status() == 200);
}

TEST_CASE("server http: trailers share the header's budget", "[server]") {
    ServerProcess server;
    // Many fields of 1 KiB each, 1 MiB in all: each fits a field, not the budget.
    std::string trailers;
    for (int i = 0; i < 1024; ++i)
        trailers += trailer_field(1000);
    for (int request = 0; request < 4; ++request) {
        RawConnection get(server.port());
        get.send(kChunkedGet + trailers + "\r\n");  // the server may close before all is sent
        CHECK(get.status() == 431);
    }
    check_healthz(server);
}

TEST_CASE("server http: oversized headers and targets get 431 and 414", "[server]") {
    ServerProcess server;
    SECTION("a header of 20 KiB") {
        RawConnection big(server.port());
        big.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(20 * 1024, 'b') + "\r\n\r\n");
        CHECK(big.status() == 431);
    }
    SECTION("1,000 small fields") {
        std::string fields;
        for (int i = 0; i < 1000; ++i)
            fields += "X-" + std::to_string(i) + ": 1\r\n";
        RawConnection many(server.port());
        many.send("GET / HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n");
        CHECK(many.status() == 431);
    }
    SECTION("a target of 64 KiB") {
        RawConnection long_target(server.port());
        long_target.send("GET /" + std::string(64 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
        CHECK(long_target.status() == 414);
    }
    SECTION("a target of 5 KiB within the header's budget") {
        RawConnection long_target(server.port());
        long_target.send("GET /" + std::string(5 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
        CHECK(long_target.status() == 414);
    }
    SECTION("a request line that is no HTTP") {
        RawConnection junk(server.port());
        junk.send("HELLO THERE\r\n\r\n");
        CHECK(junk.status() == 400);
    }
    check_healthz(server);
}

TEST_CASE("server http: folders are not files (404 with a status line)", "[server]") {
    ServerProcess server;
    for (const char* target : {"/.", "/index.html/", "/nothing/", "/web"}) {
        INFO(target);
        RawConnection get(server.port());
        get.send(std::string("GET ") + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
        CHECK(get.status() == 404);
    }
    CHECK(server.get("/").first == 200);
}

// The reply's header (status line and fields) to a GET of `target` with `fields` (CRLF-ended).
std::string static_header(const ServerProcess& server, const std::string& target,
                          const std::string& fields = "") {
    RawConnection get(server.port());
    get.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n");
    const std::string reply = get.receive(
        5s, [](const std::string& bytes) { return bytes.find("\r\n\r\n") != std::string::npos; });
    return reply.substr(0, reply.find("\r\n\r\n") + 2);
}

// A field's value in a reply's header ("" when it has none); names as the server writes them.
std::string field_of(const std::string& header, const std::string& name) {
    const auto at = header.find("\r\n" + name + ": ");
    if (at == std::string::npos) return {};
    const auto start = at + name.size() + 4;
    return header.substr(start, header.find("\r\n", start) - start);
}

TEST_CASE("server http: the client's files compressed, cached by version, revalidated by ETag",
          "[server]") {
    ServerProcess server;
    const auto [status, page] = server.get("/");
    REQUIRE(status == 200);
    const auto at = page.find("src=\"/v/");
    REQUIRE(at != std::string::npos);
    const std::string app = page.substr(at + 5, page.find('"', at + 5) - at - 5);  // /v/…/app.js
    INFO(app);
    CHECK(app.ends_with("/app.js"));

    const std::string index = static_header(server, "/", "Accept-Encoding: gzip\r\n");
    CHECK(index.starts_with("HTTP/1.1 200"));
    CHECK(field_of(index, "Cache-Control") == "no-cache");
    CHECK(field_of(index, "Content-Encoding") == "gzip");
    CHECK(field_of(index, "Vary") == "Accept-Encoding");
    const std::string etag = field_of(index, "ETag");
    REQUIRE(etag.size() > 2);
    // Unchanged: 304 without a body; another ETag: the page again.
    CHECK(
        static_header(server, "/", "If-None-Match: " + etag + "\r\n").starts_with("HTTP/1.1 304"));
    CHECK(static_header(server, "/", "If-None-Match: W/" + etag + "\r\n")
              .starts_with("HTTP/1.1 304"));
    CHECK(static_header(server, "/", "If-None-Match: \"other\"\r\n").starts_with("HTTP/1.1 200"));

    const std::string versioned = static_header(server, app, "Accept-Encoding: gzip, br\r\n");
    CHECK(versioned.starts_with("HTTP/1.1 200"));
    CHECK(field_of(versioned, "Cache-Control") == "public, max-age=31536000, immutable");
    CHECK(field_of(versioned, "Content-Encoding") == "br");
    CHECK(field_of(versioned, "Content-Type") == "text/javascript; charset=utf-8");
    const std::string plain = static_header(server, app, "Accept-Encoding: br;q=0\r\n");
    CHECK(field_of(plain, "Content-Encoding").empty());
    CHECK(std::stoul(field_of(plain, "Content-Length")) >
          std::stoul(field_of(versioned, "Content-Length")));
    // Without the prefix the same file, revalidated; under another version, none.
    CHECK(field_of(static_header(server, "/app.js"), "Cache-Control") == "no-cache");
    CHECK(static_header(server, "/v/0123456789abcdef/app.js").starts_with("HTTP/1.1 404"));
}

TEST_CASE("server http: the card catalogue compressed and revalidated by ETag", "[server]") {
    ServerProcess server;
    const auto [status, body] = server.get("/api/catalogue");
    REQUIRE(status == 200);
    CHECK(Json::parse(body).contains("buildings"));
    const std::string plain = static_header(server, "/api/catalogue");
    CHECK(field_of(plain, "Content-Type") == "application/json");
    CHECK(field_of(plain, "Content-Encoding").empty());
    const std::string packed = static_header(server, "/api/catalogue", "Accept-Encoding: br\r\n");
    CHECK(field_of(packed, "Content-Encoding") == "br");
    CHECK(field_of(packed, "Vary") == "Accept-Encoding");
    CHECK(field_of(packed, "Cache-Control") == "no-cache");
    CHECK(std::stoul(field_of(packed, "Content-Length")) * 3 <
          std::stoul(field_of(plain, "Content-Length")));
    const std::string etag = field_of(plain, "ETag");
    REQUIRE(etag.size() > 2);
    CHECK(static_header(server, "/api/catalogue", "If-None-Match: " + etag + "\r\n")
              .starts_with("HTTP/1.1 304"));
}

TEST_CASE("server http: every page, file and answer carries the security headers", "[server]") {
    ServerProcess server;
    for (const char* target : {"/", "/style.css", "/api/catalogue", "/api/ratings", "/nothing",
                               "/api/email/confirm?token=00"}) {
        INFO(target);
        const std::string header = static_header(server, target);
        CHECK(field_of(header, "Content-Security-Policy").starts_with("default-src 'self'; "));
        CHECK(field_of(header, "Content-Security-Policy").find("'unsafe-inline'") ==
              std::string::npos);
        CHECK(field_of(header, "Content-Security-Policy").find("frame-ancestors 'none'") !=
              std::string::npos);
        CHECK(field_of(header, "X-Content-Type-Options") == "nosniff");
        CHECK(field_of(header, "Referrer-Policy") == "same-origin");
    }
}

TEST_CASE("server http: connections count per address from the accept, and in all", "[server]") {
    ServerProcess server({"--connections-per-address", "5", "--max-connections", "12"});
    std::vector<std::unique_ptr<RawConnection>> silent;
    for (int i = 0; i < 5; ++i)
        silent.push_back(std::make_unique<RawConnection>(server.port(), "127.0.0.2"));
    // Give the server time to accept them all (they send nothing to wait for).
    std::this_thread::sleep_for(200ms);
    RawConnection sixth(server.port(), "127.0.0.2");
    CHECK(sixth.status() == 429);
    // Another address is served meanwhile, on a connection that stays open.
    RawConnection served(server.port(), "127.0.0.3");
    served.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(served.status() == 200);
    // 12 in all: 5 + 1 + 6 from two more addresses. The next one closes the oldest connection
    // waiting for a request (the first of 127.0.0.2) and is served.
    for (int i = 0; i < 6; ++i)
        silent.push_back(
            std::make_unique<RawConnection>(server.port(), i < 4 ? "127.0.0.3" : "127.0.0.4"));
    std::this_thread::sleep_for(200ms);
    RawConnection next(server.port(), "127.0.0.5");
    next.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(next.status() == 200);
    silent.front()->receive(2s);
    CHECK(silent.front()->closed());
    silent[1]->receive(100ms);
    CHECK(!silent[1]->closed());
    CHECK(metric(server, "gcor_connections_evicted_total") >= 1);
    // Closed connections give their places back.
    silent.clear();
    CHECK(server.get("/healthz").first == 200);
    CHECK(metric(server, "gcor_errors_total{code=\"too_many_connections\"}") == 1);
}

TEST_CASE("server http: a connection that sends nothing is closed within seconds", "[server]") {
    ServerProcess server;
    RawConnection silent(server.port());
    silent.receive(20s);
    CHECK(silent.closed());
}

TEST_CASE("server http: the descriptor limit is raised to the hard limit at start", "[server]") {
    rlimit limit{};
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &limit) == 0);
    REQUIRE(limit.rlim_max > 256);  // room to lower the soft limit for the server
    // The server inherits a low soft limit, as under a service manager.
    rlimit low = limit;
    low.rlim_cur = 256;
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
    std::unique_ptr<ServerProcess> server;
    try {
        server = std::make_unique<ServerProcess>();
    } catch (...) {
        ::setrlimit(RLIMIT_NOFILE, &limit);
        throw;
    }
    REQUIRE(::setrlimit(RLIMIT_NOFILE, &limit) == 0);
    std::ifstream limits("/proc/" + std::to_string(server->pid()) + "/limits");
    std::string line;
    std::string soft;
    while (std::getline(limits, line))
        if (line.rfind("Max open files", 0) == 0) {
            std::istringstream fields(line.substr(std::string("Max open files").size()));
            fields >> soft;
        }
    CHECK(soft == std::to_string(limit.rlim_max));
}

TEST_CASE("server websocket: the upgrade needs a well-formed Sec-WebSocket-Key", "[server]") {
    ServerProcess server;
    for (std::string_view key : {"", "abc", "dGhlIHNhbXBsZSBub25jZQ", "dGhlIHNhbXBsZSBub25j!Q=="}) {
        INFO("key \"" << key << '"');
        RawConnection upgrade(server.port());
        upgrade.send(upgrade_request(key));
        CHECK(upgrade.status() == 400);
    }
    RawConnection good(server.port());
    good.send(upgrade_request(kGoodKey));
    CHECK(good.status() == 101);
}

TEST_CASE("server websocket: frames sent with the upgrade request are read", "[server]") {
    ServerProcess server;
    RawConnection early(server.port());
    early.send(upgrade_request(kGoodKey) +
               client_frame(0x1, true, R"({"type":"hello","name":"Early","id":1})"));
    const std::string reply = early.receive(
        5s, [](const std::string& text) { return text.find("\"welcome\"") != std::string::npos; });
    CHECK(reply.rfind("HTTP/1.1 101", 0) == 0);
    CHECK(reply.find("\"welcome\"") != std::string::npos);
}

TEST_CASE("server websocket: an unfinished fragmented message past the limit is closed with 1009",
          "[server]") {
    ServerProcess server;
    RawConnection ws(server.port());
    ws.send(upgrade_request(kGoodKey));
    REQUIRE(ws.status() == 101);
    const std::string piece(40 * 1024, 'b');
    ws.send(client_frame(0x2, false, piece));  // binary, more to come
    ws.send(client_frame(0x0, false, piece));  // a continuation, still more to come
    const std::string reply = ws.receive(
        5s, [](const std::string& text) { return text.find("\x88") != std::string::npos; });
    const auto close = reply.find("\x88");
    REQUIRE(close != std::string::npos);
    REQUIRE(reply.size() >= close + 4);
    const int code = (static_cast<unsigned char>(reply[close + 2]) << 8) |
                     static_cast<unsigned char>(reply[close + 3]);
    CHECK(code == 1009);
    check_healthz(server);
}

TEST_CASE("server shutdown: an upgrade that arrives while stopping gets 503", "[server]") {
    ServerProcess server;
    // A client that never answers the close keeps the shutdown waiting for its few seconds.
    Client lingering(server.port());
    lingering.hello("Lingering");
    RawConnection late(server.port());
    const std::string request = upgrade_request(kGoodKey);
    late.send(request.substr(0, 20));
    std::this_thread::sleep_for(100ms);
    REQUIRE(::kill(server.pid(), SIGTERM) == 0);
    std::this_thread::sleep_for(300ms);
    late.send(request.substr(20));
    CHECK(late.status() == 503);
    CHECK(server.stop() == 0);
}

}  // namespace gcor::testing
