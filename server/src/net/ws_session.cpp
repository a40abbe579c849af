#include "net/ws_session.hpp"

#include <spdlog/spdlog.h>

#include <unistd.h>
#include <boost/asio/post.hpp>
#include <cassert>
#include <sstream>
#include <string>
#include <vector>

#include "accounts/accounts.hpp"
#include "chat/chat_limits.hpp"
#include "net/api.hpp"
#include "net/requests.hpp"
#include "notify/notifier.hpp"
#include "tables/lobby.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

// Listings read and render many tables, and a log or a chat history is a store read (a log a
// replay too): each counts as this many messages of the rate limit.
constexpr double kListingCost = 5;
constexpr std::size_t kReadChunk = 256;
// The storage of the messages being read is lent by the I/O thread, for one message at a time:
// it keeps this many pieces (connections on the thread reading a message at once) of up to this
// size (larger ones are freed).
constexpr std::size_t kLentPieces = 16;
constexpr std::size_t kLentPieceMax = 4096;

// This thread's storage to lend, each piece empty.
std::vector<std::string>& storage_to_lend() {
    thread_local std::vector<std::string> pieces;
    return pieces;
}

bool quiet(const beast::error_code& ec) {
    return ec == websocket::error::closed || ec == boost::asio::error::operation_aborted ||
           ec == boost::asio::error::eof || ec == beast::error::timeout ||
           ec == boost::asio::error::connection_reset || ec == boost::asio::error::broken_pipe;
}

// The same connection on the same strand (the acceptor gave each socket a strand of its own), as
// a socket of the concrete type. If that fails the socket is closed, and the handshake fails as
// it does when the client goes away.
WsSession::Socket on_its_strand(boost::asio::ip::tcp::socket&& socket) {
    const auto* strand = socket.get_executor().target<WsSession::Strand>();
    assert(strand && "the Listener makes every socket on a strand");
    WsSession::Socket concrete(*strand);
    beast::error_code ec;
    const auto protocol = socket.local_endpoint(ec).protocol();
    if (ec) return concrete;
    const auto handle = socket.release(ec);
    if (ec) return concrete;
    concrete.assign(protocol, handle, ec);
    if (ec) ::close(handle);
    return concrete;
}

}  // namespace

WsSession::WsSession(boost::asio::ip::tcp::socket&& socket, Services& services,
                     ConnectionCount slot)
    : ws_(on_its_strand(std::move(socket))),
      services_(services),
      slot_(std::move(slot)),
      queue_(services.config, services.metrics),
      heard_(std::chrono::steady_clock::now()),
      rate_(services.config.message_burst, heard_) {
    services_.metrics.connections.fetch_add(1);
    services_.metrics.connections_total.fetch_add(1);
}

WsSession::~WsSession() {
    services_.metrics.connections.fetch_sub(1);
    if (user_) {
        services_.notifier.disconnect(user_->id, this);
        services_.mutes.disconnect(user_->id);
    }
    spdlog::debug("connection from {} closed", slot_.address());
}

void WsSession::run(beast::http::request<beast::http::string_body> upgrade,
                    std::string early_bytes) {
    const Config& config = services_.config;
    // Beast times the opening and closing handshakes only: silence is the keep-alive sweep's
    // (keep_alive), as Beast's idle timer is a wait pending on every idle connection.
    ws_.set_option(websocket::stream_base::timeout{config.handshake_timeout,
                                                   websocket::stream_base::none(), false});
    ws_.control_callback([this](websocket::frame_type, beast::string_view) {
        heard_ = std::chrono::steady_clock::now();  // a pong, a ping or a close: not silent
    });
    ws_.read_message_max(config.max_message_bytes);
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
        response.set(beast::http::field::server, "cor-server");
    }));
    if (early_bytes.empty())
        return ws_.async_accept(
            upgrade, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
    // Beast takes already-read bytes only with the request unparsed: the request is written out
    // again before them (rare: a client that does not wait for the 101).
    std::ostringstream request;
    request << upgrade.base();
    auto bytes = std::make_shared<const std::string>(request.str() + early_bytes);
    ws_.async_accept(boost::asio::buffer(*bytes),
                     [self = shared_from_this(), bytes](beast::error_code ec) {
                         self->on_accept(ec);  // `bytes` lived as long as the handshake read them
                     });
}

void WsSession::on_accept(beast::error_code ec) {
    if (ec)
        return spdlog::debug("websocket handshake from {} failed: {}", slot_.address(),
                             ec.message());
    spdlog::info("connection from {}", slot_.address());
    if (!services_.sessions.add(shared_from_this()))
        go_away();  // the shutdown began during the handshake
    read();
}

