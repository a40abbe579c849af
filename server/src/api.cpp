#include "api.hpp"

#include <spdlog/spdlog.h>

#include "accounts.hpp"
#include "gcor/protocol/game_json.hpp"
#include "notifier.hpp"
#include "store.hpp"
#include "webhooks.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kMaxApiBody = 4096;  // a name, a password, a URL
constexpr std::string_view kRecordPrefix = "/api/tables/";
constexpr std::string_view kRecordSuffix = "/record";

http::status status_of(ErrorCode code) {
    switch (code) {
        case ErrorCode::bad_credentials:
        case ErrorCode::bad_token:
            return http::status::unauthorized;
        case ErrorCode::name_taken:
            return http::status::conflict;
        case ErrorCode::not_found:
            return http::status::not_found;
        case ErrorCode::storage_failed:
            return http::status::service_unavailable;
        case ErrorCode::internal:
            return http::status::internal_server_error;
        default:
            return http::status::bad_request;
    }
}

class Responder {
  public:
    Responder(Services& services, const http::request<http::string_body>& request)
        : services_(services), request_(request) {}

    http::response<http::string_body> json(http::status status, const Json& body) const {
        http::response<http::string_body> response{status, request_.version()};
        response.set(http::field::server, "cor-server");
        response.set(http::field::content_type, "application/json");
        response.set(http::field::cache_control, "no-store");
        response.keep_alive(request_.keep_alive());
        response.body() = body.dump();
        response.prepare_payload();
        return response;
    }
    http::response<http::string_body> error(ErrorCode code, std::string_view message) const {
        services_.metrics.count_error(code);
        return json(status_of(code), protocol::error_json(code, message, Json()));
    }
    http::response<http::string_body> session(http::status status, const SessionOrError& made) {
        if (const auto* failed = std::get_if<AccountError>(&made))
            return error(failed->code, failed->message);
        const Session& session = std::get<Session>(made);
        return json(status, Json{{"user", {{"id", session.user.id}, {"name", session.user.name}}},
                                 {"token", session.token},
                                 {"expires", session.expires}});
    }
    // The body as a JSON object with only string members among `allowed`.
    std::optional<Json> body(std::initializer_list<std::string_view> allowed,
                             std::string& why) const {
        if (request_.body().size() > kMaxApiBody) {
            why = "the request body is larger than 4096 bytes";
            return std::nullopt;
        }
        Json parsed = Json::parse(request_.body(), nullptr, false);
        if (parsed.is_discarded() || !parsed.is_object()) {
            why = "the request body must be a JSON object";
            return std::nullopt;
        }
        for (const auto& [key, value] : parsed.items()) {
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                why = "unknown field \"" + key + "\"";
                return std::nullopt;
            }
            if (!value.is_string()) {
                why = "\"" + key + "\" must be a string";
                return std::nullopt;
            }
        }
        return parsed;
    }
    // "Authorization: Bearer <token>".
    std::string bearer_token() const {
        const std::string_view header = request_[http::field::authorization];
        constexpr std::string_view kBearer = "Bearer ";
        return header.starts_with(kBearer) ? std::string(header.substr(kBearer.size()))
                                           : std::string();
    }

  private:
    Services& services_;
    const http::request<http::string_body>& request_;
};

std::string text_of(const Json& body, const char* key) {
    const auto it = body.find(key);
    return it == body.end() ? std::string() : it->get<std::string>();
}

