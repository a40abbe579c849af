#include "tables/move_memory.hpp"

namespace gcor::server {

void MoveMemory::begin(const std::vector<engine::Event>& events) {
    recent_.clear();
    remember(events);
}

void MoveMemory::record(engine::Seat seat, std::uint64_t version, MovedBy by,
                        const std::string& move_id, const std::vector<engine::Event>& events) {
    if (by_player(by)) last_own_move_[seat] = version;
    remember(events);
    if (move_id.empty()) return;
    auto& applied = applied_[seat];
    applied.push_back({move_id, version});
    if (applied.size() > kAppliedMoveIds) applied.erase(applied.begin());
}

void MoveMemory::remember(const std::vector<engine::Event>& events) {
    for (const engine::Event& event : events) {
        recent_.push_back(event);
        if (recent_.size() > kRecentEvents) recent_.pop_front();
    }
}

std::optional<std::uint64_t> MoveMemory::version_of(engine::Seat seat,
                                                    const std::string& move_id) const {
    for (const AppliedMove& done : applied_[seat])
        if (done.move_id == move_id) return done.version;
    return std::nullopt;
}

}  // namespace gcor::server
