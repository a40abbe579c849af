#pragma once
// The JSON API over HTTP (docs/protocol.md, "HTTP API"): accounts, webhooks and game records.
// Handling may block (password hashing, store reads): call it off the I/O threads.
#include <boost/beast/http.hpp>

#include "services.hpp"

namespace gcor::server {

namespace http = boost::beast::http;

// Whether `target` (without its query) is served by handle_api.
bool is_api_target(std::string_view target);

http::response<http::string_body> handle_api(Services& services,
                                             const http::request<http::string_body>& request);

}  // namespace gcor::server
