#pragma once
// Calls a user's webhook when it becomes their turn: POST of a small JSON body, in the background.
//
// Only plain http://host[:port][/path] URLs are supported: https would need OpenSSL, which the
// server does not link. A 2xx answer is a delivery; a connection error, timeout or any other
// status (redirects included) is retried after first_retry, then twice as long each time, up to
// `attempts` tries in all. Logs name the host only, never the path or query, which may hold a
// secret.
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace gcor::server {

struct WebhookSettings {
    // For one attempt: resolve, connect, send and read the response's header.
    std::chrono::milliseconds timeout{5000};
    int attempts = 3;
    // Doubles after each further failure.
    std::chrono::milliseconds first_retry{1000};
    // Deliveries posted beyond this many unfinished ones are dropped: memory stays bounded when a
    // popular endpoint hangs.
    std::size_t max_in_flight = 256;
    // Whether webhooks may call loopback and private addresses (tests, trusted networks).
    bool allow_private = false;
};

struct ParsedUrl {
    std::string host;  // a name, an IPv4 address, or an IPv6 address without its brackets
    std::uint16_t port = 80;
    std::string target = "/";  // path and query, without the fragment
};

class Webhooks {
  public:
    explicit Webhooks(boost::asio::io_context& io, WebhookSettings settings = {});

    // Thread-safe and never blocks: the delivery runs on a strand of its own of `io`. A URL that
    // parse_webhook_url refuses is dropped.
    void post(const std::string& url, std::string json_body);

    // Whether the server can call `url`: http:// only, a host of letters, digits, '-', '.' and
    // '_' (or a bracketed IPv6 address), no user info, a port in 1..65535, printable ASCII only
    // (so no spaces or control characters), at most 2048 characters.
    static std::optional<ParsedUrl> parse_webhook_url(std::string_view url);

    // Deliveries answered with 2xx, given up after `attempts`, and never attempted (bad URL or
    // too many in flight); in_flight are the posted ones not finished yet.
    std::uint64_t delivered() const { return shared_->delivered; }
    std::uint64_t failed() const { return shared_->failed; }
    std::uint64_t dropped() const { return shared_->dropped; }
    std::size_t in_flight() const { return shared_->in_flight; }

  private:
    class Delivery;
    // Held by the deliveries too, so that one still queued in the io_context may outlive this.
    struct Shared {
        WebhookSettings settings;
        std::atomic<std::uint64_t> delivered{0};
        std::atomic<std::uint64_t> failed{0};
        std::atomic<std::uint64_t> dropped{0};
        std::atomic<std::size_t> in_flight{0};
    };

    boost::asio::io_context& io_;
    std::shared_ptr<Shared> shared_;
};

}  // namespace gcor::server
