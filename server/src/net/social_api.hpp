#pragma once
// Friends and blocks through the HTTP API (docs/protocol.md, "Friends and blocks"): each
// registered user's own lists, never another's.
#include <string_view>

#include "net/api_responder.hpp"

namespace gcor::server::api {

// The most friends a user keeps.
constexpr std::size_t kMaxFriends = 500;

// /api/friends and /api/blocks, with or without "/{user id}".
bool is_social_target(std::string_view path);

// GET /api/friends: the user's friends, oldest first, each with whether they are online;
// PUT /api/friends/{id} adds one, DELETE removes one; both answer the list. /api/blocks the
// same for blocks (without online). Registered users only.
http::response<http::string_body> social_api(Services& services, Responder& respond,
                                             const http::request<http::string_body>& request,
                                             std::string_view path);

}  // namespace gcor::server::api
