#include "tables/table_account_changes.hpp"

#include <spdlog/spdlog.h>

namespace gcor::server {

using protocol::Json;

void TableAccountChanges::erase_player(std::uint64_t user, const std::string& name,
                                       std::function<void(bool ok)> done) {
    const auto& [status, seats, game, clock, followers, chat, views, bots, invitations,
                 retirement] = parts_;
    // A retired table is read again from the store: only a change still to make is missed.
    if (retirement.retired())
        return done(status == TableStatus::finished || !seats.seat_of(user) ||
                    (status == TableStatus::playing && seats[*seats.seat_of(user)].forfeited));
    for (const std::uint64_t n : chat.remove_lines_of(user))
        views.broadcast(Json{{"type", "chat_deleted"}, {"table", table_id_}, {"n", n}});
    // A seat kept for them (an invitation) is open again, as the store has it already.
    if (const auto kept = seats.reserved_for(user); kept && status == TableStatus::waiting)
        return invitations.free({*kept}, std::move(done));
    const auto seat = seats.seat_of(user);
    if (!seat) return done(true);
    seats.rename(*seat, name);
    // The store renamed the seat already: a finished table only shows the name from now on.
    if (status == TableStatus::finished) return done(true);
    if (status == TableStatus::waiting) {
        seats.free(*seat);
        if (!seats.has_people()) return retirement.close(std::move(done));
        return table_.save([this, done = std::move(done)](bool ok) {
            if (ok) parts_.views.announce();
            done(ok);
        });
    }
    const bool forfeits = !seats[*seat].forfeited;
    if (forfeits) {
        // As a seat out of time that forfeits: the strong bot plays it to the end, so the others
        // finish the game they were playing, and it never wins.
        spdlog::info("table {}: seat {} forfeits: its player's account was erased", table_id_,
                     *seat);
        seats.forfeit(*seat);
        game.forfeit(*seat);
        followers.forget_views();  // the state changed without a move
        if (game.state().to_act() == *seat) clock.stop();
    }
    table_.save([this, seat = *seat, forfeits, done = std::move(done)](bool ok) {
        if (ok) {
            if (forfeits)
                parts_.views.broadcast(
                    Json{{"type", "forfeited"}, {"table", table_id_}, {"seat", seat}});
            parts_.views.announce();
            if (forfeits) parts_.bots.schedule();
        }
        done(ok);
    });
}

void TableAccountChanges::rename_player(std::uint64_t user, const std::string& name,
                                        std::function<void(bool ok)> done) {
    // A retired table is read again from the store, which has the name.
    const auto seat = parts_.retirement.retired() ? std::nullopt : parts_.seats.seat_of(user);
    if (!seat) return done(true);
    parts_.seats.rename(*seat, name);
    parts_.views.announce();
    done(true);
}

void TableAccountChanges::on_vacation_changed(std::uint64_t user) {
    const auto& [status, seats, game, clock, followers, chat, views, bots, invitations,
                 retirement] = parts_;
    if (retirement.retired() || status != TableStatus::playing) return;
    if (!seats.seat_of(user)) return;
    const engine::Seat seat = game.state().to_act();
    const bool their_turn =
        seats.seat_of(user) == seat && !seats.played_by_bot(seat) && clock.deadline();
    if (!their_turn || !clock.recount(user)) return views.broadcast_summary();
    spdlog::debug("table {}: a vacation moves the deadline of seat {}", table_id_, seat);
    table_.save([this](bool ok) {
        if (ok) parts_.views.announce();
    });
}

}  // namespace gcor::server
