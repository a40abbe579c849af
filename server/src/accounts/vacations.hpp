#pragma once
// Users' vacations (docs/protocol.md, "Vacations"), kept in memory so that a table asks about its
// player's without a store read: one map lookup when a correspondence deadline is set, and when a
// summary is made.
#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/expected.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

// What a user's vacation page shows.
struct VacationState {
    std::optional<StoredVacation> vacation;  // the running or coming one
    int days_left = 0;                       // in this calendar year (UTC)
    int days_per_year = 0;
};

// Per seat: until when its player is away (nullopt: not away, or not a person).
using SeatsAway = std::array<std::optional<UnixMs>, engine::kMaxPlayers>;

class Vacations {
  public:
    // A vacation starts at most this far ahead.
    static constexpr UnixMs kMaxAheadMs = 366 * 24 * 60 * 60 * 1000LL;
    // A vacation lasts at most this long (a year's days, and the next year's).
    static constexpr UnixMs kMaxLengthMs = 2 * kMaxAheadMs;
    // A start this far in the past is taken as now (clocks differ).
    static constexpr UnixMs kLeewayMs = 60 * 1000;

    // Loads the vacations that still matter (those that ended within the last 400 days: the
    // year's count and turns that started before them). Throws StorageFailure.
    Vacations(Store& store, int days_per_year);

    int days_per_year() const { return days_per_year_; }
    VacationState state(std::uint64_t user, UnixMs now) const;
    // Declares a vacation from `from` (nullopt: now) until `to`, replacing a coming one; a new
    // one that starts now while one runs changes the running one's end. Refused with bad_field
    // (times out of range), limit_reached (more days than a year allows) or forbidden
    // (vacations are off). Blocks on the store: not on an I/O thread.
    protocol::Expected<VacationState> declare(std::uint64_t user, std::optional<UnixMs> from,
                                              UnixMs to, UnixMs now);
    // Ends the running vacation now, or removes the coming one. Blocks on the store.
    VacationState end(std::uint64_t user, UnixMs now);
    // Another server process sharing the database changed `user`'s vacations: they are read
    // again. Blocks on the store; throws StorageFailure.
    void reload(std::uint64_t user);

    // Until when `user` is away at `now`.
    std::optional<UnixMs> away_until(std::uint64_t user, UnixMs now) const;
    SeatsAway seats_away(const std::vector<StoredSeat>& seats, UnixMs now) const;
    // When `user`'s correspondence turn that started at `start` runs out (vacation_time.hpp),
    // and the inverse.
    UnixMs deadline(std::uint64_t user, UnixMs start, UnixMs per_move) const;
    UnixMs turn_start(std::uint64_t user, UnixMs deadline, UnixMs per_move) const;

  private:
    // The user's vacations that end after `now` replaced by `replacing`, stored, then kept.
    void replace(std::uint64_t user, UnixMs now, const std::vector<StoredVacation>& replacing);
    // The running or coming vacation in `list`.
    static std::optional<StoredVacation> current(const std::vector<StoredVacation>& list,
                                                 UnixMs now);
    int days_used(const std::vector<StoredVacation>& list, int year) const;
    std::vector<StoredVacation> list_of(std::uint64_t user) const;
    VacationState state_of(const std::vector<StoredVacation>& list, UnixMs now) const;

    Store& store_;
    const int days_per_year_;
    std::mutex changes_;  // one change at a time, from reading the list to storing the new one
    mutable std::shared_mutex mutex_;
    // Per user, sorted by start; vacations that ended long ago are dropped at the user's next
    // change.
    std::unordered_map<std::uint64_t, std::vector<StoredVacation>> users_;
};

}  // namespace gcor::server