// The whole record of a finished game, which `cor replay` checks; before the end only what is
// public (no seed, no moves: moves name cards that some seats have not seen).
std::optional<Json> table_record(Store& store, const std::string& id) {
    const auto found = store.find_table(id);
    if (!found) return std::nullopt;
    const Json settings = Json::parse(found->settings, nullptr, false);
    Json names = Json::array();
    for (const StoredSeat& seat : found->seats)
        names.push_back(seat.name);
    if (found->status != "finished") {
        Json record{{"table", id},
                    {"options", settings.value("options", Json())},
                    {"names", std::move(names)},
                    {"status", found->status},
                    {"version", found->version}};
        if (found->status == "playing") record["commitment"] = found->commitment;
        return record;
    }
    const auto loaded = store.load_table(id);
    const auto options = protocol::parse_options(settings.value("options", Json()));
    if (!loaded || !options) return std::nullopt;
    protocol::GameRecord game;
    game.options = *options;
    game.seed = loaded->table.seed;
    game.commitment = loaded->table.commitment;
    game.nonce = loaded->table.nonce;
    for (std::size_t seat = 0; seat < loaded->table.seats.size(); ++seat)
        if (loaded->table.seats[seat].forfeited)
            game.forfeited = static_cast<std::uint8_t>(game.forfeited | 1u << seat);
    for (const StoredMove& stored : loaded->moves) {
        const auto move = engine::Move::parse(stored.move);
        if (!move) return std::nullopt;
        game.moves.push_back(*move);
    }
    const protocol::Replay replayed = protocol::replay(game);
    if (replayed.refused_index) return std::nullopt;
    Json record{{"table", id}, {"names", std::move(names)}};
    record.update(protocol::record_to_json(game, &replayed.state));
    return record;
}

}  // namespace

bool is_api_target(std::string_view target) {
    target = target.substr(0, target.find('?'));
    return target == "/api/register" || target == "/api/login" || target == "/api/logout" ||
           target == "/api/webhook" ||
           (target.starts_with(kRecordPrefix) && target.ends_with(kRecordSuffix));
}

http::response<http::string_body> handle_api(Services& services,
                                             const http::request<http::string_body>& request) {
    Responder respond(services, request);
    std::string_view target = request.target();
    target = target.substr(0, target.find('?'));
    const bool post = request.method() == http::verb::post;
    std::string why;

    if (target.starts_with(kRecordPrefix)) {
        if (request.method() != http::verb::get)
            return respond.error(ErrorCode::bad_field, "GET a game record");
        const std::string id(target.substr(
            kRecordPrefix.size(), target.size() - kRecordPrefix.size() - kRecordSuffix.size()));
        const auto record = table_record(services.store, id);
        if (!record) return respond.error(ErrorCode::not_found, "no table \"" + id + "\"");
        return respond.json(http::status::ok, *record);
    }
    if (!post) return respond.error(ErrorCode::bad_field, "this endpoint takes POST");

    if (target == "/api/register" || target == "/api/login") {
        const auto body = respond.body({"name", "password"}, why);
        if (!body) return respond.error(ErrorCode::bad_json, why);
        const std::string name = text_of(*body, "name");
        const std::string password = text_of(*body, "password");
        if (target == "/api/register") {
            auto made = services.accounts.register_user(name, password);
            if (std::holds_alternative<Session>(made))
                spdlog::info("user {} registered", std::get<Session>(made).user.id);
            return respond.session(http::status::created, made);
        }
        return respond.session(http::status::ok, services.accounts.login(name, password));
    }

    const std::string token = respond.bearer_token();
    const auto user = services.accounts.resume(token);
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    if (target == "/api/logout") {
        services.accounts.logout(token);
        return respond.json(http::status::ok, Json{{"logged_out", true}});
    }
    // /api/webhook: {"url": "http://..."} sets the user's webhook, {"url": ""} removes it.
    const auto body = respond.body({"url"}, why);
    if (!body) return respond.error(ErrorCode::bad_json, why);
    const std::string url = text_of(*body, "url");
    if (!url.empty() && !Webhooks::parse_webhook_url(url))
        return respond.error(ErrorCode::bad_field,
                             "\"url\" must be an http:// URL of at most 2048 characters");
    services.store.set_webhook(user->id, url);
    services.notifier.set_webhook(user->id, url);
    return respond.json(http::status::ok, Json{{"webhook", url}});
}

}  // namespace gcor::server
