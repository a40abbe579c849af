#pragma once
// Accounts: registered users (name and argon2id password), guests, and their sessions. A session
// token is random and handed out once; the store keeps only its SHA-256. Password hashing is slow
// on purpose: call register_user and login off the I/O threads.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/store.hpp"
#include "net/peer.hpp"

namespace gcor::server {

struct Session {
    User user;
    std::string token;  // shown to its owner once, never logged
    UnixMs expires = 0;
};

using SessionOrError = protocol::Expected<Session>;

// Tells a session from the user's others without keeping its token: the first 8 bytes of the
// token's hash (64 bits: two sessions of one user never share one in practice).
std::uint64_t session_key(std::string_view token);
// The same key from the token's hash, as the store keeps it.
std::uint64_t session_key_of_hash(std::string_view token_hash);

// A guest registered (keeping the user id): the new session, and the keys of the guest's
// sessions, which ended (their connections are to close).
struct GuestRegistered {
    Session session;
    std::vector<std::uint64_t> ended_sessions;
};

class Accounts {
  public:
    Accounts(Store& store, std::chrono::hours session_lifetime, boost::asio::io_context& blocking)
        : store_(store), session_lifetime_(session_lifetime), blocking_(blocking) {}

    SessionOrError register_user(std::string_view name, std::string_view password);
    SessionOrError login(std::string_view name, std::string_view password);
    // The guest becomes a registered user named `name`, with the same id: its seats, tables and
    // games stay its own. Errors as register_user's, and wrong_state for a registered user.
    protocol::Expected<GuestRegistered> register_guest(const User& guest, std::string_view name,
                                                       std::string_view password);
    // A registered user's new password, the old one checked (bad_credentials when wrong):
    // every session of the user but the one of `token` ends. The keys of those ended.
    protocol::Expected<std::vector<std::uint64_t>> change_password(const User& user,
                                                                   std::string_view token,
                                                                   std::string_view old_password,
                                                                   std::string_view new_password);
    // Why `password` may not be a new password (register_user's rules); nullopt when it may.
    static std::optional<protocol::Error> password_refusal(std::string_view password);
    SessionOrError guest(std::string_view name);
    // The user of a live session; nullopt when the token is unknown or expired.
    std::optional<User> resume(std::string_view token);
    void logout(std::string_view token);
    // A WebSocket's hello, on the blocking pool: the session of `token` resumed (bad_token when it
    // is unknown or expired), or else a new guest named `name`; then `done` with it on
    // `answer_on` (storage_failed when the store failed).
    void hello(std::string name, std::string token, boost::asio::any_io_executor answer_on,
               std::function<void(SessionOrError)> done);

    // Registered names: 3 to 32 characters, letters, digits, '_', '-' and '.', starting with a
    // letter or digit (they are typed to log in, so no spaces or look-alike symbols).
    static bool valid_account_name(std::string_view name);
    static constexpr std::size_t kMinPassword = 8;
    static constexpr std::size_t kMaxPassword = 1024;

  private:
    Session open_session(const StoredUser& user);

    Store& store_;
    const std::chrono::hours session_lifetime_;
    boost::asio::io_context& blocking_;
};

}  // namespace gcor::server
