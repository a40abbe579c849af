// A table's bots' side on its own, with an io_context of the test's: a bot's seat to act gets a
// legal move by the bot, a person's none; no move for a retired table or a version that changed
// while the bot thought; a seat out of time gets the strong bot's move while its clock is due,
// one thought at a time; and the takeover of a bot's move that another process was to make.
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <vector>

#include "table_part_support.hpp"
#include "tables/stored_game.hpp"
#include "tables/table_bots.hpp"
#include "vacation_support.hpp"

namespace gcor::server {
namespace {

using namespace std::chrono_literals;
namespace net = boost::asio;

// The table as the bots see it: ready at once, retired when the test says, its moves recorded.
class BotsPartTable final : public BotTable {
  public:
    struct Played {
        engine::Seat seat = 0;
        engine::Move move;
        MovedBy by = MovedBy::player;
    };
    std::vector<Played> played;
    bool is_retired = false;
    TableGame* game = nullptr;

    void when_ready(std::function<void()> work) override { work(); }
    bool retired() const override { return is_retired; }
    void play_for(engine::Seat seat, const engine::Move& move, MovedBy by) override {
        played.push_back({seat, move, by});
        CHECK(game->state().check(seat, move) == engine::MoveError::none);
    }
};

const User kBotsPartAnn{7, "ann", false};

struct BotsPartFixture {
    VacationsInStore in;
    Metrics metrics;
    net::io_context io;
    BotThinker::Strand strand = net::make_strand(io);
    TurnClock clock{
        protocol::TimeControl{.kind = protocol::TimeControl::Kind::realtime, .seconds = 60},
        in.vacations()};
    CountedStatus status{metrics};
    TableSeats seats{2};
    TableGame game{true};
    BotsPartTable table;
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    TableBots bots{table, [this] { return owner; }, strand, io, 5ms, 0ms, 42, status, seats, game,
                   clock};

    // A started game: ann at seat 0, a greedy bot at seat 1. The seat to act.
    engine::Seat start() {
        table.game = &game;
        seats.seat_person(0, kBotsPartAnn);
        seats.seat_bot(1, engine::BotKind::greedy);
        start_part_game(seats, game, status);
        return game.state().to_act();
    }
    // Plays the first legal move of the seat to act, as the table would.
    void play_first() {
        const engine::Seat seat = game.state().to_act();
        const auto moves = game.state().legal_moves(seat);
        REQUIRE_FALSE(moves.empty());
        REQUIRE(game.apply(seat, moves.front(), MovedBy::player, "m"));
    }
    // Until the bot's seat is to act.
    void until_bot_acts() {
        while (game.state().to_act() != 1)
            play_first();
    }
};

}  // namespace

TEST_CASE("table bots: a bot's seat to act gets the bot's move, a person's none", "[server]") {
    BotsPartFixture at;
    at.start();
    if (at.game.state().to_act() == 1) at.play_first();
    REQUIRE(at.game.state().to_act() == 0);
    at.bots.schedule();  // ann's turn: nothing
    at.io.run();
    CHECK(at.table.played.empty());

    at.until_bot_acts();
    at.io.restart();
    at.bots.schedule();
    at.io.run();
    REQUIRE(at.table.played.size() == 1);
    CHECK(at.table.played[0].seat == 1);
    CHECK(at.table.played[0].by == MovedBy::bot);
}

TEST_CASE("table bots: a forfeited person's seat is played by the strong bot", "[server]") {
    BotsPartFixture at;
    at.start();
    if (at.game.state().to_act() == 1) at.play_first();
    at.seats.forfeit(0);
    at.bots.schedule();
    at.io.run();
    REQUIRE(at.table.played.size() == 1);
    CHECK(at.table.played[0].seat == 0);
    CHECK(at.table.played[0].by == MovedBy::bot);
}

TEST_CASE("table bots: no move for a retired table or a version changed meanwhile", "[server]") {
    BotsPartFixture at;
    at.start();
    at.until_bot_acts();
    at.bots.schedule();
    at.table.is_retired = true;  // while the bot thinks
    at.io.run();
    CHECK(at.table.played.empty());

    at.table.is_retired = false;
    at.io.restart();
    at.bots.schedule();
    at.play_first();  // the bot's seat moved meanwhile (another process's move, say)
    at.io.run();
    CHECK(at.table.played.empty());
    // A game not under way has no bot to move.
    at.until_bot_acts();
    at.status.set(TableStatus::finished);
    at.io.restart();
    at.bots.schedule();
    at.io.run();
    CHECK(at.table.played.empty());
}

TEST_CASE("table bots: a seat out of time gets the strong bot's move while still due", "[server]") {
    BotsPartFixture at;
    at.start();
    if (at.game.state().to_act() == 1) at.play_first();
    at.clock.set_deadline(unix_now_ms() - 1000);
    CHECK(at.bots.stand_in(0));
    CHECK_FALSE(at.bots.stand_in(0));  // one thought per version
    at.io.run();
    REQUIRE(at.table.played.size() == 1);
    CHECK(at.table.played[0].seat == 0);
    CHECK(at.table.played[0].by == MovedBy::timeout);

    // The deadline moved (the player moved, or a vacation) while the bot thought: no move.
    at.io.restart();
    CHECK(at.bots.stand_in(0));
    at.clock.set_deadline(unix_now_ms() + 60'000);
    at.io.run();
    CHECK(at.table.played.size() == 1);
}

TEST_CASE("table bots: another process's bot move is taken over once it is overdue", "[server]") {
    BotsPartFixture at;
    at.start();
    at.until_bot_acts();
    // The change was made long ago: the bot moves now, here.
    at.bots.take_over(unix_now_ms() - 10 * TableBots::kTakeoverMs);
    at.io.run();
    REQUIRE(at.table.played.size() == 1);
    CHECK(at.table.played[0].by == MovedBy::bot);

    // Cancelled (the table retired): no move.
    at.io.restart();
    at.bots.take_over(unix_now_ms());
    at.bots.cancel();
    at.io.run();
    CHECK(at.table.played.size() == 1);
}

}  // namespace gcor::server
