#include <catch2/catch.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "notify/webhooks.hpp"

using namespace gcor::server;
using namespace std::chrono_literals;
namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

using Request = http::request<http::string_body>;

// A loopback HTTP server on a thread of its own. It records each request and answers it with the
// status `answer` gives for its number (1, 2, ...); 0 holds the connection without answering.
class TestServer {
  public:
    explicit TestServer(std::function<unsigned(std::size_t)> answer)
        : answer_(std::move(answer)),
          acceptor_(io_, {net::ip::make_address("127.0.0.1"), 0}),
          port_(acceptor_.local_endpoint().port()) {
        net::co_spawn(io_, accept(), net::detached);
        thread_ = std::thread([this] { io_.run(); });
    }
    ~TestServer() {
        io_.stop();
        thread_.join();
    }

    std::string url(std::string_view target) const {
        return "http://127.0.0.1:" + std::to_string(port_) + std::string(target);
    }
    std::vector<Request> requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }
    std::size_t request_count() const {
        std::lock_guard lock(mutex_);
        return requests_.size();
    }

  private:
    net::awaitable<void> accept() {
        for (;;) {
            tcp::socket socket = co_await acceptor_.async_accept(net::use_awaitable);
            net::co_spawn(io_, serve(std::move(socket)), net::detached);
        }
    }

    // Errors end the coroutine with an exception, which `detached` drops.
    net::awaitable<void> serve(tcp::socket socket) {
        beast::flat_buffer buffer;
        Request request;
        co_await http::async_read(socket, buffer, request, net::use_awaitable);
        std::size_t number = 0;
        {
            std::lock_guard lock(mutex_);
            requests_.push_back(request);
            number = requests_.size();
        }
        const unsigned status = answer_(number);
        if (status == 0) {
            char byte = 0;  // until the client gives up and closes
            co_await socket.async_read_some(net::buffer(&byte, 1), net::use_awaitable);
            co_return;
        }
        http::response<http::string_body> response;
        response.result(status);
        response.keep_alive(false);
        if (status != 204) response.body() = "answer\n";  // 204 must have none
        response.prepare_payload();
        co_await http::async_write(socket, response, net::use_awaitable);
    }

    std::function<unsigned(std::size_t)> answer_;
    net::io_context io_;
    tcp::acceptor acceptor_;
    const std::uint16_t port_;
    std::thread thread_;
    mutable std::mutex mutex_;
    std::vector<Request> requests_;
};

// Webhooks on an io_context run by a thread of its own, as in the server.
struct Client {
    explicit Client(WebhookSettings settings) : webhooks(io, settings) {}
    ~Client() {
        work.reset();
        io.stop();
        thread.join();
    }

    net::io_context io;
    net::executor_work_guard<net::io_context::executor_type> work = net::make_work_guard(io);
    Webhooks webhooks;
    std::thread thread{[this] { io.run(); }};
};

WebhookSettings fast_settings() {
    WebhookSettings settings;
    settings.allow_private = true;  // the test receivers listen on loopback
    settings.timeout = 2s;
    settings.attempts = 3;
    settings.first_retry = 20ms;
    settings.max_in_flight = 16;
    return settings;
}

template <class Predicate>
bool wait_until(Predicate done, std::chrono::milliseconds limit = 5s) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(2ms);
    }
    return true;
}

// A loopback port with nothing listening on it (bound once, then released).
std::uint16_t closed_port() {
    net::io_context io;
    tcp::acceptor acceptor(io, {net::ip::make_address("127.0.0.1"), 0});
    return acceptor.local_endpoint().port();
}

}  // namespace

