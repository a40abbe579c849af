#include "server_support.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gcor::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

ServerProcess::ServerProcess(std::vector<std::string> args) {
    char pattern[] = "/tmp/cor-server-test-XXXXXX";
    dir_ = mkdtemp(pattern);
    const std::string port_file = dir_ + "/port";
    std::vector<std::string> argv{COR_SERVER_PATH, "--bind",  "127.0.0.1",   "--port", "0",
                                  "--port-file",   port_file, "--log-level", "warn",   "--web-root",
                                  GCOR_WEB_ROOT};
    auto has = [&](const char* option) {
        return std::find(args.begin(), args.end(), option) != args.end();
    };
    if (!has("--bot-delay-ms")) argv.insert(argv.end(), {"--bot-delay-ms", "0"});
    // Tests register and log in many users from 127.0.0.1.
    if (!has("--password-attempts")) argv.insert(argv.end(), {"--password-attempts", "100000"});
    if (!has("--test-seed")) argv.insert(argv.end(), {"--test-seed", "1000"});
    if (!has("--database")) argv.insert(argv.end(), {"--database", dir_ + "/cor.db"});
    // Two worker threads whatever the cores, so that tables run in parallel in every test (and
    // under TSan); the default would be one on a 2-core machine.
    if (!has("--threads")) argv.insert(argv.end(), {"--threads", "2"});
    argv.insert(argv.end(), args.begin(), args.end());
    process_ = std::make_unique<support::ChildProcess>(std::move(argv));
    port_ = static_cast<std::uint16_t>(process_->wait_for_port(port_file, 5s));
    if (port_ == 0) throw std::runtime_error("cor-server did not start");
}

ServerProcess::~ServerProcess() {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
}

void ServerProcess::kill_hard() {
    process_->kill_hard();
}

bool ServerProcess::running() {
    return process_->running();
}

int ServerProcess::stop() {
    return process_->stop(5s);
}

long ServerProcess::resident_kb() const {
    std::ifstream status("/proc/" + std::to_string(pid()) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

std::pair<int, std::string> ServerProcess::get(const std::string& path,
                                               const std::string& token) const {
    return http_request("GET", path, "", token);
}

std::pair<int, std::string> ServerProcess::post(const std::string& path, const std::string& body,
                                                const std::string& token) const {
    return http_request("POST", path, body, token);
}

std::pair<int, std::string> ServerProcess::remove(const std::string& path, const std::string& token,
                                                  const std::string& body) const {
    return http_request("DELETE", path, body, token);
}

std::pair<int, std::string> ServerProcess::put(const std::string& path, const std::string& body,
                                               const std::string& token) const {
    return http_request("PUT", path, body, token);
}

std::pair<int, std::string> ServerProcess::http_request(const std::string& method,
                                                        const std::string& path,
                                                        const std::string& body,
                                                        const std::string& token) const {
    net::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(30s);
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port_));
    http::request<http::string_body> request{http::string_to_verb(method), path, 11};
    request.set(http::field::host, "127.0.0.1");
    if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
    if (!body.empty()) request.set(http::field::content_type, "application/json");
    request.body() = body;
    request.prepare_payload();
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    return {response.result_int(), response.body()};
}

// The value of one line of GET /metrics, e.g. `gcor_errors_total{code="bad_json"}`.
double metric(const ServerProcess& server, const std::string& name) {
    const auto [status, body] = server.get("/metrics");
    if (status != 200) throw std::runtime_error("GET /metrics answered " + std::to_string(status));
    std::istringstream lines(body);
    std::string line;
    while (std::getline(lines, line))
        if (line.rfind(name + " ", 0) == 0) return std::stod(line.substr(name.size() + 1));
    throw std::runtime_error("no metric " + name + " in\n" + body);
}

RawConnection::RawConnection(std::uint16_t port, const char* from) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw std::runtime_error("socket failed");
    sockaddr_in local{};
    local.sin_family = AF_INET;
    ::inet_pton(AF_INET, from, &local.sin_addr);
    sockaddr_in server{};
    server.sin_family = AF_INET;
    server.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &server.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0 ||
        ::connect(fd_, reinterpret_cast<sockaddr*>(&server), sizeof server) != 0) {
        ::close(fd_);
        throw std::runtime_error(std::string("cannot connect from ") + from);
    }
}

RawConnection::~RawConnection() {
    ::close(fd_);
}

