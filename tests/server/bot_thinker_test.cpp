// A table's bots at work, on their own with an io_context of the test's: a legal move comes back
// on the strand, once per version, no earlier than due; the takeover timer fires unless
// cancelled.
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <vector>

#include "gcor/engine/game.hpp"
#include "tables/bot_thinker.hpp"

namespace gcor::server {
namespace {

using namespace std::chrono_literals;
namespace net = boost::asio;

}  // namespace

TEST_CASE("bot thinker: a legal move on the strand, once per version, when due", "[server]") {
    net::io_context io;
    BotThinker::Strand strand = net::make_strand(io);
    BotThinker bots(strand, io, 10ms, 42);
    const engine::State state =
        engine::Rules::make({2, engine::Variant::yucata, false})->new_game(7);
    const engine::Seat seat = state.to_act();
    auto owner = std::make_shared<int>(0);

    std::vector<engine::Move> moves;
    const auto due = BotThinker::Clock::now() + 50ms;
    bots.think(owner, engine::view_for(state, seat), engine::BotKind::greedy, 3, due,
               [&](const engine::Move& move) {
                   CHECK(strand.running_in_this_thread());
                   CHECK(BotThinker::Clock::now() >= due);
                   moves.push_back(move);
               });
    CHECK(bots.thinking_about(3));
    // Asked again for the same version while thinking: nothing more.
    bots.think(owner, engine::view_for(state, seat), engine::BotKind::greedy, 3, due,
               [&](const engine::Move& move) { moves.push_back(move); });
    io.run();
    REQUIRE(moves.size() == 1);
    CHECK(state.check(seat, moves.front()) == engine::MoveError::none);
    CHECK_FALSE(bots.thinking_about(3));
}

TEST_CASE("bot thinker: the takeover timer fires, unless cancelled", "[server]") {
    net::io_context io;
    BotThinker::Strand strand = net::make_strand(io);
    BotThinker bots(strand, io, 10ms, 42);
    auto owner = std::make_shared<int>(0);
    int fired = 0;
    bots.after(owner, 1ms, [&] { ++fired; });
    io.run();
    CHECK(fired == 1);

    io.restart();
    bots.after(owner, 1h, [&] { ++fired; });
    bots.cancel();
    io.run();
    CHECK(fired == 1);
}

}  // namespace gcor::server
