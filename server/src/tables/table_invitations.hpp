#pragma once
// A table's invitations (docs/protocol.md, "Invitations"): the seats kept for invited players,
// a decline, a withdrawal and an expiry, each of which opens the seat again, stores the table and
// tells the other side (the host, or the invitee) and the table's followers and the lobby.
// Accepting is sitting down (Table::sit).
//
// Threading: everything on the table's strand, the requests when the table is ready; the
// notices go through TurnNotices (any thread).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/user.hpp"
#include "net/peer.hpp"
#include "tables/counted_status.hpp"
#include "tables/recheck.hpp"
#include "tables/table_refusals.hpp"
#include "tables/table_retirement.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_services.hpp"
#include "tables/table_views.hpp"
#include "tables/table_writes.hpp"

namespace gcor::server {

class TableInvitations {
  public:
    // Every reference outlives the part (the table holds them, or the server does).
    TableInvitations(const std::string& table_id, SavingTable& table, TableRetirement& retirement,
                     TurnNotices& notices, const CountedStatus& status, TableSeats& seats,
                     const TableRefusals& refusals, TableViews& views)
        : table_id_(table_id),
          table_(table),
          retirement_(retirement),
          notices_(notices),
          status_(status),
          seats_(seats),
          refusals_(refusals),
          views_(views) {}

    // Before the table's first save: keeps a seat for each invited user, the last open seats
    // first (the creator sits at the first), invited by `host` now.
    void reserve(std::uint64_t host, const std::vector<User>& invitees);
    // Requests: the invited user turns theirs down, or the host takes one back; replies go to
    // `peer`. A refusal on an invitation this copy does not know of waits for a read of the
    // store while `recheck` allows.
    void decline(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::requests::Decline& request, Recheck& recheck);
    void withdraw(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::requests::Withdraw& request, Recheck& recheck);
    // The deadline sweep found the waiting table due: the invitations that expired end.
    void expire();
    // Opens the reserved `seats` again, stores the table (or closes it when nobody is left),
    // then tells `told(ok)`, and the followers and the lobby the summary.
    void free(const std::vector<engine::Seat>& seats, std::function<void(bool ok)> told);

  private:
    const std::string& table_id_;
    SavingTable& table_;
    TableRetirement& retirement_;
    TurnNotices& notices_;
    const CountedStatus& status_;
    TableSeats& seats_;
    const TableRefusals& refusals_;
    TableViews& views_;
};

}  // namespace gcor::server
