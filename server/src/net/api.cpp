#include "net/api.hpp"

#include <spdlog/spdlog.h>

#include <charconv>

#include "accounts/accounts.hpp"
#include "accounts/vacations.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/view_json.hpp"
#include "gcor/store/store.hpp"
#include "leagues/leagues.hpp"
#include "net/http_response.hpp"
#include "notify/mail_message.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "notify/webhooks.hpp"
#include "ratings/ratings.hpp"
#include "tables/lobby.hpp"
#include "tables/stored_game.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {

protocol::Json account_json(Services& services, const User& user) {
    protocol::Json about{{"id", user.id}, {"name", user.name}, {"guest", user.guest}};
    if (services.leagues.is_admin(user)) about["admin"] = true;
    return about;
}

namespace {

using protocol::ErrorCode;
using protocol::Expected;
using protocol::Json;

constexpr std::size_t kMaxApiBody = 4096;  // a name, a password, a URL
constexpr std::string_view kRecordPrefix = "/api/tables/";
constexpr std::string_view kRecordSuffix = "/record";
constexpr std::string_view kReplaySuffix = "/replay";

http::status status_of(ErrorCode code) {
    switch (code) {
        case ErrorCode::bad_credentials:
        case ErrorCode::bad_token:
            return http::status::unauthorized;
        case ErrorCode::name_taken:
        case ErrorCode::wrong_state:
            return http::status::conflict;
        case ErrorCode::forbidden:
        case ErrorCode::registered_only:
            return http::status::forbidden;
        case ErrorCode::not_found:
            return http::status::not_found;
        case ErrorCode::rate_limited:
            return http::status::too_many_requests;
        case ErrorCode::storage_failed:
        case ErrorCode::mail_unavailable:
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
        // A message may quote the target, whose bytes need not be UTF-8.
        return string_response(
            status, request_.version(), request_.keep_alive(), "application/json",
            body.dump(-1, ' ', false, Json::error_handler_t::replace), "no-store");
    }
    // A small page for a link opened from a mail: a heading, a paragraph, maybe a form.
    http::response<http::string_body> page(http::status status, std::string_view title,
                                           std::string_view html_body) const {
        std::string html =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\"><title>";
        html.append(title).append(" — The Great City of Rome</title></head><body><h1>");
        html.append(title).append("</h1>\n").append(html_body);
        html += "\n<p><a href=\"/\">The Great City of Rome</a></p></body></html>\n";
        return string_response(status, request_.version(), request_.keep_alive(),
                               "text/html; charset=utf-8", std::move(html), "no-store");
    }
    http::response<http::string_body> error(ErrorCode code, std::string_view message) const {
        services_.metrics.count_error(code);
        return json(status_of(code), protocol::error_json(code, message, Json()));
    }
    http::response<http::string_body> reply(http::status status, const Reply& reply) const {
        if (!reply) return error(reply.error());
        return json(status, *reply);
    }
    // The body as a JSON object (an empty body is an empty object); errors as the WebSocket
    // protocol gives them (bad_json, too_deep, bad_field for a member given twice).
    Expected<Json> object_body() const {
        if (request_.body().empty()) return Json::object();
        if (request_.body().size() > kMaxApiBody)
            return protocol::Error{protocol::ErrorCode::bad_json,
                                   "the request body is larger than 4096 bytes"};
        auto parsed = protocol::parse_json_document(request_.body(), protocol::Limits{}.max_depth);
        if (parsed && !parsed->is_object())
            return protocol::Error{protocol::ErrorCode::bad_json,
                                   "the request body must be a JSON object"};
        return parsed;
    }
    http::response<http::string_body> session(http::status status, const SessionOrError& made) {
        if (!made) return error(made.error());
        const Session& session = *made;
        return json(status, Json{{"user", account_json(services_, session.user)},
                                 {"token", session.token},
                                 {"expires", session.expires}});
    }
    // The body as a JSON object with only string members among `allowed`.
    Expected<Json> body(std::initializer_list<std::string_view> allowed) const {
        auto parsed = object_body();
        if (!parsed) return parsed;
        for (const auto& [key, value] : parsed->items()) {
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
                return protocol::Error{protocol::ErrorCode::bad_field,
                                       "unknown field \"" + key + "\""};
            if (!value.is_string())
                return protocol::Error{protocol::ErrorCode::bad_field,
                                       "\"" + key + "\" must be a string"};
        }
        return parsed;
    }
    http::response<http::string_body> error(const protocol::Error& refused) const {
        return error(refused.code, refused.message);
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

// A positive decimal number of at most 18 digits.
std::optional<std::uint64_t> number_of(std::string_view text) {
    std::uint64_t value = 0;
    if (text.empty() || text.size() > 18 || text.front() == '0') return std::nullopt;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
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

// What follows the '?' of a target; empty without one.
std::string_view query_of(std::string_view target) {
    const auto query = target.find('?');
    return query == std::string_view::npos ? std::string_view() : target.substr(query + 1);
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
        const auto user = path.size() == 2 ? number_of(path[1]) : std::nullopt;
        if (!user) return no_such();
        if (!get) return respond.error(ErrorCode::bad_field, "GET a player's profile");
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

// The value of `key` in a query ("a=1&b=2"); empty when missing.
std::string_view query_value(std::string_view query, std::string_view key) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        if (pair.size() > key.size() && pair.starts_with(key) && pair[key.size()] == '=')
            return pair.substr(key.size() + 1);
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return {};
}

bool lowercase_hex(std::string_view text, std::size_t length) {
    return text.size() == length && std::ranges::all_of(text, [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::string_view frequency_id(MailFrequency frequency) {
    static constexpr std::array<std::string_view, 3> kIds{"each_turn", "daily", "off"};
    return kIds.at(static_cast<std::size_t>(frequency));
}

std::optional<MailFrequency> frequency_from_id(std::string_view id) {
    for (const MailFrequency frequency :
         {MailFrequency::each_turn, MailFrequency::daily, MailFrequency::off})
        if (frequency_id(frequency) == id) return frequency;
    return std::nullopt;
}

Json email_json(Services& services, std::uint64_t user) {
    const auto email = services.mailer.email_of(user);
    return Json{{"available", services.mailer.enabled()},
                {"email", email ? Json(email->address) : Json()},
                {"confirmed", email && email->confirmed},
                {"frequency", frequency_id(email ? email->frequency : MailFrequency::each_turn)},
                {"language", email ? email->language : std::string("en")}};
}

// The links in mails, which open without signing in: /api/email/confirm?token=...,
// /api/email/unsubscribe?user=...&sig=... (GET shows a button, POST unsubscribes: RFC 8058).
http::response<http::string_body> mail_link(Services& services, Responder& respond,
                                            const http::request<http::string_body>& request,
                                            std::string_view path, std::string_view query) {
    if (path == "/api/email/confirm") {
        if (request.method() != http::verb::get)
            return respond.error(ErrorCode::bad_field, "GET the confirmation link");
        const std::string_view token = query_value(query, "token");
        const auto user =
            lowercase_hex(token, 64) ? services.mailer.confirm(std::string(token)) : std::nullopt;
        if (!user)
            return respond.page(http::status::not_found, "This link does not work",
                                "<p>It was used already, it is more than 24 hours old, or "
                                "another address was given since. Add your address again on "
                                "the <a href=\"/#/settings\">settings page</a>.</p>");
        spdlog::info("user {} confirmed an e-mail address", *user);
        return respond.page(http::status::ok, "Your address is confirmed",
                            "<p>Mails about your turns will come to it. Choose how often on the "
                            "<a href=\"/#/settings\">settings page</a>.</p>");
    }
    const auto user = number_of(query_value(query, "user"));
    const std::string_view signature = query_value(query, "sig");
    if (!user || !lowercase_hex(signature, 64))
        return respond.page(http::status::not_found, "This link does not work",
                            "<p>It is not a link the server made.</p>");
    if (request.method() == http::verb::get) {
        // Only a POST unsubscribes: programs that fetch links in mails must not.
        return respond.page(http::status::ok, "Stop turn mails?",
                            "<form method=\"post\"><button type=\"submit\" "
                            "name=\"List-Unsubscribe\" value=\"One-Click\">Stop the mails"
                            "</button></form>");
    }
    if (request.method() != http::verb::post)
        return respond.error(ErrorCode::bad_field, "POST to unsubscribe");
    if (!services.mailer.unsubscribe(*user, std::string(signature)))
        return respond.page(http::status::not_found, "This link does not work",
                            "<p>It is not a link the server made.</p>");
    return respond.page(http::status::ok, "No more turn mails",
                        "<p>You will get no more mails about your games. You can turn them on "
                        "again on the <a href=\"/#/settings\">settings page</a>.</p>");
}

// GET /api/email: the address, whether it is confirmed, how often to mail, in which language, and
// whether this server mails at all. POST {"email"?, "frequency"?, "language"?}: a new address (""
// removes it) is confirmed by a mailed link; the frequency is each_turn, daily or off; the language
// en or de.
http::response<http::string_body> email_api(Services& services, Responder& respond,
                                            const http::request<http::string_body>& request,
                                            const User& user) {
    if (request.method() == http::verb::get)
        return respond.json(http::status::ok, email_json(services, user.id));
    if (request.method() != http::verb::post)
        return respond.error(ErrorCode::bad_field, "GET or POST /api/email");
    if (user.guest)
        return respond.error(ErrorCode::registered_only, "guests cannot receive mail: register");
    if (!services.mailer.enabled())
        return respond.error(ErrorCode::mail_unavailable,
                             "this server sends no mail (it has no SMTP relay)");
    const auto body = respond.body({"email", "frequency", "language"});
    if (!body) return respond.error(body.error());
    std::optional<protocol::Language> language;
    if (body->contains("language")) {
        language = protocol::parse_language(text_of(*body, "language"));
        if (!language) return respond.error(ErrorCode::bad_field, "\"language\" must be en or de");
    }
    std::optional<MailFrequency> frequency;
    if (body->contains("frequency")) {
        frequency = frequency_from_id(text_of(*body, "frequency"));
        if (!frequency)
            return respond.error(ErrorCode::bad_field,
                                 "\"frequency\" must be each_turn, daily or off");
    }
    std::optional<std::string> address;
    if (body->contains("email")) {
        address = text_of(*body, "email");
        if (!address->empty() && !valid_mail_address(*address))
            return respond.error(ErrorCode::bad_field,
                                 "\"email\" must be an address such as ann@example.org");
    }
    // Everything is checked before anything changes: a refused request changes nothing.
    const auto current = services.mailer.email_of(user.id);
    const bool has_address = address ? !address->empty() : current.has_value();
    if (frequency && !has_address)
        return respond.error(ErrorCode::not_found, "add an address before choosing how often");
    if (language && !has_address)
        return respond.error(ErrorCode::not_found, "add an address before choosing a language");
    if (address && address->empty()) {
        services.mailer.remove_address(user.id);
    } else if (address && (!current || current->address != *address || !current->confirmed)) {
        // The same address again while unconfirmed sends a new link, in the language asked for
        // or the one the address had.
        const auto kept = current ? protocol::parse_language(current->language) : std::nullopt;
        services.mailer.set_address(user.id, user.name, *address,
                                    language.value_or(kept.value_or(protocol::Language::en)));
        language.reset();  // set with the address
    }
    if (language) services.mailer.set_language(user.id, *language);
    if (frequency) services.mailer.set_frequency(user.id, *frequency);
    return respond.json(http::status::ok, email_json(services, user.id));
}

Json vacation_json(const VacationState& state) {
    Json vacation;
    if (state.vacation)
        vacation = Json{{"from", state.vacation->starts}, {"to", state.vacation->ends}};
    return Json{{"vacation", std::move(vacation)},
                {"days_left", state.days_left},
                {"days_per_year", state.days_per_year}};
}

// A time in the body: an integer number of milliseconds since 1970 up to 2^53 (what a
// JavaScript number holds exactly); nullopt when the member is missing.
Expected<std::optional<UnixMs>> time_member(const Json& body, const char* key) {
    const auto it = body.find(key);
    if (it == body.end()) return std::optional<UnixMs>();
    constexpr std::int64_t kMax = std::int64_t{1} << 53;
    if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > kMax)
        return protocol::Error{
            ErrorCode::bad_field,
            "\"" + std::string(key) + "\" must be a whole number of milliseconds since 1970"};
    return std::optional<UnixMs>(it->get<std::int64_t>());
}

// /api/vacation (docs/protocol.md, "Vacations"): GET the user's, POST {"from"?, "to"} declares
// one, DELETE ends the running one or removes the coming one. Registered users only.
http::response<http::string_body> vacation_api(Services& services, Responder& respond,
                                               const http::request<http::string_body>& request) {
    const http::verb method = request.method();
    if (method != http::verb::get && method != http::verb::post && method != http::verb::delete_)
        return respond.error(ErrorCode::bad_field, "this endpoint takes GET, POST or DELETE");
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    if (user->guest)
        return respond.error(ErrorCode::registered_only, "only registered players take vacations");
    const UnixMs now = unix_now_ms();
    if (method == http::verb::get)
        return respond.json(http::status::ok,
                            vacation_json(services.vacations.state(user->id, now)));
    const auto body = respond.object_body();
    if (!body) return respond.error(body.error());
    if (method == http::verb::delete_) {
        if (!body->empty())
            return respond.error(ErrorCode::bad_field, "this request takes no fields");
        VacationState state;
        services.lobby.change_vacation(user->id, [&] {
            state = services.vacations.end(user->id, now);
            return true;
        });
        return respond.json(http::status::ok, vacation_json(state));
    }
    for (const auto& [key, value] : body->items())
        if (key != "from" && key != "to")
            return respond.error(ErrorCode::bad_field, "unknown field \"" + key + "\"");
    const auto from = time_member(*body, "from");
    if (!from) return respond.error(from.error());
    const auto to = time_member(*body, "to");
    if (!to) return respond.error(to.error());
    if (!*to) return respond.error(ErrorCode::bad_field, "\"to\" is missing");
    std::optional<protocol::Expected<VacationState>> declared;
    services.lobby.change_vacation(user->id, [&] {
        declared = services.vacations.declare(user->id, *from, **to, now);
        return declared->has_value();
    });
    if (!*declared) return respond.error(declared->error());
    return respond.json(http::status::ok, vacation_json(**declared));
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
    const bool reads =
        request.method() == http::verb::get && (target == "/api/webhook" || target == "/api/email");
    if (!post && !reads) return respond.error(ErrorCode::bad_field, "this endpoint takes POST");

    if (target == "/api/register" || target == "/api/login") {
        const auto body = respond.body({"name", "password"});
        if (!body) return respond.error(body.error());
        const std::string name = text_of(*body, "name");
        const std::string password = text_of(*body, "password");
        if (target == "/api/register") {
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
           is_league_target(target) ||
           (target.starts_with(kRecordPrefix) &&
            (target.ends_with(kRecordSuffix) || target.ends_with(kReplaySuffix)));
}

bool hashes_password(std::string_view target) {
    target = target.substr(0, target.find('?'));
    return target == "/api/register" || target == "/api/login";
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
