#include "tables/table_bots.hpp"

#include <algorithm>

#include "gcor/engine/view.hpp"

namespace gcor::server {

void TableBots::schedule() {
    if (status_ != TableStatus::playing || table_.retired()) return;
    const engine::Seat seat = game_.state().to_act();
    if (!seats_.played_by_bot(seat)) return;
    const engine::BotKind kind = seats_.bot_for(seat);
    // The bot thinks during the delay that lets people follow its moves.
    think(seat, kind, Clock::now() + delay_, [this, seat](const engine::Move& move) {
        if (seats_.played_by_bot(seat) && game_.state().to_act() == seat)
            table_.play_for(seat, move, MovedBy::bot);
    });
}

void TableBots::take_over(UnixMs changed_at) {
    if (status_ != TableStatus::playing || !seats_.played_by_bot(game_.state().to_act())) return;
    thinker_.after(
        owner_(),
        std::chrono::milliseconds(std::max<UnixMs>(0, changed_at + kTakeoverMs - unix_now_ms())),
        [this, version = game_.version()] {
            if (!table_.retired() && game_.version() == version) schedule();
        });
}

bool TableBots::stand_in(engine::Seat seat) {
    // The stand-in is the strong bot, so that the others still play a real game.
    if (thinker_.thinking_about(game_.version())) return false;
    think(seat, engine::BotKind::strong, Clock::now(), [this, seat](const engine::Move& move) {
        // The player may have moved while the bot thought.
        if (!clock_.due(unix_now_ms()) || game_.state().to_act() != seat) return;
        table_.play_for(seat, move, MovedBy::timeout);
    });
    return true;
}

void TableBots::think(engine::Seat seat, engine::BotKind kind, Clock::time_point due,
                      std::function<void(const engine::Move&)> then) {
    if (thinker_.thinking_about(game_.version())) return;
    // The bot gets the seat's view, as a person's client would: nothing of the table itself.
    thinker_.think(
        owner_(), engine::view_for(game_.state(), seat), kind, game_.version(), due,
        [this, version = game_.version(), then = std::move(then)](const engine::Move& move) {
            table_.when_ready([this, move, version, then] {
                if (table_.retired() || game_.version() != version ||
                    status_ != TableStatus::playing)
                    return;
                then(move);
            });
        });
}

}  // namespace gcor::server
