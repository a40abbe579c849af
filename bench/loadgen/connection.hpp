#pragma once
// One WebSocket connection of the load generator, and the counters all connections share.
#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>

#include "loadgen/common.hpp"

namespace gcor::loadgen {

struct Shared {
    std::atomic<bool> measuring{false};
    std::atomic<bool> stopping{false};
    std::atomic<std::uint64_t> moves{0};  // completed while measuring
    std::atomic<std::uint64_t> games{0};  // played to the end and checked, from the start
    std::atomic<std::uint64_t> connected{0};
    std::atomic<std::uint64_t> failed_connections{0};
    std::atomic<std::uint64_t> closed{0};
    std::atomic<std::uint64_t> reconnects{0};  // connections closed by a node and opened again
    std::atomic<std::uint64_t> resyncs{0};     // games gone on from snapshots
    std::atomic<Clock::rep> measure_start{0};  // set before `measuring`
};

class Connection {
  public:
    using OnMessage = std::function<void(std::string_view text, Clock::time_point at)>;
    using OnOpen = std::function<void(bool ok)>;
    using OnClose = std::function<void()>;

    Connection(net::io_context& io, Shared& shared) : ws_(io), shared_(shared) {}

    void open(const tcp::endpoint& endpoint, OnOpen on_open, OnMessage on_message) {
        on_message_ = std::move(on_message);
        auto& stream = beast::get_lowest_layer(ws_);
        stream.expires_after(60s);
        stream.async_connect(endpoint, [this, on_open = std::move(on_open)](beast::error_code ec) {
            if (ec) return failed(on_open, ec, "connect");
            beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
            ws_.secure_prng(false);  // masking keys need no secrecy here
            ws_.async_handshake("127.0.0.1", "/ws", [this, on_open](beast::error_code ec2) {
                if (ec2) return failed(on_open, ec2, "handshake");
                beast::get_lowest_layer(ws_).expires_never();
                open_ = true;
                shared_.connected.fetch_add(1, std::memory_order_relaxed);
                read();
                on_open(true);
            });
        });
    }

    void send(std::string text) {
        if (!open_) return;
        queue_.push_back(std::move(text));
        if (!writing_) write();
    }
    bool is_open() const { return open_; }
    // Called when the server closes the connection (not while stopping).
    void on_close(OnClose on_close) { on_close_ = std::move(on_close); }
    std::string error;

  private:
    void failed(const OnOpen& on_open, beast::error_code ec, const char* what) {
        shared_.failed_connections.fetch_add(1, std::memory_order_relaxed);
        error = std::string(what) + ": " + ec.message();
        on_open(false);
    }

    void read() {
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            if (ec) {
                const bool unexpected = open_ && !shared_.stopping;
                open_ = false;
                if (unexpected) {
                    shared_.closed.fetch_add(1, std::memory_order_relaxed);
                    error = "read: " + ec.message();
                    if (on_close_) on_close_();
                }
                return;
            }
            const auto data = buffer_.cdata();
            on_message_(std::string_view(static_cast<const char*>(data.data()), data.size()),
                        Clock::now());
            buffer_.consume(buffer_.size());
            read();
        });
    }

    void write() {
        writing_ = true;
        ws_.async_write(net::buffer(queue_.front()), [this](beast::error_code ec, std::size_t) {
            if (ec) {
                open_ = false;
                writing_ = false;
                return;
            }
            queue_.pop_front();
            if (queue_.empty())
                writing_ = false;
            else
                write();
        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    Shared& shared_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    OnMessage on_message_;
    OnClose on_close_;
    bool writing_ = false;
    bool open_ = false;
};

}  // namespace gcor::loadgen
