#include "net/api.hpp"

#include <spdlog/spdlog.h>

#include "accounts/accounts.hpp"
#include "accounts/preferences.hpp"
#include "gcor/store/store.hpp"
#include "leagues/leagues.hpp"
#include "net/account_api.hpp"
#include "net/api_responder.hpp"
#include "net/invitations.hpp"
#include "net/password_api.hpp"
#include "net/settings_api.hpp"
#include "net/social_api.hpp"
#include "net/user_games_api.hpp"
#include "notify/notifier.hpp"
#include "notify/webhooks.hpp"
#include "ratings/ratings.hpp"
#include "reviews/game_reviews.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {

protocol::Json account_json(Services& services, const User& user) {
    protocol::Json about{{"id", user.id}, {"name", user.name}, {"guest", user.guest}};
    if (services.leagues.is_admin(user)) about["admin"] = true;
    return about;
}

protocol::Json preferences_json(Services& services, std::uint64_t user) {
    return protocol::Json{{"confirm_turn", services.preferences.of(user).confirm_turn}};
}

namespace {

using namespace api;

constexpr std::string_view kRecordPrefix = "/api/tables/";
constexpr std::string_view kRecordSuffix = "/record";
constexpr std::string_view kReplaySuffix = "/replay";
constexpr std::string_view kAnalysisSuffix = "/analysis";

// The table's record (StoredGame::record_json); nullopt when there is none to give.
std::optional<Json> table_record(Store& store, const std::string& id) {
    auto row = store.find_table(id);
    if (!row) return std::nullopt;
    // Only a finished game's record lists its moves.
    std::vector<StoredMove> moves;
    if (row->status == TableStatus::finished) {
        auto loaded = store.load_table(id);
        if (!loaded) return std::nullopt;
        row = std::move(loaded->table);
        moves = std::move(loaded->moves);
    }
    const auto game = StoredGame::read(std::move(*row), std::move(moves));
    const auto record = game ? game->record_json() : protocol::Expected<Json>(game.error());
    if (!record) {
        spdlog::error("table {}: no record: {}", id, record.error().message);
        return std::nullopt;
    }
    return std::move(*record);
}

// A finished game after `move` of its moves (nullopt: the query's "move"), as a spectator saw it
// (StoredGame::replay_json).
Expected<Json> table_replay(Store& store, const std::string& id, std::string_view query) {
    auto loaded = store.load_table(id);
    if (!loaded || loaded->table.status != TableStatus::finished)
        return protocol::Error{ErrorCode::not_found, "no finished game \"" + id + "\""};
    const protocol::Error unplayable{ErrorCode::internal, "the game cannot be replayed"};
    const auto game = StoredGame::read(std::move(loaded->table), std::move(loaded->moves));
    if (!game) {
        spdlog::error("table {}: no replay: {}", id, game.error().message);
        return unplayable;
    }
    const std::uint64_t total = game->moves().size();
    // "move=N" with N from 0 to the moves made; missing: 0.
    std::uint64_t move = 0;
    if (!query.empty()) {
        const std::string_view text =
            query.starts_with("move=") ? query.substr(5) : std::string_view();
        const auto number = text == "0" ? std::optional<std::uint64_t>(0) : number_of(text);
        if (!number || *number > total)
            return protocol::Error{ErrorCode::bad_field,
                                   "move: a number from 0 to " + std::to_string(total)};
        move = *number;
    }
    auto replay = game->replay_json(move);
    if (!replay) {
        spdlog::error("table {}: no replay: {}", id, replay.error().message);
        return unplayable;
    }
    return replay;
}

// GET /api/tables/{id}/analysis: the game's review (200) or its progress (202), started when it
// has not; DELETE cancels it (docs/protocol.md, "Game review").
http::response<http::string_body> analysis_api(Services& services, Responder& respond,
                                               const http::request<http::string_body>& request,
                                               std::string_view target) {
    const bool get = request.method() == http::verb::get;
    if (!get && request.method() != http::verb::delete_)
        return respond.error(ErrorCode::bad_field, "GET or DELETE a game review");
    if (target != request.target())
        return respond.error(ErrorCode::bad_field, "a game review takes no query");
    const std::string id(target.substr(
        kRecordPrefix.size(), target.size() - kRecordPrefix.size() - kAnalysisSuffix.size()));
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "game reviews are for signed-in players: send \"Authorization: "
                             "Bearer <token>\" with a live session token");
    if (!protocol::valid_table_id(id))
        return respond.error(ErrorCode::not_found, "no table \"" + id + "\"");
    if (!get) {
        if (const auto body = respond.object_body(); !body || !body->empty())
            return respond.error(ErrorCode::bad_field, "cancelling a review takes no body");
        return respond.reply(http::status::ok,
                             services.reviews.cancel(*user, services.leagues.is_admin(*user), id));
    }
    const auto answer = services.reviews.ask(*user, id);
    if (!answer) return respond.error(answer.error());
    return respond.json(answer->done ? http::status::ok : http::status::accepted, answer->body);
}

