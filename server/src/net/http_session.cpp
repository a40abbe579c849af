#include "net/http_session.hpp"

#include <spdlog/spdlog.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <array>
#include <boost/asio/strand.hpp>
#include <boost/beast/websocket.hpp>
#include <cctype>
#include <chrono>

#include "gcor/protocol/view_json.hpp"
#include "net/api.hpp"
#include "net/http_response.hpp"
#include "net/ws_session.hpp"

namespace gcor::server {
namespace {

// A request's header must arrive within this time of the connection or of the last reply: a peer
// that opens connections and stays silent holds each only briefly.
constexpr auto kHeaderTimeout = std::chrono::seconds(10);
constexpr auto kBodyTimeout = std::chrono::seconds(30);
constexpr std::uint64_t kMaxRequestBody = 64 * 1024;
// The header and a chunked body's trailers share this budget (431 beyond it); the read buffer's
// size enforces it, as Beast's parser bounds the header alone.
constexpr std::size_t kMaxHeaderBytes = 16 * 1024;
// Room for the body's framing and trailers when the header used most of the budget.
constexpr std::size_t kMinBodyRoom = 1024;
constexpr std::size_t kMaxTargetBytes = 4 * 1024;  // 414 beyond it
constexpr std::size_t kMaxFields = 100;            // 431 beyond it
// After a reply that closes the connection, what the peer still sends is dropped for this long.
constexpr auto kLingerTimeout = std::chrono::seconds(2);
constexpr std::size_t kMaxLingerBytes = 256 * 1024;
// Connections waiting for a request closed when accept runs out of file descriptors, at a time.
constexpr int kEvictedPerFailure = 8;

// If-None-Match names the ETag (or is "*"): RFC 9110, 13.1.2, with weak comparison.
bool etag_matches(std::string_view if_none_match, std::string_view etag) {
    while (!if_none_match.empty()) {
        const auto comma = if_none_match.find(',');
        std::string_view tag = if_none_match.substr(0, comma);
        if_none_match.remove_prefix(comma == std::string_view::npos ? if_none_match.size()
                                                                    : comma + 1);
        while (!tag.empty() && tag.front() == ' ')
            tag.remove_prefix(1);
        while (!tag.empty() && tag.back() == ' ')
            tag.remove_suffix(1);
        if (tag.starts_with("W/")) tag.remove_prefix(2);
        if (tag == "*" || tag == etag) return true;
    }
    return false;
}

// A request target that names a file below the web root: no "..", no backslash, no NUL.
bool safe_path(std::string_view path) {
    return !path.empty() && path[0] == '/' && path.find("..") == std::string_view::npos &&
           path.find('\\') == std::string_view::npos && path.find('\0') == std::string_view::npos;
}

// RFC 6455: the key is 16 random bytes in base64 (24 characters, the last two "==").
bool valid_websocket_key(std::string_view key) {
    if (key.size() != 24 || key.substr(22) != "==") return false;
    return std::all_of(key.begin(), key.begin() + 22, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/';
    });
}

// A whole reply that closes the connection, written before any request was read.
std::string canned_reply(std::string_view status, std::string_view body) {
    return "HTTP/1.1 " + std::string(status) +
           "\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + std::string(body);
}

// The header's field count (the parser bounds their bytes, not their number).
std::size_t field_count(const http::fields& fields) {
    return static_cast<std::size_t>(std::distance(fields.begin(), fields.end()));
}

}  // namespace

HttpSession::HttpSession(tcp::socket&& socket, Services& services, ConnectionCount slot,
                         bool health_only)
    : Unproven(&HttpSession::close_for_room, &HttpSession::has_unread_bytes),
      stream_(std::move(socket)),
      descriptor_(stream_.socket().native_handle()),
      buffer_(kMaxHeaderBytes),
      services_(services),
      slot_(std::move(slot)),
      health_only_(health_only) {
    beast::error_code ec;
    // Small messages go out at once (a patch and its ack would otherwise wait on Nagle).
    stream_.socket().set_option(tcp::no_delay(true), ec);
    // --send-buffer-bytes: a send buffer of a fixed size instead of the system's, which grows.
    // The WebSocket session keeps this socket, so the setting holds for its messages too.
    if (const int bytes = services_.config.send_buffer_bytes; bytes > 0)
        stream_.socket().set_option(net::socket_base::send_buffer_size(bytes), ec);
}

