#pragma once
// One WebSocket connection: reads requests, dispatches them, and writes its outgoing queue
// (net/outgoing_queue.hpp: its bounds and its slow readers) one message at a time.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/container/flat_set.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "accounts/accounts.hpp"
#include "net/message_rate.hpp"
#include "net/outgoing_queue.hpp"
#include "net/peer.hpp"
#include "services.hpp"

namespace gcor::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
class Table;

class WsSession : public Peer, public std::enable_shared_from_this<WsSession> {
  public:
    // The connection's strand as its own type, not type-erased: every pending operation of the
    // socket and of Beast holds copies of the executor.
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    using Socket = boost::asio::basic_stream_socket<boost::asio::ip::tcp, Strand>;

    WsSession(boost::asio::ip::tcp::socket&& socket, Services& services, ConnectionCount slot);
    ~WsSession() override;

    // `early_bytes`: what the client sent right behind its upgrade request (its first frames).
    void run(beast::http::request<beast::http::string_body> upgrade, std::string early_bytes);
    void send(Message message) override;
    void send_reply(Message message, const protocol::Json& id) override;
    // Server shutdown: finish the queued writes, then close with 1001 (going away).
    void go_away();
    // Logout: a connection that said hello with the session's token finishes its queued writes
    // and closes with 1008 (policy violation), reason "logged out".
    void end_session(std::uint64_t session_key) override;
    // The server's keep-alive sweep (thread-safe): a connection silent for half the idle timeout
    // is pinged; one silent for all of it (gone without a close) is dropped.
    void keep_alive();

  private:
    void on_accept(beast::error_code ec);
    void read();
    void on_read(beast::error_code ec, std::size_t bytes);
    // The message was handled: its storage goes back to the thread's for the next message read.
    void give_back_storage();
    // What the write queue did with a message: a write begun, or the connection dropped.
    void pushed(OutgoingQueue::Pushed pushed);
    void write();
    void on_write(beast::error_code ec, std::size_t bytes);
    void close(websocket::close_code code, const char* reason);
    void close_when_written(websocket::close_code code, const char* reason);
    // Closes the socket without a closing handshake, for a peer that cannot take part in one.
    void drop();
    void check_silence();

    void handle(std::string_view text);
    // Answers a parsed request, or forwards it to where it is answered. A listing's store read
    // may throw StorageFailure.
    void dispatch(protocol::Request& request, std::chrono::steady_clock::time_point arrived);
    // `table`: the table the request named (docs/protocol.md, "Errors"), or empty.
    void reply_error(protocol::ErrorCode code, std::string_view message, const protocol::Json& id,
                     std::string_view table = {});
    // A listing, a log or a chat history costs more of the rate limit; false: refused (answered).
    bool pay_for_listing(const protocol::Json& id);
    void say_hello(protocol::requests::Hello hello);
    // The hello being answered is answered: the next one held, if any, is answered now.
    void hello_answered();
    void welcome(const Session& session, std::vector<std::uint64_t> muted,
                 const protocol::Json& id);
    void mute(std::uint64_t other, bool muting, const protocol::Json& id);

    // Every idle connection holds one of these, so the members are chosen and ordered for size
    // (a string rather than a flat_buffer, a flat_set rather than a set, the flags together).

    // A plain socket: the WebSocket's own timeouts replace tcp_stream's, whose timers and layer in
    // every pending read cost memory on each connection. No permessage-deflate: never enabled.
    websocket::stream<Socket, false> ws_;
    Services& services_;
    ConnectionCount slot_;
    std::string message_;  // the message being read; empty between messages
    OutgoingQueue queue_;
    // Set when the connection is to close once the queued writes are done (shutdown, logout).
    const char* close_after_writes_ = nullptr;
    websocket::close_code close_after_writes_code_ = websocket::close_code::normal;
    bool closing_ = false;
    bool pinging_ = false;
    bool reading_chunk_ = false;  // the pending read fills kReadChunk bytes at message_'s end
    bool greeting_ = false;       // a hello is being answered (on the blocking pool)
    std::chrono::steady_clock::time_point heard_;  // the last frame read, control frames included
    MessageRate rate_;
    std::optional<User> user_;
    // Hellos sent while another was being answered, answered in order after it (a client may
    // pipeline a hello with a bad token and one with a good one); a few at most.
    static constexpr std::size_t kMaxHeldHellos = 4;
    std::vector<protocol::requests::Hello> held_hellos_;
    std::uint64_t session_key_ = 0;                   // of the token the client said hello with
    boost::container::flat_set<std::string> tables_;  // followed, for resending after lag
};

}  // namespace gcor::server