// The path's segments after "/api/".
std::vector<std::string_view> segments_of(std::string_view path) {
    std::vector<std::string_view> segments;
    path.remove_prefix(std::string_view("/api/").size());
    while (!path.empty()) {
        const auto slash = path.find('/');
        segments.push_back(path.substr(0, slash));
        if (slash == std::string_view::npos) break;
        path.remove_prefix(slash + 1);
    }
    return segments;
}

// "?limit=N" (1 to 500; 100 when missing).
std::optional<std::size_t> limit_of(std::string_view target) {
    if (target.find('?') == std::string_view::npos) return 100;
    const std::string_view text = query_of(target);
    if (!text.starts_with("limit=")) return std::nullopt;
    const auto limit = number_of(text.substr(6));
    if (!limit || *limit > 500) return std::nullopt;
    return static_cast<std::size_t>(*limit);
}

// Leagues, ratings and profiles (docs/protocol.md, "Leagues and ratings").
http::response<http::string_body> league_api(Services& services, Responder& respond,
                                             const http::request<http::string_body>& request,
                                             std::string_view target) {
    const auto path = segments_of(target.substr(0, target.find('?')));
    const bool get = request.method() == http::verb::get;
    const bool post = request.method() == http::verb::post;
    const auto no_such = [&] {
        return respond.error(ErrorCode::not_found, "no such resource: " + std::string(target));
    };
    if (path[0] == "ratings") {
        if (path.size() != 1) return no_such();
        if (!get) return respond.error(ErrorCode::bad_field, "GET the leaderboard");
        const auto limit = limit_of(target);
        if (!limit) return respond.error(ErrorCode::bad_field, "limit: a number from 1 to 500");
        return respond.json(http::status::ok, services.ratings.leaderboard(*limit));
    }
    if (path[0] == "users") {
        const auto user = path.size() == 2 || path.size() == 3 ? number_of(path[1]) : std::nullopt;
        if (!user) return no_such();
        if (!get) return respond.error(ErrorCode::bad_field, "GET a player's profile");
        if (path.size() == 3) {
            if (path[2] != "games" && path[2] != "figures") return no_such();
            return user_games_api(services, respond, request, *user, path[2]);
        }
        const auto profile = services.ratings.profile(*user);
        if (!profile) return respond.error(ErrorCode::not_found, "no such player");
        return respond.json(http::status::ok, *profile);
    }

    // /api/leagues[/{id}[/signup | /withdraw | /seasons[/{n}[/start | /close]]]]
    const auto league = path.size() >= 2 ? number_of(path[1]) : std::optional<std::uint64_t>(0);
    if (!league) return no_such();
    std::optional<int> number;
    if (path.size() >= 4) {
        const auto parsed = path[2] == "seasons" ? number_of(path[3]) : std::nullopt;
        if (!parsed || *parsed > 1'000'000) return no_such();
        number = static_cast<int>(*parsed);
    }
    if (get) {
        if (path.size() == 1) return respond.json(http::status::ok, services.leagues.list());
        if (path.size() == 2)
            return respond.reply(http::status::ok, services.leagues.league(*league));
        if (path.size() == 4)
            return respond.reply(http::status::ok, services.leagues.season(*league, *number));
        return no_such();
    }
    if (!post) return respond.error(ErrorCode::bad_field, "this endpoint takes GET or POST");
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    const auto body = respond.object_body();
    if (!body) return respond.error(body.error());
    if (path.size() == 1)
        return respond.reply(http::status::created, services.leagues.create(*user, *body));
    if (!body->empty()) return respond.error(ErrorCode::bad_field, "this request takes no fields");
    if (path.size() == 3 && path[2] == "signup")
        return respond.reply(http::status::ok, services.leagues.sign_up(*user, *league));
    if (path.size() == 3 && path[2] == "withdraw")
        return respond.reply(http::status::ok, services.leagues.withdraw(*user, *league));
    if (path.size() == 3 && path[2] == "seasons")
        return respond.reply(http::status::created, services.leagues.open_season(*user, *league));
    if (path.size() == 5 && path[4] == "start")
        return respond.reply(http::status::ok,
                             services.leagues.start_season(*user, *league, *number));
    if (path.size() == 5 && path[4] == "close")
        return respond.reply(http::status::ok,
                             services.leagues.close_season(*user, *league, *number));
    return no_such();
}

