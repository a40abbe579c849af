#include "notify/webhooks.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/ip/address_v6.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <charconv>

namespace gcor::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t kMaxUrlLength = 2048;
// first_retry << 16 is over 18 hours for a one-second start: enough, and no overflow.
constexpr int kMaxDoublings = 16;

// Whether an address is on the public Internet: not loopback, private, link-local, shared
// (carrier-grade NAT), multicast or unspecified. Webhooks go only there unless allowed, so that a
// user cannot make the server call the services of its own network.
bool public_address(const net::ip::address& address) {
    if (address.is_v6()) {
        const net::ip::address_v6 v6 = address.to_v6();
        if (v6.is_v4_mapped())
            return public_address(net::ip::make_address_v4(net::ip::v4_mapped, v6));
        const auto bytes = v6.to_bytes();
        const bool unique_local = (bytes[0] & 0xFE) == 0xFC;  // fc00::/7
        return !(v6.is_loopback() || v6.is_unspecified() || v6.is_link_local() ||
                 v6.is_site_local() || v6.is_multicast() || unique_local);
    }
    const std::uint32_t v4 = address.to_v4().to_uint();
    auto in = [v4](std::uint32_t network, int bits) {
        return (v4 >> (32 - bits)) == (network >> (32 - bits));
    };
    return !(in(0x00000000, 8) || in(0x0A000000, 8) || in(0x64400000, 10) || in(0x7F000000, 8) ||
             in(0xA9FE0000, 16) || in(0xAC100000, 12) || in(0xC0A80000, 16) || in(0xE0000000, 4) ||
             in(0xF0000000, 4));
}

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_';
}

bool ipv6_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' ||
           c == '.';
}

std::string host_header(const ParsedUrl& url) {
    std::string host = url.host.find(':') == std::string::npos ? url.host : "[" + url.host + "]";
    if (url.port != 80) host += ":" + std::to_string(url.port);
    return host;
}

}  // namespace

// One POST and its retries. Its handlers hold it alive, all on its own strand.
class Webhooks::Delivery : public std::enable_shared_from_this<Delivery> {
  public:
    Delivery(net::io_context& io, std::shared_ptr<Shared> shared, ParsedUrl url, std::string body)
        : shared_(std::move(shared)),
          url_(std::move(url)),
          strand_(net::make_strand(io)),
          resolver_(strand_),
          stream_(strand_),
          retry_timer_(strand_) {
        request_.method(http::verb::post);
        request_.target(url_.target);
        request_.set(http::field::host, host_header(url_));
        request_.set(http::field::user_agent, "cor-server");
        request_.set(http::field::content_type, "application/json");
        request_.keep_alive(false);
        request_.body() = std::move(body);
        request_.prepare_payload();
    }
    ~Delivery() { --shared_->in_flight; }

    void start() {
        net::post(strand_, beast::bind_front_handler(&Delivery::attempt, shared_from_this()));
    }

  private:
    void attempt() {
        ++attempts_;
        // The resolver cannot be given a timeout, so the whole attempt shares one deadline.
        deadline_ = std::chrono::steady_clock::now() + shared_->settings.timeout;
        resolver_.async_resolve(
            url_.host, std::to_string(url_.port),
            beast::bind_front_handler(&Delivery::on_resolve, shared_from_this()));
    }

    void on_resolve(beast::error_code ec, const tcp::resolver::results_type& endpoints) {
        if (ec) return fail(ec.message());
        if (std::chrono::steady_clock::now() >= deadline_) return fail("timed out resolving");
        std::vector<tcp::endpoint> allowed;
        for (const auto& entry : endpoints)
            if (shared_->settings.allow_private || public_address(entry.endpoint().address()))
                allowed.push_back(entry.endpoint());
        if (allowed.empty()) {
            // Not worth retrying: the address will not become public.
            ++shared_->failed;
            spdlog::warn("webhook to {} refused: it is not a public address", url_.host);
            return;
        }
        stream_.expires_at(deadline_);
        stream_.async_connect(allowed,
                              beast::bind_front_handler(&Delivery::on_connect, shared_from_this()));
    }

    void on_connect(beast::error_code ec, const tcp::endpoint&) {
        if (ec) return fail(ec.message());
        http::async_write(stream_, request_,
                          beast::bind_front_handler(&Delivery::on_write, shared_from_this()));
    }

