#pragma once
// Tournaments through the HTTP API (docs/tournaments.md, "The API").
#include <string_view>

#include "net/api_responder.hpp"

namespace gcor::server::api {

// /api/tournaments, with or without "/{id}" and "/join", "/leave" or "/start".
bool is_tournament_target(std::string_view path);

// GET /api/tournaments lists them, GET /api/tournaments/{id} gives one (for anybody; with a
// token, "joined" and "can_start" are the asker's); POST /api/tournaments creates one, POST
// .../{id}/join, /leave and /start change one (signed-in users).
http::response<http::string_body> tournament_api(Services& services, Responder& respond,
                                                 const http::request<http::string_body>& request,
                                                 std::string_view path);

}  // namespace gcor::server::api