// Between messages the read waits with an empty buffer (Beast reads the frame into a buffer of
// its own first), so an idle connection holds no buffer of ours; then the message is read in
// pieces of at most kReadChunk bytes into storage the I/O thread lends (so that reading a
// message allocates nothing), given back once the message is handled.
void WsSession::read() {
    // Not a null pointer, which Beast's UTF-8 check reads through (1.81).
    static char nothing;
    auto into = boost::asio::mutable_buffer(&nothing, 0);
    reading_chunk_ = !ws_.is_message_done();
    if (reading_chunk_) {
        if (auto& pieces = storage_to_lend(); message_.empty() && !pieces.empty()) {
            message_.swap(pieces.back());
            pieces.pop_back();
        }
        const std::size_t had = message_.size();
        message_.resize(had + kReadChunk);
        into = boost::asio::buffer(message_.data() + had, kReadChunk);
    }
    ws_.async_read_some(into, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
}

void WsSession::on_read(beast::error_code ec, std::size_t bytes) {
    heard_ = std::chrono::steady_clock::now();
    if (reading_chunk_) message_.resize(message_.size() - kReadChunk + bytes);
    if (!ec && !ws_.is_message_done()) return read();  // the rest of this message
    if (ec) {
        if (ec == websocket::error::message_too_big)
            spdlog::info("closing {}: message over {} bytes (1009)", slot_.address(),
                         services_.config.max_message_bytes);
        else if (!quiet(ec))
            spdlog::debug("read from {}: {}", slot_.address(), ec.message());
        return;
    }
    try {
        handle(message_);
    } catch (const std::exception& error) {
        // A bug, never the client's input: answer it and keep serving.
        spdlog::error("request from {}: {}", slot_.address(), error.what());
        reply_error(ErrorCode::internal, "the server failed to handle this request", Json());
    }
    give_back_storage();
    if (!closing_) read();
}

void WsSession::give_back_storage() {
    message_.clear();
    auto& pieces = storage_to_lend();
    if (pieces.size() < kLentPieces && message_.capacity() >= kReadChunk &&
        message_.capacity() <= kLentPieceMax) {
        pieces.emplace_back();
        pieces.back().swap(message_);
    }
    // Not `message_ = std::string()`, which keeps the storage (a move from a short string copies).
    message_.shrink_to_fit();
}

// --- Writing ------------------------------------------------------------------------------------

void WsSession::send(Message message) {
    boost::asio::post(ws_.get_executor(),
                      [self = shared_from_this(), message = std::move(message)]() mutable {
                          if (!self->closing_)
                              self->pushed(self->queue_.push_news(std::move(message)));
                      });
}

void WsSession::send_reply(Message message, const Json& id) {
    boost::asio::post(ws_.get_executor(),
                      [self = shared_from_this(), message = std::move(message), id]() mutable {
                          if (!self->closing_)
                              self->pushed(self->queue_.push_reply(std::move(message), id));
                      });
}

void WsSession::pushed(OutgoingQueue::Pushed pushed) {
    switch (pushed) {
        case OutgoingQueue::Pushed::queued:
            if (!queue_.writing()) write();
            return;
        case OutgoingQueue::Pushed::dropped:
            return;
        case OutgoingQueue::Pushed::too_slow:
            spdlog::info("closing {}: too slow to read its messages", slot_.address());
            return drop();
        case OutgoingQueue::Pushed::unread_replies:
            spdlog::info("closing {}: it does not read its replies", slot_.address());
            return drop();
    }
}

void WsSession::write() {
    ws_.text(true);
    ws_.async_write(boost::asio::buffer(queue_.begin_write()),
                    beast::bind_front_handler(&WsSession::on_write, shared_from_this()));
}

void WsSession::on_write(beast::error_code ec, std::size_t) {
    if (ec) {
        if (!quiet(ec)) spdlog::debug("write to {}: {}", slot_.address(), ec.message());
        closing_ = true;
        return;
    }
    if (queue_.end_write()) return write();
    // A connection at no table (in the lobby, or idle) gives the queue's storage back, which it
    // would otherwise keep from its welcome on; one at a table keeps it for the next move.
    if (tables_.empty()) queue_.release_storage();
    if (queue_.end_lag())
        for (const std::string& id : tables_)
            services_.lobby.find(id, [self = shared_from_this()](FoundTable found) {
                if (const auto table = std::move(found.table))
                    boost::asio::post(table->strand(), [table, self] {
                        table->when_ready([table, self] { table->resend_state(self); });
                    });
            });
    if (close_after_writes_) close(close_after_writes_code_, close_after_writes_);
}

void WsSession::go_away() {
    boost::asio::post(ws_.get_executor(), [self = shared_from_this()] {
        self->close_when_written(websocket::close_code::going_away, "server shutting down");
    });
}

void WsSession::end_session(std::uint64_t session_key) {
    boost::asio::post(ws_.get_executor(), [self = shared_from_this(), session_key] {
        if (self->user_ && self->session_key_ == session_key)
            self->close_when_written(websocket::close_code::policy_error, "logged out");
    });
}

void WsSession::close_when_written(websocket::close_code code, const char* reason) {
    close_after_writes_code_ = code;
    close_after_writes_ = reason;
    if (!queue_.writing()) close(code, reason);
}

void WsSession::keep_alive() {
    boost::asio::post(ws_.get_executor(), [self = shared_from_this()] { self->check_silence(); });
}

void WsSession::check_silence() {
    const auto idle = services_.config.idle_timeout;
    const auto silent = std::chrono::steady_clock::now() - heard_;
    if (silent >= idle) {
        spdlog::debug("closing {}: silent for {} s", slot_.address(), idle.count());
        return drop();
    }
    if (silent < idle / 2 || pinging_ || closing_) return;
    pinging_ = true;
    ws_.async_ping({}, [self = shared_from_this()](beast::error_code) { self->pinging_ = false; });
}

void WsSession::drop() {
    closing_ = true;
    beast::error_code ignored;
    ws_.next_layer().close(ignored);  // what is pending ends with operation_aborted
}

void WsSession::close(websocket::close_code code, const char* reason) {
    if (closing_) return;
    closing_ = true;
    ws_.async_close(websocket::close_reason(code, reason),
                    [self = shared_from_this()](beast::error_code) {});
}

// --- Requests -----------------------------------------------------------------------------------

void WsSession::reply_error(ErrorCode code, std::string_view message, const Json& id,
                            std::string_view table) {
    send_error(*this, services_.metrics, code, message, id, table);
}

void WsSession::say_hello(protocol::requests::Hello hello) {
    if (user_) return reply_error(ErrorCode::bad_field, "you have said hello already", hello.id);
    // Hellos are answered one at a time: two sent at once must not each make a guest.
    if (greeting_) {
        if (held_hellos_.size() >= kMaxHeldHellos)
            return reply_error(ErrorCode::rate_limited, "wait for the answer to your hello",
                               hello.id);
        return held_hellos_.push_back(std::move(hello));
    }
    greeting_ = true;
    services_.accounts.hello(
        hello.name, hello.token, ws_.get_executor(),
        [self = shared_from_this(), id = hello.id](SessionOrError session) {
            if (!session) {
                self->reply_error(session.error().code, session.error().message, id);
                return self->hello_answered();
            }
            const std::uint64_t user = session->user.id;
            self->services_.mutes.connect(
                user, self->ws_.get_executor(),
                [self, id, session = std::move(*session)](Mutes::MutedOrError muted) {
                    if (!muted)
                        self->reply_error(muted.error().code, muted.error().message, id);
                    else
                        self->welcome(session, std::move(*muted), id);
                    self->hello_answered();
                });
        });
}

void WsSession::hello_answered() {
    greeting_ = false;
    if (held_hellos_.empty() || closing_) return;
    protocol::requests::Hello next = std::move(held_hellos_.front());
    held_hellos_.erase(held_hellos_.begin());
    say_hello(std::move(next));
}

void WsSession::welcome(const Session& session, std::vector<std::uint64_t> muted, const Json& id) {
    user_ = session.user;
    session_key_ = session_key(session.token);
    services_.notifier.connect(user_->id, shared_from_this());
    spdlog::info("{} is user {}", slot_.address(), user_->id);
    Json reply{{"type", "welcome"},
               {"protocol", protocol::kProtocolVersion},
               {"user", account_json(services_, *user_)},
               {"token", session.token},
               {"muted", std::move(muted)},
               {"preferences", preferences_json(services_, user_->id)}};
    if (!id.is_null()) reply["id"] = id;
    send_reply(make_message(reply.dump()), id);
}

void WsSession::mute(std::uint64_t other, bool muting, const Json& id) {
    services_.mutes.set(user_->id, other, muting, ws_.get_executor(),
                        [self = shared_from_this(), id](Mutes::MutedOrError muted) {
                            if (!muted)
                                return self->reply_error(muted.error().code, muted.error().message,
                                                         id);
                            send_json_reply(*self, Json{{"type", "muted"}, {"users", *muted}}, id);
                        });
}

bool WsSession::pay_for_listing(const Json& id) {
    // At most the whole burst, so that a listing can pass however small the burst.
    const double cost = std::min(kListingCost, static_cast<double>(services_.config.message_burst));
    if (rate_.take(cost - 1)) return true;
    reply_error(ErrorCode::rate_limited,
                "a listing counts as " + std::to_string(static_cast<int>(kListingCost)) +
                    " messages: slow down",
                id);
    return false;
}

void WsSession::handle(std::string_view text) {
    services_.metrics.messages_received.fetch_add(1, std::memory_order_relaxed);
    const auto arrived = heard_;  // on_read's time: the message has just been read
    // Closing (logged out, shutting down): nothing more is done in the session's name.
    if (close_after_writes_) return;
    const Config& config = services_.config;
    if (!rate_.allow(arrived, config.messages_per_second, config.message_burst))
        return reply_error(ErrorCode::rate_limited, "too many messages: slow down", Json());
    auto parsed = protocol::parse_request(text, {services_.config.max_json_depth});
    if (const auto* error = std::get_if<protocol::RequestError>(&parsed))
        return reply_error(error->code, error->message, error->id, error->table);
    protocol::Request& request = std::get<protocol::Request>(parsed);
    if (!user_ && !std::holds_alternative<protocol::requests::Hello>(request))
        return reply_error(ErrorCode::hello_first, "say hello first", protocol::request_id(request),
                           protocol::request_table(request));
    try {
        dispatch(request, arrived);
    } catch (const StorageFailure& failure) {
        // A store read failed (a listing, my games): nothing changed, ask again later.
        spdlog::error("request from {}: {}", slot_.address(), failure.what());
        reply_error(ErrorCode::storage_failed, "the server could not read its database; try again",
                    protocol::request_id(request), protocol::request_table(request));
    }
}

void WsSession::dispatch(protocol::Request& request,
                         std::chrono::steady_clock::time_point arrived) {
    namespace requests = protocol::requests;
    const auto self = shared_from_this();
    // A request to a table; the tables followed are kept for resending their state after a lag
    // (a table kept that is no longer followed only costs a look: the table resends to followers).
    // One stopped is forgotten at once; one started is kept once found, and a table kept already,
    // as for every move, costs no callback and no post back to this strand.
    enum class Following { starts, stops, unchanged };
    auto to_table = [&](auto&& to_one_table, Following following) {
        Asker asker{self, *user_, arrived, nullptr};
        if (following == Following::stops) tables_.erase(to_one_table.table);
        if (following == Following::starts && !tables_.contains(to_one_table.table))
            asker.found = [self, table = to_one_table.table] {
                boost::asio::post(self->ws_.get_executor(), [self, table]() mutable {
                    self->tables_.insert(std::move(table));
                });
            };
        table_request(services_, std::move(asker), std::move(to_one_table));
    };
    std::visit(
        protocol::Overloaded{
            [&](requests::Hello& hello) { say_hello(std::move(hello)); },
            [&](requests::MyGames& games) {
                if (pay_for_listing(games.id)) answer_my_games(services_, *this, *user_, games.id);
            },
            [&](requests::ListTables& list) {
                if (pay_for_listing(list.id)) answer_listing(services_, self, list, false);
            },
            [&](requests::SubscribeLobby& subscribe) {
                requests::ListTables first_page;
                first_page.id = subscribe.id;
                if (pay_for_listing(subscribe.id))
                    answer_listing(services_, self, first_page, true);
            },
            [&](requests::UnsubscribeLobby& unsubscribe) {
                services_.lobby.unsubscribe(this);
                send_json_reply(*this, Json{{"type", "unsubscribed"}}, unsubscribe.id);
            },
            [&](requests::CreateTable& create) {
                create_table(services_, self, *user_, create, [self](std::string table) {
                    boost::asio::post(self->ws_.get_executor(),
                                      [self, table = std::move(table)]() mutable {
                                          self->tables_.insert(std::move(table));
                                      });
                });
            },
            [&](requests::Mute& muting) { mute(muting.user, true, muting.id); },
            [&](requests::Unmute& unmuting) { mute(unmuting.user, false, unmuting.id); },
            [&](requests::Leave& leave) { to_table(std::move(leave), Following::stops); },
            // Reading a table's log or chat, or writing in its chat, does not follow the table.
            [&](requests::Log& log) {
                if (pay_for_listing(log.id)) to_table(std::move(log), Following::unchanged);
            },
            [&](requests::ChatHistory& history) {
                if (pay_for_listing(history.id)) to_table(std::move(history), Following::unchanged);
            },
            [&](requests::Chat& chat) { to_table(std::move(chat), Following::unchanged); },
            [&](requests::DeleteChat& deletion) {
                to_table(std::move(deletion), Following::unchanged);
            },
            // Answering or withdrawing an invitation does not follow the table.
            [&](requests::Decline& decline) { to_table(std::move(decline), Following::unchanged); },
            [&](requests::Withdraw& withdraw) {
                to_table(std::move(withdraw), Following::unchanged);
            },
            // sit, start, watch, sync, move and undo
            [&](auto& to_one_table) { to_table(std::move(to_one_table), Following::starts); },
        },
        request);
}

}  // namespace gcor::server