bool is_league_target(std::string_view target) {
    return target == "/api/leagues" || target.starts_with("/api/leagues/") ||
           target == "/api/ratings" || target.starts_with("/api/users/");
}

http::response<http::string_body> dispatch(Services& services,
                                           const http::request<http::string_body>& request) {
    Responder respond(services, request);
    std::string_view target = request.target();
    target = target.substr(0, target.find('?'));
    const bool post = request.method() == http::verb::post;

    if (is_league_target(target)) return league_api(services, respond, request, request.target());
    if (target == "/api/vacation") return vacation_api(services, respond, request);
    if (target == "/api/preferences") return preferences_api(services, respond, request);
    if (target == "/api/invitations") return invitations_api(services, respond, request);
    if (is_social_target(target)) return social_api(services, respond, request, target);
    if (is_account_target(target)) return account_api(services, respond, request, target);
    if (target.starts_with(kRecordPrefix) && target.ends_with(kAnalysisSuffix))
        return analysis_api(services, respond, request, target);
    if (target.starts_with(kRecordPrefix) && target.ends_with(kReplaySuffix)) {
        if (request.method() != http::verb::get)
            return respond.error(ErrorCode::bad_field, "GET a replay");
        const std::string id(target.substr(
            kRecordPrefix.size(), target.size() - kRecordPrefix.size() - kReplaySuffix.size()));
        if (!protocol::valid_table_id(id))
            return respond.error(ErrorCode::not_found, "no table \"" + id + "\"");
        return respond.reply(http::status::ok,
                             table_replay(services.store, id, query_of(request.target())));
    }
    if (target.starts_with(kRecordPrefix)) {
        if (request.method() != http::verb::get)
            return respond.error(ErrorCode::bad_field, "GET a game record");
        const std::string id(target.substr(
            kRecordPrefix.size(), target.size() - kRecordPrefix.size() - kRecordSuffix.size()));
        const auto record =
            protocol::valid_table_id(id) ? table_record(services.store, id) : std::nullopt;
        if (!record) return respond.error(ErrorCode::not_found, "no table \"" + id + "\"");
        return respond.json(http::status::ok, *record);
    }
    if (target == "/api/email/confirm" || target == "/api/email/unsubscribe")
        return mail_link(services, respond, request, target, query_of(request.target()));
    if (is_password_target(target)) return password_api(services, respond, request, target);
    const bool reads =
        request.method() == http::verb::get && (target == "/api/webhook" || target == "/api/email");
    if (!post && !reads) return respond.error(ErrorCode::bad_field, "this endpoint takes POST");

    if (target == "/api/register" || target == "/api/login") {
        const auto body = respond.body({"name", "password"});
        if (!body) return respond.error(body.error());
        const std::string name = text_of(*body, "name");
        const std::string password = text_of(*body, "password");
        if (target == "/api/register") {
            if (const std::string token = respond.bearer_token(); !token.empty())
                return register_guest(services, respond, token, name, password);
            auto made = services.accounts.register_user(name, password);
            if (made) spdlog::info("user {} registered", made->user.id);
            return respond.session(http::status::created, made);
        }
        SessionOrError session = services.accounts.login(name, password);
        if (!session && Accounts::valid_account_name(name))
            services.password_attempts.failed(name, PasswordAttempts::Clock::now());
        return respond.session(http::status::ok, session);
    }

    const std::string token = respond.bearer_token();
    const auto user = services.accounts.resume(token);
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    if (target == "/api/email") return email_api(services, respond, request, *user);
    if (request.method() == http::verb::get) {
        const auto stored = services.store.user_by_id(user->id);
        return respond.json(http::status::ok, Json{{"webhook", stored ? stored->webhook : ""}});
    }
    if (target == "/api/logout") {
        services.accounts.logout(token);
        services.notifier.end_session(user->id, session_key(token));
        return respond.json(http::status::ok, Json{{"logged_out", true}});
    }
    // /api/webhook: {"url": "http://..."} sets the user's webhook, {"url": ""} removes it.
    const auto body = respond.body({"url"});
    if (!body) return respond.error(body.error());
    const std::string url = text_of(*body, "url");
    if (!url.empty() && !Webhooks::parse_webhook_url(url))
        return respond.error(ErrorCode::bad_field,
                             "\"url\" must be an http:// URL of at most 2048 characters");
    services.store.set_webhook(user->id, url);
    services.notifier.set_webhook(user->id, url);
    return respond.json(http::status::ok, Json{{"webhook", url}});
}

}  // namespace

