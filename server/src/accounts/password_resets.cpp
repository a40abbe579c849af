#include "accounts/password_resets.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include "accounts/accounts.hpp"
#include "crypto.hpp"
#include "notify/mail_message.hpp"
#include "notify/mailer.hpp"

namespace gcor::server {

using protocol::ErrorCode;

PasswordAttempts::Limits PasswordResets::attempts_limits(Limits limits) {
    PasswordAttempts::Limits attempts;
    attempts.address_burst = limits.burst;
    attempts.address_every = limits.every;
    return attempts;
}

std::optional<std::pair<protocol::Error, std::chrono::seconds>> PasswordResets::forgot(
    std::string_view address, PasswordAttempts::Clock::time_point now) {
    if (!valid_mail_address(address))
        return std::pair{protocol::Error{ErrorCode::bad_field,
                                         "\"email\" must be an address such as ann@example.org"},
                         std::chrono::seconds(0)};
    if (!mailer_.enabled())
        return std::pair{protocol::Error{ErrorCode::mail_unavailable,
                                         "this server sends no mail (it has no SMTP relay)"},
                         std::chrono::seconds(0)};
    std::string key(address);
    std::ranges::transform(key, key.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto admitted = mails_.admit(key, "", now);
    if (const auto* refusal = std::get_if<PasswordAttempts::Refusal>(&admitted))
        return std::pair{protocol::Error{ErrorCode::rate_limited,
                                         "too many password mails asked for this address; try "
                                         "again in " +
                                             std::to_string(refusal->retry_after.count()) + " s"},
                         refusal->retry_after};
    for (const StoredEmail& email : store_.confirmed_emails(key)) {
        const auto user = store_.user_by_id(email.user);
        if (!user || user->guest) continue;
        const std::string token = new_token();
        store_.add_password_reset(user->id, token_hash(token), unix_now_ms() + kLinkLifetime);
        mailer_.password_reset(email, user->name, token);
        spdlog::info("user {} asked for a password reset", user->id);
    }
    return std::nullopt;
}

protocol::Expected<PasswordReset> PasswordResets::reset(std::string_view token,
                                                        std::string_view password, UnixMs now) {
    const protocol::Error unknown{ErrorCode::bad_token,
                                  "this link does not work: it was used already, or a newer one "
                                  "was mailed since"};
    const bool well_formed = token.size() == 64 && std::ranges::all_of(token, [](char c) {
                                 return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                             });
    if (!well_formed) return unknown;
    const std::string hash = token_hash(token);
    const auto waiting = store_.password_reset(hash);
    if (!waiting) return unknown;
    if (waiting->expires <= now)
        return protocol::Error{ErrorCode::token_expired,
                               "this link is more than an hour old: ask for a new one"};
    if (const auto refused = Accounts::password_refusal(password)) return *refused;
    const auto ended = store_.use_password_reset(hash, hash_password(password));
    if (!ended) return unknown;  // used meanwhile, by another request
    PasswordReset reset{waiting->user, {}};
    for (const std::string& session : *ended)
        reset.ended_sessions.push_back(session_key_of_hash(session));
    return reset;
}

}  // namespace gcor::server
