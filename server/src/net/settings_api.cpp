#include "net/settings_api.hpp"

#include <spdlog/spdlog.h>

#include <array>

#include "accounts/preferences.hpp"
#include "accounts/vacations.hpp"
#include "notify/mail_message.hpp"
#include "notify/mailer.hpp"
#include "tables/lobby.hpp"

namespace gcor::server::api {
namespace {

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

}  // namespace

Json email_json(Services& services, std::uint64_t user) {
    const auto email = services.mailer.choices().email_of(user);
    return Json{{"available", services.mailer.enabled()},
                {"email", email ? Json(email->address) : Json()},
                {"confirmed", email && email->confirmed},
                {"frequency", frequency_id(email ? email->frequency : MailFrequency::each_turn)},
                {"language", email ? email->language : std::string("en")},
                {"invitations", !email || email->invitation_mails}};
}

namespace {

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

}  // namespace

// The links in mails, which open without signing in: /api/email/confirm?token=...,
// /api/email/unsubscribe?user=...&sig=... (GET shows a button, POST unsubscribes: RFC 8058).
http::response<http::string_body> mail_link(Services& services, Responder& respond,
                                            const http::request<http::string_body>& request,
                                            std::string_view path, std::string_view query) {
    if (path == "/api/email/confirm") {
        if (request.method() != http::verb::get)
            return respond.error(ErrorCode::bad_field, "GET the confirmation link");
        const std::string_view token = query_value(query, "token");
        const auto user = lowercase_hex(token, 64)
                              ? services.mailer.choices().confirm(std::string(token))
                              : std::nullopt;
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

// GET /api/email: the address, whether it is confirmed, how often to mail, in which language,
// whether to mail invitations, and whether this server mails at all. POST {"email"?,
// "frequency"?, "language"?, "invitations"?}: a new address ("" removes it) is confirmed by a
// mailed link; the frequency is each_turn, daily or off; the language en or de; invitations
// true or false.
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
    // "invitations" is the one member that is not a string.
    auto body = respond.object_body();
    if (!body) return respond.error(body.error());
    std::optional<bool> invitations;
    if (const auto member = body->find("invitations"); member != body->end()) {
        if (!member->is_boolean())
            return respond.error(ErrorCode::bad_field, "\"invitations\" must be true or false");
        invitations = member->get<bool>();
        body->erase(member);
    }
    body = Responder::only_texts(std::move(*body), {"email", "frequency", "language"});
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
    const auto current = services.mailer.choices().email_of(user.id);
    const bool has_address = address ? !address->empty() : current.has_value();
    if (frequency && !has_address)
        return respond.error(ErrorCode::not_found, "add an address before choosing how often");
    if (language && !has_address)
        return respond.error(ErrorCode::not_found, "add an address before choosing a language");
    if (invitations && !has_address)
        return respond.error(ErrorCode::not_found,
                             "add an address before choosing whether to mail invitations");
    if (address && address->empty()) {
        services.mailer.choices().remove_address(user.id);
    } else if (address && (!current || current->address != *address || !current->confirmed)) {
        // The same address again while unconfirmed sends a new link, in the language asked for
        // or the one the address had.
        const auto kept = current ? protocol::parse_language(current->language) : std::nullopt;
        services.mailer.set_address(user.id, user.name, *address,
                                    language.value_or(kept.value_or(protocol::Language::en)));
        language.reset();  // set with the address
    }
    if (language) services.mailer.choices().set_language(user.id, *language);
    if (frequency) services.mailer.choices().set_frequency(user.id, *frequency);
    if (invitations) services.mailer.choices().set_invitation_mails(user.id, *invitations);
    return respond.json(http::status::ok, email_json(services, user.id));
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

http::response<http::string_body> preferences_api(Services& services, Responder& respond,
                                                  const http::request<http::string_body>& request) {
    const http::verb method = request.method();
    if (method != http::verb::get && method != http::verb::post)
        return respond.error(ErrorCode::bad_field, "this endpoint takes GET or POST");
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    if (method == http::verb::get)
        return respond.json(http::status::ok, preferences_json(services, user->id));
    const auto body = respond.object_body();
    if (!body) return respond.error(body.error());
    UserPreferences preferences = services.preferences.of(user->id);
    for (const auto& [key, value] : body->items()) {
        if (key != "confirm_turn")
            return respond.error(ErrorCode::bad_field, "unknown field \"" + key + "\"");
        if (!value.is_boolean())
            return respond.error(ErrorCode::bad_field, "\"confirm_turn\" must be true or false");
        preferences.confirm_turn = value.get<bool>();
    }
    if (!body->empty()) services.preferences.set(user->id, preferences);
    return respond.json(http::status::ok, preferences_json(services, user->id));
}

}  // namespace gcor::server::api