TEST_CASE("a webhook arrives with its JSON body and headers", "[webhook]") {
    TestServer server([](std::size_t) { return 200u; });
    Client client(fast_settings());
    client.webhooks.post(server.url("/hook?key=secret"), R"({"table":"t1","seat":0})");
    REQUIRE(wait_until([&] { return client.webhooks.delivered() == 1; }));

    const auto requests = server.requests();
    REQUIRE(requests.size() == 1);
    const Request& request = requests[0];
    CHECK(request.method() == http::verb::post);
    CHECK(request.target() == "/hook?key=secret");
    CHECK(request[http::field::content_type] == "application/json");
    CHECK(request[http::field::user_agent] == "cor-server");
    CHECK(request[http::field::host] == server.url("").substr(7));
    CHECK(request.body() == R"({"table":"t1","seat":0})");
    CHECK(wait_until([&] { return client.webhooks.in_flight() == 0; }));
    CHECK(client.webhooks.failed() == 0);
    CHECK(client.webhooks.dropped() == 0);
}

TEST_CASE("any 2xx answer is a delivery", "[webhook]") {
    TestServer server([](std::size_t) { return 204u; });
    Client client(fast_settings());
    client.webhooks.post(server.url(""), "{}");
    REQUIRE(wait_until([&] { return client.webhooks.delivered() == 1; }));
    CHECK(server.requests().at(0).target() == "/");
    CHECK(server.request_count() == 1);
}

TEST_CASE("a failing webhook is tried again until it answers", "[webhook]") {
    TestServer server([](std::size_t number) { return number < 3 ? 500u : 200u; });
    Client client(fast_settings());
    client.webhooks.post(server.url("/hook"), "{}");
    REQUIRE(wait_until([&] { return client.webhooks.delivered() == 1; }));
    CHECK(server.request_count() == 3);
    CHECK(client.webhooks.failed() == 0);
}

TEST_CASE("a webhook that keeps failing is given up after its attempts", "[webhook]") {
    TestServer server([](std::size_t) { return 404u; });
    Client client(fast_settings());
    const auto start = std::chrono::steady_clock::now();
    client.webhooks.post(server.url("/gone"), "{}");
    REQUIRE(wait_until([&] { return client.webhooks.failed() == 1; }));
    // Waits of 20 ms, then 40 ms, between the three attempts.
    CHECK(std::chrono::steady_clock::now() - start >= 60ms);
    CHECK(server.request_count() == 3);
    CHECK(client.webhooks.delivered() == 0);
    CHECK(wait_until([&] { return client.webhooks.in_flight() == 0; }));
}

TEST_CASE("a webhook that never answers times out", "[webhook]") {
    TestServer server([](std::size_t) { return 0u; });
    WebhookSettings settings = fast_settings();
    settings.timeout = 200ms;
    settings.attempts = 2;
    Client client(settings);
    const auto start = std::chrono::steady_clock::now();
    client.webhooks.post(server.url("/slow"), "{}");
    REQUIRE(wait_until([&] { return client.webhooks.failed() == 1; }));
    CHECK(std::chrono::steady_clock::now() - start >= 400ms);
    CHECK(server.request_count() == 2);
    CHECK(client.webhooks.delivered() == 0);
}

TEST_CASE("a webhook to a closed port fails", "[webhook]") {
    WebhookSettings settings = fast_settings();
    settings.attempts = 2;
    Client client(settings);
    client.webhooks.post("http://127.0.0.1:" + std::to_string(closed_port()) + "/", "{}");
    REQUIRE(wait_until([&] { return client.webhooks.failed() == 1; }));
    CHECK(client.webhooks.delivered() == 0);
}

TEST_CASE("webhooks call only public addresses unless private ones are allowed", "[webhook]") {
    TestServer server([](std::size_t) { return 200u; });
    WebhookSettings settings = fast_settings();
    settings.allow_private = false;
    Client client(settings);
    const std::string port = server.url("").substr(server.url("").rfind(':'));
    for (const std::string host :
         {"127.0.0.1", "localhost", "10.1.2.3", "192.168.0.1", "172.16.5.5", "169.254.169.254",
          "100.64.0.1", "[::1]", "[fd00::1]", "[::ffff:127.0.0.1]", "0.0.0.0"})
        client.webhooks.post("http://" + host + port + "/hook", "{}");
    REQUIRE(wait_until([&] { return client.webhooks.failed() == 11; }));
    CHECK(server.request_count() == 0);
    CHECK(client.webhooks.delivered() == 0);
}

