// A player's account changed: erased (docs/operations.md, "Your data"), the table forgets who they
// were but keeps the game the others play; or a guest registered, and their seat takes the name.
#include <spdlog/spdlog.h>

#include "tables/table.hpp"

namespace gcor::server {

using protocol::Json;

void Table::erase_player(std::uint64_t user, const std::string& name,
                         std::function<void(bool ok)> done) {
    // A retired table is read again from the store: only a change still to make is missed.
    if (retired())
        return done(status_ == TableStatus::finished || !seats_.seat_of(user) ||
                    (status_ == TableStatus::playing && seats_[*seats_.seat_of(user)].forfeited));
    for (const std::uint64_t n : chat_.lines().remove_lines_of(user))
        views_.broadcast(Json{{"type", "chat_deleted"}, {"table", id()}, {"n", n}});
    // A seat kept for them (an invitation) is open again, as the store has it already.
    if (const auto kept = seats_.reserved_for(user); kept && status_ == TableStatus::waiting)
        return free_reservations({*kept}, std::move(done));
    const auto seat = seats_.seat_of(user);
    if (!seat) return done(true);
    seats_.rename(*seat, name);
    // The store renamed the seat already: a finished table only shows the name from now on.
    if (status_ == TableStatus::finished) return done(true);
    if (status_ == TableStatus::waiting) {
        seats_.free(*seat);
        if (!seats_.has_people()) return close(std::move(done));
        return save([this, done = std::move(done)](bool ok) {
            if (ok) {
                views_.broadcast(Json{{"type", "table"}, {"table", summary()}});
                publish();
            }
            done(ok);
        });
    }
    const bool forfeits = !seats_[*seat].forfeited;
    if (forfeits) {
        // As a seat out of time that forfeits: the strong bot plays it to the end, so the others
        // finish the game they were playing, and it never wins.
        spdlog::info("table {}: seat {} forfeits: its player's account was erased", id(), *seat);
        seats_.forfeit(*seat);
        game_.forfeit(*seat);
        followers_.forget_views();  // the state changed without a move
        if (game_.state().to_act() == *seat) clock_.stop();
    }
    save([this, seat = *seat, forfeits, done = std::move(done)](bool ok) {
        if (ok) {
            if (forfeits)
                views_.broadcast(Json{{"type", "forfeited"}, {"table", id()}, {"seat", seat}});
            views_.broadcast(Json{{"type", "table"}, {"table", summary()}});
            publish();
            if (forfeits) bots_.schedule();
        }
        done(ok);
    });
}

void Table::rename_player(std::uint64_t user, const std::string& name,
                          std::function<void(bool ok)> done) {
    // A retired table is read again from the store, which has the name.
    const auto seat = retired() ? std::nullopt : seats_.seat_of(user);
    if (!seat) return done(true);
    seats_.rename(*seat, name);
    views_.broadcast(Json{{"type", "table"}, {"table", summary()}});
    publish();
    done(true);
}

}  // namespace gcor::server