HttpSession::~HttpSession() {
    // Off the limiter's list and its place back in one step (after an upgrade the WebSocket holds
    // the place, and the connection was taken off the list when its request was read).
    slot_.release(this);
}

void HttpSession::close_for_room(Unproven& unproven) {
    auto& session = static_cast<HttpSession&>(unproven);
    // None when the session is being destroyed (it waits for the limiter's lock to give its place
    // back): nothing to close then.
    auto self = session.weak_from_this().lock();
    if (!self) return;
    // The only reference goes into the handler: the session is never destroyed here, under the
    // limiter's lock, which its destructor takes.
    auto executor = self->stream_.get_executor();
    net::post(executor, [self = std::move(self)] {
        beast::error_code ignored;
        self->stream_.socket().close(ignored);  // the pending read ends, and the session with it
    });
}

bool HttpSession::has_unread_bytes(const Unproven& unproven) {
    int unread = 0;
    const int descriptor = static_cast<const HttpSession&>(unproven).descriptor_;
    return ::ioctl(descriptor, FIONREAD, &unread) == 0 && unread > 0;
}

void HttpSession::run() {
    net::dispatch(stream_.get_executor(),
                  beast::bind_front_handler(&HttpSession::read, shared_from_this()));
}

template <class Work>
void HttpSession::fenced(const char* what, Work&& work) {
    try {
        work();
    } catch (const std::exception& error) {
        services_.metrics.handler_failures.fetch_add(1, std::memory_order_relaxed);
        spdlog::error("{} from {}: {}; closing the connection", what,
                      slot_ ? slot_.address() : "an upgraded connection", error.what());
        beast::error_code ignored;
        stream_.socket().close(ignored);
    }
}

void HttpSession::read() {
    // Waiting for a request: the connection may be closed to make room.
    services_.limiter.list(*this);
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxRequestBody);
    buffer_.max_size(kMaxHeaderBytes);  // what a pipelined request left is at most that much
    stream_.expires_after(kHeaderTimeout);
    http::async_read_header(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&HttpSession::on_header, shared_from_this()));
}

