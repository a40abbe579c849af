#include "net/user_games_api.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "gcor/engine/state.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server::api {

namespace {

constexpr std::size_t kDefaultGames = 20;
constexpr std::size_t kMaxGames = 100;

// A seat's place and score in a finished game's result; nullopt when the result lacks them (a
// row written by an older server or damaged: the game is still listed, without them).
struct SeatOutcome {
    int place = 0;
    int score = 0;
};
std::optional<SeatOutcome> outcome_of(const Json& result, int seat) {
    const auto index = static_cast<std::size_t>(seat);
    if (!result.is_object()) return std::nullopt;
    const auto places = result.find("places");
    const auto scores = result.find("scores");
    if (places == result.end() || scores == result.end() || !places->is_array() ||
        !scores->is_array() || index >= places->size() || index >= scores->size())
        return std::nullopt;
    const Json& place = (*places)[index];
    const Json& score = (*scores)[index];
    if (!place.is_number_integer() || !score.is_object() || !score.contains("total") ||
        !score["total"].is_number_integer())
        return std::nullopt;
    return SeatOutcome{place.get<int>(), score["total"].get<int>()};
}

// One seat of a listed game: who sat there, and how they did.
Json seat_json(const StoredSeat& seat, int index, const Json& result) {
    Json json{{"seat", index}, {"name", seat.name}};
    if (seat.kind == SeatKind::human) json["user"] = seat.user;
    if (seat.kind == SeatKind::bot) json["bot"] = seat.bot;
    if (seat.forfeited) json["forfeited"] = true;
    const auto outcome = outcome_of(result, index);
    json["place"] = outcome ? Json(outcome->place) : Json();
    json["score"] = outcome ? Json(outcome->score) : Json();
    return json;
}

Json game_json(const FinishedGame& game) {
    const StoredTable& table = game.table;
    const Json result = Json::parse(table.result, nullptr, false);
    const auto settings = StoredGame::read_settings(table);
    Json json{{"table", table.id},
              {"finished", game.finished},
              {"rules", table.rules},
              {"players", table.players},
              {"rated", table.rated}};
    if (settings) {
        json["shrine"] = settings->options.shrine;
        if (!settings->name.empty()) json["name"] = settings->name;
    }
    Json you = seat_json(table.seats.at(static_cast<std::size_t>(game.seat)), game.seat, result);
    json["seat"] = game.seat;
    json["place"] = you["place"];
    json["score"] = you["score"];
    if (you.contains("forfeited")) json["forfeited"] = true;
    Json opponents = Json::array();
    for (std::size_t seat = 0; seat < table.seats.size(); ++seat)
        if (static_cast<int>(seat) != game.seat)
            opponents.push_back(seat_json(table.seats[seat], static_cast<int>(seat), result));
    json["opponents"] = std::move(opponents);
    return json;
}

// The figures of one rules' games.
struct Figures {
    int games = 0;
    int wins = 0;
    long long total = 0;
    int best = 0;
};

// Computed here from the results rather than in SQL: the scores live in the result's JSON text,
// which SQLite and PostgreSQL read with different functions (json_extract, ->>), and one read of
// the user's results is a few bytes a game.
Json figures_json(const std::vector<UserResult>& results) {
    std::map<std::string, Figures> by_rules;
    for (const UserResult& game : results) {
        const auto outcome = outcome_of(Json::parse(game.result, nullptr, false), game.seat);
        if (!outcome) continue;
        Figures& figures = by_rules[game.rules];
        figures.best = figures.games == 0 ? outcome->score : std::max(figures.best, outcome->score);
        ++figures.games;
        figures.wins += outcome->place == 1 ? 1 : 0;
        figures.total += outcome->score;
    }
    Json list = Json::array();
    for (const auto& [rules, figures] : by_rules) {
        const double games = figures.games;
        list.push_back(
            Json{{"rules", rules},
                 {"games", figures.games},
                 {"wins", figures.wins},
                 {"win_rate", std::round(figures.wins / games * 1000) / 1000},
                 {"mean_score", std::round(static_cast<double>(figures.total) / games * 10) / 10},
                 {"best_score", figures.best}});
    }
    return Json{{"figures", std::move(list)}};
}

}  // namespace