    void on_write(beast::error_code ec, std::size_t) {
        if (ec) return fail(ec.message());
        // The status is all we need: reading only the header leaves a large body unread.
        parser_.emplace();
        http::async_read_header(stream_, buffer_, *parser_,
                                beast::bind_front_handler(&Delivery::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec) return fail(ec.message());
        const unsigned status = parser_->get().result_int();
        if (status < 200 || status > 299) return fail("HTTP " + std::to_string(status));
        close();
        ++shared_->delivered;
        spdlog::debug("webhook to {} delivered", url_.host);
    }

    void fail(const std::string& why) {
        close();
        const WebhookSettings& settings = shared_->settings;
        if (attempts_ >= settings.attempts) {
            ++shared_->failed;
            spdlog::warn("webhook to {} failed after {} attempts: {}", url_.host, attempts_, why);
            return;
        }
        spdlog::debug("webhook to {}, attempt {}: {}", url_.host, attempts_, why);
        retry_timer_.expires_after(settings.first_retry *
                                   (1 << std::min(attempts_ - 1, kMaxDoublings)));
        retry_timer_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
            if (!wait_ec) self->attempt();
        });
    }

    void close() {
        beast::error_code ec;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
        stream_.close();
        buffer_.clear();
    }

    std::shared_ptr<Shared> shared_;
    ParsedUrl url_;
    net::strand<net::io_context::executor_type> strand_;
    tcp::resolver resolver_;
    beast::tcp_stream stream_;
    net::steady_timer retry_timer_;
    http::request<http::string_body> request_;
    beast::flat_buffer buffer_;
    std::optional<http::response_parser<http::empty_body>> parser_;
    int attempts_ = 0;
    std::chrono::steady_clock::time_point deadline_;
};

Webhooks::Webhooks(net::io_context& io, WebhookSettings settings)
    : io_(io), shared_(std::make_shared<Shared>()) {
    settings.attempts = std::max(settings.attempts, 1);
    shared_->settings = settings;
}

void Webhooks::post(const std::string& url, std::string json_body) {
    auto parsed = parse_webhook_url(url);
    if (!parsed) {
        ++shared_->dropped;
        // Not even part of the URL: a malformed one may still hold a secret.
        spdlog::debug("webhook dropped: unsupported URL");
        return;
    }
    if (shared_->in_flight.fetch_add(1) >= shared_->settings.max_in_flight) {
        --shared_->in_flight;
        ++shared_->dropped;
        spdlog::warn("webhook to {} dropped: {} deliveries in flight already", parsed->host,
                     shared_->settings.max_in_flight);
        return;
    }
    std::make_shared<Delivery>(io_, shared_, std::move(*parsed), std::move(json_body))->start();
}

std::optional<ParsedUrl> Webhooks::parse_webhook_url(std::string_view url) {
    constexpr std::string_view kScheme = "http://";
    if (url.size() > kMaxUrlLength || url.size() < kScheme.size() ||
        !beast::iequals(url.substr(0, kScheme.size()), kScheme))
        return std::nullopt;
    // Printable ASCII only: no spaces, no control characters (header injection), no raw UTF-8.
    if (!std::all_of(url.begin(), url.end(), [](char c) {
            const auto byte = static_cast<unsigned char>(c);
            return byte > 0x20 && byte < 0x7f;
        }))
        return std::nullopt;

    std::string_view rest = url.substr(kScheme.size());
    rest = rest.substr(0, rest.find('#'));  // the fragment is the client's, never sent
    const auto authority_end = rest.find_first_of("/?");
    const std::string_view authority = rest.substr(0, authority_end);
    const std::string_view target =
        authority_end == std::string_view::npos ? "" : rest.substr(authority_end);

    ParsedUrl parsed;
    std::string_view host;
    std::string_view after_host;
    if (authority.starts_with('[')) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        host = authority.substr(1, close - 1);
        after_host = authority.substr(close + 1);
        boost::system::error_code ec;
        if (host.empty() || !std::all_of(host.begin(), host.end(), ipv6_char)) return std::nullopt;
        net::ip::make_address_v6(host, ec);
        if (ec) return std::nullopt;
    } else {
        // '@' is not a name character, so user info ("user:password@host") is refused here.
        const auto colon = authority.find(':');
        host = authority.substr(0, colon);
        after_host = colon == std::string_view::npos ? "" : authority.substr(colon);
        if (host.empty() || !std::all_of(host.begin(), host.end(), name_char)) return std::nullopt;
    }
    if (!after_host.empty()) {
        const std::string_view digits = after_host.substr(1);
        unsigned port = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), port);
        if (after_host[0] != ':' || digits.empty() || digits.size() > 5 || error != std::errc() ||
            end != digits.data() + digits.size() || port == 0 || port > 65535)
            return std::nullopt;
        parsed.port = static_cast<std::uint16_t>(port);
    }
    parsed.host = host;
    if (!target.empty())
        parsed.target = target.starts_with('?') ? "/" + std::string(target) : target;
    return parsed;
}

}  // namespace gcor::server
