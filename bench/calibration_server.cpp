// cor-calibrate: the ceiling of this machine for cor-server's traffic. Plain Beast, no game, no
// JSON parser: connections join a group of four ({"type":"join","group":G,"seat":S}); a move
// ({"type":"move","group":G,"bytes":B,...}) sends one message of B bytes, shared, to all four
// connections of its group. cor-loadgen --mode calibration drives it like a game.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdio>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "loadgen_support.hpp"

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Message = std::shared_ptr<const std::string>;

class Session;

// Groups of four connections, by the number the load generator gave them.
class Groups {
  public:
    void join(std::uint64_t group, std::size_t seat, const std::shared_ptr<Session>& session) {
        const std::lock_guard lock(mutex_);
        groups_[group][seat % 4] = session;
    }
    std::array<std::weak_ptr<Session>, 4> members(std::uint64_t group) {
        const std::lock_guard lock(mutex_);
        const auto it = groups_.find(group);
        return it == groups_.end() ? std::array<std::weak_ptr<Session>, 4>{} : it->second;
    }

  private:
    std::mutex mutex_;
    std::unordered_map<std::uint64_t, std::array<std::weak_ptr<Session>, 4>> groups_;
};

class Session : public std::enable_shared_from_this<Session> {
  public:
    Session(tcp::socket&& socket, Groups& groups) : ws_(std::move(socket)), groups_(groups) {}

    void run() {
        beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
            if (!ec) self->read();
        });
    }

    // Thread-safe.
    void send(Message message) {
        net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)] {
            self->queue_.push_back(message);
            if (self->queue_.size() == 1) self->write();
        });
    }

  private:
    void read() {
        ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
            if (ec) return;
            const auto data = self->buffer_.cdata();
            self->handle(std::string_view(static_cast<const char*>(data.data()), data.size()));
            self->buffer_.consume(self->buffer_.size());
            self->read();
        });
    }

    void handle(std::string_view text) {
        const auto type = gcor::bench::message_type(text);
        const auto group = gcor::bench::number_member(text, "group");
        if (!group) return;
        if (type == "join") {
            groups_.join(*group, gcor::bench::number_member(text, "seat").value_or(0),
                         shared_from_this());
            queue_.push_back(std::make_shared<const std::string>(R"({"type":"joined"})"));
            if (queue_.size() == 1) write();
        } else if (type == "move") {
            const std::size_t bytes = std::clamp<std::size_t>(
                gcor::bench::number_member(text, "bytes").value_or(200), 32, 1 << 16);
            // A patch-shaped message of exactly `bytes` bytes, made once and shared by four.
            std::string patch =
                R"({"type":"patch","to":)" + std::to_string(++moves_) + R"(,"pad":")";
            patch.append(bytes - std::min(bytes, patch.size() + 2), 'x');
            patch += "\"}";
            const Message message = std::make_shared<const std::string>(std::move(patch));
            for (const auto& member : groups_.members(*group))
                if (const auto session = member.lock()) session->send(message);
        }
    }

    void write() {
        ws_.text(true);
        ws_.async_write(net::buffer(*queue_.front()),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec) return;
                            self->queue_.pop_front();
                            if (!self->queue_.empty()) self->write();
                        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    Groups& groups_;
    beast::flat_buffer buffer_;
    std::deque<Message> queue_;
    std::uint64_t moves_ = 0;
};

class Listener : public std::enable_shared_from_this<Listener> {
  public:
    Listener(net::io_context& io, tcp::endpoint endpoint, Groups& groups)
        : io_(io), acceptor_(net::make_strand(io)), groups_(groups) {
        acceptor_.open(endpoint.protocol());
        acceptor_.set_option(net::socket_base::reuse_address(true));
        acceptor_.bind(endpoint);
        acceptor_.listen(net::socket_base::max_listen_connections);
    }
    std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
    void accept() {
        acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](
                                                          beast::error_code ec, tcp::socket s) {
            if (!ec) std::make_shared<Session>(std::move(s), self->groups_)->run();
            self->accept();
        });
    }

  private:
    net::io_context& io_;
    tcp::acceptor acceptor_;
    Groups& groups_;
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "cor-calibrate: WebSocket server with no game, one message in and four out, for "
        "cor-loadgen --mode calibration"};
    std::string bind = "127.0.0.1";
    int port = 0;
    int threads = 0;
    std::string port_file;
    app.add_option("--bind", bind, "Address to listen on")->capture_default_str();
    app.add_option("--port", port, "Port (0: any free port)")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    app.add_option("--threads", threads,
                   "Worker threads (0: one per core; it has no other thread to leave a core to)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    app.add_option("--port-file", port_file, "Write the port bound to this file");
    CLI11_PARSE(app, argc, argv);
    if (threads == 0) threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    try {
        net::io_context io(threads);
        Groups groups;
        auto listener = std::make_shared<Listener>(
            io, tcp::endpoint(net::ip::make_address(bind), static_cast<std::uint16_t>(port)),
            groups);
        listener->accept();
        if (!port_file.empty()) std::ofstream(port_file) << listener->port() << '\n';
        std::printf("cor-calibrate: listening on %s:%u\n", bind.c_str(), listener->port());
        std::fflush(stdout);
        net::signal_set signals(io, SIGINT, SIGTERM);
        signals.async_wait([&](beast::error_code, int) { io.stop(); });
        std::vector<std::thread> workers;
        for (int i = 1; i < threads; ++i)
            workers.emplace_back([&] { io.run(); });
        io.run();
        for (std::thread& worker : workers)
            worker.join();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "cor-calibrate: %s\n", error.what());
        return 1;
    }
    return 0;
}
