#pragma once
// What a player sets on the settings page through the HTTP API (docs/protocol.md, "HTTP API"):
// turn mails (their address, how often, the language, and the links in them), vacations and
// preferences.
#include <string_view>

#include "gcor/store/user.hpp"
#include "net/api_responder.hpp"

namespace gcor::server::api {

// The links in mails, which open without signing in: /api/email/confirm?token=...,
// /api/email/unsubscribe?user=...&sig=... (GET shows a button, POST unsubscribes: RFC 8058).
http::response<http::string_body> mail_link(Services& services, Responder& respond,
                                            const http::request<http::string_body>& request,
                                            std::string_view path, std::string_view query);

// GET /api/email's answer: the user's address and mail settings.
Json email_json(Services& services, std::uint64_t user);

// GET /api/email: the address, whether it is confirmed, how often to mail, in which language, and
// whether this server mails at all. POST {"email"?, "frequency"?, "language"?}: a new address (""
// removes it) is confirmed by a mailed link; the frequency is each_turn, daily or off; the language
// en or de.
http::response<http::string_body> email_api(Services& services, Responder& respond,
                                            const http::request<http::string_body>& request,
                                            const User& user);

// /api/vacation (docs/protocol.md, "Vacations"): GET the user's, POST {"from"?, "to"} declares
// one, DELETE ends the running one or removes the coming one. Registered users only.
http::response<http::string_body> vacation_api(Services& services, Responder& respond,
                                               const http::request<http::string_body>& request);

// /api/preferences (docs/protocol.md, "Preferences"): GET the user's, POST {"confirm_turn"?}
// changes those given. Guests too: they play.
http::response<http::string_body> preferences_api(Services& services, Responder& respond,
                                                  const http::request<http::string_body>& request);

}  // namespace gcor::server::api
