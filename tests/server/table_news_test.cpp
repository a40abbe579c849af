// A table's news side on its own, with the table's parts and fakes for the rest: another
// process's move applied, sent to the followers and counted in the row's revision; one that does
// not apply retires the table; the row's news puts the revision and the deadline in step and
// tells the lobby and the player to act on this process; a reload retires the table and tells
// the lobby and the player whose turn began; a read of the store on the blocking pool.
#include <catch2/catch.hpp>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <memory>
#include <string>
#include <vector>

#include "gcor/engine/move.hpp"
#include "notify/mailer.hpp"
#include "table_part_support.hpp"
#include "tables/stored_game.hpp"
#include "tables/table.hpp"
#include "vacation_support.hpp"

namespace gcor::server {
namespace {

namespace net = boost::asio;
using protocol::Json;

class NewsPartPeer final : public Peer {
  public:
    std::vector<Message> received;
    void send(Message message) override { received.push_back(std::move(message)); }
    void send_reply(Message message, const Json&) override { send(std::move(message)); }
    void end_session(std::uint64_t) override {}
};

// The table, the host and the server's services as the news side sees them: each records.
class NewsPartTable final : public NewsTable, public BotTable, public TableHost {
  public:
    std::vector<bool> retired_after;  // retire_after_failure's `conflict`, per call
    int closed = 0;
    std::vector<Json> host_published;  // the summaries the host was given

    void when_ready(std::function<void()> work) override { work(); }
    bool retired() const override { return !retired_after.empty(); }
    void play_for(engine::Seat, const engine::Move&, MovedBy) override {}
    void retire_after_failure(bool conflict) override { retired_after.push_back(conflict); }
    void retire_closed() override { ++closed; }
    void forget(const std::string&, const Table*) override {}
    void find(const std::string&, OnFound) override {}
    void publish(bool, const std::function<Json()>& summary) override {
        host_published.push_back(summary());
    }
};

class NewsPartStore final : public TableStorage {
  public:
    std::optional<LoadedTable> since;
    bool fails = false;
    std::vector<std::uint64_t> reads;  // the versions asked after

    void save_table(const StoredTable&, TableDone) override {}
    void remove_table(const std::string&, std::uint64_t, TableDone) override {}
    void append_move(const TableProgress&, const StoredMove&, TableDone) override {}
    std::optional<LoadedTable> load_table(const std::string&) override { return std::nullopt; }
    std::optional<LoadedTable> load_table_since(const std::string&, std::uint64_t after) override {
        reads.push_back(after);
        if (fails) throw StorageFailure("the disk is gone");
        return since;
    }
};

class NewsPartChatStore final : public ChatStorage {
  public:
    void append_chat(const std::string&, const StoredChatLine&, Done) override {}
    void delete_chat(const std::string&, std::uint64_t, Done) override {}
    std::vector<StoredChatLine> chat_lines(const std::string&, std::optional<std::uint64_t>,
                                           std::size_t) override {
        return {};
    }
};

class NewsPartNotices final : public TurnNotices {
  public:
    std::vector<std::uint64_t> here;  // your_turn_here's users
    void your_turn(std::uint64_t, const Message&, std::span<const Peer* const>,
                   const std::function<TurnNotice()>&) override {}
    void your_turn_here(std::uint64_t user, const Message& message,
                        std::span<const Peer* const>) override {
        CHECK(message()["type"] == "your_turn");
        here.push_back(user);
    }
    void tell(std::uint64_t, const Json&) override {}
};

class NewsPartGuards final : public ChatGuards,
                             public BlockedUsers,
                             public PlayerPreferences,
                             public GameRatings,
                             public ChatNews {
  public:
    bool is_admin(const User&) const override { return false; }
    bool muted(std::uint64_t, std::uint64_t) const override { return false; }
    std::optional<std::chrono::milliseconds> take_line(std::uint64_t, Clock::time_point) override {
        return std::nullopt;
    }
    bool blocked(std::uint64_t, std::uint64_t) const override { return false; }
    UserPreferences preferences_of(std::uint64_t) const override { return {}; }
    void rate_pending() override {}
    void read_chat_line(std::uint64_t) override {}
    void on_chat_deleted(std::uint64_t) override {}
};

const User kNewsPartAnn{7, "ann", false};
const User kNewsPartBob{8, "bob", false};

struct NewsPartFixture {
    VacationsInStore in;
    Metrics metrics;
    net::io_context io;
    net::io_context blocking;
    TableNews::Strand strand = net::make_strand(io);
    NewsPartTable table;
    NewsPartStore store;
    NewsPartChatStore chat_store;
    NewsPartNotices notices;
    NewsPartGuards guards;
    TableServices services{store,
                           chat_store,
                           notices,
                           guards,
                           guards,
                           guards,
                           guards,
                           in.vacations(),
                           metrics,
                           blocking,
                           io,
                           std::chrono::milliseconds(0),
                           std::chrono::milliseconds(5)};
    std::string id = "t1";
    std::string id_json = "\"t1\"";
    std::string name;
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    CommitPipeline pipeline{CommitPipeline::Stage::ready};
    CountedStatus status{metrics};
    TableSeats seats{2};
    TableGame game{true};
    TurnClock clock{
        protocol::TimeControl{.kind = protocol::TimeControl::Kind::realtime, .seconds = 60},
        in.vacations()};
    Followers followers;
    TableWrites writes{store, pipeline, strand, [this] { return owner; }};
    TableTurn turn{id, name, notices, clock, status, seats, game, followers};
    TableBots bots{table,
                   [this] { return owner; },
                   strand,
                   io,
                   std::chrono::milliseconds(5),
                   std::chrono::milliseconds(0),
                   42,
                   status,
                   seats,
                   game,
                   clock};
    protocol::TableSettings settings;
    ChatLines chat{settings, guards};
    // The table's own summary, as its views publish it.
    TableViews views{id,      table,     false,
                     metrics, status,    game,
                     chat,    followers, [] { return Json{{"id", "t1"}, {"made", "here"}}; }};
    TableNews news{table,
                   [this] { return owner; },
                   id,
                   id_json,
                   services,
                   table,
                   strand,
                   TableNews::Parts{status, game, seats, clock, followers, writes, turn, bots,
                                    pipeline, guards, views}};
    std::shared_ptr<NewsPartPeer> spectator = std::make_shared<NewsPartPeer>();

