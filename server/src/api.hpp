#pragma once
// The JSON API over HTTP (docs/protocol.md, "HTTP API"): accounts, webhooks, game records,
// leagues and ratings.
// Handling may block (password hashing, store reads): call it off the I/O threads.
#include <boost/beast/http.hpp>

#include "gcor/protocol/messages.hpp"
#include "services.hpp"
#include "user.hpp"

namespace gcor::server {

namespace http = boost::beast::http;

// Whether `target` (without its query) is served by handle_api.
bool is_api_target(std::string_view target);

// A user as `welcome` and the account endpoints describe them: id, name, guest (and admin).
protocol::Json account_json(Services& services, const User& user);

http::response<http::string_body> handle_api(Services& services,
                                             const http::request<http::string_body>& request);

}  // namespace gcor::server
