#include "net/invitations.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>

#include "accounts/accounts.hpp"
#include "accounts/vacations.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "tables/table_record.hpp"
#include "tables/table_seats.hpp"

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

// Open invitations a user is shown at most.
constexpr std::size_t kInvitationsListed = 100;

Json invitation_json(const Json& table, const User& host) {
    return Json{{"type", "invitation"},
                {"table", table},
                {"from", Json{{"user", host.id}, {"name", host.name}}}};
}

}  // namespace

protocol::Expected<std::vector<User>> resolve_invitees(
    AccountStore& accounts, const Blocks& blocks, const User& host,
    const std::vector<protocol::requests::Invitee>& invitees) {
    std::vector<User> found;
    for (const protocol::requests::Invitee& invitee : invitees) {
        const auto user = invitee.user != 0 ? accounts.user_by_id(invitee.user)
                                            : accounts.user_by_name(invitee.name);
        const std::string named = invitee.user != 0 ? std::to_string(invitee.user) : invitee.name;
        // The one place where an invitee is accepted or not. Whoever cannot be invited (no such
        // player, a guest, a user who blocked the host or whom the host blocked) gets this same
        // answer, so that nobody learns which it is.
        if (!user || user->guest || blocks.blocked(user->id, host.id) ||
            blocks.blocked(host.id, user->id))
            return protocol::Error{ErrorCode::cannot_invite,
                                   "\"" + named + "\" is no registered player you can invite"};
        if (user->id == host.id)
            return protocol::Error{ErrorCode::bad_field, "you cannot invite yourself"};
        if (std::ranges::any_of(found, [&](const User& other) { return other.id == user->id; }))
            return protocol::Error{ErrorCode::bad_field,
                                   "\"invite\" names " + user->name + " twice"};
        found.push_back(User{user->id, user->name, false});
    }
    return found;
}

void send_invitations(Services& services, const User& host, const std::vector<User>& invitees,
                      const Json& summary) {
    const std::string table = summary.at("id").get<std::string>();
    std::vector<std::string> players;
    for (const Json& seat : summary.at("seats"))
        if (seat.at("kind") == "human") players.push_back(seat.at("name").get<std::string>());
    const std::string table_name = summary.value("name", std::string());
    const Json message = invitation_json(summary, host);
    const UnixMs now = unix_now_ms();
    std::vector<InvitationNotice> mails;
    for (const User& invitee : invitees) {
        services.notifier.tell(invitee.id, message);
        int seat = 0;
        for (const Json& kept : summary.at("seats")) {
            if (kept.at("kind") == "reserved" && kept.at("user") == invitee.id) break;
            ++seat;
        }
        mails.push_back(InvitationNotice{invitee.id, invitee.name, host.name, table, seat, now,
                                         players, table_name});
    }
    // Whether a user wants the mail may take a store read: on the blocking pool, not the table's
    // strand that calls this.
    boost::asio::post(services.blocking, [&services, mails = std::move(mails)] {
        for (const InvitationNotice& mail : mails) {
            try {
                services.mailer.invitation(mail);
            } catch (const StorageFailure& failure) {
                spdlog::error("table {}: no invitation mail to user {}: {}", mail.table, mail.user,
                              failure.what());
            }
        }
    });
}

namespace api {

http::response<http::string_body> invitations_api(Services& services, Responder& respond,
                                                  const http::request<http::string_body>& request) {
    if (request.method() != http::verb::get)
        return respond.error(ErrorCode::bad_field, "GET your invitations");
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return respond.error(ErrorCode::bad_token,
                             "send \"Authorization: Bearer <token>\" with a live session token");
    Json invitations = Json::array();
    const UnixMs now = unix_now_ms();
    for (const StoredInvitation& invitation :
         services.store.invitations_of(user->id, kInvitationsListed)) {
        Json listed = invitation_json(
            summary_json(invitation.table,
                         services.vacations.seats_away(invitation.table.seats, now)),
            User{invitation.host, invitation.host_name, false});
        listed.erase("type");
        listed["seat"] = invitation.seat;
        listed["expires"] = invitation.at + kInvitationLifetimeMs;
        invitations.push_back(std::move(listed));
    }
    return respond.json(http::status::ok, Json{{"invitations", std::move(invitations)}});
}

}  // namespace api
}  // namespace gcor::server
