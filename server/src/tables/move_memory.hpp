#pragma once
// What a table remembers of the changes it applied, beyond the game itself: the latest events
// (a snapshot's log), the last move ids of each seat (a move sent again is answered, not applied
// again) and the version of each seat's player's last own move (a turn mail's key, so that no
// second mail comes for a table before the player has moved there). A value on the table's
// strand.
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

class MoveMemory {
  public:
    static constexpr std::size_t kRecentEvents = 64;    // log lines a snapshot carries
    static constexpr std::size_t kAppliedMoveIds = 32;  // per seat, answered again

    // The game began (or was replayed) with these events.
    void begin(const std::vector<engine::Event>& events);
    // `seat`'s change (by whom, its move id, its events) made `version`.
    void record(engine::Seat seat, std::uint64_t version, MovedBy by, const std::string& move_id,
                const std::vector<engine::Event>& events);
    // The version that `seat`'s move with this id made, if it is among the last ones.
    std::optional<std::uint64_t> version_of(engine::Seat seat, const std::string& move_id) const;
    std::vector<engine::Event> recent_events() const { return {recent_.begin(), recent_.end()}; }
    std::uint64_t last_own_move(engine::Seat seat) const { return last_own_move_[seat]; }

  private:
    void remember(const std::vector<engine::Event>& events);

    struct AppliedMove {
        std::string move_id;
        std::uint64_t version;
    };

    std::deque<engine::Event> recent_;
    // Vectors (short, bounded): an empty std::deque allocates 576 bytes, which a table in memory
    // paid per seat.
    std::array<std::vector<AppliedMove>, engine::kMaxPlayers> applied_;
    std::array<std::uint64_t, engine::kMaxPlayers> last_own_move_{};
};

}  // namespace gcor::server
