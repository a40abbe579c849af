#include "tables/bot_thinker.hpp"

#include <boost/asio/post.hpp>

namespace gcor::server {

namespace net = boost::asio;

void BotThinker::think(std::shared_ptr<void> owner, engine::View view, engine::BotKind kind,
                       std::uint64_t version, Clock::time_point due,
                       std::function<void(const engine::Move&)> then) {
    if (thinking_for_ == version) return;
    thinking_for_ = version;
    net::post(pool_, [this, owner = std::move(owner), view = std::move(view), kind,
                      seed = rng_.next(), version, due, then = std::move(then)]() mutable {
        engine::Rng rng(seed);
        const engine::Move move = engine::choose_move(kind, view, rng, {0, think_time_});
        net::post(strand_, [this, owner = std::move(owner), move, version, due,
                            then = std::move(then)]() mutable {
            if (thinking_for_ == version) thinking_for_.reset();
            if (Clock::now() >= due) return then(move);
            timer_.expires_at(due);
            timer_.async_wait([owner = std::move(owner), move,
                               then = std::move(then)](const boost::system::error_code& ec) {
                if (!ec) then(move);
            });
        });
    });
}

void BotThinker::after(std::shared_ptr<void> owner, Clock::duration delay,
                       std::function<void()> then) {
    timer_.expires_after(delay);
    timer_.async_wait(
        [owner = std::move(owner), then = std::move(then)](const boost::system::error_code& ec) {
            if (!ec) then();
        });
}

}  // namespace gcor::server
