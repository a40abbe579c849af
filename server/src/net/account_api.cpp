#include "net/account_api.hpp"

#include <spdlog/spdlog.h>

#include "accounts/account_erasure.hpp"
#include "crypto.hpp"
#include "net/settings_api.hpp"
#include "tables/stored_game.hpp"
#include "tables/table_record.hpp"

namespace gcor::server::api {
namespace {

constexpr std::string_view kAccount = "/api/account";
constexpr std::string_view kExport = "/api/account/export";

// The game's record as GET /api/tables/{id}/record gives it (moves once it is finished); null
// when it has none to give (logged).
Json record_of(Store& store, const StoredTable& table) {
    std::optional<LoadedTable> loaded;
    if (table.status == TableStatus::finished) {
        loaded = store.load_table(table.id);
        if (!loaded) return Json();
    }
    const auto game = loaded ? StoredGame::read(std::move(loaded->table), std::move(loaded->moves))
                             : StoredGame::read(table);
    const auto record = game ? game->record_json() : protocol::Expected<Json>(game.error());
    if (!record) {
        spdlog::error("table {}: no record to export: {}", table.id, record.error().message);
        return Json();
    }
    return *record;
}

Json games_json(Store& store, std::uint64_t user) {
    Json games = Json::array();
    for (const UserTable& mine : store.tables_of(user, kExportedRows)) {
        Json game{{"table", mine.table.id},
                  {"seat", mine.seat},
                  {"status", status_id(mine.table.status)},
                  {"created", mine.table.created}};
        if (games.size() < kExportedRecords) game["record"] = record_of(store, mine.table);
        games.push_back(std::move(game));
    }
    return games;
}

// One of the user's own lists (friends, blocks): whom, and since when.
Json listed_json(Store& store, Relation list, std::uint64_t user) {
    Json listed = Json::array();
    for (const ListedUser& other : store.listed_by(list, user))
        listed.push_back(Json{{"user", other.user}, {"name", other.name}, {"added", other.added}});
    return listed;
}

Json export_json(Services& services, const User& user) {
    Store& store = services.store;
    const auto stored = store.user_by_id(user.id);
    if (!stored) throw StorageFailure("user " + std::to_string(user.id) + " is gone");
    Json vacations = Json::array();
    for (const StoredVacation& vacation : store.vacations_of(user.id))
        vacations.push_back(Json{{"from", vacation.starts}, {"to", vacation.ends}});
    Json email = email_json(services, user.id);
    email.erase("available");  // the server's, not the user's
    const Json account{{"id", stored->id},
                       {"name", stored->name},
                       {"guest", stored->guest},
                       {"created", stored->created},
                       {"webhook", stored->webhook},
                       {"email", std::move(email)},
                       {"vacations", std::move(vacations)},
                       {"preferences", preferences_json(services, user.id)},
                       {"muted", store.muted_by(user.id)},
                       {"friends", listed_json(store, Relation::friend_of, user.id)},
                       {"blocks", listed_json(store, Relation::blocks, user.id)}};
    Json chat = Json::array();
    for (const UserChatLine& written : store.chat_lines_of(user.id, kExportedRows))
        chat.push_back(Json{{"table", written.table},
                            {"n", written.line.n},
                            {"seat", written.line.seat ? Json(*written.line.seat) : Json()},
                            {"text", written.line.text},
                            {"at", written.line.at}});
    Json leagues = Json::array();
    for (const UserSeason& season : store.seasons_of(user.id, kExportedRows))
        leagues.push_back(Json{{"league", {{"id", season.league.id}, {"name", season.league.name}}},
                               {"season", season.season},
                               {"status", season.status},
                               {"division", season.tier == 0 ? Json() : Json(season.tier)}});
    const auto rating = store.rating(user.id);
    Json history = Json::array();
    for (const RatingChange& change : store.rating_history(user.id, kExportedRows))
        history.push_back(Json{{"table", change.table},
                               {"at", change.at},
                               {"before", change.before},
                               {"after", change.after},
                               {"games", change.games},
                               {"place", change.place},
                               {"players", change.players}});
    Json reviews = Json::array();
    for (const AskedAnalysis& asked : store.analyses_asked_by(user.id, kExportedRows))
        reviews.push_back(
            Json{{"table", asked.table}, {"started", asked.started}, {"done", asked.done}});
    return Json{
        {"exported", unix_now_ms()},
        {"account", account},
        {"games", games_json(store, user.id)},
        {"chat", std::move(chat)},
        {"leagues", std::move(leagues)},
        {"rating", rating ? Json{{"value", rating->value}, {"games", rating->games}} : Json()},
        {"rating_history", std::move(history)},
        {"reviews", std::move(reviews)}};
}

http::response<http::string_body> erase(Services& services, Responder& respond, const User& user) {
    const auto body = respond.body({"password"});
    if (!body) return respond.error(body.error());
    // A guest has no password: having the session is all a guest has to show.
    if (user.guest) {
        if (!body->empty())
            return respond.error(ErrorCode::bad_field, "a guest has no password: send {}");
    } else {
        if (!body->contains("password"))
            return respond.error(ErrorCode::bad_field, "\"password\" is missing");
        const std::string password = text_of(*body, "password");
        const auto stored = services.store.user_by_id(user.id);
        if (!stored || password.size() > Accounts::kMaxPassword ||
            !verify_password(stored->password_hash, password)) {
            services.password_attempts.failed(user.name, PasswordAttempts::Clock::now());
            return respond.error(ErrorCode::bad_credentials, "wrong password");
        }
    }
    const std::string name = erase_account(services, user);
    return respond.json(http::status::ok, Json{{"erased", true}, {"name", name}});
}

}  // namespace

bool is_account_target(std::string_view target) {
    return target == kAccount || target == kExport;
}

http::response<http::string_body> account_api(Services& services, Responder& respond,
                                              const http::request<http::string_body>& request,
                                              std::string_view target) {
    const http::verb wanted = target == kAccount ? http::verb::delete_ : http::verb::get;
    if (request.method() != wanted)
        return respond.error(ErrorCode::bad_field, target == kAccount
                                                       ? "DELETE /api/account to delete it"
                                                       : "GET the export");
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    if (target == kAccount) return erase(services, respond, *user);
    if (!request.target().ends_with(kExport))  // a query is not part of this request
        return respond.error(ErrorCode::bad_field, "the export takes no query");
    auto response = respond.json(http::status::ok, export_json(services, *user));
    response.set(http::field::content_disposition,
                 "attachment; filename=\"gcor-account-" + std::to_string(user->id) + ".json\"");
    return response;
}

}  // namespace gcor::server::api