TEST_CASE("a webhook to an unsupported URL is dropped", "[webhook]") {
    net::io_context io;
    Webhooks webhooks(io, fast_settings());
    webhooks.post("https://example.com/hook", "{}");
    webhooks.post("not a url", "{}");
    CHECK(webhooks.dropped() == 2);
    CHECK(webhooks.in_flight() == 0);
    CHECK(io.poll() == 0);
}

TEST_CASE("webhooks beyond max_in_flight are dropped", "[webhook]") {
    TestServer server([](std::size_t) { return 200u; });
    WebhookSettings settings = fast_settings();
    settings.max_in_flight = 2;
    // Not run yet, so that nothing finishes while the webhooks are posted.
    net::io_context io;
    Webhooks webhooks(io, settings);
    for (int i = 0; i < 5; ++i)
        webhooks.post(server.url("/hook"), "{}");
    CHECK(webhooks.in_flight() == 2);
    CHECK(webhooks.dropped() == 3);

    io.run_for(5s);  // returns once both are delivered
    CHECK(webhooks.delivered() == 2);
    CHECK(webhooks.in_flight() == 0);
    CHECK(server.request_count() == 2);

    webhooks.post(server.url("/hook"), "{}");
    CHECK(webhooks.dropped() == 3);
    // Left queued: destroying the io_context must free it.
    CHECK(webhooks.in_flight() == 1);
}

TEST_CASE("parse_webhook_url accepts plain http URLs", "[webhook]") {
    auto parsed = Webhooks::parse_webhook_url("http://example.com");
    REQUIRE(parsed);
    CHECK(parsed->host == "example.com");
    CHECK(parsed->port == 80);
    CHECK(parsed->target == "/");

    parsed = Webhooks::parse_webhook_url("http://hooks.example.com:8080/turn/abc?key=s3cret");
    REQUIRE(parsed);
    CHECK(parsed->host == "hooks.example.com");
    CHECK(parsed->port == 8080);
    CHECK(parsed->target == "/turn/abc?key=s3cret");

    parsed = Webhooks::parse_webhook_url("HTTP://127.0.0.1:65535?key=1#fragment");
    REQUIRE(parsed);
    CHECK(parsed->host == "127.0.0.1");
    CHECK(parsed->port == 65535);
    CHECK(parsed->target == "/?key=1");

    parsed = Webhooks::parse_webhook_url("http://[::1]:9000/hook");
    REQUIRE(parsed);
    CHECK(parsed->host == "::1");
    CHECK(parsed->port == 9000);

    const std::string longest = "http://example.com/" + std::string(2048 - 19, 'a');
    REQUIRE(longest.size() == 2048);
    CHECK(Webhooks::parse_webhook_url(longest));
}

TEST_CASE("parse_webhook_url refuses everything else", "[webhook]") {
    const char* refused[] = {
        "",
        "https://example.com/hook",
        "ftp://example.com/",
        "example.com/hook",
        "//example.com/hook",
        "http://",
        "http:///hook",
        "http://:8080/hook",
        "http://example.com:0/",
        "http://example.com:65536/",
        "http://example.com:99999999999/",
        "http://example.com:/",
        "http://example.com:-1/",
        "http://example.com:80a/",
        "http://user:password@example.com/",
        "http://exa mple.com/",
        "http://example.com/a b",
        "http://example.com/\r\nX-Injected: 1",
        "http://example.com/\t",
        "http://example.com/\x7f",
        "http://example.com/caf\xc3\xa9",
        "http://[::1/",
        "http://[]/",
        "http://[not:hex]/",
        "http://[::1]x/",
    };
    for (const char* url : refused) {
        INFO(url);
        CHECK_FALSE(Webhooks::parse_webhook_url(url));
    }
    CHECK_FALSE(Webhooks::parse_webhook_url(std::string_view("http://example.com/\0", 20)));
    CHECK_FALSE(Webhooks::parse_webhook_url("http://example.com/" + std::string(2048 - 18, 'a')));
}
