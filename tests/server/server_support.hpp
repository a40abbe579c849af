#pragma once
// Server tests talk to the real cor-server process over loopback WebSockets. The WebSocket client
// keeps Beast in server_support.cpp: every test file includes this header, and Beast's websocket
// headers would add tens of seconds to the compilation of each.
#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "gcor/protocol/game_json.hpp"
#include "gcor/support/child_process.hpp"

namespace gcor::testing {

using protocol::Json;
using namespace std::chrono_literals;

// Member order means nothing in JSON; patched documents add members at the end.
inline nlohmann::json plain(const Json& json) {
    return nlohmann::json::parse(json.dump());
}

// A message's "type", or "" when it has none.
inline std::string type_of(const Json& message) {
    if (!message.is_object()) return {};
    const auto it = message.find("type");
    return it != message.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The reply to an applied move: the mover's patch, carrying the move's id (a retry of a move
// already applied gets an "ack" instead).
inline bool acknowledges(const Json& message, const std::string& move_id) {
    return type_of(message) == "patch" && message.contains("move_id") &&
           message["move_id"] == move_id;
}

// cor-server on a free loopback port, stopped (SIGTERM, then SIGKILL) when destroyed.
class ServerProcess {
  public:
    // Bots move at once and tables are dealt from --test-seed 1000 unless `args` say otherwise.
    explicit ServerProcess(std::vector<std::string> args = {});
    ~ServerProcess();
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    std::uint16_t port() const { return port_; }
    bool running();
    // Sends SIGTERM and waits; the exit status (-1 if it had to be killed).
    int stop();
    long resident_kb() const;
    // Kills the process with SIGKILL (no shutdown at all) and waits for it.
    void kill_hard();
    // The folder of this server's files (its database is cor.db there unless `args` named one).
    const std::string& dir() const { return dir_; }
    pid_t pid() const { return process_->pid(); }
    // An HTTP request to the server: status code and body; `token` goes in "Authorization".
    std::pair<int, std::string> http_request(const std::string& method, const std::string& path,
                                             const std::string& body,
                                             const std::string& token) const;
    std::pair<int, std::string> get(const std::string& path, const std::string& token = "") const;
    std::pair<int, std::string> post(const std::string& path, const std::string& body,
                                     const std::string& token = "") const;
    std::pair<int, std::string> remove(const std::string& path, const std::string& token = "",
                                       const std::string& body = "") const;
    std::pair<int, std::string> put(const std::string& path, const std::string& body,
                                    const std::string& token = "") const;

  private:
    std::unique_ptr<support::ChildProcess> process_;
    std::uint16_t port_ = 0;
    std::string dir_;
};

// The value of one line of GET /metrics, e.g. `gcor_errors_total{code="bad_json"}`.
double metric(const ServerProcess& server, const std::string& name);

// A TCP connection to the server from a loopback address of the test's choice, so that one test
// can fill one address's quota and still reach the server from another. Bytes are written as
// given: for requests no well-behaved client would send.
class RawConnection {
  public:
    explicit RawConnection(std::uint16_t port, const char* from = "127.0.0.1");
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    // False when the server closed or reset the connection meanwhile.
    bool send(std::string_view bytes);
    // What arrives until `enough` says so, the peer closes, or `timeout` passes.
    std::string receive(std::chrono::milliseconds timeout,
                        const std::function<bool(const std::string&)>& enough = {});
    // The status code of the reply's status line (0: none arrived).
    int status(std::chrono::milliseconds timeout = 5s);
    bool closed() const { return closed_; }

  private:
    int fd_ = -1;
    std::string received_;
    bool closed_ = false;
};

// A WebSocket client with timeouts; unrelated messages that arrive while waiting are kept.
class Client {
  public:
    // `receive_buffer_bytes` > 0 shrinks the socket's receive buffer (SO_RCVBUF), so that a client
    // that stops reading makes the server's writes wait sooner.
    explicit Client(std::uint16_t port, const std::string& target = "/ws",
                    int receive_buffer_bytes = 0);
    ~Client();

    void send(const Json& message);
    void send_text(const std::string& text);
    // A binary frame (the protocol uses text frames only).
    void send_binary(const std::string& bytes);
    // The next message; nullopt when none arrives in time or the connection closed.
    std::optional<Json> receive(std::chrono::milliseconds timeout = 5s);
    // The first message (kept ones first) satisfying `match`; the others stay kept.
    std::optional<Json> wait_for(const std::function<bool(const Json&)>& match,
                                 std::chrono::milliseconds timeout = 5s);
    // Sends `message` with a fresh id and waits for the reply with that id.
    std::optional<Json> request(Json message, std::chrono::milliseconds timeout = 5s);
    // hello with a guest name; returns the token.
    std::string hello(const std::string& name);
    bool closed() const { return closed_; }
    // The close code the server sent, once closed.
    int close_code() const { return close_code_; }
    std::vector<std::string> received_texts;  // every message text, in order
    // "your_turn" notices arrive between replies; tests that do not look for them skip them.
    bool keep_turn_notices = false;
    std::vector<std::string> sent_texts;  // every text sent, in order

  private:
    struct Connection;  // the io_context and the WebSocket stream

    void read();
    void quick_ack();

    std::unique_ptr<Connection> connection_;
    std::deque<Json> kept_;
    bool closed_ = false;
    int close_code_ = 0;
    int next_id_ = 1;
};

}  // namespace gcor::testing
