#pragma once
// Plain HTTP on the same port: the browser client's files, /healthz, /metrics, /api/catalogue,
// and the upgrade of /ws to a WebSocket.
#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <optional>

#include "net/static_files.hpp"
#include "services.hpp"

namespace gcor::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// While it waits for a request (or drains after its last reply) the connection is listed in the
// ConnectionLimiter, which closes the oldest listed connection when the server is full.
class HttpSession : public std::enable_shared_from_this<HttpSession>, private Unproven {
  public:
    // `slot` is the connection's place in the per-address and total counts (kept by the
    // WebSocket session after an upgrade); `health_only`: a place of the limiter's reserve, on
    // which only /healthz and /metrics are answered.
    HttpSession(tcp::socket&& socket, Services& services, ConnectionCount slot, bool health_only);
    ~HttpSession();
    void run();

  private:
    // Unproven::Close: the limiter closes this connection to make room.
    static void close_for_room(Unproven& unproven);
    // Unproven::Spoke: bytes have arrived that are not read yet.
    static bool has_unread_bytes(const Unproven& unproven);
    void read();
    // A request on a reserve place: /healthz and /metrics are answered, the rest get 503.
    void answer_when_full(http::request<http::string_body>&& request);
    void on_header(beast::error_code ec, std::size_t bytes);
    void on_read(beast::error_code ec, std::size_t bytes);
    void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
    void drain(std::shared_ptr<std::array<char, 4096>> scratch, std::size_t drained);
    // Answers a request that cannot be read (too large, malformed) and closes the connection.
    void refuse_unread(beast::error_code ec);
    void upgrade(http::request<http::string_body>&& request);
    void send(http::message_generator&& response, bool keep_alive);
    void send_text(http::status status, std::string_view text, unsigned version, bool keep_alive);
    http::message_generator respond(http::request<http::string_body>&& request);
    // A file of the client: 304 when the request's ETag is current, else its bytes in the best
    // encoding the request accepts.
    static http::message_generator file_response(const http::request<http::string_body>& request,
                                                 const StaticFiles::Found& found);
    void answer_api(http::request<http::string_body>&& request);
    // Runs a handler's work; an exception ends this connection only, logged.
    template <class Work>
    void fenced(const char* what, Work&& work);

    beast::tcp_stream stream_;
    // The socket's descriptor, for has_unread_bytes on the limiter's thread: a copy that never
    // changes, so that it is read there without a race on the stream (at worst, once closed, the
    // number of another socket, and a wrong guess of which connection to close).
    const int descriptor_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    Services& services_;
    ConnectionCount slot_;
    bool health_only_;
};

// Accepts connections, each onto a strand of its own.
class Listener : public std::enable_shared_from_this<Listener> {
  public:
    // Throws boost::system::system_error when the address cannot be bound.
    Listener(net::io_context& io, const tcp::endpoint& endpoint, Services& services);
    void run();
    void stop();
    std::uint16_t port() const { return port_; }

  private:
    void accept();
    // accept failed (out of file descriptors, say): closes the oldest listed connection when
    // that can help, and tries again shortly.
    void back_off(const beast::error_code& ec);
    // A connection over a limit, answered before it sends a byte and closed.
    void refuse(tcp::socket& socket, ConnectionLimiter::Refusal refusal);
    void log_eviction(const ConnectionLimiter::Admission& admission);

    // A warning that may repeat at every accept goes out at most once per 10 s, with the count of
    // those held back meanwhile (only the acceptor's strand uses these).
    struct Throttled {
        std::chrono::steady_clock::time_point next{};
        std::uint64_t held_back = 0;
        // When the warning goes out now: how many were held back since the last one did.
        std::optional<std::uint64_t> pass();
    };

    net::io_context& io_;
    tcp::acceptor acceptor_;
    net::steady_timer backoff_;
    Services& services_;
    std::uint16_t port_;
    Throttled evicting_warning_;
    Throttled full_warning_;
    Throttled accept_warning_;
};

}  // namespace gcor::server