std::string cursor_text(const GamesCursor& cursor) {
    return std::to_string(cursor.finished) + "-" + cursor.table;
}

std::optional<GamesCursor> parse_cursor(std::string_view text) {
    const auto dash = text.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    const auto finished = number_of(text.substr(0, dash));
    const std::string_view table = text.substr(dash + 1);
    if (!finished || !protocol::valid_table_id(table)) return std::nullopt;
    return GamesCursor{static_cast<UnixMs>(*finished), std::string(table)};
}

Expected<FinishedGamesQuery> parse_games_query(std::string_view query) {
    FinishedGamesQuery parsed;
    parsed.limit = kDefaultGames;
    std::vector<std::string_view> seen;
    auto bad = [](std::string message) {
        return protocol::Error{ErrorCode::bad_field, std::move(message)};
    };
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const auto equals = pair.find('=');
        if (equals == std::string_view::npos) return bad("the query is name=value pairs");
        const std::string_view key = pair.substr(0, equals);
        const std::string_view value = pair.substr(equals + 1);
        if (std::ranges::find(seen, key) != seen.end())
            return bad("\"" + std::string(key) + "\" is given twice");
        seen.push_back(key);
        if (key == "before") {
            const auto cursor = parse_cursor(value);
            if (!cursor) return bad("before: the \"next\" of the page before");
            parsed.before = cursor->finished;
            parsed.before_table = cursor->table;
        } else if (key == "limit") {
            const auto limit = number_of(value);
            if (!limit || *limit > kMaxGames) return bad("limit: a number from 1 to 100");
            parsed.limit = static_cast<std::size_t>(*limit);
        } else if (key == "rules") {
            if (!engine::variant_from_id(value)) return bad("rules: \"yucata\" or \"publisher\"");
            parsed.rules = std::string(value);
        } else if (key == "players") {
            const auto players = number_of(value);
            if (!players || *players < 2 || *players > engine::kMaxPlayers)
                return bad("players: a number from 2 to " + std::to_string(engine::kMaxPlayers));
            parsed.players = static_cast<int>(*players);
        } else if (key == "rated") {
            if (value != "true" && value != "false") return bad("rated: true or false");
            parsed.rated = value == "true";
        } else {
            return bad("unknown query field \"" + std::string(key) + "\"");
        }
    }
    return parsed;
}

http::response<http::string_body> user_games_api(Services& services, Responder& respond,
                                                 const http::request<http::string_body>& request,
                                                 std::uint64_t user, std::string_view path_end) {
    const std::string_view query = query_of(request.target());
    if (path_end == "figures" && !query.empty())
        return respond.error(ErrorCode::bad_field, "figures take no query");
    auto games_query = parse_games_query(query);
    if (!games_query) return respond.error(games_query.error());
    // A token, when sent, must be live: whether it is the player's own decides what is listed.
    std::optional<User> asker;
    if (const std::string token = respond.bearer_token(); !token.empty()) {
        asker = services.accounts.resume(token);
        if (!asker) return respond.error(ErrorCode::bad_token, "the session token is not live");
    }
    if (!services.store.user_by_id(user))
        return respond.error(ErrorCode::not_found, "no such player");
    if (path_end == "figures")
        return respond.json(http::status::ok, figures_json(services.store.results_of(user)));

    games_query->user = user;
    games_query->unlisted = asker && asker->id == user;
    const std::size_t limit = games_query->limit;
    ++games_query->limit;  // one more than asked: whether a next page exists
    const std::vector<FinishedGame> games = services.store.finished_games_of(*games_query);
    Json list = Json::array();
    for (std::size_t i = 0; i < std::min(limit, games.size()); ++i)
        list.push_back(game_json(games[i]));
    Json next;
    if (games.size() > limit)
        next = cursor_text(GamesCursor{games[limit - 1].finished, games[limit - 1].table.id});
    return respond.json(http::status::ok, Json{{"games", std::move(list)}, {"next", next}});
}

}  // namespace gcor::server::api
