#pragma once
// What the unit tests of a table's retirement, invitations and account changes share: a 2-seat
// table's parts wired as Table wires them, without a server: a store whose table writes end at
// once as the test says, and a lobby, turn notices and guards that record. The fixture is the
// table too: it saves as Table::save does (a failed write retires it) and moves for the bots.
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "table_part_support.hpp"
#include "tables/stored_seats.hpp"
#include "tables/table.hpp"
#include "vacation_support.hpp"

namespace gcor::server {

// A connection's messages, parsed, each with the request id it answered (null: none).
class PartsFixturePeer final : public Peer {
  public:
    std::vector<protocol::Json> received;
    std::vector<protocol::Json> reply_ids;
    void send(Message message) override {
        received.push_back(protocol::Json::parse(*message));
        reply_ids.emplace_back();
    }
    void send_reply(Message message, const protocol::Json& id) override {
        received.push_back(protocol::Json::parse(*message));
        reply_ids.push_back(id);
    }
    void end_session(std::uint64_t) override {}
};

// The store's table writes, each ended at once as `outcome` (on the store's side: the answer
// reaches the table's strand when the test runs it).
class PartsFixtureStore final : public TableStorage {
  public:
    Written outcome = Written::committed;
    std::vector<std::string> calls;  // "save", "remove", "append", in order
    std::vector<StoredTable> saved;
    std::vector<std::uint64_t> removed_at;  // the revision each remove named