bool is_api_target(std::string_view target) {
    target = target.substr(0, target.find('?'));
    return target == "/api/register" || target == "/api/login" || target == "/api/logout" ||
           target == "/api/webhook" || target == "/api/email" || target == "/api/email/confirm" ||
           target == "/api/email/unsubscribe" || target == "/api/vacation" ||
           target == "/api/preferences" || api::is_account_target(target) ||
           is_league_target(target) || is_social_target(target) ||
           api::is_password_target(target) || target == "/api/invitations" ||
           (target.starts_with(kRecordPrefix) &&
            (target.ends_with(kRecordSuffix) || target.ends_with(kReplaySuffix) ||
             target.ends_with(kAnalysisSuffix)));
}

bool hashes_password(std::string_view target) {
    target = target.substr(0, target.find('?'));
    // Deleting an account checks its password (the export, at its own target, does not).
    return target == "/api/register" || target == "/api/login" || target == "/api/account" ||
           api::is_password_target(target);
}

std::variant<PasswordAttempts::Ticket, http::response<http::string_body>> admit_password_attempt(
    Services& services, const http::request<http::string_body>& request,
    const std::string& address) {
    Responder respond(services, request);
    std::string account;
    if (request.target().starts_with("/api/login")) {
        // A body that names no account is refused later, after the address's limit; only valid
        // names are remembered (a login with another is refused without hashing).
        const auto body = respond.body({"name", "password"});
        if (body) account = text_of(*body, "name");
        if (!Accounts::valid_account_name(account)) account.clear();
    }
    auto admitted =
        services.password_attempts.admit(address, account, PasswordAttempts::Clock::now());
    if (auto* ticket = std::get_if<PasswordAttempts::Ticket>(&admitted)) return std::move(*ticket);
    const auto& refusal = std::get<PasswordAttempts::Refusal>(admitted);
    auto response = respond.error(ErrorCode::rate_limited,
                                  std::string(refusal.reason) + "; try again in " +
                                      std::to_string(refusal.retry_after.count()) + " s");
    response.set(http::field::retry_after, std::to_string(refusal.retry_after.count()));
    return response;
}

http::response<http::string_body> handle_api(Services& services,
                                             const http::request<http::string_body>& request) {
    try {
        return dispatch(services, request);
    } catch (const StorageFailure& error) {
        // The store failed to read or write: nothing was changed.
        spdlog::error("{} {}: {}", request.method_string(), request.target(), error.what());
        return Responder(services, request)
            .error(ErrorCode::storage_failed, "the server could not do that now; try again");
    } catch (const std::exception& error) {
        // A bug, not the request's fault nor the storage's: say so rather than blame the disk.
        spdlog::error("{} {}: {}", request.method_string(), request.target(), error.what());
        return Responder(services, request)
            .error(ErrorCode::internal, "the server failed to answer this request");
    }
}

}  // namespace gcor::server
