#pragma once
// Passwords and a guest's registration over the HTTP API (docs/protocol.md, "HTTP API"):
// changing a password, a forgotten one's mailed link and its reset, and a guest who registers
// keeping its user id. Each hashes a password (but the forgotten one's request): answered on the
// hashing pool once admitted (admit_password_attempt).
#include <string_view>

#include "net/api_responder.hpp"

namespace gcor::server::api {

// Whether `target` (without its query) is one of password_api's.
bool is_password_target(std::string_view target);

// POST /api/password {"old","new"} (signed in), POST /api/password/forgot {"email"},
// POST /api/password/reset {"token","password"}.
http::response<http::string_body> password_api(Services& services, Responder& respond,
                                               const http::request<http::string_body>& request,
                                               std::string_view target);

// POST /api/register with the guest's session token: the guest becomes the registered user
// `name`, keeping its id; its sessions end and a new one is answered.
http::response<http::string_body> register_guest(Services& services, Responder& respond,
                                                 const std::string& token, const std::string& name,
                                                 const std::string& password);

}  // namespace gcor::server::api
