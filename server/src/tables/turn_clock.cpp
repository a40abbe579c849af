#include "tables/turn_clock.hpp"

#include <algorithm>
#include <chrono>
#include <ranges>

#include "accounts/vacations.hpp"
#include "tables/stored_game.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {

UnixMs TurnClock::per_move_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(control_.per_move()).count();
}

void TurnClock::start_turn(UnixMs now, std::optional<std::uint64_t> player) {
    turn_started_ = now;
    deadline_ = player ? deadline_of(*player) : std::nullopt;
    pushed_back_ = pushed(deadline_);
}

void TurnClock::set_deadline(std::optional<UnixMs> deadline) {
    deadline_ = deadline;
    pushed_back_ = pushed(deadline_);
}

void TurnClock::restore(std::optional<UnixMs> deadline, const std::vector<StoredMove>& moves,
                        std::uint64_t player) {
    deadline_ = deadline;
    if (!deadline_) return;
    // Every move starts a turn's clock again, an undo does not.
    const auto last = std::ranges::find_if(
        std::views::reverse(moves), [](const StoredMove& move) { return move.move != kUndoText; });
    if (last != std::views::reverse(moves).end())
        turn_started_ = last->at;
    else if (control_.kind != protocol::TimeControl::Kind::correspondence)
        turn_started_ = *deadline_ - per_move_ms();
    else
        turn_started_ = vacations_.turn_start(player, *deadline_, per_move_ms());
}

bool TurnClock::recount(std::uint64_t player) {
    if (control_.kind != protocol::TimeControl::Kind::correspondence) return false;
    const std::optional<UnixMs> deadline = deadline_of(player);
    if (deadline == deadline_) return false;
    set_deadline(deadline);
    return true;
}

std::optional<UnixMs> TurnClock::deadline_of(std::uint64_t player) const {
    return deadline_from(control_, turn_started_, player, vacations_, latest_);
}

bool TurnClock::pushed(std::optional<UnixMs> deadline) const {
    return deadline && *deadline != turn_started_ + per_move_ms();
}

}  // namespace gcor::server
