#pragma once
// A player's finished games and figures on their profile (docs/protocol.md, "A player's games"):
// GET /api/users/{id}/games?before=&limit=&rules=&players=&rated= pages through the games,
// newest first; GET /api/users/{id}/figures gives games, wins, win rate, mean and best score per
// rules. Both are public; a table not listed in the lobby is listed only to the player themself.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "net/api_responder.hpp"

namespace gcor::server::api {

// A page's cursor: the finish time and table id of the page's last game, "<ms>-<table id>".
struct GamesCursor {
    UnixMs finished = 0;
    std::string table;
};
std::string cursor_text(const GamesCursor& cursor);
std::optional<GamesCursor> parse_cursor(std::string_view text);

// What a games query asks for, read strictly from the query string (errors: bad_field).
Expected<FinishedGamesQuery> parse_games_query(std::string_view query);

// `path_end` is "games" or "figures"; `user` the profile's.
http::response<http::string_body> user_games_api(Services& services, Responder& respond,
                                                 const http::request<http::string_body>& request,
                                                 std::uint64_t user, std::string_view path_end);

}  // namespace gcor::server::api
