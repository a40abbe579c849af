#include "tables/table_account_changes.hpp"

#include <spdlog/spdlog.h>

namespace gcor::server {

using protocol::Json;

void TableAccountChanges::erase_player(std::uint64_t user, const std::string& name,
                                       std::function<void(bool ok)> done) {
    // A retired table is read again from the store: only a change still to make is missed.
    if (retirement_.retired())
        return done(status_ == TableStatus::finished || !seats_.seat_of(user) ||
                    (status_ == TableStatus::playing && seats_[*seats_.seat_of(user)].forfeited));
    for (const std::uint64_t n : chat_.remove_lines_of(user))
        views_.broadcast(Json{{"type", "chat_deleted"}, {"table", table_id_}, {"n", n}});
    // A seat kept for them (an invitation) is open again, as the store has it already.
    if (const auto kept = seats_.reserved_for(user); kept && status_ == TableStatus::waiting)
        return invitations_.free({*kept}, std::move(done));
    const auto seat = seats_.seat_of(user);
    if (!seat) return done(true);
    seats_.rename(*seat, name);
    // The store renamed the seat already: a finished table only shows the name from now on.
    if (status_ == TableStatus::finished) return done(true);
    if (status_ == TableStatus::waiting) {
        seats_.free(*seat);
        if (!seats_.has_people()) return retirement_.close(std::move(done));
        return table_.save([this, done = std::move(done)](bool ok) {
            if (ok) views_.announce();
            done(ok);
        });
    }
    const bool forfeits = !seats_[*seat].forfeited;
    if (forfeits) {
        // As a seat out of time that forfeits: the strong bot plays it to the end, so the others
        // finish the game they were playing, and it never wins.
        spdlog::info("table {}: seat {} forfeits: its player's account was erased", table_id_,
                     *seat);
        seats_.forfeit(*seat);
        game_.forfeit(*seat);
        followers_.forget_views();  // the state changed without a move
        if (game_.state().to_act() == *seat) clock_.stop();
    }
    table_.save([this, seat = *seat, forfeits, done = std::move(done)](bool ok) {
        if (ok) {
            if (forfeits)
                views_.broadcast(Json{{"type", "forfeited"}, {"table", table_id_}, {"seat", seat}});
            views_.announce();
            if (forfeits) bots_.schedule();
        }
        done(ok);
    });
}

void TableAccountChanges::rename_player(std::uint64_t user, const std::string& name,
                                        std::function<void(bool ok)> done) {
    // A retired table is read again from the store, which has the name.
    const auto seat = retirement_.retired() ? std::nullopt : seats_.seat_of(user);
    if (!seat) return done(true);
    seats_.rename(*seat, name);
    views_.announce();
    done(true);
}

void TableAccountChanges::on_vacation_changed(std::uint64_t user) {
    if (retirement_.retired() || status_ != TableStatus::playing) return;
    if (!seats_.seat_of(user)) return;
    const engine::Seat seat = game_.state().to_act();
    const bool their_turn =
        seats_.seat_of(user) == seat && !seats_.played_by_bot(seat) && clock_.deadline();
    if (!their_turn || !clock_.recount(user)) return views_.broadcast_summary();
    spdlog::debug("table {}: a vacation moves the deadline of seat {}", table_id_, seat);
    table_.save([this](bool ok) {
        if (ok) views_.announce();
    });
}

}  // namespace gcor::server
