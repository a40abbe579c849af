#pragma once
// The arithmetic of vacations (docs/protocol.md, "Vacations"), pure so that it is tested on its
// own: how many days a vacation uses in a calendar year, and when a correspondence turn runs out
// when the time its player is away does not count.
#include <span>

#include "gcor/store/store.hpp"

namespace gcor::server {

constexpr UnixMs kDayMs = 24 * 60 * 60 * 1000;

// The calendar year (UTC) of a time, and when a year starts.
int year_of(UnixMs time);
UnixMs year_start(int year);

// The days `vacation` uses in `year`: the 24-hour periods started by its part within that year
// (a vacation over New Year uses days in both).
int days_in_year(const StoredVacation& vacation, int year);

// When a turn of `per_move` that starts at `start` runs out, the time inside `away` (sorted by
// start, not overlapping) not counted: a turn that starts during a vacation starts at its end.
UnixMs deadline_after(UnixMs start, UnixMs per_move, std::span<const StoredVacation> away);

// The inverse: when a turn that runs out at `deadline` started. Tables restored from the store
// without a move in the turn (its first turn) learn it so.
UnixMs turn_start_before(UnixMs deadline, UnixMs per_move, std::span<const StoredVacation> away);

}  // namespace gcor::server