    // A started game, ann and bob seated, a spectator following.
    void start() {
        seats.seat_person(0, kNewsPartAnn);
        seats.seat_person(1, kNewsPartBob);
        start_part_game(seats, game, status);
        followers.follow(spectator, std::nullopt, 99);
    }
    // The first legal move of the seat to act, as another process stored it.
    StoredMove next_move() const {
        const engine::Seat seat = game.state().to_act();
        const auto moves = game.state().legal_moves(seat);
        REQUIRE_FALSE(moves.empty());
        return StoredMove{game.version() + 1, seat,           moves.front().to_string(), "m",
                          unix_now_ms(),      MovedBy::player};
    }
};

}  // namespace

TEST_CASE("table news: another process's move applied, sent and counted in the revision",
          "[server]") {
    NewsPartFixture at;
    at.start();
    at.writes.set_revision(3);
    const StoredMove move = at.next_move();
    const NewsTarget::Copy before = at.news.news_copy();
    CHECK(before.version == 0);
    CHECK(before.revision == 3);
    CHECK(before.status == TableStatus::playing);

    REQUIRE(at.news.apply_stored_change(move));
    CHECK(at.game.version() == 1);
    CHECK(at.writes.revision() == 4);
    REQUIRE(at.spectator->received.size() == 1);  // the spectator's patch
    CHECK(Json::parse(*at.spectator->received[0])["type"] == "patch");
    CHECK(at.table.retired_after.empty());
    CHECK(at.news.seated_as(stored_seats(at.seats)));
    CHECK_FALSE(at.news.seated_as({}));
}

TEST_CASE("table news: a move that does not apply here retires the table", "[server]") {
    NewsPartFixture at;
    at.start();
    StoredMove move = at.next_move();
    move.seat = 1 - move.seat;  // not that seat's turn
    CHECK_FALSE(at.news.apply_stored_change(move));
    CHECK(at.table.retired_after == std::vector<bool>{true});
    CHECK(at.game.version() == 0);
    CHECK(at.spectator->received.empty());
}

TEST_CASE("table news: the row in step, the lobby told of a new status, the player to act here",
          "[server]") {
    NewsPartFixture at;
    at.start();
    const engine::Seat first = at.game.state().to_act();
    REQUIRE(at.news.apply_stored_change(at.next_move()));
    const engine::Seat next = at.game.state().to_act();
    REQUIRE(next != first);
    const UnixMs deadline = unix_now_ms() + 60'000;
    at.news.in_step({.revision = 9,
                     .deadline = deadline,
                     .status_before = TableStatus::waiting,
                     .to_act_before = first,
                     .last_move_at = unix_now_ms()});
    CHECK(at.writes.revision() == 9);
    CHECK(at.clock.deadline() == deadline);
    // Waiting before: a status of its own now.
    REQUIRE(at.table.host_published.size() == 1);
    CHECK(at.table.host_published[0]["made"] == "here");
    CHECK(at.notices.here == std::vector<std::uint64_t>{at.seats[next].user.id});

    // The same status and the same player: nobody more is told.
    at.news.in_step({.revision = 10,
                     .deadline = deadline,
                     .status_before = TableStatus::playing,
                     .to_act_before = next,
                     .last_move_at = unix_now_ms()});
    CHECK(at.table.host_published.size() == 1);
    CHECK(at.notices.here.size() == 1);
}

TEST_CASE("table news: a reload retires the table and tells the lobby and the new turn's player",
          "[server]") {
    NewsPartFixture at;  // a waiting table: another process started it
    StoredTable row;
    row.id = "t1";
    row.status = TableStatus::playing;
    row.to_act = 1;
    row.version = 0;
    row.seats = {StoredSeat{SeatKind::human, 7, "ann", "", false},
                 StoredSeat{SeatKind::human, 8, "bob", "", false}};
    at.news.reload(row);
    CHECK(at.table.retired_after == std::vector<bool>{true});
    REQUIRE(at.table.host_published.size() == 1);
    CHECK(at.table.host_published[0]["id"] == "t1");
    CHECK(at.notices.here == std::vector<std::uint64_t>{8});
}

TEST_CASE("table news: the store is read on the blocking pool, its failure told", "[server]") {
    NewsPartFixture at;
    at.store.since = LoadedTable{};
    std::vector<bool> answers;
    at.news.read_since(4, [&](bool read, const std::optional<LoadedTable>& stored) {
        CHECK(at.strand.running_in_this_thread());
        answers.push_back(read && stored.has_value());
    });
    at.blocking.run();
    CHECK(at.store.reads == std::vector<std::uint64_t>{4});
    at.io.run();
    at.store.fails = true;
    at.news.read_since(
        5, [&](bool read, const std::optional<LoadedTable>&) { answers.push_back(read); });
    at.blocking.restart();
    at.blocking.run();
    at.io.restart();
    at.io.run();
    CHECK(answers == std::vector<bool>{true, false});
}

}  // namespace gcor::server
