#include "net/password_api.hpp"

#include <spdlog/spdlog.h>

#include "accounts/password_resets.hpp"
#include "notify/notifier.hpp"
#include "tables/lobby.hpp"

namespace gcor::server::api {
namespace {

constexpr std::string_view kChange = "/api/password";
constexpr std::string_view kForgot = "/api/password/forgot";
constexpr std::string_view kReset = "/api/password/reset";

void end_sessions(Services& services, std::uint64_t user, const std::vector<std::uint64_t>& keys) {
    for (const std::uint64_t key : keys)
        services.notifier.end_session(user, key);
}

http::response<http::string_body> refused_for(Responder& respond, const protocol::Error& refused,
                                              std::chrono::seconds retry_after) {
    auto response = respond.error(refused);
    if (refused.code == ErrorCode::rate_limited)
        response.set(http::field::retry_after, std::to_string(retry_after.count()));
    return response;
}

http::response<http::string_body> change_password(Services& services, Responder& respond) {
    const std::string token = respond.bearer_token();
    const auto user = services.accounts.resume(token);
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    const auto body = respond.body({"old", "new"});
    if (!body) return respond.error(body.error());
    if (!body->contains("old") || !body->contains("new"))
        return respond.error(ErrorCode::bad_field, "send \"old\" and \"new\"");
    // The account's limit on wrong passwords is a login's: a stolen session cannot guess the
    // password faster than a login could.
    const auto now = PasswordAttempts::Clock::now();
    if (!user->guest)
        if (const auto refusal = services.password_attempts.account_refusal(user->name, now))
            return refused_for(
                respond,
                protocol::Error{ErrorCode::rate_limited,
                                std::string(refusal->reason) + "; try again in " +
                                    std::to_string(refusal->retry_after.count()) + " s"},
                refusal->retry_after);
    const auto ended = services.accounts.change_password(*user, token, text_of(*body, "old"),
                                                         text_of(*body, "new"));
    if (!ended) {
        if (ended.error().code == ErrorCode::bad_credentials)
            services.password_attempts.failed(user->name, now);
        return respond.error(ended.error());
    }
    end_sessions(services, user->id, *ended);
    spdlog::info("user {} changed the password; {} other sessions ended", user->id, ended->size());
    return respond.json(http::status::ok,
                        Json{{"changed", true}, {"sessions_ended", ended->size()}});
}

}  // namespace

bool is_password_target(std::string_view target) {
    return target == kChange || target == kForgot || target == kReset;
}

http::response<http::string_body> password_api(Services& services, Responder& respond,
                                               const http::request<http::string_body>& request,
                                               std::string_view target) {
    if (request.method() != http::verb::post)
        return respond.error(ErrorCode::bad_field, "this endpoint takes POST");
    if (target == kChange) return change_password(services, respond);
    if (target == kForgot) {
        const auto body = respond.body({"email"});
        if (!body) return respond.error(body.error());
        if (!body->contains("email")) return respond.error(ErrorCode::bad_field, "send \"email\"");
        const auto refused = services.password_resets.forgot(text_of(*body, "email"),
                                                             PasswordAttempts::Clock::now());
        if (refused) return refused_for(respond, refused->first, refused->second);
        // The same answer whether the address is known or not: addresses are not revealed.
        return respond.json(http::status::accepted, Json{{"accepted", true}});
    }
    const auto body = respond.body({"token", "password"});
    if (!body) return respond.error(body.error());
    if (!body->contains("token") || !body->contains("password"))
        return respond.error(ErrorCode::bad_field, "send \"token\" and \"password\"");
    const auto reset = services.password_resets.reset(text_of(*body, "token"),
                                                      text_of(*body, "password"), unix_now_ms());
    if (!reset) return respond.error(reset.error());
    end_sessions(services, reset->user, reset->ended_sessions);
    spdlog::info("user {} reset the password; {} sessions ended", reset->user,
                 reset->ended_sessions.size());
    const auto user = services.store.user_by_id(reset->user);
    if (!user) return respond.error(ErrorCode::internal, "the account is gone");
    return respond.json(http::status::ok,
                        Json{{"user", account_json(services, User{user->id, user->name, false})}});
}

http::response<http::string_body> register_guest(Services& services, Responder& respond,
                                                 const std::string& token, const std::string& name,
                                                 const std::string& password) {
    const auto guest = services.accounts.resume(token);
    if (!guest)
        return respond.error(ErrorCode::bad_token,
                             "the guest's session token is unknown or expired; register without "
                             "one for a new account");
    auto registered = services.accounts.register_guest(*guest, name, password);
    if (!registered) return respond.error(registered.error());
    end_sessions(services, guest->id, registered->ended_sessions);
    services.lobby.rename_player(guest->id, name);
    spdlog::info("guest {} registered", guest->id);
    return respond.session(http::status::created, std::move(registered->session));
}

}  // namespace gcor::server::api
