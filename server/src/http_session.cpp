#include "http_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/strand.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>

#include "api.hpp"
#include "gcor/protocol/view_json.hpp"
#include "ws_session.hpp"

namespace gcor::server {
namespace {

constexpr auto kHttpTimeout = std::chrono::seconds(30);
constexpr std::uint64_t kMaxRequestBody = 64 * 1024;

std::string_view mime_type(std::string_view path) {
    const auto dot = path.rfind('.');
    const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".json") return "application/json";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".woff2") return "font/woff2";
    return "application/octet-stream";
}

// A request target that names a file below the web root: no "..", no backslash, no NUL.
bool safe_path(std::string_view path) {
    return !path.empty() && path[0] == '/' && path.find("..") == std::string_view::npos &&
           path.find('\\') == std::string_view::npos && path.find('\0') == std::string_view::npos;
}

}  // namespace

HttpSession::HttpSession(tcp::socket&& socket, Services& services)
    : stream_(std::move(socket)), services_(services) {
    beast::error_code ec;
    // Small messages go out at once (a patch and its ack would otherwise wait on Nagle).
    stream_.socket().set_option(tcp::no_delay(true), ec);
    const auto endpoint = stream_.socket().remote_endpoint(ec);
    address_ = ec ? "unknown" : endpoint.address().to_string();
}

void HttpSession::run() {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&HttpSession::read, shared_from_this()));
}

void HttpSession::read() {
    parser_.emplace();
    parser_->body_limit(kMaxRequestBody);
    stream_.expires_after(kHttpTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
    if (ec == http::error::end_of_stream) {
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
    }
    if (ec) return;
    http::request<http::string_body> request = parser_->release();
    if (beast::websocket::is_upgrade(request)) {
        auto refuse = [&](http::status status, const char* why) {
            http::response<http::string_body> response{status, request.version()};
            response.set(http::field::content_type, "text/plain");
            response.body() = why;
            response.prepare_payload();
            response.keep_alive(false);
            beast::async_write(
                stream_, http::message_generator(std::move(response)),
                beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), false));
        };
        if (request.target() != "/ws")
            return refuse(http::status::not_found, "WebSocket connections go to /ws\n");
        auto slot = services_.limiter.acquire(address_);
        if (!slot) {
            services_.metrics.count_error(protocol::ErrorCode::too_many_connections);
            return refuse(http::status::too_many_requests,
                          "too many connections from this address\n");
        }
        std::make_shared<WsSession>(stream_.release_socket(), services_, std::move(slot))
            ->run(std::move(request));
        return;
    }
    if (is_api_target(request.target())) {
        // The API may hash a password or read the store: answered from the blocking pool.
        return net::post(services_.blocking, [self = shared_from_this(),
                                              request = std::move(request)]() mutable {
            auto response = std::make_shared<http::response<http::string_body>>(
                handle_api(self->services_, request));
            net::post(self->stream_.get_executor(), [self, response] {
                const bool keep_alive = response->keep_alive();
                beast::async_write(
                    self->stream_, http::message_generator(std::move(*response)),
                    beast::bind_front_handler(&HttpSession::on_write, self, keep_alive));
            });
        });
    }
    http::message_generator response = respond(std::move(request));
    const bool keep_alive = response.keep_alive();
    beast::async_write(
        stream_, std::move(response),
        beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
    if (ec) return;
    if (!keep_alive) {
        stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
        return;
    }
    read();
}

http::message_generator HttpSession::respond(http::request<http::string_body>&& request) {
    auto text = [&](http::status status, std::string body, std::string_view type) {
        http::response<http::string_body> response{status, request.version()};
        response.set(http::field::server, "cor-server");
        response.set(http::field::content_type, type);
        response.set(http::field::cache_control, "no-cache");
        response.keep_alive(request.keep_alive());
        response.body() = request.method() == http::verb::head ? std::string() : std::move(body);
        response.prepare_payload();
        return response;
    };
    if (request.method() != http::verb::get && request.method() != http::verb::head)
        return text(http::status::method_not_allowed, "only GET and HEAD\n", "text/plain");
    std::string_view path = request.target();
    path = path.substr(0, path.find('?'));
    if (path == "/healthz") return text(http::status::ok, "ok\n", "text/plain");
    if (path == "/metrics")
        return text(http::status::ok, services_.metrics.render(), "text/plain; version=0.0.4");
    if (path == "/api/catalogue")
        return text(http::status::ok, protocol::catalogue_json().dump(), "application/json");
    if (!safe_path(path)) return text(http::status::bad_request, "bad path\n", "text/plain");

    std::string file = services_.config.web_root + std::string(path);
    if (path.back() == '/') file += "index.html";
    http::file_body::value_type body;
    beast::error_code ec;
    body.open(file.c_str(), beast::file_mode::scan, ec);
    if (ec) return text(http::status::not_found, "not found\n", "text/plain");
    const auto size = body.size();
    if (request.method() == http::verb::head) {
        http::response<http::empty_body> response{http::status::ok, request.version()};
        response.set(http::field::content_type, mime_type(file));
        response.content_length(size);
        response.keep_alive(request.keep_alive());
        return response;
    }
    http::response<http::file_body> response{std::piecewise_construct,
                                             std::make_tuple(std::move(body)),
                                             std::make_tuple(http::status::ok, request.version())};
    response.set(http::field::server, "cor-server");
    response.set(http::field::content_type, mime_type(file));
    response.set(http::field::cache_control, "no-cache");
    response.content_length(size);
    response.keep_alive(request.keep_alive());
    return response;
}

// --- Listener -----------------------------------------------------------------------------------

Listener::Listener(net::io_context& io, const tcp::endpoint& endpoint, Services& services)
    : io_(io),
      acceptor_(net::make_strand(io)),
      backoff_(acceptor_.get_executor()),
      services_(services) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
    port_ = acceptor_.local_endpoint().port();
}

void Listener::run() {
    accept();
}

void Listener::stop() {
    net::post(acceptor_.get_executor(), [self = shared_from_this()] {
        beast::error_code ec;
        self->acceptor_.close(ec);
        self->backoff_.cancel();
    });
}

void Listener::accept() {
    acceptor_.async_accept(net::make_strand(io_), [self = shared_from_this()](beast::error_code ec,
                                                                              tcp::socket socket) {
        if (ec == net::error::operation_aborted || !self->acceptor_.is_open()) return;
        if (ec) {
            // E.g. out of file descriptors: serve the open connections, try again shortly.
            spdlog::warn("accept: {}", ec.message());
            self->backoff_.expires_after(std::chrono::milliseconds(50));
            self->backoff_.async_wait([self](const beast::error_code&) { self->accept(); });
            return;
        }
        std::make_shared<HttpSession>(std::move(socket), self->services_)->run();
        self->accept();
    });
}

}  // namespace gcor::server
