#pragma once
// A user's own data through the HTTP API (docs/protocol.md, "Your data"): the export of everything
// the server keeps about them, and the deletion of their account.
#include <cstddef>
#include <string_view>

#include "net/api_responder.hpp"

namespace gcor::server::api {

// An export holds the records of this many of the user's games, the newest (unfinished first);
// older ones are listed by id and seat (their records are public at /api/tables/{id}/record).
constexpr std::size_t kExportedRecords = 500;
// At most this many games, chat lines, seasons and rating changes are exported.
constexpr std::size_t kExportedRows = 10'000;

bool is_account_target(std::string_view target);

// DELETE /api/account {"password"} (a guest: {}) erases the account; GET /api/account/export is
// the user's data as one JSON file to download.
http::response<http::string_body> account_api(Services& services, Responder& respond,
                                              const http::request<http::string_body>& request,
                                              std::string_view target);

}  // namespace gcor::server::api
