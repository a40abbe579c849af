#include "tables/table_invitations.hpp"

#include <spdlog/spdlog.h>

#include <cassert>

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

Json invited_user_json(const SeatInfo& invitation) {
    return Json{{"user", invitation.user.id}, {"name", invitation.user.name}};
}

}  // namespace

void TableInvitations::reserve(std::uint64_t host, const std::vector<User>& invitees) {
    const UnixMs now = unix_now_ms();
    int seat = seats_.players() - 1;
    for (const User& invitee : invitees) {
        while (seat >= 0 && seats_[static_cast<engine::Seat>(seat)].kind != SeatKind::open)
            --seat;
        assert(seat >= 0);  // the request was refused when it invited more than the free seats
        seats_.reserve(static_cast<engine::Seat>(seat), invitee, host, now);
        --seat;
    }
}

void TableInvitations::decline(const std::shared_ptr<Peer>& peer, const User& user,
                               const protocol::requests::Decline& request, Recheck& recheck) {
    const auto seat = seats_.reserved_for(user.id);
    if (!seat || status_ != TableStatus::waiting)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_found,
                                        "you have no open invitation to this table", request.id);
    const SeatInfo invitation = seats_[*seat];
    free({*seat}, [this, peer, invitation, request_id = request.id](bool ok) {
        if (!ok) return refusals_.not_saved(peer, request_id);
        send_json_reply(*peer, Json{{"type", "declined"}, {"table", table_id_}}, request_id);
        notices_.tell(invitation.invited_by, Json{{"type", "invitation_declined"},
                                                  {"table", views_.summary()},
                                                  {"user", invited_user_json(invitation)}});
    });
}

void TableInvitations::withdraw(const std::shared_ptr<Peer>& peer, const User& user,
                                const protocol::requests::Withdraw& request, Recheck& recheck) {
    const auto seat = seats_.reserved_for(request.user);
    if (!seat || status_ != TableStatus::waiting)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_found,
                                        "that user has no open invitation to this table",
                                        request.id);
    if (seats_[*seat].invited_by != user.id)
        return refusals_.error(peer, ErrorCode::forbidden,
                               "only the player who sent an invitation may withdraw it",
                               request.id);
    free({*seat}, [this, peer, invitee = request.user, request_id = request.id](bool ok) {
        if (!ok) return refusals_.not_saved(peer, request_id);
        send_json_reply(*peer, Json{{"type", "withdrawn"}, {"table", table_id_}, {"user", invitee}},
                        request_id);
        notices_.tell(invitee, Json{{"type", "invitation_withdrawn"}, {"table", table_id_}});
    });
}

void TableInvitations::expire() {
    const auto expired = seats_.expired_invitations(unix_now_ms());
    if (expired.empty()) return;
    std::vector<SeatInfo> invitations;
    for (const engine::Seat seat : expired)
        invitations.push_back(seats_[seat]);
    spdlog::info("table {}: {} invitation(s) expired", table_id_, expired.size());
    free(expired, [this, invitations](bool ok) {
        if (!ok) return;
        const Json now = views_.summary();
        for (const SeatInfo& invitation : invitations)
            notices_.tell(invitation.invited_by, Json{{"type", "invitation_expired"},
                                                      {"table", now},
                                                      {"user", invited_user_json(invitation)}});
    });
}

void TableInvitations::free(const std::vector<engine::Seat>& seats,
                            std::function<void(bool ok)> told) {
    for (const engine::Seat seat : seats)
        seats_.free(seat);
    // A table made without its creator's seat whose invitations all ended has nobody left.
    if (!seats_.has_people()) return retirement_.close(std::move(told));
    table_.save([this, told = std::move(told)](bool ok) {
        told(ok);
        if (ok) views_.announce();
    });
}

}  // namespace gcor::server
