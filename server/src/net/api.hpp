#pragma once
// The JSON API over HTTP (docs/protocol.md, "HTTP API"): accounts, webhooks, game records,
// leagues and ratings.
// Handling may block (password hashing, store reads): call it off the I/O threads.
#include <boost/beast/http.hpp>

#include <string>
#include <string_view>
#include <variant>

#include "accounts/password_attempts.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/store/user.hpp"
#include "services.hpp"

namespace gcor::server {

namespace http = boost::beast::http;

// Whether `target` (without its query) is served by handle_api.
bool is_api_target(std::string_view target);

// A user as `welcome` and the account endpoints describe them: id, name, guest (and admin).
protocol::Json account_json(Services& services, const User& user);
// A user's preferences as `welcome` and /api/preferences give them: {"confirm_turn": bool}.
protocol::Json preferences_json(Services& services, std::uint64_t user);

// Whether the request hashes a password (register, login): it is admitted by
// admit_password_attempt on the I/O thread, then answered on the hashing pool.
bool hashes_password(std::string_view target);
// A place in the hashing queue for this attempt from `address`, or the 429 that refuses it
// (with Retry-After), by the limits of Services::password_attempts.
std::variant<PasswordAttempts::Ticket, http::response<http::string_body>> admit_password_attempt(
    Services& services, const http::request<http::string_body>& request,
    const std::string& address);

http::response<http::string_body> handle_api(Services& services,
                                             const http::request<http::string_body>& request);

}  // namespace gcor::server
