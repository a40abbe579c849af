#pragma once
// What a player's account changing does to a table: erased (docs/operations.md, "Your data"), the
// table forgets who they were but keeps the game the others play; a guest registered, and their
// seat takes the name; a vacation began or ended, and their turn's deadline moves.
//
// Threading: everything on the table's strand, when the table is ready; `done` runs there too.
#include <cstdint>
#include <functional>
#include <string>

#include "tables/chat_lines.hpp"
#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/table_bots.hpp"
#include "tables/table_game.hpp"
#include "tables/table_invitations.hpp"
#include "tables/table_retirement.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_views.hpp"
#include "tables/table_writes.hpp"
#include "tables/turn_clock.hpp"

namespace gcor::server {

class TableAccountChanges {
  public:
    // The parts of the table that an account's change changes and tells (each outlives this).
    struct Parts {
        const CountedStatus& status;
        TableSeats& seats;
        TableGame& game;
        TurnClock& clock;
        Followers& followers;
        ChatLines& chat;
        TableViews& views;
        TableBots& bots;
        TableInvitations& invitations;
        TableRetirement& retirement;
    };

    // `table_id` and `table` outlive the part.
    TableAccountChanges(const std::string& table_id, SavingTable& table, Parts parts)
        : table_id_(table_id),
          table_(table),
          status_(parts.status),
          seats_(parts.seats),
          game_(parts.game),
          clock_(parts.clock),
          followers_(parts.followers),
          chat_(parts.chat),
          views_(parts.views),
          bots_(parts.bots),
          invitations_(parts.invitations),
          retirement_(parts.retirement) {}

    // `user`'s account was erased. Their seat is named `name` from now on; before the start it
    // is freed (the table closes if nobody else sits), during the game it forfeits (docs/rules.md,
    // "Time control and forfeits"); their chat lines leave the followers' chat. `done(ok)` once
    // stored.
    void erase_player(std::uint64_t user, const std::string& name,
                      std::function<void(bool ok)> done);
    // The guest `user` registered as `name`, which their seat takes (the store has it already).
    // `done(true)`.
    void rename_player(std::uint64_t user, const std::string& name,
                       std::function<void(bool ok)> done);
    // `user`'s vacation changed. If it is their correspondence turn, its deadline is worked out
    // again, stored and sent; followers get the summary (it shows who is away).
    void on_vacation_changed(std::uint64_t user);

  private:
    const std::string& table_id_;
    SavingTable& table_;
    const CountedStatus& status_;
    TableSeats& seats_;
    TableGame& game_;
    TurnClock& clock_;
    Followers& followers_;
    ChatLines& chat_;
    TableViews& views_;
    TableBots& bots_;
    TableInvitations& invitations_;
    TableRetirement& retirement_;
};

}  // namespace gcor::server
