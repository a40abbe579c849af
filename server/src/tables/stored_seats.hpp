#pragma once
// A table's seats as the store keeps them (StoredSeat: a bot named after its seat, a kept seat
// with its invitation) and back, and the seats that forfeited as a stored result lists them.
#include <optional>
#include <string>
#include <vector>

#include "gcor/protocol/game_json.hpp"
#include "gcor/store/store.hpp"
#include "tables/table_seats.hpp"

namespace gcor::server {

std::vector<StoredSeat> stored_seats(const TableSeats& seats);
// Takes the seats the store kept; the reason when one is not a seat of this server's.
std::optional<std::string> restore_seats(TableSeats& seats, const std::vector<StoredSeat>& stored);
protocol::Json forfeited_seats_json(const TableSeats& seats);

}  // namespace gcor::server
