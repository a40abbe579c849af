#pragma once
// What the unit tests of a table's parts share: the start of a 2-player game whose seats the
// test has taken, as the table starts one (the players named, the deal, the status).
#include "tables/counted_status.hpp"
#include "tables/stored_game.hpp"
#include "tables/table_game.hpp"
#include "tables/table_seats.hpp"

namespace gcor::server {

inline void start_part_game(TableSeats& seats, TableGame& game, CountedStatus& status) {
    protocol::TableSettings settings;
    settings.options = {2, engine::Variant::yucata, false};
    seats.name_players();
    game.begin(StoredGame("t1", settings, 42, "nonce", 0).deal());
    status.set(TableStatus::playing);
}

}  // namespace gcor::server
