#include "net/tournament_api.hpp"

#include "accounts/accounts.hpp"
#include "tournaments/tournaments.hpp"

namespace gcor::server::api {

bool is_tournament_target(std::string_view path) {
    return path == "/api/tournaments" || path.starts_with("/api/tournaments/");
}

http::response<http::string_body> tournament_api(Services& services, Responder& respond,
                                                 const http::request<http::string_body>& request,
                                                 std::string_view path) {
    constexpr std::string_view kPrefix = "/api/tournaments";
    std::string_view rest = path.substr(kPrefix.size());
    const auto no_such = [&] {
        return respond.error(ErrorCode::not_found, "no such resource: " + std::string(path));
    };
    // "" | "/{id}" | "/{id}/{action}"
    std::optional<std::uint64_t> id;
    std::string_view action;
    if (!rest.empty()) {
        rest.remove_prefix(1);
        const auto slash = rest.find('/');
        id = number_of(rest.substr(0, slash));
        if (!id) return no_such();
        if (slash != std::string_view::npos) {
            action = rest.substr(slash + 1);
            if (action != "join" && action != "leave" && action != "start") return no_such();
        }
    }
    const std::string token = respond.bearer_token();
    const auto user = token.empty() ? std::nullopt : services.accounts.resume(token);
    Tournaments& tournaments = services.tournaments;
    if (request.method() == http::verb::get) {
        if (!action.empty()) return no_such();
        if (!id) return respond.json(http::status::ok, tournaments.list(user));
        return respond.reply(http::status::ok, tournaments.detail(*id, user));
    }
    if (request.method() != http::verb::post)
        return respond.error(ErrorCode::bad_field, "this endpoint takes GET or POST");
    if (id && action.empty()) return respond.error(ErrorCode::bad_field, "GET a tournament");
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    const auto body = respond.object_body();
    if (!body) return respond.error(body.error());
    if (!id) return respond.reply(http::status::created, tournaments.create(*user, *body));
    if (!body->empty()) return respond.error(ErrorCode::bad_field, "this request takes no fields");
    if (action == "join") return respond.reply(http::status::ok, tournaments.join(*user, *id));
    if (action == "leave") return respond.reply(http::status::ok, tournaments.leave(*user, *id));
    return respond.reply(http::status::ok, tournaments.start(*user, *id));
}

}  // namespace gcor::server::api