bool RawConnection::send(std::string_view bytes) {
    while (!bytes.empty()) {
        const auto sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (sent <= 0) return false;
        bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
}

std::string RawConnection::receive(std::chrono::milliseconds timeout,
                                   const std::function<bool(const std::string&)>& enough) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (enough && enough(received_)) break;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd ready{fd_, POLLIN, 0};
        if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) break;
        char chunk[4096];
        const auto got = ::recv(fd_, chunk, sizeof chunk, 0);
        if (got <= 0) {
            closed_ = true;
            break;
        }
        received_.append(chunk, static_cast<std::size_t>(got));
    }
    return received_;
}

int RawConnection::status(std::chrono::milliseconds timeout) {
    const std::string reply = receive(
        timeout, [](const std::string& text) { return text.find("\r\n") != std::string::npos; });
    if (reply.rfind("HTTP/1.1 ", 0) != 0 || reply.size() < 12) return 0;
    return std::stoi(reply.substr(9, 3));
}

struct Client::Connection {
    net::io_context io;
    beast::websocket::stream<beast::tcp_stream> ws{io};
    beast::flat_buffer buffer;
};

Client::Client(std::uint16_t port, const std::string& target, int receive_buffer_bytes)
    : connection_(std::make_unique<Connection>()) {
    auto& socket = beast::get_lowest_layer(connection_->ws).socket();
    if (receive_buffer_bytes > 0) {
        socket.open(tcp::v4());
        socket.set_option(net::socket_base::receive_buffer_size(receive_buffer_bytes));
    }
    beast::get_lowest_layer(connection_->ws)
        .connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    connection_->ws.handshake("127.0.0.1", target);
    read();
}

// cor-server writes without TCP_NODELAY: a second message waits (Nagle) until the first one is
// acknowledged, and a delayed ACK would hold it up to 40 ms. Acknowledging at once keeps the
// tests fast; it changes nothing else.
void Client::quick_ack() {
    auto& socket = beast::get_lowest_layer(connection_->ws).socket();
    if (!socket.is_open()) return;
    const int one = 1;
    setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
}

Client::~Client() {
    beast::error_code ec;
    beast::get_lowest_layer(connection_->ws).socket().close(ec);
}

// One read is always outstanding (cancelling a WebSocket read would break the stream); waiting
// runs the io_context until a message or the deadline comes.
void Client::read() {
    connection_->ws.async_read(connection_->buffer, [this](beast::error_code ec, std::size_t) {
        if (ec) {
            closed_ = true;
            close_code_ = connection_->ws.reason().code;
            return;
        }
        beast::flat_buffer& buffer = connection_->buffer;
        std::string text = beast::buffers_to_string(buffer.data());
        buffer.consume(buffer.size());
        Json message = Json::parse(text);
        if (keep_turn_notices || type_of(message) != "your_turn")
            kept_.push_back(std::move(message));
        received_texts.push_back(std::move(text));
        read();
    });
}

void Client::send(const Json& message) {
    send_text(message.dump());
}

void Client::send_text(const std::string& text) {
    sent_texts.push_back(text);
    beast::error_code ec;
    connection_->ws.write(net::buffer(text), ec);
    if (ec) closed_ = true;
    quick_ack();
}

void Client::send_binary(const std::string& bytes) {
    beast::error_code ec;
    auto& ws = connection_->ws;
    ws.binary(true);
    ws.write(net::buffer(bytes), ec);
    ws.text(true);
    if (ec) closed_ = true;
}

std::optional<Json> Client::receive(std::chrono::milliseconds timeout) {
    return wait_for([](const Json&) { return true; }, timeout);
}

std::optional<Json> Client::wait_for(const std::function<bool(const Json&)>& match,
                                     std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t checked = 0;
    while (true) {
        for (; checked < kept_.size(); ++checked)
            if (match(kept_[checked])) {
                Json message = std::move(kept_[checked]);
                kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(checked));
                return message;
            }
        const auto now = std::chrono::steady_clock::now();
        if (closed_ || now >= deadline) return std::nullopt;
        quick_ack();
        connection_->io.restart();
        connection_->io.run_one_for(deadline - now);
    }
}

std::optional<Json> Client::request(Json message, std::chrono::milliseconds timeout) {
    const int id = next_id_++;
    message["id"] = id;
    send(message);
    return wait_for([id](const Json& reply) { return reply.contains("id") && reply["id"] == id; },
                    timeout);
}

std::string Client::hello(const std::string& name) {
    const auto welcome = request(Json{{"type", "hello"}, {"name", name}});
    if (!welcome || (*welcome)["type"] != "welcome") throw std::runtime_error("no welcome");
    return (*welcome)["token"].get<std::string>();
}

}  // namespace gcor::testing
