#pragma once
// The start of a turn at a table: the seat to act's deadline on the table's clock (TurnClock),
// and the notice that tells its player that their turn began, on their connections that do not
// follow the table as that seat already, and by webhook and mail when this process made the
// change. A bot's turn, a forfeited seat's and one after the game have no deadline and no notice.
// Used on the table's strand; the notices go through TurnNotices (any thread).
#include <string>

#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/table_game.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_services.hpp"
#include "tables/turn_clock.hpp"

namespace gcor::server {

class TableTurn {
  public:
    // Every reference outlives the part (the table holds them, or the server does).
    // `table_name`: the name given at the table's creation, or empty (mails name it by its
    // players).
    TableTurn(const std::string& table_id, const std::string& table_name, TurnNotices& notices,
              TurnClock& clock, const CountedStatus& status, const TableSeats& seats,
              const TableGame& game, Followers& followers)
        : table_id_(table_id),
          table_name_(table_name),
          notices_(notices),
          clock_(clock),
          status_(status),
          seats_(seats),
          game_(game),
          followers_(followers) {}

    // The turn of the seat to act starts now (the game has begun): its deadline, if it has one.
    void start();
    // Tells the player to act that it is their turn: by webhook and mail too when this process
    // made the change (`here_only` false), on this process's connections only when another did.
    void tell(bool here_only = false);

  private:
    const std::string& table_id_;
    const std::string& table_name_;
    TurnNotices& notices_;
    TurnClock& clock_;
    const CountedStatus& status_;
    const TableSeats& seats_;
    const TableGame& game_;
    Followers& followers_;
};

}  // namespace gcor::server
