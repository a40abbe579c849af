#include "accounts/accounts.hpp"

#include <algorithm>
#include <cctype>

#include <spdlog/spdlog.h>

#include "blocking.hpp"
#include "crypto.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;

protocol::Error bad_credentials() {
    // The same answer for an unknown name and a wrong password: names are not revealed.
    return {ErrorCode::bad_credentials, "wrong name or password"};
}

protocol::Error name_refusal() {
    return {ErrorCode::bad_field,
            "a name has 3 to 32 letters, digits, '_', '-' or '.', and starts with a letter or "
            "digit"};
}

}  // namespace

std::uint64_t session_key(std::string_view token) {
    return session_key_of_hash(token_hash(token));
}

std::uint64_t session_key_of_hash(std::string_view token_hash) {
    return std::stoull(std::string(token_hash.substr(0, 16)), nullptr, 16);
}

std::optional<protocol::Error> Accounts::password_refusal(std::string_view password) {
    if (password.size() < kMinPassword || password.size() > kMaxPassword)
        return protocol::Error{ErrorCode::bad_field, "a password has 8 to 1024 characters"};
    return std::nullopt;
}

bool Accounts::valid_account_name(std::string_view name) {
    auto allowed = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
    };
    return name.size() >= 3 && name.size() <= 32 &&
           std::isalnum(static_cast<unsigned char>(name.front())) &&
           std::all_of(name.begin(), name.end(), allowed);
}

Session Accounts::open_session(const StoredUser& user) {
    Session session{
        User{user.id, user.name, user.guest}, new_token(),
        unix_now_ms() +
            std::chrono::duration_cast<std::chrono::milliseconds>(session_lifetime_).count()};
    store_.add_session(token_hash(session.token), user.id, session.expires);
    return session;
}

SessionOrError Accounts::register_user(std::string_view name, std::string_view password) {
    if (!valid_account_name(name)) return name_refusal();
    if (const auto refused = password_refusal(password)) return *refused;
    const auto user = store_.create_user(std::string(name), hash_password(password));
    if (!user) return protocol::Error{ErrorCode::name_taken, "that name is taken"};
    return open_session(*user);
}

protocol::Expected<GuestRegistered> Accounts::register_guest(const User& guest,
                                                             std::string_view name,
                                                             std::string_view password) {
    if (!guest.guest)
        return protocol::Error{ErrorCode::wrong_state,
                               "this session is a registered user's; sign out to register"};
    if (!valid_account_name(name)) return name_refusal();
    if (const auto refused = password_refusal(password)) return *refused;
    const auto registered =
        store_.register_guest(guest.id, std::string(name), hash_password(password));
    if (!registered) return protocol::Error{ErrorCode::name_taken, "that name is taken"};
    GuestRegistered made{open_session(registered->user), {}};
    for (const std::string& ended : registered->ended_sessions)
        made.ended_sessions.push_back(session_key_of_hash(ended));
    return made;
}

protocol::Expected<std::vector<std::uint64_t>> Accounts::change_password(
    const User& user, std::string_view token, std::string_view old_password,
    std::string_view new_password) {
    if (user.guest)
        return protocol::Error{ErrorCode::registered_only, "guests have no password: register"};
    if (const auto refused = password_refusal(new_password)) return *refused;
    const auto stored = store_.user_by_id(user.id);
    if (!stored || old_password.size() > kMaxPassword ||
        !verify_password(stored->password_hash, old_password))
        return bad_credentials();
    std::vector<std::uint64_t> ended;
    for (const std::string& hash :
         store_.set_password(user.id, hash_password(new_password), token_hash(token)))
        ended.push_back(session_key_of_hash(hash));
    return ended;
}

SessionOrError Accounts::login(std::string_view name, std::string_view password) {
    if (!valid_account_name(name) || password.size() > kMaxPassword) return bad_credentials();
    const auto user = store_.user_by_name(std::string(name));
    if (!user) {
        // Spend the time a real check takes, so that timing does not reveal which names exist.
        static const std::string decoy = hash_password("not a password of anybody");
        verify_password(decoy, password);
        return bad_credentials();
    }
    if (!verify_password(user->password_hash, password)) return bad_credentials();
    return open_session(*user);
}

SessionOrError Accounts::guest(std::string_view name) {
    if (!protocol::valid_name(name))
        return protocol::Error{ErrorCode::bad_field,
                               "a name has 1 to 32 characters, no control characters"};
    return open_session(store_.create_guest(std::string(name)));
}

std::optional<User> Accounts::resume(std::string_view token) {
    if (token.empty() || token.size() > 128) return std::nullopt;
    const auto user = store_.session_user(token_hash(token), unix_now_ms());
    if (!user) return std::nullopt;
    return User{user->id, user->name, user->guest};
}

void Accounts::hello(std::string name, std::string token, boost::asio::any_io_executor answer_on,
                     std::function<void(SessionOrError)> done) {
    run_blocking(
        blocking_, std::move(answer_on),
        [this, name = std::move(name), token = std::move(token)]() -> SessionOrError {
            try {
                if (token.empty()) return guest(name);
                const auto user = resume(token);
                if (!user) return protocol::Error{ErrorCode::bad_token, "unknown or expired token"};
                return Session{*user, token};
            } catch (const StorageFailure& failure) {
                spdlog::error("hello: {}", failure.what());
                return protocol::Error{ErrorCode::storage_failed,
                                       token.empty()
                                           ? "the server could not save the guest; try again"
                                           : "the server could not read its database; try again"};
            }
        },
        std::move(done));
}

void Accounts::logout(std::string_view token) {
    if (!token.empty() && token.size() <= 128) store_.remove_session(token_hash(token));
}

}  // namespace gcor::server