    void save_table(const StoredTable& table, TableDone done) override {
        calls.emplace_back("save");
        saved.push_back(table);
        done(outcome);
    }
    void remove_table(const std::string&, std::uint64_t revision, TableDone done) override {
        calls.emplace_back("remove");
        removed_at.push_back(revision);
        done(outcome);
    }
    void append_move(const TableProgress&, const StoredMove&, TableDone done) override {
        calls.emplace_back("append");
        done(outcome);
    }
    std::optional<LoadedTable> load_table(const std::string&) override { return std::nullopt; }
    std::optional<LoadedTable> load_table_since(const std::string&, std::uint64_t) override {
        return std::nullopt;
    }
};

// The lobby, the turn notices, the chat (its store never asked), the guards, the creator's
// blocks, the players' preferences and the ratings, as the parts see them.
class PartsFixtureWorld final : public TableHost,
                                public TurnNotices,
                                public ChatStorage,
                                public ChatGuards,
                                public BlockedUsers,
                                public PlayerPreferences,
                                public GameRatings {
  public:
    std::vector<std::string> forgotten;
    std::vector<OnFound> finds;             // the lobby's finds, for the test to answer
    std::vector<protocol::Json> published;  // the summaries the lobby was given
    std::vector<std::pair<std::uint64_t, protocol::Json>> told;  // tell()'s

    void forget(const std::string& id, const Table*) override { forgotten.push_back(id); }
    void find(const std::string&, OnFound found) override { finds.push_back(std::move(found)); }
    void publish(bool, const std::function<protocol::Json()>& summary) override {
        published.push_back(summary());
    }
    void your_turn(std::uint64_t, const Message&, std::span<const Peer* const>,
                   const std::function<TurnNotice()>&) override {}
    void your_turn_here(std::uint64_t, const Message&, std::span<const Peer* const>) override {}
    void tell(std::uint64_t user, const protocol::Json& message) override {
        told.emplace_back(user, message);
    }
    bool is_admin(const User&) const override { return false; }
    bool muted(std::uint64_t, std::uint64_t) const override { return false; }
    std::optional<std::chrono::milliseconds> take_line(std::uint64_t, Clock::time_point) override {
        return std::nullopt;
    }
    bool blocked(std::uint64_t, std::uint64_t) const override { return false; }
    void append_chat(const std::string&, const StoredChatLine&, Done) override {}
    void delete_chat(const std::string&, std::uint64_t, Done) override {}
    std::vector<StoredChatLine> chat_lines(const std::string&, std::optional<std::uint64_t>,
                                           std::size_t) override {
        return {};
    }
    UserPreferences preferences_of(std::uint64_t) const override { return {}; }
    void rate_pending() override {}
};

inline const User kPartsAnn{7, "ann", false};
inline const User kPartsBob{8, "bob", false};
inline const User kPartsCid{9, "cid", false};

struct TablePartsFixture : SavingTable, BotTable {
    VacationsInStore in;
    Metrics metrics;
    boost::asio::io_context io;    // the table's strand's
    boost::asio::io_context pool;  // the bots'
    TableWrites::Strand strand = boost::asio::make_strand(io);
    PartsFixtureStore store;
    PartsFixtureWorld world;
    TableServices services{store,
                           world,
                           world,
                           world,
                           world,
                           world,
                           world,
                           in.vacations(),
                           metrics,
                           pool,
                           pool,
                           std::chrono::milliseconds(0),
                           std::chrono::milliseconds(5)};
    std::string id = "t1";
    std::string id_json = "\"t1\"";
    std::string name;  // the table's, given at its creation
    std::shared_ptr<int> owner = std::make_shared<int>(0);
    protocol::TableSettings settings = two_players();
    StoredGame record{id, settings, 42, "nonce", kPartsAnn.id};
    CommitPipeline pipeline{CommitPipeline::Stage::ready};
    CountedStatus status{metrics};
    TableSeats seats{2};
    TableGame game{true};
    TurnClock clock{
        protocol::TimeControl{.kind = protocol::TimeControl::Kind::realtime, .seconds = 60},
        in.vacations()};
    Followers followers;
    TableWrites writes{store, pipeline, strand, [this] { return owner; }};
    TableRefusals refusals{id, kPartsAnn.id, metrics, world, writes};
    ChatLines chat{settings, world};
    // The summary says what the tests look at: whether a person sits or is invited, whether the
    // table closed.
    TableViews views{id, world, true, metrics, status, game, chat, followers, [this] {
                         return protocol::Json{{"id", id},
                                               {"people", seats.has_people()},
                                               {"closed", retirement.closed()}};
                     }};
    TableBots bots{*this,
                   [this] { return owner; },
                   strand,
                   pool,
                   std::chrono::milliseconds(5),
                   std::chrono::milliseconds(0),
                   42,
                   status,
                   seats,
                   game,
                   clock};
    TableRetirement retirement{
        id, nullptr, world, {pipeline, writes, bots, followers, views, status, seats, game}};
    TableInvitations invitations{id, *this, retirement, world, status, seats, refusals, views};
    TableAccountChanges changes{
        id,
        *this,
        {status, seats, game, clock, followers, chat, views, bots, invitations, retirement}};
    TableTurn turn{id, name, world, clock, status, seats, game, followers};
    TablePlay play{record,
                   id_json,
                   services,
                   *this,
                   {status, seats, game, clock, turn, followers, writes, views, bots, refusals,
                    retirement, invitations}};
    std::vector<engine::Seat> bots_moved;  // the seats the bots moved for

    // As Table::save: the row at the next revision; a write not stored retires the table.
    void save(std::function<void(bool ok)> then) override {
        writes.save(
            [this] {
                StoredTable row;
                row.id = id;
                row.revision = writes.revision();
                row.seats = stored_seats(seats);
                return row;
            },
            [this, then = std::move(then)](Written written) {
                if (written != Written::committed)
                    retirement.retire_after_failure(written == Written::conflict);
                then(written == Written::committed);
            });
    }
    void when_ready(std::function<void()> work) override { retirement.when_ready(std::move(work)); }
    bool retired() const override { return retirement.retired(); }
    void play_for(engine::Seat seat, const engine::Move&, MovedBy) override {
        bots_moved.push_back(seat);
    }

    // Runs what was posted to the strand (the writes' answers).
    void run() {
        io.restart();
        io.run();
    }
    void start() { start_part_game(seats, game, status); }
    static protocol::TableSettings two_players() {
        protocol::TableSettings two;
        two.options = {2, engine::Variant::yucata, false};
        return two;
    }
};

// The types of the messages a peer received, in order.
inline std::vector<std::string> parts_fixture_types(const PartsFixturePeer& peer) {
    std::vector<std::string> types;
    for (const protocol::Json& message : peer.received)
        types.push_back(message.value("type", ""));
    return types;
}

}  // namespace gcor::server
