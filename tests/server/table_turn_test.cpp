// A turn's start at a table on its own: the seat to act's deadline (a person's, under a time
// control; none for a bot, nor before the game), and the your_turn notice: to the player to act
// but to their connections that follow the table as that seat, by webhook and mail only when
// this process made the change, and to nobody for a bot, a forfeited seat or a game not under way.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "notify/mailer.hpp"
#include "table_part_support.hpp"
#include "tables/table_turn.hpp"
#include "vacation_support.hpp"

namespace gcor::server {
namespace {

using protocol::Json;

class TurnPartPeer final : public Peer {
  public:
    void send(Message) override {}
    void send_reply(Message, const Json&) override {}
    void end_session(std::uint64_t) override {}
};

// What the part asked the notifier: one entry per notice.
class TurnPartNotices final : public TurnNotices {
  public:
    struct Told {
        std::uint64_t user = 0;
        Json message;
        std::vector<const Peer*> informed;
        bool mailed = false;  // your_turn (webhook and mail), not your_turn_here
        TurnNotice mail;
    };
    std::vector<Told> told;

    void your_turn(std::uint64_t user, const Message& message,
                   std::span<const Peer* const> informed,
                   const std::function<TurnNotice()>& mail) override {
        told.push_back({user, message(), {informed.begin(), informed.end()}, true, mail()});
    }
    void your_turn_here(std::uint64_t user, const Message& message,
                        std::span<const Peer* const> informed) override {
        told.push_back({user, message(), {informed.begin(), informed.end()}, false, {}});
    }
    // Invitations' notices (table_invitations.cpp): the turn part sends none.
    void tell(std::uint64_t, const Json&) override {}
};

const User kTurnPartAnn{7, "ann", false};
const User kTurnPartBob{8, "bob", false};

struct TurnPartFixture {
    VacationsInStore in;
    Metrics metrics;
    std::string id = "t1";
    std::string name = "Friday game";
    TurnPartNotices notices;
    TurnClock clock{
        protocol::TimeControl{.kind = protocol::TimeControl::Kind::realtime, .seconds = 60},
        in.vacations()};
    CountedStatus status{metrics};
    TableSeats seats{2};
    TableGame game{true};
    Followers followers;
    TableTurn turn{id, name, notices, clock, status, seats, game, followers};

    // A started game, ann and bob seated; the seat to act's user.
    std::uint64_t start() {
        seats.seat_person(0, kTurnPartAnn);
        seats.seat_person(1, kTurnPartBob);
        start_part_game(seats, game, status);
        return seats[game.state().to_act()].user.id;
    }
};

}  // namespace

TEST_CASE("table turn: a person's turn has a deadline, a bot's and one after the game none",
          "[server]") {
    TurnPartFixture f;
    f.start();
    const UnixMs before = unix_now_ms();
    f.turn.start();
    REQUIRE(f.clock.deadline());
    CHECK(*f.clock.deadline() >= before + 60'000);

    f.seats.forfeit(f.game.state().to_act());  // a bot plays the seat now
    f.turn.start();
    CHECK_FALSE(f.clock.deadline());

    TurnPartFixture over;
    over.start();
    over.status.set(TableStatus::finished);
    over.turn.start();
    CHECK_FALSE(over.clock.deadline());
}

TEST_CASE("table turn: the player to act is told, but not on a connection that follows as them",
          "[server]") {
    TurnPartFixture f;
    const std::uint64_t to_act = f.start();
    const engine::Seat seat = f.game.state().to_act();
    auto following = std::make_shared<TurnPartPeer>();
    auto spectating = std::make_shared<TurnPartPeer>();
    f.followers.follow(following, seat, to_act);
    f.followers.follow(spectating, std::nullopt, to_act);
    f.turn.start();

    f.turn.tell();
    REQUIRE(f.notices.told.size() == 1);
    const auto& told = f.notices.told[0];
    CHECK(told.user == to_act);
    CHECK(told.mailed);
    CHECK(told.informed == std::vector<const Peer*>{following.get()});
    CHECK(told.message == Json{{"type", "your_turn"},
                               {"table", "t1"},
                               {"seat", seat},
                               {"version", 0},
                               {"deadline", *f.clock.deadline()}});
    CHECK(told.mail.table == "t1");
    CHECK(told.mail.table_name == "Friday game");
    CHECK(told.mail.players == std::vector<std::string>{"ann", "bob"});

    f.turn.tell(true);  // another process made the change: it mailed
    REQUIRE(f.notices.told.size() == 2);
    CHECK_FALSE(f.notices.told[1].mailed);
    CHECK(f.notices.told[1].user == to_act);
}

TEST_CASE("table turn: no notice for a bot, a forfeited seat, or a game not under way",
          "[server]") {
    TurnPartFixture f;
    f.turn.tell();  // waiting
    f.start();
    f.seats.forfeit(f.game.state().to_act());
    f.turn.tell();
    CHECK(f.notices.told.empty());

    TurnPartFixture bots;
    bots.start();
    bots.seats.seat_bot(bots.game.state().to_act(), engine::BotKind::random);
    bots.turn.tell();
    CHECK(bots.notices.told.empty());

    TurnPartFixture over;
    over.start();
    over.status.set(TableStatus::finished);
    over.turn.tell();
    CHECK(over.notices.told.empty());
}

TEST_CASE("counted status: each table counted once, under its status, while it lives", "[server]") {
    Metrics metrics;
    {
        CountedStatus one(metrics);
        CountedStatus two(metrics);
        CHECK(metrics.tables_waiting.load() == 2);
        one.set(TableStatus::playing);
        CHECK(one == TableStatus::playing);
        CHECK(metrics.tables_waiting.load() == 1);
        CHECK(metrics.tables_playing.load() == 1);
        one.set(TableStatus::finished);
        CHECK(metrics.tables_playing.load() == 0);
        CHECK(metrics.tables_finished.load() == 1);
    }
    CHECK(metrics.tables_waiting.load() == 0);
    CHECK(metrics.tables_finished.load() == 0);
}

}  // namespace gcor::server
