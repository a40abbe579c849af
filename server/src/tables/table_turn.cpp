#include "tables/table_turn.hpp"

#include <boost/container/small_vector.hpp>
#include <span>

#include "notify/mailer.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {

void TableTurn::start() {
    const engine::Seat seat = game_.state().to_act();
    const bool timed = status_ == TableStatus::playing && !seats_.played_by_bot(seat);
    clock_.start_turn(unix_now_ms(), timed ? std::optional(seats_[seat].user.id) : std::nullopt);
}

void TableTurn::tell(bool here_only) {
    if (status_ != TableStatus::playing) return;
    const engine::Seat seat = game_.state().to_act();
    const SeatInfo& info = seats_[seat];
    if (info.kind != SeatKind::human || info.forfeited) return;
    // A connection that follows the table as this seat already knows from its patch or snapshot.
    boost::container::small_vector<const Peer*, 4> following;
    for (const Followers::Viewer& viewer : followers_.live())
        if (viewer.seat == seat)
            if (const auto peer = viewer.peer.lock()) following.push_back(peer.get());
    const auto message = [this, seat] {
        return your_turn_json(table_id_, seat, game_.version(), clock_.deadline());
    };
    if (here_only)
        return notices_.your_turn_here(info.user.id, message,
                                       std::span(following.data(), following.size()));
    notices_.your_turn(
        info.user.id, message, std::span(following.data(), following.size()), [this, seat] {
            // Two words of captures, like the message's: std::function keeps them unallocated.
            const User& player = seats_[seat].user;
            return TurnNotice{player.id,      player.name,       table_id_,
                              seat,           game_.version(),   game_.moves().last_own_move(seat),
                              seats_.names(), clock_.deadline(), table_name_};
        });
}

}  // namespace gcor::server