void HttpSession::on_header(beast::error_code ec, std::size_t bytes) {
    fenced("request header", [&] {
        if (ec == http::error::end_of_stream) {
            stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        if (ec == beast::error::timeout || ec == net::error::operation_aborted ||
            ec == net::error::connection_reset || ec == net::error::eof)
            return;
        if (ec) return refuse_unread(ec);
        const auto& header = parser_->get();
        if (header.target().size() > kMaxTargetBytes)
            return send_text(http::status::uri_too_long, "request target too long\n",
                             header.version(), false);
        if (field_count(header) > kMaxFields)
            return send_text(http::status::request_header_fields_too_large,
                             "too many header fields\n", header.version(), false);
        if (parser_->is_done()) return on_read({}, 0);
        // The trailers get what the header left of the budget, and at least kMinBodyRoom.
        buffer_.max_size(std::max({buffer_.size(), kMinBodyRoom, kMaxHeaderBytes - bytes}));
        stream_.expires_after(kBodyTimeout);
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
    });
}

void HttpSession::refuse_unread(beast::error_code ec) {
    const bool too_large = ec == http::error::header_limit || ec == http::error::buffer_overflow;
    if (ec == http::error::body_limit)
        return send_text(http::status::payload_too_large, "request body too large\n", 11, false);
    if (!too_large) return send_text(http::status::bad_request, "malformed request\n", 11, false);
    // The parser gives the request its target once the request line is complete: without one,
    // the request line itself was too long.
    if (parser_->get().target().empty())
        return send_text(http::status::uri_too_long, "request target too long\n", 11, false);
    send_text(http::status::request_header_fields_too_large, "request header too large\n", 11,
              false);
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
    fenced("request", [&] {
        if (ec == beast::error::timeout || ec == net::error::operation_aborted ||
            ec == net::error::connection_reset || ec == net::error::eof ||
            ec == http::error::end_of_stream || ec == http::error::partial_message)
            return;
        if (ec) return refuse_unread(ec);
        // A whole request to answer: off the list, unless it was closed to make room meanwhile
        // (the close is on its way).
        if (!services_.limiter.unlist(*this)) return;
        buffer_.max_size(kMaxHeaderBytes);
        http::request<http::string_body> request = parser_->release();
        if (health_only_) return answer_when_full(std::move(request));
        if (beast::websocket::is_upgrade(request)) return upgrade(std::move(request));
        if (is_api_target(request.target())) return answer_api(std::move(request));
        http::message_generator response = respond(std::move(request));
        const bool keep_alive = response.keep_alive();
        send(std::move(response), keep_alive);
    });
}

void HttpSession::answer_when_full(http::request<http::string_body>&& request) {
    std::string_view path = request.target();
    path = path.substr(0, path.find('?'));
    if ((path == "/healthz" || path == "/metrics") && !beast::websocket::is_upgrade(request)) {
        request.keep_alive(false);  // the reserve's place goes back once the answer is out
        return send(respond(std::move(request)), false);
    }
    services_.metrics.count_error(protocol::ErrorCode::too_many_connections);
    send_text(http::status::service_unavailable, "the server is full\n", request.version(), false);
}

void HttpSession::answer_api(http::request<http::string_body>&& request) {
    // The API reads and writes the store, and two of its requests hash a password: answered off
    // the I/O threads, password work on a pool of its own once the attempt is admitted.
    std::shared_ptr<PasswordAttempts::Ticket> ticket;
    if (hashes_password(request.target())) {
        auto admitted = admit_password_attempt(services_, request, slot_.address());
        if (auto* refused = std::get_if<http::response<http::string_body>>(&admitted)) {
            const bool keep_alive = refused->keep_alive();
            return send(http::message_generator(std::move(*refused)), keep_alive);
        }
        ticket = std::make_shared<PasswordAttempts::Ticket>(
            std::move(std::get<PasswordAttempts::Ticket>(admitted)));
    }
    net::post(
        ticket ? services_.hashing : services_.blocking,
        [self = shared_from_this(), request = std::move(request), ticket]() mutable {
            std::shared_ptr<http::response<http::string_body>> response;
            try {
                response = std::make_shared<http::response<http::string_body>>(
                    handle_api(self->services_, request));
                ticket.reset();  // the next attempt may be admitted
            } catch (const std::exception& error) {
                self->services_.metrics.handler_failures.fetch_add(1);
                spdlog::error("{} {}: {}", request.method_string(), request.target(), error.what());
            }
            net::post(self->stream_.get_executor(), [self, response] {
                if (!response)
                    return self->send_text(http::status::internal_server_error,
                                           "the server failed to handle this request\n", 11, false);
                const bool keep_alive = response->keep_alive();
                self->send(http::message_generator(std::move(*response)), keep_alive);
            });
        });
}

void HttpSession::upgrade(http::request<http::string_body>&& request) {
    if (request.target() != "/ws")
        return send_text(http::status::not_found, "WebSocket connections go to /ws\n",
                         request.version(), false);
    if (services_.sessions.closed())
        return send_text(http::status::service_unavailable, "the server is shutting down\n",
                         request.version(), false);
    if (!valid_websocket_key(request[http::field::sec_websocket_key]))
        return send_text(http::status::bad_request, "bad Sec-WebSocket-Key\n", request.version(),
                         false);
    // Frames the client sent right behind its request are the WebSocket's first bytes.
    const auto early = buffer_.cdata();
    std::string early_bytes(static_cast<const char*>(early.data()), early.size());
    std::make_shared<WsSession>(stream_.release_socket(), services_, std::move(slot_))
        ->run(std::move(request), std::move(early_bytes));
}

void HttpSession::send(http::message_generator&& response, bool keep_alive) {
    beast::async_write(
        stream_, std::move(response),
        beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::send_text(http::status status, std::string_view text, unsigned version,
                            bool keep_alive) {
    send(http::message_generator(
             string_response(status, version, keep_alive, "text/plain", std::string(text))),
         keep_alive);
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
    if (ec) return;
    if (keep_alive) return read();
    // Nothing more to answer: the connection may be closed to make room.
    services_.limiter.list(*this);
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    // Closing with unread bytes would reset the connection, and the peer could lose the reply
    // before reading it: what it still sends is read and dropped until it closes too.
    stream_.expires_after(kLingerTimeout);
    drain(std::make_shared<std::array<char, 4096>>(), 0);
}

void HttpSession::drain(std::shared_ptr<std::array<char, 4096>> scratch, std::size_t drained) {
    auto buffer = net::buffer(*scratch);
    stream_.async_read_some(buffer, [self = shared_from_this(), scratch = std::move(scratch),
                                     drained](beast::error_code ec, std::size_t bytes) mutable {
        if (!ec && drained + bytes < kMaxLingerBytes)
            self->drain(std::move(scratch), drained + bytes);
    });
}

http::message_generator HttpSession::respond(http::request<http::string_body>&& request) {
    auto text = [&](http::status status, std::string body, std::string_view type) {
        if (request.method() == http::verb::head) body.clear();
        return string_response(status, request.version(), request.keep_alive(), type,
                               std::move(body));
    };
    if (request.method() != http::verb::get && request.method() != http::verb::head)
        return text(http::status::method_not_allowed, "only GET and HEAD\n", "text/plain");
    std::string_view path = request.target();
    path = path.substr(0, path.find('?'));
    if (path == "/healthz") {
        // 503 while the store cannot write, so that a load balancer sends players elsewhere.
        const auto storage = services_.metrics.storage_health();
        if (!storage.failing)
            return text(http::status::ok, R"({"status":"ok"})", "application/json");
        return text(http::status::service_unavailable,
                    protocol::Json{{"status", "storage_failing"},
                                   {"since", storage.since_ms},
                                   {"failures", storage.failures},
                                   {"error", storage.error}}
                        .dump(-1, ' ', false, protocol::Json::error_handler_t::replace),
                    "application/json");
    }
    if (path == "/metrics")
        return text(http::status::ok, services_.metrics.render(), "text/plain; version=0.0.4");
    if (path == "/api/catalogue") {
        // The same for the process's life: compressed once, on its first request, and
        // revalidated by its ETag like the client's files (every page loads it first).
        static const StaticFiles::File kCatalogue =
            StaticFiles::prepare("application/json", protocol::catalogue_json().dump());
        return file_response(request, {&kCatalogue, false});
    }
    if (!safe_path(path)) return text(http::status::bad_request, "bad path\n", "text/plain");
    const auto found = services_.web.find(path);
    if (!found) return text(http::status::not_found, "not found\n", "text/plain");
    return file_response(request, *found);
}

http::message_generator HttpSession::file_response(const http::request<http::string_body>& request,
                                                   const StaticFiles::Found& found) {
    const StaticFiles::File& file = *found.file;
    const auto head = [&](auto& response) {
        response.set(http::field::server, "cor-server");
        response.set(http::field::etag, file.etag);
        response.set(http::field::cache_control,
                     found.immutable ? "public, max-age=31536000, immutable" : "no-cache");
        response.set(http::field::vary, "Accept-Encoding");
        set_security_headers(response);
        response.keep_alive(request.keep_alive());
    };
    if (etag_matches(request[http::field::if_none_match], file.etag)) {
        http::response<http::empty_body> response{http::status::not_modified, request.version()};
        head(response);
        return response;
    }
    const std::string_view encoding = accepted_encoding(request[http::field::accept_encoding],
                                                        !file.brotli.empty(), !file.gzip.empty());
    const std::string& bytes = encoding == "br"     ? file.brotli
                               : encoding == "gzip" ? file.gzip
                                                    : file.plain;
    // The bytes are StaticFiles', which outlive every connection: sent from where they are.
    http::response<http::span_body<const char>> response{
        std::piecewise_construct, std::make_tuple(bytes.data(), bytes.size()),
        std::make_tuple(http::status::ok, request.version())};
    head(response);
    response.set(http::field::content_type, file.type);
    if (!encoding.empty()) response.set(http::field::content_encoding, encoding);
    response.content_length(bytes.size());
    if (request.method() == http::verb::head) {
        http::response<http::empty_body> headers{response.base()};
        headers.content_length(bytes.size());
        return headers;
    }
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
        if (ec) return self->back_off(ec);
        const auto endpoint = socket.remote_endpoint(ec);
        const std::string address = ec ? "unknown" : endpoint.address().to_string();
        ConnectionLimiter::Admission admission;
        if (auto slot = self->services_.limiter.acquire(address, admission)) {
            if (admission.evicted) self->log_eviction(admission);
            std::make_shared<HttpSession>(std::move(socket), self->services_, std::move(slot),
                                          admission.health_only)
                ->run();
        } else {
            self->refuse(socket, admission.refusal);
        }
        self->accept();
    });
}

std::optional<std::uint64_t> Listener::Throttled::pass() {
    const auto now = std::chrono::steady_clock::now();
    if (now < next) {
        ++held_back;
        return std::nullopt;
    }
    next = now + std::chrono::seconds(10);
    return std::exchange(held_back, 0);
}

void Listener::back_off(const beast::error_code& ec) {
    // Out of file descriptors (the database, the files served and the webhooks took more than
    // their reserve): the oldest connections waiting for a request give theirs to those waiting
    // in the backlog, a few at a time, so that the backlog keeps moving. Either way the open
    // connections are served meanwhile, and accept is tried again shortly, never in a busy loop.
    const bool out_of_descriptors = ec == boost::system::errc::too_many_files_open ||
                                    ec == boost::system::errc::too_many_files_open_in_system;
    const int closed = out_of_descriptors ? services_.limiter.evict_oldest(kEvictedPerFailure) : 0;
    services_.metrics.connections_evicted.fetch_add(static_cast<std::uint64_t>(closed),
                                                    std::memory_order_relaxed);
    if (const auto held_back = accept_warning_.pass())
        spdlog::warn("accept: {}{} ({} more such failures since the last warning)", ec.message(),
                     closed > 0 ? fmt::format("; closed the {} oldest connections waiting for a "
                                              "request",
                                              closed)
                                : std::string(),
                     *held_back);
    backoff_.expires_after(closed > 0 ? std::chrono::milliseconds(2)
                                      : std::chrono::milliseconds(50));
    backoff_.async_wait([self = shared_from_this()](const beast::error_code& wait_ec) {
        if (wait_ec != net::error::operation_aborted) self->accept();
    });
}

void Listener::log_eviction(const ConnectionLimiter::Admission& admission) {
    services_.metrics.connections_evicted.fetch_add(1, std::memory_order_relaxed);
    if (const auto held_back = evicting_warning_.pass())
        spdlog::warn(
            "the server is full ({} connections): closed the oldest connection waiting for a "
            "request, after {} ms, to let a new one in ({} more since the last warning)",
            services_.limiter.total(),
            std::chrono::duration_cast<std::chrono::milliseconds>(admission.evicted_waited).count(),
            *held_back);
}

void Listener::refuse(tcp::socket& socket, ConnectionLimiter::Refusal refusal) {
    services_.metrics.count_error(protocol::ErrorCode::too_many_connections);
    const bool server_full = refusal == ConnectionLimiter::Refusal::server_full;
    if (server_full) {
        if (const auto held_back = full_warning_.pass())
            spdlog::warn(
                "refusing a connection: the server is full ({} connections, and {} more for "
                "/healthz and /metrics) and none can be closed ({} more refused since the last "
                "warning)",
                services_.limiter.total(), ConnectionLimiter::kHealthReserve, *held_back);
    }
    // A reply into the new socket's empty send buffer never blocks; whether it arrives or not,
    // the connection is closed at once.
    static const std::string kAddressFull =
        canned_reply("429 Too Many Requests", "too many connections from this address\n");
    static const std::string kServerFull =
        canned_reply("503 Service Unavailable", "the server is full\n");
    beast::error_code ignored;
    socket.non_blocking(true, ignored);
    socket.write_some(net::buffer(server_full ? kServerFull : kAddressFull), ignored);
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
}

}  // namespace gcor::server
