#pragma once
// A table's clock: when the turn of the seat to act began and when it runs out. Under a
// correspondence time control a player's vacation stops the clock, so a deadline may lie further
// than one turn's time from its start ("pushed back", which followers are told of). A value on
// the table's strand; it reads the vacations (any thread) and nothing else.
#include <cstdint>
#include <optional>
#include <vector>

#include "gcor/protocol/table_settings.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

class Vacations;

class TurnClock {
  public:
    // `latest`: no deadline lies after it (latest_deadline).
    TurnClock(const protocol::TimeControl& control, const Vacations& vacations,
              std::optional<UnixMs> latest = std::nullopt)
        : control_(control), latest_(latest), vacations_(vacations) {}

    std::optional<UnixMs> deadline() const { return deadline_; }
    // The deadline is further than one turn's time from the turn's start (a vacation).
    bool pushed_back() const { return pushed_back_; }
    // The seat to act is out of time at `now`.
    bool due(UnixMs now) const { return deadline_ && *deadline_ <= now; }
    UnixMs per_move_ms() const;

    // A turn begins at `now`: `player`'s, who has a deadline if the table has a time control;
    // nullopt for one without a deadline (a bot's, or none once the game is over).
    void start_turn(UnixMs now, std::optional<std::uint64_t> player);
    // A move made by another server process at `at` began the turn; its deadline comes with the
    // table's row (set_deadline).
    void turn_began_at(UnixMs at) { turn_started_ = at; }
    // The deadline as the store has it (nullopt: none).
    void set_deadline(std::optional<UnixMs> deadline);
    // The seat to act forfeited: nobody's time runs.
    void stop() { deadline_.reset(); }
    // A table restored with its stored `deadline` of `player`'s turn and its `moves`: when that
    // turn began, from the last move that is not an undo, or, in the game's first turn, from the
    // deadline by the inverse of the vacations' arithmetic.
    void restore(std::optional<UnixMs> deadline, const std::vector<StoredMove>& moves,
                 std::uint64_t player);
    // `player`'s vacation changed while it is their turn: under a correspondence clock the
    // deadline is worked out again; true when it moved.
    bool recount(std::uint64_t player);

  private:
    std::optional<UnixMs> deadline_of(std::uint64_t player) const;
    bool pushed(std::optional<UnixMs> deadline) const;

    const protocol::TimeControl control_;
    const std::optional<UnixMs> latest_;
    const Vacations& vacations_;
    std::optional<UnixMs> deadline_;
    UnixMs turn_started_ = 0;  // what deadline_ counts from
    bool pushed_back_ = false;
};

}  // namespace gcor::server
