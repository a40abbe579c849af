#include <SQLiteCpp/SQLiteCpp.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "gcor/store/open_store.hpp"
#include "gcor/store/postgres_store.hpp"
#include "gcor/store/presence_store.hpp"
#include "gcor/store/sqlite_store.hpp"
#include "gcor/store/store.hpp"
#include "group_writer.hpp"
#include "postgres_news.hpp"
#include "postgres_support.hpp"
#include "ratings/ratings.hpp"
#include "sqlite_gathered_log.hpp"
#include "sqlite_writer.hpp"

using namespace gcor::server;
namespace fs = std::filesystem;

namespace {

// A fresh folder under the system's temporary one, removed with everything in it at the end.
class TempDir {
  public:
    TempDir() {
        std::random_device random;
        path_ = fs::temp_directory_path() /
                ("gcor-store-" + std::to_string(random()) + std::to_string(random()));
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name = "store.db") const { return (path_ / name).string(); }

  private:
    fs::path path_;
};

std::unique_ptr<Store> open_sqlite_file(const std::string& path, bool grouped = true,
                                        int group_commit_ms = 2) {
    return open_sqlite_store(
        {.path = path, .group_commit_ms = group_commit_ms, .group_commits = grouped});
}

enum class Backend { sqlite, postgres };

const char* name_of(Backend backend) {
    return backend == Backend::sqlite ? "SQLite" : "PostgreSQL";
}

// Runs the rest of the test case once per backend; a failure names the backend.
#define FOR_EACH_BACKEND(backend)                                         \
    const Backend backend = GENERATE(Backend::sqlite, Backend::postgres); \
    INFO("backend: " << name_of(backend))

// Where one test's store lives: a file in a fresh folder, or a fresh database on the test
// process's PostgreSQL server. Each open() opens the same one again.
class StorePlace {
  public:
    explicit StorePlace(Backend backend) : backend_(backend) {
        if (backend_ == Backend::postgres)
            url_ = gcor::testing::PostgresServer::shared().create_database();
    }

    std::unique_ptr<Store> open(bool grouped = true, int group_commit_ms = 2) const {
        if (backend_ == Backend::sqlite)
            return open_sqlite_file(dir_.file(), grouped, group_commit_ms);
        return open_postgres_store(
            {.url = url_, .group_commit_ms = group_commit_ms, .group_commits = grouped});
    }
    const std::string& url() const { return url_; }

  private:
    Backend backend_;
    TempDir dir_;
    std::string url_;  // PostgreSQL's
};

bool ok(Written written) {
    return written == Written::committed;
}

// Waits for a write, given as a function of its Done: how it ended.
template <typename Write>
Written outcome(Write write) {
    auto done = std::make_shared<std::promise<Written>>();
    auto result = done->get_future();
    write([done](auto ended) {
        if constexpr (std::is_same_v<decltype(ended), bool>) {
            done->set_value(ended ? Written::committed : Written::failed);
        } else {
            done->set_value(ended);
        }
    });
    return result.get();
}

// Waits for a write: whether it committed.
template <typename Write>
bool committed(Write write) {
    return outcome(std::move(write)) == Written::committed;
}

bool saved(Store& store, const StoredTable& table) {
    return committed([&](auto done) { store.save_table(table, done); });
}

bool appended(Store& store, const StoredTable& table, const StoredMove& move) {
    return committed([&](auto done) { store.append_move(progress_of(table), move, done); });
}

int user_version(const std::string& path) {
    SQLite::Database db(path, SQLite::OPEN_READONLY);
    return db.execAndGet("PRAGMA user_version").getInt();
}

// A waiting two-player public table: seat 0 open, seat 1 a bot.
StoredTable make_table(const std::string& id, UnixMs created) {
    StoredTable table;
    table.id = id;
    table.created = created;
    table.settings = R"({"options":{"players":2,"rules":"yucata"}})";
    table.players = 2;
    table.rules = "yucata";
    table.seed = 42;
    table.nonce = "00ff";
    table.commitment = "c0ffee";
    table.status = TableStatus::waiting;
    table.seats = {StoredSeat{SeatKind::open, 0, "", "", false},
                   StoredSeat{SeatKind::bot, 0, "Greedy", "greedy", false}};
    return table;
}

StoredMove make_move(std::uint64_t seq, int seat) {
    return StoredMove{seq,
                      seat,
                      "draft " + std::to_string(seq),
                      "m" + std::to_string(seq),
                      1000 + static_cast<UnixMs>(seq),
                      MovedBy::player};
}

// `table` as the server saves it with its move `seq`.
StoredTable after_move(StoredTable table, std::uint64_t seq) {
    table.status = TableStatus::playing;
    table.version = seq;
    table.to_act = static_cast<int>(seq % 2);
    table.deadline = 5000 + static_cast<UnixMs>(seq);
    return table;
}

void check_table(const StoredTable& got, const StoredTable& want) {
    INFO("table " << want.id);
    CHECK(got.id == want.id);
    CHECK(got.created == want.created);
    CHECK(got.settings == want.settings);
    CHECK(got.players == want.players);
    CHECK(got.rules == want.rules);
    CHECK(got.is_public == want.is_public);
    CHECK(got.seed == want.seed);
    CHECK(got.nonce == want.nonce);
    CHECK(got.commitment == want.commitment);
    CHECK(got.status == want.status);
    CHECK(got.version == want.version);
    CHECK(got.to_act == want.to_act);
    CHECK(got.deadline == want.deadline);
    CHECK(got.result == want.result);
    REQUIRE(got.seats.size() == want.seats.size());
    for (std::size_t i = 0; i < want.seats.size(); ++i) {
        INFO("seat " << i);
        CHECK(got.seats[i].kind == want.seats[i].kind);
        CHECK(got.seats[i].user == want.seats[i].user);
        CHECK(got.seats[i].name == want.seats[i].name);
        CHECK(got.seats[i].bot == want.seats[i].bot);
        CHECK(got.seats[i].forfeited == want.seats[i].forfeited);
    }
}

void check_move(const StoredMove& got, const StoredMove& want) {
    INFO("move " << want.seq);
    CHECK(got.seq == want.seq);
    CHECK(got.seat == want.seat);
    CHECK(got.move == want.move);
    CHECK(got.move_id == want.move_id);
    CHECK(got.at == want.at);
    CHECK(got.by == want.by);
}

std::vector<std::string> ids_of(const std::vector<StoredTable>& tables) {
    std::vector<std::string> ids;
    for (const StoredTable& table : tables)
        ids.push_back(table.id);
    return ids;
}

std::vector<std::string> sorted(std::vector<std::string> ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
}

// Rows as a version 1 server wrote them: only version 1's columns, named, so that the same rows
// can be written at every later version too.
constexpr const char* kVersion1Rows = R"sql(
INSERT INTO users (id, name, name_key, password_hash, created)
    VALUES (1, 'Alice', 'alice', '$argon2id$hash', 1000), (2, 'Alice', NULL, '', 1001);
INSERT INTO sessions (token_hash, user, created, expires) VALUES ('token1', 1, 1000, 90000);
INSERT INTO tables (id, created, settings, players, rules, public, seed, nonce, commitment, status,
                    version, to_act, deadline, result)
    VALUES ('t1', 2000, '{"players":2}', 2, 'yucata', 1, -1, 'aa', 'bb', 'playing', 3, 1, 5000, '');
INSERT INTO table_seats (table_id, seat, kind, user, name, bot, forfeited)
    VALUES ('t1', 0, 'human', 1, 'Alice', '', 0), ('t1', 1, 'bot', NULL, 'Greedy', 'greedy', 0);
INSERT INTO moves (table_id, seq, seat, move, move_id, at)
    VALUES ('t1', 1, 0, 'draft 17', 'm1', 2100), ('t1', 2, 1, 'draft 3', '', 2200),
           ('t1', 3, 0, 'draft 5', '', 2300);
)sql";

}  // namespace

TEST_CASE("the store creates its folder and migrates an empty database", "[store]") {
    TempDir dir;
    const std::string fresh = dir.file("a/b/store.db");  // folders that do not exist yet
    const std::string empty = dir.file("empty.db");
    std::ofstream{empty};  // a 0-byte file is an empty SQLite database
    for (const std::string& path : {fresh, empty}) {
        INFO(path);
        auto store = open_sqlite_file(path);
        CHECK(store->count_tables() == 0);
        CHECK_FALSE(store->user_by_id(1));
        CHECK(user_version(path) == sqlite_schema_version());
        SQLite::Database db(path, SQLite::OPEN_READONLY);
        CHECK(db.execAndGet("PRAGMA journal_mode").getString() == "wal");
        for (const char* table : {"users", "sessions", "tables", "table_seats", "moves"})
            CHECK(db.tableExists(table));
    }
    CHECK(sqlite_schema_version() >= 2);
}

TEST_CASE("the store migrates every earlier schema version and keeps the data", "[store]") {
    for (int version = 1; version < sqlite_schema_version(); ++version) {
        DYNAMIC_SECTION("from version " << version) {
            TempDir dir;
            const std::string path = dir.file();
            // Rows written at version 1 (its column names), then taken to `version`: a newer
            // version renames columns the rows name.
            migrate_sqlite_to(path, 1);
            {
                SQLite::Database db(path, SQLite::OPEN_READWRITE);
                db.exec("PRAGMA foreign_keys = ON");
                db.exec(kVersion1Rows);
            }
            migrate_sqlite_to(path, version);
            REQUIRE(user_version(path) == version);

            auto store = open_sqlite_file(path);
            CHECK(user_version(path) == sqlite_schema_version());

            const auto alice = store->user_by_name("ALICE");
            REQUIRE(alice);
            CHECK(alice->id == 1);
            CHECK(alice->name == "Alice");
            CHECK_FALSE(alice->guest);
            CHECK(alice->password_hash == "$argon2id$hash");
            CHECK(alice->webhook.empty());
            CHECK(alice->created == 1000);
            CHECK(store->preferences_of(alice->id) == UserPreferences{});  // the defaults
            const auto guest = store->user_by_id(2);
            REQUIRE(guest);
            CHECK(guest->guest);
            CHECK(guest->webhook.empty());
            const auto session = store->session_user("token1", 5000);
            REQUIRE(session);
            CHECK(session->id == 1);

            auto loaded = store->load_table("t1");
            REQUIRE(loaded);
            const StoredTable& table = loaded->table;
            CHECK(table.seed == std::numeric_limits<std::uint64_t>::max());
            CHECK(table.status == TableStatus::playing);
            CHECK(table.version == 3);
            CHECK(table.to_act == 1);
            CHECK(table.deadline == 5000);
            REQUIRE(table.seats.size() == 2);
            CHECK(table.seats[0].user == 1);
            CHECK(table.seats[1].bot == "greedy");
            REQUIRE(loaded->moves.size() == 3);
            CHECK(loaded->moves[0].move == "draft 17");
            CHECK(loaded->moves[2].at == 2300);
            if (version < 2) {
                // Version 2 tells who moved: a move without a move id was a bot's, or a
                // timeout's when the seat is not a bot.
                CHECK(loaded->moves[0].by == MovedBy::player);
                CHECK(loaded->moves[1].by == MovedBy::bot);
                CHECK(loaded->moves[2].by == MovedBy::timeout);
            }
            CHECK(store->take_due_tables(5000, 5000) == std::vector<std::string>{"t1"});
            REQUIRE(store->tables_of(1, 10).size() == 1);

            // And the migrated database takes new writes.
            StoredTable next = table;
            next.version = 4;
            CHECK(appended(*store, next, StoredMove{4, 1, "draft 9", "", 2400, MovedBy::bot}));
            store->set_webhook(1, "https://example.com/hook");
            CHECK(store->user_by_id(1)->webhook == "https://example.com/hook");
            CHECK(store->load_table("t1")->moves.size() == 4);
        }
    }
}

// SQLite's allocation statistics take a global mutex at every allocation it makes (tens a move):
// the store turns them off, which works only before anything starts SQLite (a VFS's registration
// does). Off, SQLite counts no memory at all. A process of its own (ctest runs each test so).
TEST_CASE("the SQLite store turns SQLite's allocation statistics off before SQLite starts",
          "[store]") {
    TempDir dir;
    auto store = open_sqlite_file(dir.file());
    REQUIRE(store->create_user("Statistics", "$argon2id$a"));
    CHECK(sqlite3_memory_used() == 0);
    CHECK(sqlite3_memory_highwater(0) == 0);
}

TEST_CASE("the store refuses a database from a newer server", "[store]") {
    TempDir dir;
    const std::string path = dir.file();
    open_sqlite_file(path).reset();
    const int newer = sqlite_schema_version() + 1;
    {
        SQLite::Database db(path, SQLite::OPEN_READWRITE);
        db.exec("PRAGMA user_version = " + std::to_string(newer));
    }
    REQUIRE_THROWS_AS(open_sqlite_file(path), std::runtime_error);
    REQUIRE_THROWS_WITH(open_sqlite_file(path), Catch::Contains("newer"));
    CHECK(user_version(path) == newer);  // left as it was

    TempDir other;
    CHECK_THROWS(migrate_sqlite_to(other.file(), 0));
    CHECK_THROWS(migrate_sqlite_to(other.file(), sqlite_schema_version() + 1));
    migrate_sqlite_to(other.file(), sqlite_schema_version());
    CHECK_THROWS_WITH(migrate_sqlite_to(other.file(), 1), Catch::Contains("newer"));
}

TEST_CASE("store users: names are unique case-insensitively, guests never collide", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const UnixMs before = unix_now_ms();
    const auto alice = store->create_user("Alice", "$argon2id$a");
    REQUIRE(alice);
    CHECK(alice->id != 0);
    CHECK(alice->name == "Alice");
    CHECK_FALSE(alice->guest);
    CHECK(alice->created >= before);
    CHECK(alice->created <= unix_now_ms());
    CHECK_FALSE(store->create_user("alice", "$argon2id$b"));
    CHECK_FALSE(store->create_user("ALICE", "$argon2id$c"));

    const auto found = store->user_by_name("aLiCe");
    REQUIRE(found);
    CHECK(found->id == alice->id);
    CHECK(found->name == "Alice");
    CHECK(found->password_hash == "$argon2id$a");
    CHECK(found->created == alice->created);
    CHECK_FALSE(store->user_by_name("alicia"));

    const StoredUser guest1 = store->create_guest("Alice");
    const StoredUser guest2 = store->create_guest("Alice");
    CHECK(guest1.guest);
    CHECK(guest1.id != guest2.id);
    CHECK(guest1.id != alice->id);
    CHECK(store->user_by_name("alice")->id == alice->id);  // never a guest
    store->create_guest("Bob");
    CHECK_FALSE(store->user_by_name("bob"));
    const auto bob = store->create_user("Bob", "$argon2id$d");  // a guest's name stays free
    REQUIRE(bob);

    const auto by_id = store->user_by_id(guest2.id);
    REQUIRE(by_id);
    CHECK(by_id->guest);
    CHECK(by_id->name == "Alice");
    CHECK(by_id->password_hash.empty());
    CHECK_FALSE(store->user_by_id(999999));

    store->set_webhook(bob->id, "https://example.com/bob");
    CHECK(store->user_by_id(bob->id)->webhook == "https://example.com/bob");
    CHECK(store->user_by_name("BOB")->webhook == "https://example.com/bob");
    CHECK(store->user_by_id(alice->id)->webhook.empty());
}

TEST_CASE("store sessions: unknown, expired, removed", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser user = *store->create_user("Carol", "$argon2id$x");
    store->add_session("h1", user.id, 10'000);
    CHECK_FALSE(store->session_user("unknown", 0));
    const auto found = store->session_user("h1", 9'999);
    REQUIRE(found);
    CHECK(found->id == user.id);
    CHECK(found->name == "Carol");
    CHECK_FALSE(store->session_user("h1", 10'000));  // expired at its expiry time
    store->remove_session("h1");
    CHECK_FALSE(store->session_user("h1", 0));

    store->add_session("h2", user.id, 100);
    store->add_session("h3", user.id, 200);
    store->add_session("h4", user.id, 300);
    CHECK(store->remove_expired_sessions(150) == 1);
    CHECK(store->remove_expired_sessions(200) == 1);
    CHECK(store->remove_expired_sessions(200) == 0);
    CHECK(store->session_user("h4", 0));
    CHECK_FALSE(store->session_user("h3", 0));  // removed, not merely expired

    CHECK_THROWS_AS(store->add_session("h5", 424242, 1000), std::runtime_error);   // no such user
    CHECK_THROWS_AS(store->add_session("h4", user.id, 1000), std::runtime_error);  // taken
    CHECK(store->session_user("h4", 0)->id == user.id);
}

TEST_CASE("store tables round-trip every field, and saving again keeps the moves", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser dan = *store->create_user("Dan", "$argon2id$x");
    const StoredUser guest = store->create_guest("Eve");

    StoredTable table = make_table("t-full", 1'700'000'000'123);
    table.settings = R"({"options":{"players":3},"public":false,"time":{"base":600}})";
    table.players = 3;
    table.rules = "publisher";
    table.is_public = false;
    table.seed =
        GENERATE(std::uint64_t{0}, std::uint64_t{1} << 63, (std::uint64_t{1} << 63) + 12345,
                 std::numeric_limits<std::uint64_t>::max());
    table.version = (std::uint64_t{1} << 63) + 7;
    table.status = TableStatus::playing;
    table.to_act = 2;
    table.deadline = 1'700'000'060'000;
    table.result = R"({"scores":[1,2,3]})";
    table.seats = {StoredSeat{SeatKind::human, dan.id, "Dan", "", false},
                   StoredSeat{SeatKind::human, guest.id, "Eve", "", true},
                   StoredSeat{SeatKind::bot, 0, "Random", "random", false}};
    REQUIRE(saved(*store, table));
    const auto found = store->find_table("t-full");
    REQUIRE(found);
    check_table(*found, table);
    auto loaded = store->load_table("t-full");
    REQUIRE(loaded);
    check_table(loaded->table, table);
    CHECK(loaded->moves.empty());
    CHECK_FALSE(store->find_table("t-none"));
    CHECK_FALSE(store->load_table("t-none"));

    // Without a turn: no seat to act, no deadline. Saving again replaces the row and the seats.
    REQUIRE(appended(*store, table, make_move(1, 0)));
    table.to_act.reset();
    table.deadline.reset();
    table.status = TableStatus::waiting;
    table.settings = "{}";
    table.seats.pop_back();
    table.seats[1] = StoredSeat{SeatKind::open, 0, "", "", false};
    REQUIRE(saved(*store, table));
    loaded = store->load_table("t-full");
    REQUIRE(loaded);
    check_table(loaded->table, table);
    REQUIRE(loaded->moves.size() == 1);
    check_move(loaded->moves[0], make_move(1, 0));
    CHECK(store->count_tables() == 1);
}

TEST_CASE("append_move updates the table row with the move, and seats change with save_table",
          "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser frank = *store->create_user("Frank", "$argon2id$x");
    StoredTable table = make_table("t-moves", 100);
    REQUIRE(saved(*store, table));

    table = after_move(table, 1);
    const StoredMove first{1, 0, "build 17 1,0", "client-1", 1234, MovedBy::player_waiting};
    REQUIRE(appended(*store, table, first));
    check_table(*store->find_table("t-moves"), table);

    // A seat changes (a forfeit) only through save_table; a move leaves the seats alone.
    table.seats[0] = StoredSeat{SeatKind::human, frank.id, "Frank", "", true};
    REQUIRE(saved(*store, table));
    StoredTable moved = table;
    moved.seats[0].forfeited = false;  // ignored by append_move
    moved.status = TableStatus::finished;
    moved.version = 2;
    moved.to_act.reset();
    moved.deadline.reset();
    moved.result = R"({"winners":[1]})";
    const StoredMove second{2, 1, "pass", "", 2345, MovedBy::timeout};
    REQUIRE(appended(*store, moved, second));
    moved.seats[0].forfeited = true;
    table = moved;

    const auto loaded = store->load_table("t-moves");
    REQUIRE(loaded);
    check_table(loaded->table, table);
    REQUIRE(loaded->moves.size() == 2);
    check_move(loaded->moves[0], first);
    check_move(loaded->moves[1], second);
    CHECK(store
              ->take_due_tables(std::numeric_limits<UnixMs>::max(),
                                std::numeric_limits<UnixMs>::max())
              .empty());
}

TEST_CASE("remove_table deletes a waiting table with its seats, and never a started one",
          "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    REQUIRE(saved(*store, make_table("t-waiting", 100)));
    StoredTable started = make_table("t-started", 101);
    started.status = TableStatus::playing;
    started.to_act = 0;
    REQUIRE(saved(*store, started));

    for (const char* id : {"t-waiting", "t-started", "t-none"})
        REQUIRE(committed([&](auto done) { store->remove_table(id, 0, done); }));
    CHECK_FALSE(store->find_table("t-waiting"));
    CHECK(store->list_tables({}).size() == 1);
    const auto kept = store->load_table("t-started");
    REQUIRE(kept);
    check_table(kept->table, started);
    CHECK(store->count_tables() == 1);
}

TEST_CASE("store chat: lines page back, load with their table, delete, and mutes", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser ann = store->create_guest("Ann");
    const StoredUser bob = store->create_guest("Bob");
    StoredTable started = make_table("t-started", 101);
    started.status = TableStatus::playing;
    started.to_act = 0;
    REQUIRE(saved(*store, started));
    REQUIRE(saved(*store, make_table("t-waiting", 100)));
    for (std::uint64_t n = 1; n <= 60; ++n) {
        const StoredChatLine line{n,
                                  n % 2 ? ann.id : bob.id,
                                  n % 2 ? "Ann" : "Bob",
                                  n % 3 ? std::optional<int>(0) : std::nullopt,
                                  "line " + std::to_string(n),
                                  1'767'225'600'000 + static_cast<UnixMs>(n)};
        REQUIRE(committed([&](auto done) { store->append_chat("t-started", line, done); }));
    }
    REQUIRE(committed([&](auto done) { store->delete_chat("t-started", 60, done); }));
    REQUIRE(committed([&](auto done) { store->delete_chat("t-started", 999, done); }));  // none

    const auto loaded = store->load_table("t-started");
    REQUIRE(loaded);
    CHECK(loaded->chat_lines == 60);  // a deleted line keeps its number
    REQUIRE(loaded->chat.size() == kRecentChatLines);
    CHECK(loaded->chat.front().n == 10);
    CHECK(loaded->chat.back().n == 59);
    const StoredChatLine& third = loaded->chat[2];  // line 12
    CHECK(third.user == bob.id);
    CHECK(third.name == "Bob");
    CHECK_FALSE(third.seat);
    CHECK(third.text == "line 12");
    CHECK(third.at == 1'767'225'600'012);
    CHECK(loaded->chat[1].seat == 0);

    const auto page = store->chat_lines("t-started", 10, 4);
    REQUIRE(page.size() == 4);
    CHECK(page.front().n == 6);
    CHECK(page.back().n == 9);
    CHECK(store->chat_lines("t-started", 1, 10).empty());
    CHECK(store->chat_lines("t-none", std::nullopt, 10).empty());
    CHECK(store->load_table("t-waiting")->chat_lines == 0);

    // Removing a waiting table removes its chat; a started table keeps its own.
    const StoredChatLine early{1, ann.id, "Ann", 0, "anyone?", 1};
    REQUIRE(committed([&](auto done) { store->append_chat("t-waiting", early, done); }));
    for (const char* id : {"t-waiting", "t-started"})
        REQUIRE(committed([&](auto done) { store->remove_table(id, 0, done); }));
    CHECK(store->chat_lines("t-waiting", std::nullopt, 10).empty());
    CHECK(store->chat_lines("t-started", std::nullopt, 100).size() == 59);

    // Mutes: set twice is one, unset twice is none, per user.
    store->set_muted(ann.id, bob.id, true);
    store->set_muted(ann.id, bob.id, true);
    CHECK(store->muted_by(ann.id) == std::vector<std::uint64_t>{bob.id});
    CHECK(store->muted_by(bob.id).empty());
    store->set_muted(ann.id, bob.id, false);
    store->set_muted(ann.id, bob.id, false);
    CHECK(store->muted_by(ann.id).empty());
}

TEST_CASE("store vacations: added, replaced, ended early, listed by their end", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser ann = store->create_guest("Ann");
    const StoredUser bob = store->create_guest("Bob");
    CHECK(store->vacations_ending_after(0).empty());

    store->replace_vacations(ann.id, 1000, {{500, 900}});  // one that ended before 1000
    store->replace_vacations(ann.id, 1000, {{2000, 5000}});
    store->replace_vacations(bob.id, 1000, {{3000, 4000}});
    CHECK(store->vacations_ending_after(0) == std::vector<UserVacation>{{ann.id, {500, 900}},
                                                                        {ann.id, {2000, 5000}},
                                                                        {bob.id, {3000, 4000}}});
    CHECK(store->vacations_ending_after(4000) == std::vector<UserVacation>{{ann.id, {2000, 5000}}});

    // Replacing Ann's coming vacation leaves her past one and Bob's alone.
    store->replace_vacations(ann.id, 1000, {{2500, 6000}});
    // Ending her running one at 3000: it is kept until then.
    store->replace_vacations(ann.id, 3000, {{2500, 3000}});
    CHECK(store->vacations_ending_after(0) == std::vector<UserVacation>{{ann.id, {500, 900}},
                                                                        {ann.id, {2500, 3000}},
                                                                        {bob.id, {3000, 4000}}});
    // Removing Bob's: none of his is left, and the change survives a reopening.
    store->replace_vacations(bob.id, 1000, {});
    store.reset();
    store = place.open();
    CHECK(store->vacations_ending_after(0) ==
          std::vector<UserVacation>{{ann.id, {500, 900}}, {ann.id, {2500, 3000}}});
}

TEST_CASE("store preferences: the defaults, changes, and the users who changed them",
          "[store][preferences]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser ann = store->create_guest("Ann");
    const auto bob = store->create_user("Bob", "$argon2id$b");
    REQUIRE(bob);
    CHECK(store->preferences_of(ann.id) == UserPreferences{});
    CHECK(UserPreferences{}.confirm_turn);
    CHECK(store->preferences_of(999999) == UserPreferences{});  // nobody
    CHECK(store->changed_preferences().empty());

    store->set_preferences(bob->id, UserPreferences{false});
    store->set_preferences(ann.id, UserPreferences{false});
    CHECK_FALSE(store->preferences_of(bob->id).confirm_turn);
    auto changed = store->changed_preferences();
    REQUIRE(changed.size() == 2);
    CHECK(changed[0].user == ann.id);  // by id
    CHECK(changed[1].user == bob->id);
    CHECK_FALSE(changed[1].preferences.confirm_turn);

    // Back to the default: no longer listed; kept across a reopening.
    store->set_preferences(ann.id, UserPreferences{true});
    store.reset();
    store = place.open();
    changed = store->changed_preferences();
    REQUIRE(changed.size() == 1);
    CHECK(changed[0].user == bob->id);
    CHECK(store->preferences_of(ann.id).confirm_turn);
}

TEST_CASE("a turn-only move writes version and seat to act, and leaves the rest of the row",
          "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    StoredTable table = after_move(make_table("t-turn", 100), 1);
    REQUIRE(saved(*store, table));

    // What the server sends when status, deadline and result did not change.
    StoredTable moved = after_move(table, 2);
    moved.deadline = table.deadline;
    TableProgress progress = progress_of(moved);
    progress.turn_only = true;
    REQUIRE(committed([&](auto done) { store->append_move(progress, make_move(2, 0), done); }));
    check_table(*store->find_table("t-turn"), moved);

    // The flag says the other columns are as stored: they are not written even if they differ,
    // and the deadline index still finds the table by its stored deadline.
    StoredTable later = after_move(moved, 3);
    progress = progress_of(later);
    progress.turn_only = true;
    REQUIRE(committed([&](auto done) { store->append_move(progress, make_move(3, 1), done); }));
    const auto stored = store->find_table("t-turn");
    REQUIRE(stored);
    CHECK(stored->version == 3);
    CHECK(stored->to_act == later.to_act);
    CHECK(stored->deadline == moved.deadline);
    CHECK(store->take_due_tables(*moved.deadline, *moved.deadline) ==
          std::vector<std::string>{"t-turn"});
    CHECK(store->load_table("t-turn")->moves.size() == 2);
}

TEST_CASE("concurrent appends from several threads all commit, in queue order", "[store]") {
    const bool grouped = GENERATE(true, false);
    INFO((grouped ? "grouped commits" : "one transaction per write"));
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open(grouped);
    constexpr int kThreads = 4;
    constexpr int kTablesPerThread = 4;
    constexpr std::uint64_t kMoves = 12;
    constexpr int kTables = kThreads * kTablesPerThread;
    for (int i = 0; i < kTables; ++i)
        REQUIRE(saved(*store, make_table("t" + std::to_string(i), i)));

    // Written by the store's thread only, read after flush().
    std::vector<std::vector<std::uint64_t>> done_seqs(kTables);
    std::vector<int> failures(kTables, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (std::uint64_t seq = 1; seq <= kMoves; ++seq) {
                for (int i = t * kTablesPerThread; i < (t + 1) * kTablesPerThread; ++i) {
                    const StoredTable table =
                        after_move(make_table("t" + std::to_string(i), i), seq);
                    store->append_move(progress_of(table),
                                       make_move(seq, static_cast<int>(seq % 2)),
                                       [&, i, seq](Written written) {
                                           done_seqs[i].push_back(seq);
                                           if (!ok(written)) ++failures[i];
                                       });
                }
            }
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    store->flush();

    std::vector<std::uint64_t> in_order;
    for (std::uint64_t seq = 1; seq <= kMoves; ++seq)
        in_order.push_back(seq);
    for (int i = 0; i < kTables; ++i) {
        INFO("table " << i);
        CHECK(done_seqs[i] == in_order);  // each Done once, in the order queued
        CHECK(failures[i] == 0);
        const auto loaded = store->load_table("t" + std::to_string(i));
        REQUIRE(loaded);
        CHECK(loaded->table.version == kMoves);
        REQUIRE(loaded->moves.size() == kMoves);
        for (std::uint64_t seq = 1; seq <= kMoves; ++seq)
            check_move(loaded->moves[seq - 1], make_move(seq, static_cast<int>(seq % 2)));
    }
}

TEST_CASE("a failing write gets Done(false) and the rest of its group commits", "[store]") {
    const bool grouped = GENERATE(true, false);
    INFO((grouped ? "grouped commits" : "one transaction per write"));
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    // A window long enough for the five writes below to make one group.
    auto store = place.open(grouped, 50);
    StoredTable a = make_table("a", 1);
    StoredTable b = make_table("b", 2);
    REQUIRE(saved(*store, a));
    REQUIRE(saved(*store, b));

    // The store's thread only, read after flush().
    std::vector<std::pair<int, Written>> outcomes;
    const auto record = [&outcomes](int index) {
        return [&outcomes, index](Written written) { outcomes.emplace_back(index, written); };
    };
    StoredMove duplicate = make_move(1, 1);
    duplicate.move = "duplicate";
    store->append_move(progress_of(after_move(a, 1)), make_move(1, 0), record(0));
    store->append_move(progress_of(after_move(make_table("missing", 3), 1)), make_move(1, 0),
                       record(1));
    store->append_move(progress_of(after_move(a, 1)), duplicate, record(2));  // seq 1 again
    store->save_table(make_table("c", 4), record(3));
    store->append_move(progress_of(after_move(b, 1)), make_move(1, 0), record(4));
    store->flush();

    // A move of a table that is not stored, or at a version taken, conflicts: written by
    // another server, as far as this one can tell.
    const std::vector<std::pair<int, Written>> expected{{0, Written::committed},
                                                        {1, Written::conflict},
                                                        {2, Written::conflict},
                                                        {3, Written::committed},
                                                        {4, Written::committed}};
    CHECK(outcomes == expected);
    const auto loaded_a = store->load_table("a");
    REQUIRE(loaded_a);
    REQUIRE(loaded_a->moves.size() == 1);
    check_move(loaded_a->moves[0], make_move(1, 0));
    CHECK_FALSE(store->find_table("missing"));
    CHECK(store->find_table("c"));
    CHECK(store->find_table("b")->version == 1);
    CHECK(store->count_tables() == 3);

    // A save made on an older row is refused in a group of moves, which commit.
    outcomes.clear();
    StoredTable stale = make_table("c", 4);
    stale.revision = 7;  // the row is at revision 0
    store->append_move(progress_of(after_move(a, 2)), make_move(2, 1), record(0));
    store->save_table(stale, record(1));
    store->append_move(progress_of(after_move(b, 2)), make_move(2, 1), record(2));
    store->flush();
    const std::vector<std::pair<int, Written>> refused_save{
        {0, Written::committed}, {1, Written::conflict}, {2, Written::committed}};
    CHECK(outcomes == refused_save);
    CHECK(store->find_table("a")->version == 2);
    CHECK(store->find_table("b")->version == 2);
    CHECK(store->find_table("c")->revision == 0);
}

TEST_CASE("store data survives closing and reopening", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    std::uint64_t user_id = 0;
    StoredTable table = make_table("t-keep", 77);
    table.seed = std::numeric_limits<std::uint64_t>::max() - 1;
    std::atomic<int> committed{0};
    {
        auto store = place.open();
        user_id = store->create_user("Grace", "$argon2id$g")->id;
        store->set_webhook(user_id, "https://example.com/g");
        store->add_session("hg", user_id, 50'000);
        table.seats[0] = StoredSeat{SeatKind::human, user_id, "Grace", "", false};
        const auto count = [&committed](Written written) { committed += ok(written) ? 1 : 0; };
        store->save_table(table, count);
        for (std::uint64_t seq = 1; seq <= 3; ++seq) {
            table = after_move(table, seq);
            store->append_move(progress_of(table), make_move(seq, 0), count);
        }
        // No flush: closing the store writes what is queued.
    }
    CHECK(committed == 4);

    auto store = place.open();
    const auto grace = store->user_by_name("grace");
    REQUIRE(grace);
    CHECK(grace->id == user_id);
    CHECK(grace->webhook == "https://example.com/g");
    CHECK(store->session_user("hg", 1000)->id == user_id);
    const auto loaded = store->load_table("t-keep");
    REQUIRE(loaded);
    check_table(loaded->table, table);
    REQUIRE(loaded->moves.size() == 3);
    for (std::uint64_t seq = 1; seq <= 3; ++seq)
        check_move(loaded->moves[seq - 1], make_move(seq, 0));
}

namespace {

// The writer's VFS gathers the log's writes until the sync (sqlite_gathered_log.hpp).
SQLite::Database open_gathered(const std::string& path) {
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 0,
                        sqlite_gathered_log::vfs_name());
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL");
    return db;
}

std::int64_t count_and_length(SQLite::Database& db, std::int64_t& length) {
    SQLite::Statement rows(db, "SELECT count(*), coalesce(sum(length(b)), 0) FROM t");
    rows.executeStep();
    length = rows.getColumn(1).getInt64();
    return rows.getColumn(0).getInt64();
}

}  // namespace

TEST_CASE("gathered log: every commit is in the log file when it returns, and readers see it",
          "[store]") {
    TempDir dir;
    const std::string path = dir.file("gathered.db");
    auto db = open_gathered(path);
    db.exec("CREATE TABLE t(a INTEGER PRIMARY KEY, b BLOB)");
    SQLite::Database reader(path, SQLite::OPEN_READONLY);  // the default VFS
    const std::int64_t page = db.execAndGet("PRAGMA page_size").getInt64();
    std::int64_t rows = 0, bytes = 0;
    // Transactions of one page up to far beyond the 128 KiB the default VFS writes in one call
    // (a larger write it reports as a full disk), and a checkpoint that empties the log between.
    for (const int blob : {10, 3'000, 200'000, 1'000'000, 50}) {
        for (int repeat = 0; repeat < 3; ++repeat) {
            SQLite::Transaction transaction(db);
            SQLite::Statement insert(db, "INSERT INTO t(b) VALUES (zeroblob(?))");
            insert.bind(1, blob);
            insert.exec();
            insert.reset();
            insert.bind(1, 7);
            insert.exec();
            transaction.commit();
            rows += 2;
            bytes += blob + 7;
            // Whole frames (a 24-byte header and a page each) after the 32-byte header, on disk.
            const auto log = static_cast<std::int64_t>(fs::file_size(path + "-wal"));
            CHECK(log > 32);
            CHECK((log - 32) % (24 + page) == 0);
            std::int64_t length = 0;
            CHECK(count_and_length(reader, length) == rows);
            CHECK(length == bytes);
        }
        db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        CHECK(fs::file_size(path + "-wal") == 0);
    }
    auto again = open_gathered(path);
    std::int64_t length = 0;
    CHECK(count_and_length(again, length) == rows);
    CHECK(length == bytes);
    CHECK(again.execAndGet("PRAGMA integrity_check").getString() == "ok");
}

TEST_CASE("gathered log: a rolled-back transaction leaves nothing, the next one commits",
          "[store]") {
    TempDir dir;
    const std::string path = dir.file("gathered.db");
    auto db = open_gathered(path);
    db.exec("PRAGMA cache_size = 10");  // a big transaction spills pages to the log before COMMIT
    db.exec("CREATE TABLE t(a INTEGER PRIMARY KEY, b BLOB)");
    {
        SQLite::Transaction transaction(db);
        db.exec(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500) "
            "INSERT INTO t(b) SELECT zeroblob(3000) FROM n");
    }  // rolled back
    db.exec("INSERT INTO t(b) VALUES (zeroblob(5))");
    SQLite::Database reader(path, SQLite::OPEN_READONLY);
    std::int64_t length = 0;
    CHECK(count_and_length(reader, length) == 1);
    CHECK(length == 5);
    CHECK(db.execAndGet("PRAGMA integrity_check").getString() == "ok");
}

TEST_CASE("list_tables filters the public unfinished tables, oldest first", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto add = [&](const std::string& id, UnixMs created, int players,
                         const std::string& rules, bool is_public, TableStatus status,
                         bool open_seat) {
        StoredTable table = make_table(id, created);
        table.players = players;
        table.rules = rules;
        table.is_public = is_public;
        table.status = status;
        table.seats.assign(static_cast<std::size_t>(players),
                           StoredSeat{SeatKind::bot, 0, "Random", "random", false});
        if (open_seat) table.seats.back() = StoredSeat{SeatKind::open, 0, "", "", false};
        REQUIRE(saved(*store, table));
    };
    add("f", 500, 2, "publisher", true, TableStatus::waiting, true);
    add("a", 100, 2, "yucata", true, TableStatus::waiting, true);
    add("b", 200, 3, "publisher", true, TableStatus::waiting, false);
    add("c", 300, 2, "yucata", true, TableStatus::playing, false);
    add("d", 50, 2, "yucata", false, TableStatus::waiting, true);    // private
    add("e", 400, 4, "yucata", true, TableStatus::finished, false);  // over

    using Ids = std::vector<std::string>;
    CHECK(ids_of(store->list_tables({})) == Ids{"a", "b", "c", "f"});
    CHECK(ids_of(store->list_tables({2, "", false, 200})) == Ids{"a", "c", "f"});
    CHECK(ids_of(store->list_tables({0, "publisher", false, 200})) == Ids{"b", "f"});
    CHECK(ids_of(store->list_tables({0, "", true, 200})) == Ids{"a", "f"});
    CHECK(ids_of(store->list_tables({2, "yucata", true, 200})) == Ids{"a"});
    CHECK(ids_of(store->list_tables({4, "", false, 200})).empty());
    CHECK(ids_of(store->list_tables({0, "", false, 2})) == Ids{"a", "b"});
    const auto listed = store->list_tables({3, "", false, 200});
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].seats.size() == 3);
    CHECK(listed[0].created == 200);
}

namespace {
void save_with_deadline(Store& store, const std::string& id, TableStatus status,
                        std::optional<UnixMs> deadline) {
    StoredTable table = make_table(id, 1);
    table.status = status;
    table.deadline = deadline;
    REQUIRE(saved(store, table));
}
}  // namespace

TEST_CASE("take_due_tables and table_ids find tables by status and deadline", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto add = [&](const std::string& id, TableStatus status,
                         std::optional<UnixMs> deadline) {
        save_with_deadline(*store, id, status, deadline);
    };
    add("p1", TableStatus::playing, 1000);
    add("p2", TableStatus::playing, 2000);
    add("p3", TableStatus::playing, std::nullopt);
    add("w", TableStatus::waiting, 500);
    add("f", TableStatus::finished, 100);

    using Ids = std::vector<std::string>;
    // Each taken with a hold that ends at once: taken again by the next call.
    CHECK(store->take_due_tables(499, 499).empty());
    // A waiting table's deadline is when its first invitation expires.
    CHECK(store->take_due_tables(999, 999) == Ids{"w"});
    CHECK(store->take_due_tables(1000, 1000) == Ids{"w", "p1"});  // at the deadline, earliest first
    CHECK(sorted(store->take_due_tables(2500, 2500)) == Ids{"p1", "p2", "w"});
    // A hold keeps a table from the next sweep only where processes share the database.
    CHECK(sorted(store->take_due_tables(2500, 9000)) == Ids{"p1", "p2", "w"});
    CHECK(store->take_due_tables(2500, 9000) ==
          (backend == Backend::sqlite ? Ids{"w", "p1", "p2"} : Ids{}));
    CHECK(sorted(store->table_ids(TableStatus::playing)) == Ids{"p1", "p2", "p3"});
    CHECK(store->table_ids(TableStatus::waiting) == Ids{"w"});
    CHECK(store->table_ids(TableStatus::finished) == Ids{"f"});
    CHECK(store->count_tables() == 5);
    CHECK(store->deadlines_between(1000, 2000) == Ids{"p2"});  // after `from`, up to `to`
    CHECK(sorted(store->deadlines_between(0, 5000)) == Ids{"p1", "p2"});
    CHECK(store->deadlines_between(2000, 9000).empty());
}

TEST_CASE("postgres: a deadline's claim whose hold ended is removed by the next sweep",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto store = place.open();
    const auto add = [&](const std::string& id, TableStatus status, UnixMs deadline) {
        save_with_deadline(*store, id, status, deadline);
    };
    add("due", TableStatus::playing, 1000);
    add("ends", TableStatus::playing, 1000);
    using Ids = std::vector<std::string>;
    const auto claims = [&] {
        return gcor::testing::PostgresServer::query(
            place.url(),
            "SELECT string_agg(table_id || ':' || held_until, ',' ORDER BY table_id) "
            "FROM deadline_claims");
    };
    CHECK(sorted(store->take_due_tables(1000, 5000)) == Ids{"due", "ends"});
    CHECK(claims() == "due:5000,ends:5000");
    add("ends", TableStatus::finished, 1000);           // decided: nobody sweeps it again
    CHECK(store->take_due_tables(4999, 9000).empty());  // held still
    CHECK(claims() == "due:5000,ends:5000");
    // The holds ended: the finished table's claim goes, the table still due is claimed again.
    CHECK(store->take_due_tables(5000, 9000) == Ids{"due"});
    CHECK(claims() == "due:9000");
    add("due", TableStatus::finished, 1000);
    CHECK(store->take_due_tables(9000, 9500).empty());
    CHECK(claims().empty());
}

TEST_CASE("postgres: a claimed table that changed at the same deadline is taken again at once",
          "[store][postgres]") {
    // At a tournament round's end every seat's deadline is the round's: the first seat's forfeit
    // changes the table, and the next seat is due at that same deadline.
    StorePlace place(Backend::postgres);
    auto store = place.open();
    StoredTable table = make_table("round", 1);
    table.status = TableStatus::playing;
    table.deadline = 1000;
    table.revision = 1;
    REQUIRE(saved(*store, table));
    using Ids = std::vector<std::string>;
    CHECK(store->take_due_tables(1000, 60'000) == Ids{"round"});
    CHECK(store->take_due_tables(1001, 60'000).empty());  // held, unchanged
    table.revision = 2;                                   // a seat forfeited
    REQUIRE(saved(*store, table));
    CHECK(store->take_due_tables(1002, 60'000) == Ids{"round"});
    CHECK(store->take_due_tables(1003, 60'000).empty());
}

TEST_CASE("store invitations: a reserved seat round-trips, and is listed to its invited user only",
          "[store][invite]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto ann = store->create_user("Ann", "$argon2id$a");
    const auto ben = store->create_user("Ben", "$argon2id$b");
    REQUIRE(ann);
    REQUIRE(ben);
    const auto invite = [&](const std::string& id, UnixMs at, TableStatus status) {
        StoredTable table = make_table(id, at);
        table.status = status;
        table.seats = {StoredSeat{SeatKind::human, ann->id, "Ann", "", false},
                       StoredSeat{SeatKind::reserved, ben->id, "Ben", "", false, ann->id, at}};
        REQUIRE(saved(*store, table));
        return table;
    };
    const StoredTable first = invite("t1", 1000, TableStatus::waiting);
    invite("t2", 2000, TableStatus::waiting);
    invite("t3", 3000, TableStatus::finished);  // no longer open
    CHECK(store->find_table("t1")->seats == first.seats);

    const auto listed = store->invitations_of(ben->id, 10);
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].table.id == "t2");  // newest first
    CHECK(listed[1].table.id == "t1");
    CHECK(listed[1].seat == 1);
    CHECK(listed[1].host == ann->id);
    CHECK(listed[1].host_name == "Ann");
    CHECK(listed[1].at == 1000);
    CHECK(listed[1].table.seats == first.seats);
    CHECK(store->invitations_of(ben->id, 1).size() == 1);
    CHECK(store->invitations_of(ann->id, 10).empty());
}

TEST_CASE("store mail: addresses confirmed by a token, frequencies, digests due", "[store][mail]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto ann = store->create_user("Ann", "hash")->id;
    const auto bob = store->create_user("Bob", "hash")->id;
    CHECK_FALSE(store->email_of(ann));

    store->set_email(ann, "ann@example.org", "token-a", 5000);
    auto email = store->email_of(ann);
    REQUIRE(email);
    CHECK(email->address == "ann@example.org");
    CHECK_FALSE(email->confirmed);
    CHECK(email->frequency == MailFrequency::each_turn);
    CHECK_FALSE(store->confirm_email("token-b", 1000));         // unknown token
    CHECK_FALSE(store->confirm_email("token-a", 5000));         // expired at `now`
    store->set_email(ann, "ann@example.org", "token-c", 9000);  // a new link
    CHECK_FALSE(store->confirm_email("token-a", 1000));         // the old one is gone
    CHECK(store->confirm_email("token-c", 1000) == ann);
    CHECK_FALSE(store->confirm_email("token-c", 1000));  // used up
    CHECK(store->email_of(ann)->confirmed);

    store->set_mail_frequency(ann, MailFrequency::daily, 7000);
    store->set_email(bob, "bob@example.org", "token-b", 9000);
    store->set_mail_frequency(bob, MailFrequency::daily, 100);  // not confirmed: no digest
    CHECK(store->digests_due(6999).empty());
    const auto due = store->digests_due(7000);
    REQUIRE(due.size() == 1);
    CHECK(due[0].user == ann);
    CHECK(due[0].frequency == MailFrequency::daily);
    CHECK(due[0].digest_due == 7000);

    // The mails' language: English until set; it stays with a new address, like the frequency.
    CHECK(store->email_of(ann)->language == "en");
    store->set_mail_language(ann, "de");
    CHECK(store->email_of(ann)->language == "de");
    CHECK(due[0].language == "en");
    // A new address must be confirmed again; the frequency stays.
    store->set_email(ann, "ann@example.com", "token-d", 9000);
    CHECK_FALSE(store->email_of(ann)->confirmed);
    CHECK(store->email_of(ann)->frequency == MailFrequency::daily);
    CHECK(store->email_of(ann)->language == "de");
    // Invitations are mailed until turned off, whatever the turn mails' frequency.
    CHECK(store->email_of(ann)->invitation_mails);
    store->set_invitation_mails(ann, false);
    CHECK_FALSE(store->email_of(ann)->invitation_mails);
    CHECK(store->email_of(ann)->frequency == MailFrequency::daily);
    store->remove_email(ann);
    CHECK_FALSE(store->email_of(ann));

    // A secret is made once and stays, across a reopening too.
    const std::string secret = store->secret("unsubscribe", "first");
    CHECK(secret == "first");
    CHECK(store->secret("unsubscribe", "second") == "first");
    store.reset();
    store = place.open();
    CHECK(store->secret("unsubscribe", "third") == "first");
}

TEST_CASE("store mail queue: a key is queued once, due mails in order, retries, ends",
          "[store][mail]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto ann = store->create_user("Ann", "hash")->id;
    auto mail = [&](std::string key, UnixMs due) {
        QueuedMail queued;
        queued.key = std::move(key);
        queued.kind = MailKind::turn;
        queued.user = ann;
        queued.recipient = "ann@example.org";
        queued.message = "Subject: " + queued.key + "\r\n\r\nbody\r\n";
        queued.table = "t1";
        queued.seat = 2;
        queued.version = 17;
        queued.due = due;
        return queued;
    };
    CHECK_FALSE(store->next_mail_due());
    REQUIRE(committed([&](auto done) { store->queue_mail(mail("b", 200), done); }));
    REQUIRE(committed([&](auto done) { store->queue_mail(mail("a", 100), done); }));
    REQUIRE(committed([&](auto done) { store->queue_mail(mail("c", 300), done); }));
    // The same key again: committed, and ignored (the first one's time stays).
    REQUIRE(committed([&](auto done) { store->queue_mail(mail("a", 50), done); }));
    CHECK(store->next_mail_due() == 100);
    // Taking a mail keeps it (its due moves) until the time given.
    CHECK(store->take_due_mails(99, 10, 5000).empty());
    auto due = store->take_due_mails(250, 10, 5000);
    REQUIRE(due.size() == 2);
    CHECK(due[0].key == "a");
    CHECK(due[1].key == "b");
    QueuedMail expected = mail("a", 5000);
    expected.id = due[0].id;
    CHECK(due[0] == expected);
    CHECK(store->next_mail_due() == 300);         // c
    due = store->take_due_mails(1000, 10, 6000);  // a and b are taken: only c
    REQUIRE(due.size() == 1);
    CHECK(due[0].key == "c");
    const std::uint64_t a = expected.id;
    const std::uint64_t c = due[0].id;

    store->retry_mail(a, 400);
    CHECK(store->take_due_mails(350, 10, 7000).empty());
    due = store->take_due_mails(450, 10, 7000);
    REQUIRE(due.size() == 1);
    CHECK(due[0].key == "a");
    CHECK(due[0].attempts == 1);
    // b's taker never ended it (it died): once kept no longer, b is taken again.
    due = store->take_due_mails(5000, 10, 8000);
    REQUIRE(due.size() == 1);
    CHECK(due[0].key == "b");

    store->end_mail(due[0].id, MailOutcome::sent, 500);
    store->end_mail(c, MailOutcome::dropped, 600);
    due = store->take_due_mails(10'000, 10, 20'000);
    REQUIRE(due.size() == 1);
    CHECK(due[0].key == "a");
    // An ended mail's key stays taken until it is forgotten.
    REQUIRE(committed([&](auto done) { store->queue_mail(mail("b", 1), done); }));
    CHECK(store->take_due_mails(10'000, 10, 20'000).empty());
    CHECK(store->forget_mails(550) == 1);  // b ended at 500
    REQUIRE(committed([&](auto done) { store->queue_mail(mail("b", 1), done); }));
    CHECK(store->take_due_mails(10'000, 10, 20'000).size() == 1);
    CHECK(store->next_mail_due() == 20'000);
}

TEST_CASE("postgres: mails taken by two stores at once are each taken by one",
          "[store][postgres][mail]") {
    StorePlace place(Backend::postgres);
    auto one = place.open();
    auto other = place.open();  // as a second server process would
    const auto ann = one->create_user("Ann", "hash")->id;
    constexpr int kMails = 40;
    for (int i = 0; i < kMails; ++i) {
        QueuedMail queued;
        queued.key = "k" + std::to_string(i);
        queued.user = ann;
        queued.recipient = "ann@example.org";
        queued.message = "Subject: " + queued.key + "\r\n\r\nbody\r\n";
        queued.due = i;
        REQUIRE(committed([&](auto done) { one->queue_mail(queued, done); }));
    }
    std::vector<std::string> taken_by_one;
    std::vector<std::string> taken_by_other;
    const auto take_all = [](Store& store, std::vector<std::string>& keys) {
        for (;;) {
            const auto taken = store.take_due_mails(1000, 3, 100'000);
            if (taken.empty()) return;
            for (const QueuedMail& mail : taken)
                keys.push_back(mail.key);
        }
    };
    std::thread first([&] { take_all(*one, taken_by_one); });
    take_all(*other, taken_by_other);
    first.join();
    std::vector<std::string> all = taken_by_one;
    all.insert(all.end(), taken_by_other.begin(), taken_by_other.end());
    std::ranges::sort(all);
    CHECK(all.size() == kMails);
    CHECK(std::ranges::adjacent_find(all) == all.end());  // none twice
}

TEST_CASE("tables_of lists a user's tables unfinished first, then newest first", "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const StoredUser uma = *store->create_user("Uma", "$argon2id$u");
    const StoredUser other = store->create_guest("Vic");
    const auto add = [&](const std::string& id, UnixMs created, TableStatus status,
                         const StoredUser& user, int seat) {
        StoredTable table = make_table(id, created);
        table.players = 3;
        table.status = status;
        table.seats.assign(3, StoredSeat{SeatKind::bot, 0, "Random", "random", false});
        table.seats[static_cast<std::size_t>(seat)] = {SeatKind::human, user.id, user.name, "",
                                                       false};
        REQUIRE(saved(*store, table));
    };
    add("old-finished", 100, TableStatus::finished, uma, 1);
    add("new-finished", 400, TableStatus::finished, uma, 0);
    add("old-playing", 200, TableStatus::playing, uma, 2);
    add("new-waiting", 300, TableStatus::waiting, uma, 0);
    add("others", 500, TableStatus::playing, other, 0);

    const auto tables = store->tables_of(uma.id, 10);
    REQUIRE(tables.size() == 4);
    const std::vector<std::pair<std::string, int>> expected{
        {"new-waiting", 0}, {"old-playing", 2}, {"new-finished", 0}, {"old-finished", 1}};
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CHECK(tables[i].table.id == expected[i].first);
        CHECK(tables[i].seat == expected[i].second);
        CHECK(tables[i].table.seats.size() == 3);
    }
    CHECK(tables[1].table.seats[2].user == uma.id);
    CHECK(store->tables_of(uma.id, 2).size() == 2);
    const auto others = store->tables_of(other.id, 10);
    REQUIRE(others.size() == 1);
    CHECK(others[0].table.id == "others");
    CHECK(store->tables_of(987654, 10).empty());
}

namespace {

// Two registered users, and a table where they sit (ann first).
std::pair<StoredUser, StoredUser> two_users(Store& store) {
    auto ann = store.create_user("ann", "hash");
    auto bob = store.create_user("bob", "hash");
    REQUIRE(ann);
    REQUIRE(bob);
    return {*ann, *bob};
}

StoredTable seated(StoredTable table, const StoredUser& ann, const StoredUser& bob) {
    table.seats = {StoredSeat{SeatKind::human, ann.id, "ann", "", false},
                   StoredSeat{SeatKind::human, bob.id, "bob", "", false}};
    return table;
}

}  // namespace

TEST_CASE("store leagues: seasons, sign-ups, a start in one transaction, the next season",
          "[store][league]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto [ann, bob] = two_users(*store);
    const auto league = store->create_league("Rome League", ann.id, R"({"x":1})");
    REQUIRE(league);
    CHECK(league->organizer.name == "ann");
    CHECK_FALSE(store->create_league("ROME league", bob.id, "{}"));  // names ignore case
    CHECK(store->leagues().size() == 1);

    store->open_season(league->id, 1);
    CHECK(store->sign_up(league->id, 1, bob.id));
    CHECK(store->sign_up(league->id, 1, ann.id));
    CHECK_FALSE(store->sign_up(league->id, 1, ann.id));
    CHECK(store->withdraw(league->id, 1, bob.id));
    CHECK_FALSE(store->withdraw(league->id, 1, bob.id));
    CHECK(store->sign_up(league->id, 1, bob.id));
    auto members = store->members(league->id, 1);
    REQUIRE(members.size() == 2);
    CHECK(members[0].user.name == "ann");  // sign-up order: bob withdrew and came back
    CHECK(members[1].tier == 0);

    // A start whose table cannot be stored (a seat names no user) changes nothing at all.
    StoredTable table = seated(after_move(make_table("t1", 10), 0), ann, bob);
    table.rated = true;
    members[0].tier = 1;
    members[1].tier = 1;
    StoredTable broken = table;
    broken.id = "t2";
    broken.seats[1].user = 999;
    CHECK_FALSE(committed([&](auto done) {
        store->start_season(league->id, 1, members, {{1, table}, {1, broken}}, done);
    }));
    CHECK(store->season(league->id, 1)->status == "signup");
    CHECK(store->season_tables(league->id, 1).empty());
    CHECK_FALSE(store->find_table("t1"));

    REQUIRE(committed([&](auto done) {
        store->start_season(league->id, 1, members, {{1, table}}, done);
    }));
    CHECK(store->season(league->id, 1)->status == "playing");
    CHECK(store->season(league->id, 1)->started);
    CHECK(store->members(league->id, 1)[1].tier == 1);
    const auto tables = store->season_tables(league->id, 1);
    REQUIRE(tables.size() == 1);
    CHECK(tables[0].tier == 1);
    check_table(tables[0].table, table);
    CHECK(tables[0].table.rated);
    const auto of_bob = store->seasons_of(bob.id, 10);
    REQUIRE(of_bob.size() == 1);
    CHECK(of_bob[0].league.name == "Rome League");
    CHECK(of_bob[0].status == "playing");
    CHECK(of_bob[0].tier == 1);

    store->finish_season(league->id, 1, R"({"divisions":[]})");
    const auto seasons = store->seasons(league->id);
    REQUIRE(seasons.size() == 2);
    CHECK(seasons[0].status == "finished");
    CHECK(seasons[0].final_table == R"({"divisions":[]})");
    CHECK(seasons[1].status == "signup");
    CHECK(seasons[1].number == 2);
}

TEST_CASE("store: a user's finished games, newest first, paged by finish time and id, filtered",
          "[store][games]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto [ann, bob] = two_users(*store);
    // A game of Ann (seat 0) and Bob that finished with a move at `at`.
    auto finished = [&](const std::string& id, UnixMs at, const std::string& rules, bool listed,
                        bool rated) {
        StoredTable table = seated(after_move(make_table(id, 10), 0), ann, bob);
        table.rules = rules;
        table.is_public = listed;
        table.rated = rated;
        REQUIRE(saved(*store, table));
        table.status = TableStatus::finished;
        table.version = 1;
        table.result = R"({"places":[2,1],"scores":[{"total":40},{"total":55}]})";
        StoredMove last = make_move(1, 0);
        last.at = at;
        REQUIRE(appended(*store, table, last));
    };
    finished("ta", 2000, "yucata", true, false);
    finished("tb", 2000, "publisher", true, true);  // as late as ta: the larger id first
    finished("tc", 3000, "yucata", false, false);
    StoredTable without_moves = seated(make_table("td", 500), ann, bob);
    without_moves.status = TableStatus::finished;  // finished when it was created
    REQUIRE(saved(*store, without_moves));
    REQUIRE(saved(*store, seated(after_move(make_table("te", 9000), 0), ann, bob)));  // playing

    auto ids = [&](FinishedGamesQuery query) {
        std::vector<std::string> found;
        for (const FinishedGame& game : store->finished_games_of(query)) {
            found.push_back(game.table.id);
            CHECK(game.table.seats.size() == 2);
        }
        return found;
    };
    // Every finished game of `user`; `unlisted`: the unlisted tables' too.
    auto games_of = [](std::uint64_t user, bool unlisted) {
        FinishedGamesQuery query;
        query.user = user;
        query.unlisted = unlisted;
        return query;
    };
    const FinishedGamesQuery all = games_of(ann.id, true);
    CHECK(ids(all) == std::vector<std::string>{"tc", "tb", "ta", "td"});
    const auto games = store->finished_games_of(all);
    REQUIRE(games.size() == 4);
    CHECK(games[0].finished == 3000);
    CHECK(games[0].seat == 0);
    CHECK(games[3].finished == 500);
    CHECK(games[1].table.rated);
    CHECK(ids(games_of(ann.id, false)) ==
          std::vector<std::string>{"tb", "ta", "td"});  // listed only
    FinishedGamesQuery bobs = all;
    bobs.user = bob.id;
    CHECK(store->finished_games_of(bobs).at(0).seat == 1);

    FinishedGamesQuery page = all;
    page.limit = 2;
    CHECK(ids(page) == std::vector<std::string>{"tc", "tb"});
    page.before = 2000;
    page.before_table = "tb";
    CHECK(ids(page) == std::vector<std::string>{"ta", "td"});
    page.before = 500;
    page.before_table = "td";
    CHECK(ids(page).empty());

    FinishedGamesQuery filtered = all;
    filtered.rules = "publisher";
    CHECK(ids(filtered) == std::vector<std::string>{"tb"});
    filtered = all;
    filtered.rated = true;
    CHECK(ids(filtered) == std::vector<std::string>{"tb"});
    filtered.rated = false;
    CHECK(ids(filtered) == std::vector<std::string>{"tc", "ta", "td"});
    filtered = all;
    filtered.players = 3;
    CHECK(ids(filtered).empty());

    const auto results = store->results_of(ann.id);
    CHECK(results.size() == 4);
    const auto nobody = store->create_user("cid", "hash");
    REQUIRE(nobody);
    CHECK(store->finished_games_of(games_of(nobody->id, true)).empty());
    CHECK(store->results_of(nobody->id).empty());
}

TEST_CASE("store ratings: finished rated tables wait until rated, once, in the order they finished",
          "[store][league]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto [ann, bob] = two_users(*store);
    auto rated_table = [&](const std::string& id, UnixMs finished_at) {
        StoredTable table = seated(after_move(make_table(id, 10), 0), ann, bob);
        table.rated = true;
        REQUIRE(saved(*store, table));
        table.status = TableStatus::finished;
        table.version = 1;
        StoredMove last = make_move(1, 0);
        last.at = finished_at;
        REQUIRE(appended(*store, table, last));
    };
    rated_table("late", 2000);
    rated_table("early", 1000);
    StoredTable unrated = make_table("plain", 10);
    unrated.status = TableStatus::finished;
    REQUIRE(saved(*store, unrated));
    CHECK(store->unrated_tables() == std::vector<std::string>{"early", "late"});
    CHECK_FALSE(store->rating(ann.id));

    const std::vector<RatingChange> early{{ann.id, "early", 1000, 1500, 1532, 1, 1, 2},
                                          {bob.id, "early", 1000, 1500, 1468, 1, 2, 2}};
    REQUIRE(committed([&](auto done) { store->save_ratings(early, done); }));
    CHECK(store->unrated_tables() == std::vector<std::string>{"late"});
    CHECK(store->rating(ann.id)->value == Approx(1532));
    CHECK(store->rating(bob.id)->games == 1);
    // The same table twice is refused, and changes nothing.
    std::vector<RatingChange> again = early;
    again[0].after = 1600;
    CHECK_FALSE(committed([&](auto done) { store->save_ratings(again, done); }));
    CHECK(store->rating(ann.id)->value == Approx(1532));
    // Saving a table again (a forfeit after the end cannot happen, but a save must not undo it).
    StoredTable early_table = *store->find_table("early");
    REQUIRE(saved(*store, early_table));
    CHECK(store->unrated_tables() == std::vector<std::string>{"late"});

    const auto board = store->leaderboard(10);
    REQUIRE(board.size() == 2);
    CHECK(board[0].user.name == "ann");
    CHECK(board[1].value == Approx(1468));
    const auto history = store->rating_history(bob.id, 10);
    REQUIRE(history.size() == 1);
    CHECK(history[0].table == "early");
    CHECK(history[0].before == Approx(1500));
    CHECK(history[0].place == 2);
}

TEST_CASE("ratings: players at the same rating, as shown, share a rank", "[store][league]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto [ann, bob] = two_users(*store);
    StoredTable table = seated(after_move(make_table("tied", 10), 0), ann, bob);
    table.rated = true;
    REQUIRE(saved(*store, table));
    table.status = TableStatus::finished;
    table.version = 1;
    REQUIRE(appended(*store, table, make_move(1, 0)));
    // 1500.3 and 1499.8 are both shown as 1500.
    const std::vector<RatingChange> changes{{ann.id, "tied", 1000, 1500, 1500.3, 1, 1, 2},
                                            {bob.id, "tied", 1000, 1500, 1499.8, 1, 2, 2}};
    REQUIRE(committed([&](auto done) { store->save_ratings(changes, done); }));
    Ratings ratings(*store);
    const gcor::protocol::Json board = ratings.leaderboard(10)["players"];
    REQUIRE(board.size() == 2);
    CHECK(board[0]["rating"] == 1500);
    CHECK(board[1]["rating"] == 1500);
    CHECK(board[0]["rank"] == 1);
    CHECK(board[1]["rank"] == 1);
}

namespace {

// Holds `writer` (a GroupWriter or SqliteWriter) inside a write of its own until the promise
// returned is set, so that what is queued meanwhile makes one group.
template <typename Writer>
std::shared_ptr<std::promise<void>> hold_group_writer(Writer& writer) {
    auto inside = std::make_shared<std::promise<void>>();
    auto release = std::make_shared<std::promise<void>>();
    writer.enqueue(
        [inside, future = release->get_future().share()] {
            inside->set_value();
            future.wait();
        },
        [](bool) {});
    inside->get_future().wait();
    return release;
}

}  // namespace

// The writer alone, on a connection the test also uses to see what it wrote.
TEST_CASE(
    "writer: writes queued during a slow commit share the next; a failed group fails "
    "write by write",
    "[store]") {
    TempDir dir;
    SqliteOptions options{.path = dir.file()};
    std::vector<std::size_t> groups;  // each commit's writes, appended on the writer thread
    options.on_commit = [&groups](std::chrono::nanoseconds, std::size_t writes) {
        groups.push_back(writes);
    };
    SQLite::Database db(options.path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("CREATE TABLE t (x INTEGER NOT NULL)");
    SqliteWriter writer(db, options, [] {});

    std::atomic<int> ok{0};
    std::atomic<int> failed{0};
    const auto insert = [&](const std::string& value) {
        writer.enqueue([&db, value] { db.exec("INSERT INTO t VALUES (" + value + ")"); },
                       [&](bool committed) { ++(committed ? ok : failed); });
    };

    auto release = hold_group_writer(writer);
    for (int i = 0; i < 3; ++i)
        insert(std::to_string(i));
    release->set_value();
    REQUIRE(writer.flush());  // waits for the three
    CHECK(ok == 3);
    // The held write, then the three together (the flush may join them).
    REQUIRE(groups.size() >= 2);
    CHECK(groups[0] == 1);
    CHECK(groups[1] >= 3);

    groups.clear();
    release = hold_group_writer(writer);
    insert("10");
    insert("NULL");  // refused: x is NOT NULL
    insert("11");
    release->set_value();
    REQUIRE(writer.flush());
    CHECK(ok == 5);
    CHECK(failed == 1);
    // The held write, then the failed group's writes one by one (the flush's among them or after).
    CHECK(groups == std::vector<std::size_t>{1, 1, 1, 1});
    CHECK(db.execAndGet("SELECT count(*) FROM t").getInt() == 5);
}

namespace {

// A database that is out of reach while `down`: each transaction then fails as a lost
// connection does, through no fault of its writes.
class UnreachableBackend final : public WriterBackend {
  public:
    void transact(const std::function<void()>& body) override {
        ++transactions;
        if (down) throw std::runtime_error("the database is out of reach");
        body();
    }
    bool may_be_one_write(const std::exception&) override { return false; }
    void probe_write() override {}

    std::atomic<bool> down{false};
    std::atomic<int> transactions{0};
};

}  // namespace

TEST_CASE("writer: a group that failed through no write's fault fails whole, not write by write",
          "[store]") {
    UnreachableBackend backend;
    GroupWriter writer(backend, {});
    const auto release = hold_group_writer(writer);
    std::atomic<int> refused{0};
    for (int i = 0; i < 3; ++i)
        writer.enqueue([] {}, [&refused](bool ok) { refused += ok ? 0 : 1; });
    backend.down = true;
    release->set_value();
    CHECK_FALSE(writer.flush());
    CHECK(refused == 3);
    // The held write, then one transaction for the three (and the flush, with them or after).
    CHECK(backend.transactions <= 3);

    backend.down = false;
    CHECK(writer.flush());
}

namespace {

// Counts transactions; the writes are the test's.
class CountingBackend final : public WriterBackend {
  public:
    void transact(const std::function<void()>& body) override {
        ++transactions;
        body();
    }
    void probe_write() override {}

    std::atomic<int> transactions{0};
};

}  // namespace

TEST_CASE("writer: a conflict that wrote nothing leaves the rest of its group in one transaction",
          "[store]") {
    const bool wrote_nothing = GENERATE(true, false);
    INFO((wrote_nothing ? "refused before writing" : "refused after writing"));
    CountingBackend backend;
    GroupWriter writer(backend, {});
    // The next four queue up as one group behind the write held.
    const auto release = hold_group_writer(writer);
    std::vector<Written> outcomes(4, Written::failed);  // the writer thread's, read after flush
    std::vector<int> applied(4, 0);
    for (std::size_t i = 0; i < 4; ++i)
        writer.enqueue(
            [&applied, i, wrote_nothing] {
                ++applied[i];
                if (i == 1) throw WriteConflict("table 1 changed first", wrote_nothing);
            },
            [&outcomes, i](Written written) { outcomes[i] = written; });
    release->set_value();
    REQUIRE(writer.flush());
    CHECK(outcomes == std::vector<Written>{Written::committed, Written::conflict,
                                           Written::committed, Written::committed});
    // The held write's transaction, then the group's (the flush's with it or after); when the
    // group failed, each write again alone.
    if (wrote_nothing) {
        CHECK(backend.transactions <= 3);
        CHECK(applied == std::vector<int>{1, 1, 1, 1});
    } else {
        CHECK(backend.transactions >= 6);
        CHECK(applied == std::vector<int>{2, 2, 1, 1});  // the group ended at the conflict
    }
}

// --- PostgreSQL only: what several processes on one database, and a database server that goes
// away, need.

TEST_CASE("postgres: stores opened at once on a fresh database migrate it once",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    std::vector<std::future<std::unique_ptr<Store>>> opening;
    for (int i = 0; i < 3; ++i)
        opening.push_back(std::async(std::launch::async, [&place] { return place.open(); }));
    std::vector<std::unique_ptr<Store>> stores;
    for (auto& store : opening)
        stores.push_back(store.get());  // rethrows a migration that failed
    using gcor::testing::PostgresServer;
    CHECK(PostgresServer::query(place.url(), "SELECT count(*) FROM schema_version") == "1");
    CHECK(PostgresServer::query(place.url(), "SELECT version FROM schema_version") ==
          std::to_string(postgres_schema_version()));

    // One truth: what one store writes, another reads.
    const auto alice = stores[0]->create_user("Alice", "$argon2id$a");
    REQUIRE(alice);
    CHECK_FALSE(stores[1]->create_user("ALICE", "$argon2id$b"));
    CHECK(stores[2]->user_by_name("alice")->id == alice->id);

    // A database from a newer server is refused, and left as it was.
    stores.clear();
    PostgresServer::query(place.url(), "UPDATE schema_version SET version = 99");
    CHECK_THROWS_WITH(place.open(), Catch::Contains("newer"));
    CHECK(PostgresServer::query(place.url(), "SELECT version FROM schema_version") == "99");
}

TEST_CASE("postgres: a second move at a table's version fails and changes nothing, from any store",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto one = place.open();
    auto other = place.open();  // as a second server process would
    const StoredTable table = make_table("t-race", 1);
    REQUIRE(saved(*one, table));
    REQUIRE(appended(*one, after_move(table, 1), make_move(1, 0)));

    StoredMove rival = make_move(1, 1);
    rival.move = "rival";
    StoredTable rival_table = after_move(table, 1);
    rival_table.to_act = 0;
    CHECK_FALSE(appended(*one, rival_table, rival));
    CHECK_FALSE(appended(*other, rival_table, rival));
    // Version 2 from one store; the other store's move at version 2 comes second and loses.
    CHECK(appended(*one, after_move(table, 2), make_move(2, 0)));
    CHECK_FALSE(appended(*other, after_move(table, 2), rival));

    const auto loaded = other->load_table("t-race");
    REQUIRE(loaded);
    REQUIRE(loaded->moves.size() == 2);
    check_move(loaded->moves[0], make_move(1, 0));
    check_move(loaded->moves[1], make_move(2, 0));
    CHECK(loaded->table.version == 2);
    CHECK(loaded->table.to_act == after_move(table, 2).to_act);
}

TEST_CASE("postgres: while the database server is down writes and reads fail, then all works again",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    std::atomic<int> failures{0};
    std::atomic<int> commits{0};
    auto store =
        open_postgres_store({.url = place.url(),
                             .on_commit = [&commits](auto, std::size_t) { ++commits; },
                             .on_failure = [&failures](const std::string&) { ++failures; }});
    StoredTable table = make_table("t-down", 1);
    REQUIRE(saved(*store, table));
    REQUIRE(appended(*store, after_move(table, 1), make_move(1, 0)));
    REQUIRE(store->load_table("t-down"));

    auto& server = gcor::testing::PostgresServer::shared();
    server.stop();
    CHECK_FALSE(appended(*store, after_move(table, 2), make_move(2, 1)));
    CHECK(failures > 0);
    CHECK_THROWS_AS(store->load_table("t-down"), StorageFailure);
    CHECK_THROWS_AS(store->user_by_id(1), StorageFailure);
    CHECK_THROWS_AS(store->create_user("Zed", "$argon2id$z"), StorageFailure);

    server.start();
    const int commits_before = commits;
    CHECK(appended(*store, after_move(table, 2), make_move(2, 1)));
    CHECK(commits > commits_before);
    const auto loaded = store->load_table("t-down");
    REQUIRE(loaded);
    REQUIRE(loaded->moves.size() == 2);
    check_move(loaded->moves[1], make_move(2, 1));
    CHECK(store->create_user("Zed", "$argon2id$z"));
}

TEST_CASE("postgres: a write that fails inside a pipelined group fails alone, the others commit",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    std::vector<std::size_t> groups;  // each commit's writes, appended on the writer thread
    // A window long enough for the four writes below to make one group (one pipeline).
    auto store = open_postgres_store(
        {.url = place.url(),
         .group_commit_ms = 50,
         .on_commit = [&groups](auto, std::size_t writes) { groups.push_back(writes); }});
    StoredTable a = make_table("a", 1);
    StoredTable b = make_table("b", 2);
    REQUIRE(saved(*store, a));
    REQUIRE(saved(*store, b));
    groups.clear();

    std::vector<std::pair<int, Written>> outcomes;  // the writer thread's, read after flush()
    const auto record = [&outcomes](int index) {
        return [&outcomes, index](Written written) { outcomes.emplace_back(index, written); };
    };
    StoredMove not_text = make_move(1, 1);
    not_text.move = "draft \xff";  // not UTF-8: PostgreSQL refuses the statement
    store->append_move(progress_of(after_move(a, 1)), make_move(1, 0), record(0));
    store->append_move(progress_of(after_move(b, 1)), not_text, record(1));
    store->save_table(make_table("c", 3), record(2));
    store->append_move(progress_of(after_move(a, 2)), make_move(2, 1), record(3));
    store->flush();

    const std::vector<std::pair<int, Written>> expected{{0, Written::committed},
                                                        {1, Written::failed},
                                                        {2, Written::committed},
                                                        {3, Written::committed}};
    CHECK(outcomes == expected);
    // The group failed whole, then each write had a transaction of its own (the flush's too).
    CHECK(std::ranges::all_of(groups, [](std::size_t writes) { return writes == 1; }));
    CHECK(store->load_table("a")->moves.size() == 2);
    CHECK(store->find_table("b")->version == 0);
    CHECK(store->load_table("b")->moves.empty());
    CHECK(store->find_table("c"));
    // And the store writes as before.
    CHECK(appended(*store, after_move(b, 1), make_move(1, 1)));
}

TEST_CASE("postgres: a writer connection the server ended while idle is replaced, nothing fails",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    std::atomic<int> failures{0};
    auto store = open_postgres_store(
        {.url = place.url(), .on_failure = [&failures](const std::string&) { ++failures; }});
    const StoredTable table = make_table("t-ended", 1);
    REQUIRE(saved(*store, table));
    // Every connection of the store ends (as at a restart of the database server); the call
    // waits until their processes ended, and so their goodbyes are sent.
    using gcor::testing::PostgresServer;
    PostgresServer::query(place.url(),
                          "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()");
    CHECK(appended(*store, after_move(table, 1), make_move(1, 0)));
    CHECK(failures == 0);
    CHECK(store->load_table("t-ended")->moves.size() == 1);
}

TEST_CASE(
    "postgres: a due table is taken by one of two stores, again once its deadline changed "
    "or the hold ended",
    "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto one = place.open();
    auto other = place.open();  // as a second server process would
    using Ids = std::vector<std::string>;
    constexpr int kTables = 40;
    Ids every;
    for (int i = 0; i < kTables; ++i) {
        StoredTable table = make_table("d" + std::to_string(i), i);
        table.status = TableStatus::playing;
        table.deadline = 1000 + i;
        REQUIRE(saved(*one, table));
        every.push_back(table.id);
    }
    std::ranges::sort(every);

    // Both sweep at once, each holding what it takes until 60,000.
    Ids by_one;
    std::thread first([&] { by_one = one->take_due_tables(5000, 60'000); });
    const Ids by_other = other->take_due_tables(5000, 60'000);
    first.join();
    Ids taken = by_one;
    taken.insert(taken.end(), by_other.begin(), by_other.end());
    CHECK(sorted(taken) == every);  // each once: none twice, none left
    CHECK(one->take_due_tables(6000, 60'000).empty());
    CHECK(other->take_due_tables(6000, 60'000).empty());

    // d0's deadline changed (the seat to act moved): new work, for whoever sweeps first.
    StoredTable moved = make_table("d0", 0);
    moved.status = TableStatus::playing;
    REQUIRE(appended(*one, after_move(moved, 1), make_move(1, 0)));
    CHECK(other->take_due_tables(6000, 60'000) == Ids{"d0"});
    CHECK(one->take_due_tables(6000, 60'000).empty());

    // The hold ended (its process died, or could not act): the table is taken again.
    CHECK(sorted(one->take_due_tables(60'000, 120'000)) == every);
    CHECK(other->take_due_tables(60'000, 120'000).empty());
}

TEST_CASE("postgres: a bad or unreachable database URL is a readable error without the password",
          "[store][postgres]") {
    // Port 1 on loopback: nobody listens there.
    const std::string unreachable = "postgresql://gcor:s3cret@127.0.0.1:1/gcor";
    CHECK(is_postgres_url(unreachable));
    CHECK(is_postgres_url("postgres://localhost/gcor"));
    CHECK_FALSE(is_postgres_url("var/cor.db"));
    try {
        open_store(unreachable, {});
        FAIL("opened a store on a port nobody listens on");
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        CHECK_THAT(message, Catch::Contains("cannot open the store") &&
                                Catch::Contains("postgresql://gcor:***@127.0.0.1:1/gcor"));
        CHECK_THAT(message, !Catch::Contains("s3cret"));
    }
    CHECK_THROWS_WITH(open_store("postgresql://127.0.0.1/x?nosuchsetting=1", {}),
                      Catch::Contains("cannot read the database URL"));
}

TEST_CASE(
    "store: a table's write names its row's revision, and one made on an older row "
    "conflicts and changes nothing",
    "[store]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto save = [&](const StoredTable& table) {
        return outcome([&](auto done) { store->save_table(table, done); });
    };
    const auto append = [&](const StoredTable& table, const StoredMove& move) {
        return outcome([&](auto done) { store->append_move(progress_of(table), move, done); });
    };
    StoredTable table = make_table("t-revision", 100);
    table.revision = 1;
    REQUIRE(save(table) == Written::committed);
    CHECK(store->find_table("t-revision")->revision == 1);

    // A second process that also read the row before revision 1 sits somebody: refused.
    StoredTable elsewhere = table;
    elsewhere.seats[0] = StoredSeat{SeatKind::human, 0, "Eve", "", false};
    CHECK(save(elsewhere) == Written::conflict);
    check_table(*store->find_table("t-revision"), table);

    table.seats[0] = StoredSeat{SeatKind::human, 0, "Ann", "", false};
    table.revision = 2;
    REQUIRE(save(table) == Written::committed);
    StoredTable moved = after_move(table, 1);
    moved.revision = 3;
    REQUIRE(append(moved, make_move(1, 0)) == Written::committed);

    // Another move at revision 3: at the same version (the key), and at the next one (the row).
    StoredMove rival = make_move(1, 1);
    rival.move = "rival";
    CHECK(append(moved, rival) == Written::conflict);
    StoredTable skipped = after_move(table, 2);
    skipped.revision = 3;
    CHECK(append(skipped, make_move(2, 0)) == Written::conflict);
    const auto loaded = store->load_table("t-revision");
    REQUIRE(loaded);
    REQUIRE(loaded->moves.size() == 1);
    check_move(loaded->moves[0], make_move(1, 0));
    CHECK(loaded->table.revision == 3);
    CHECK(loaded->table.version == 1);

    skipped.revision = 4;
    CHECK(append(skipped, make_move(2, 0)) == Written::committed);
    CHECK(store->find_table("t-revision")->revision == 4);
    // What another process reads of it: the row, and the moves after the version it has.
    const auto since = store->load_table_since("t-revision", 1);
    REQUIRE(since);
    CHECK(since->table.version == 2);
    REQUIRE(since->moves.size() == 1);
    check_move(since->moves[0], make_move(2, 0));
    CHECK(store->load_table_since("t-revision", 0)->moves.size() == 2);
    CHECK(store->load_table_since("t-revision", 2)->moves.empty());
    CHECK_FALSE(store->load_table_since("t-nowhere", 0));
    // Revision 0 writes the row whatever it holds (tools), and leaves it at 0.
    StoredTable tool = after_move(table, 2);
    tool.revision = 0;
    CHECK(save(tool) == Written::committed);
    CHECK(store->find_table("t-revision")->revision == 0);

    // A waiting table is removed only at its revision.
    StoredTable waiting = make_table("t-waiting-revision", 200);
    waiting.revision = 5;
    REQUIRE(save(waiting) == Written::committed);
    CHECK(outcome([&](auto done) { store->remove_table(waiting.id, 4, done); }) ==
          Written::conflict);
    CHECK(store->find_table(waiting.id));
    CHECK(outcome([&](auto done) { store->remove_table(waiting.id, 5, done); }) ==
          Written::committed);
    CHECK_FALSE(store->find_table(waiting.id));
}

namespace {

using namespace std::chrono_literals;

// The news one store hears, gathered from its listening thread.
struct HeardNews {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<StoreNews> news;

    std::function<void(const StoreNews&)> listener() {
        return [this](const StoreNews& heard) {
            std::lock_guard lock(mutex);
            news.push_back(heard);
            changed.notify_all();
        };
    }
    // Waits (5 s at most) until `count` news have come; all of them.
    std::vector<StoreNews> wait_for(std::size_t count) {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, 5s, [&] { return news.size() >= count; });
        return news;
    }
};

}  // namespace

using namespace std::chrono_literals;

TEST_CASE("postgres: a store hears what other stores on its database committed, never its own",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto one = place.open();
    auto other = place.open();  // as a second server process would
    HeardNews heard_by_one;
    HeardNews heard_by_other;
    one->listen(heard_by_one.listener());
    other->listen(heard_by_other.listener());
    const auto user = one->create_user("Ann", "$argon2id$a");
    REQUIRE(user);

    StoredTable table = make_table("t-news", 1);
    table.revision = 1;
    table.seats[0] = StoredSeat{SeatKind::human, user->id, "Ann", "", false};
    REQUIRE(saved(*one, table));
    StoredTable moved = after_move(table, 1);
    moved.revision = 2;
    moved.to_act = 0;  // Ann's turn
    REQUIRE(appended(*one, moved, make_move(1, 1)));
    REQUIRE(committed([&](auto done) {
        one->append_chat("t-news", StoredChatLine{1, user->id, "Ann", 0, "hello", 10}, done);
    }));
    REQUIRE(committed([&](auto done) { one->delete_chat("t-news", 1, done); }));
    StoredTable waiting = make_table("t-news-closed", 2);
    waiting.revision = 1;
    REQUIRE(saved(*one, waiting));
    REQUIRE(committed([&](auto done) { one->remove_table(waiting.id, 1, done); }));

    const std::vector<StoreNews> news = heard_by_other.wait_for(6);
    REQUIRE(news.size() == 6);
    CHECK(news[0].kind == StoreNews::Kind::table);
    CHECK(news[0].table == "t-news");
    CHECK(news[0].revision == 1);
    CHECK(news[0].status == TableStatus::waiting);
    CHECK(news[0].listing_changed);
    CHECK_FALSE(news[0].removed);
    CHECK(news[0].move.empty());

    // A move comes with its row's news, one notification.
    CHECK(news[1].kind == StoreNews::Kind::table);
    CHECK(news[1].table == "t-news");
    const std::optional<StoredMove> first_move = read_move_news(news[1].move);
    REQUIRE(first_move);
    check_move(*first_move, make_move(1, 1));
    CHECK(news[1].revision == 2);
    CHECK(news[1].version == 1);
    CHECK(news[1].status == TableStatus::playing);
    CHECK(news[1].is_public == table.is_public);
    CHECK(news[1].listing_changed);  // the status changed
    CHECK(news[1].turn_changed);
    CHECK(news[1].to_act == 0);
    CHECK(news[1].to_act_user == user->id);
    CHECK(news[1].deadline == moved.deadline);

    CHECK(news[2].kind == StoreNews::Kind::chat);
    CHECK(news[2].table == "t-news");
    CHECK(news[2].chat_line == 1);
    CHECK_FALSE(news[2].chat_deleted);
    CHECK(news[3].kind == StoreNews::Kind::chat);
    CHECK(news[3].chat_deleted);

    CHECK(news[4].table == "t-news-closed");
    CHECK_FALSE(news[4].removed);
    CHECK(news[5].table == "t-news-closed");
    CHECK(news[5].removed);

    // A move that keeps the status and the seat to act changes neither the listing nor the turn.
    StoredTable again = after_move(moved, 2);
    again.revision = 3;
    again.to_act = 0;
    again.deadline = moved.deadline;
    StoredMove spaced = make_move(2, 0);
    spaced.move_id = "an id with \"quotes\" and spaces";
    TableProgress turn_only = progress_of(again);
    turn_only.turn_only = true;  // the statement that leaves status, deadline and result alone
    REQUIRE(committed([&](auto done) { other->append_move(turn_only, spaced, done); }));
    const std::vector<StoreNews> heard = heard_by_one.wait_for(1);
    REQUIRE(heard.size() == 1);  // not one of its own six
    const std::optional<StoredMove> spaced_heard = read_move_news(heard[0].move);
    REQUIRE(spaced_heard);
    check_move(*spaced_heard, spaced);
    CHECK(heard[0].table == "t-news");
    CHECK(heard[0].version == 2);
    CHECK(heard[0].revision == 3);
    CHECK_FALSE(heard[0].listing_changed);
    CHECK_FALSE(heard[0].turn_changed);
    std::this_thread::sleep_for(200ms);  // nothing else comes: the other store's own news
    CHECK(heard_by_other.wait_for(6).size() == 6);

    // A write of the row after a move is still announced (by the row's trigger: a move's append
    // announces itself).
    StoredTable renamed = again;
    renamed.revision = 4;
    renamed.seats[0].name = "Ann B";
    REQUIRE(saved(*other, renamed));
    const std::vector<StoreNews> after_save = heard_by_one.wait_for(2);
    REQUIRE(after_save.size() == 2);
    CHECK(after_save[1].table == "t-news");
    CHECK(after_save[1].revision == 4);
    CHECK(after_save[1].version == 2);
    CHECK(after_save[1].listing_changed);
    CHECK(after_save[1].move.empty());

    // A user's vacations.
    one->replace_vacations(user->id, 0, {StoredVacation{100, 200}});
    const std::vector<StoreNews> vacation = heard_by_other.wait_for(7);
    REQUIRE(vacation.size() == 7);
    CHECK(vacation[6].kind == StoreNews::Kind::vacation);
    CHECK(vacation[6].user == user->id);

    // A user's preferences, when they change (setting the same again is no news).
    one->set_preferences(user->id, UserPreferences{true});
    one->set_preferences(user->id, UserPreferences{false});
    const std::vector<StoreNews> preferences = heard_by_other.wait_for(8);
    REQUIRE(preferences.size() == 8);
    CHECK(preferences[7].kind == StoreNews::Kind::preferences);
    CHECK(preferences[7].user == user->id);

    // Listening stops: nothing is heard any more.
    other->listen({});
    StoredTable later = after_move(renamed, 3);
    later.revision = 5;
    REQUIRE(appended(*one, later, make_move(3, 1)));
    std::this_thread::sleep_for(300ms);
    CHECK(heard_by_other.wait_for(8).size() == 8);
}

TEST_CASE("postgres: a store whose listening connection was lost says news may be missed",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto store = place.open();
    HeardNews heard;
    store->listen(heard.listener());
    std::this_thread::sleep_for(300ms);  // the listener has connected
    auto& server = gcor::testing::PostgresServer::shared();
    server.stop();
    server.start();
    const std::vector<StoreNews> news = heard.wait_for(1);
    REQUIRE(news.size() == 1);
    CHECK(news[0].kind == StoreNews::Kind::missed);
    // Then news flow again.
    auto other = place.open();
    StoredTable table = make_table("t-after", 1);
    table.revision = 1;
    REQUIRE(saved(*other, table));
    const std::vector<StoreNews> more = heard.wait_for(2);
    REQUIRE(more.size() == 2);
    CHECK(more[1].table == "t-after");
}

TEST_CASE("postgres: who is connected to which store, and messages for users elsewhere",
          "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto first = place.open();
    auto second = place.open();
    PresenceStore* const one = presence_store_of(*first);
    PresenceStore* const other = presence_store_of(*second);
    REQUIRE(one);
    REQUIRE(other);
    std::mutex heard_mutex;
    std::condition_variable heard_more;
    std::vector<UserNews> heard;
    second->listen([](const StoreNews&) {});
    other->listen_users([&](const UserNews& news) {
        std::lock_guard lock(heard_mutex);
        heard.push_back(news);
        heard_more.notify_all();
    });
    constexpr auto kForget = std::chrono::minutes(1);
    // A store's first beat makes its row; users are marked on it.
    CHECK(one->beat(kForget));
    CHECK_FALSE(one->beat(kForget));
    CHECK(other->beat(kForget));
    one->mark_present({5, 6, 7}, true);
    one->mark_present({6}, true);  // marked already: nothing changes
    one->mark_present({6}, false);
    const auto sorted = [](std::vector<std::uint64_t> users) {
        std::ranges::sort(users);
        return users;
    };
    CHECK(sorted(other->users_elsewhere(kForget)) == std::vector<std::uint64_t>{5, 7});
    CHECK(one->users_elsewhere(kForget).empty());  // its own are not elsewhere
    // A store silent for longer than the bound counts for nobody, and a beat removes it.
    std::this_thread::sleep_for(20ms);
    CHECK(other->users_elsewhere(10ms).empty());
    CHECK_FALSE(other->beat(10ms));
    CHECK(other->users_elsewhere(kForget).empty());
    CHECK(one->beat(kForget));  // made anew: its users are to be marked again
    one->mark_present({5}, true);
    CHECK(other->users_elsewhere(kForget) == std::vector<std::uint64_t>{5});
    one->leave();
    CHECK(other->users_elsewhere(kForget).empty());

    // Messages: short ones in the notification, long ones read from their row by reference.
    const std::string small = R"({"type":"invitation"})";
    const std::string large = R"({"type":"invitation","pad":")" + std::string(9000, 'x') + "\"}";
    one->tell_elsewhere(42, small);
    one->tell_elsewhere(43, large);
    std::unique_lock lock(heard_mutex);
    REQUIRE(heard_more.wait_for(lock, 10s, [&] { return heard.size() >= 2; }));
    CHECK(heard[0].kind == UserNews::Kind::message);
    CHECK(heard[0].user == 42);
    CHECK(heard[0].message == small);
    CHECK(heard[1].user == 43);
    CHECK(heard[1].message == large);
    lock.unlock();
    other->listen_users({});
}

TEST_CASE("postgres: news payloads are read strictly", "[store][postgres]") {
    using gcor::server::parse_news;
    const auto table = parse_news("t n1 7 3 playing 1 0 1 2 42 9000 t-abc", "me");
    REQUIRE(table.news);
    CHECK(table.news->table == "t-abc");
    CHECK(table.news->revision == 7);
    CHECK(table.news->version == 3);
    CHECK(table.news->status == TableStatus::playing);
    CHECK(table.news->is_public);
    CHECK_FALSE(table.news->listing_changed);
    CHECK(table.news->turn_changed);
    CHECK(table.news->to_act == 2);
    CHECK(table.news->to_act_user == 42);
    CHECK(table.news->deadline == 9000);
    const auto waiting = parse_news("t n1 1 0 waiting 0 1 0 - 0 - t id with spaces", "me");
    REQUIRE(waiting.news);
    CHECK_FALSE(waiting.news->to_act);
    CHECK_FALSE(waiting.news->deadline);
    CHECK(waiting.news->table == "t id with spaces");
    // A row changed by one move carries it after a newline, read only where the table is held.
    const auto moved = parse_news(
        "t n1 8 4 playing 1 0 1 2 42 9000 t-abc\n"
        R"({"seq":4,"seat":1,"move":"draft 17","move_id":"x y","at":123,"by":"timeout"})",
        "me");
    REQUIRE(moved.news);
    CHECK(moved.news->kind == StoreNews::Kind::table);
    CHECK(moved.news->table == "t-abc");
    CHECK(moved.news->version == 4);
    const auto move = read_move_news(moved.news->move);
    REQUIRE(move);
    CHECK(move->seq == 4);
    CHECK(move->seat == 1);
    CHECK(move->move == "draft 17");
    CHECK(move->move_id == "x y");
    CHECK(move->at == 123);
    CHECK(move->by == MovedBy::timeout);
    const auto waiting_move = read_move_news(
        R"({"seq":5,"seat":0,"move":"build 3 1,0","move_id":"w","at":124,"by":"player_waiting"})");
    REQUIRE(waiting_move);
    CHECK(waiting_move->by == MovedBy::player_waiting);
    CHECK(parse_news("t me 8 4 playing 1 0 1 2 42 9000 t-abc\n{}", "me").own);
    for (const char* bad : {"", "{}", "[]", R"({"seq":4,"seat":1,"move":"d","move_id":"","at":1})",
                            R"({"seq":4,"seat":1,"move":"d","move_id":"","at":1,"by":"someone"})",
                            R"({"seq":"4","seat":1,"move":"d","move_id":"","at":1,"by":"bot"})",
                            R"({"seq":4,"seat":1,"move":7,"move_id":"","at":1,"by":"bot"})"}) {
        INFO(bad);
        CHECK_FALSE(read_move_news(bad));
    }
    const auto vacation = parse_news("v n1 77", "me");
    REQUIRE(vacation.news);
    CHECK(vacation.news->kind == StoreNews::Kind::vacation);
    CHECK(vacation.news->user == 77);
    const auto preferences = parse_news("p n1 78", "me");
    REQUIRE(preferences.news);
    CHECK(preferences.news->kind == StoreNews::Kind::preferences);
    CHECK(preferences.news->user == 78);
    CHECK(parse_news("p me 78", "me").own);
    const auto renamed = parse_news("n n1 79", "me");
    REQUIRE(renamed.user_news);
    CHECK_FALSE(renamed.news);
    CHECK(renamed.user_news->kind == UserNews::Kind::renamed);
    CHECK(renamed.user_news->user == 79);
    // A message for a user: after a newline, or kept in a row that the listener reads.
    const auto message = parse_news("u n1 80\n{\"type\": \"invitation\"}", "me");
    REQUIRE(message.user_news);
    CHECK(message.user_news->kind == UserNews::Kind::message);
    CHECK(message.user_news->user == 80);
    CHECK(message.user_news->message == R"({"type": "invitation"})");
    CHECK(message.stored_message == 0);
    const auto kept = parse_news("u n1 81 #1234", "me");
    REQUIRE(kept.user_news);
    CHECK(kept.user_news->user == 81);
    CHECK(kept.user_news->message.empty());
    CHECK(kept.stored_message == 1234);
    CHECK(parse_news("u me 80\n{}", "me").own);
    const auto chat = parse_news("c n1 12 1 t-abc", "me");
    REQUIRE(chat.news);
    CHECK(chat.news->kind == StoreNews::Kind::chat);
    CHECK(chat.news->chat_line == 12);
    CHECK(chat.news->chat_deleted);
    CHECK(parse_news("t me 7 3 playing 1 0 1 2 42 9000 t-abc", "me").own);
    CHECK_FALSE(parse_news("t me 7 3 playing 1 0 1 2 42 9000 t-abc", "me").news);
    for (const char* bad : {"",
                            "x n1",
                            "t n1 7 3 playing 1 0 1 2 42 9000",
                            "t n1 x 3 playing 1 0 1 2 42 9000 t",
                            "t n1 7 3 sleeping 1 0 1 2 42 9000 t",
                            "t n1 7 3 playing 2 0 1 2 42 9000 t",
                            "t n1 7 3 playing 1 0 1 2 42 9000 ",
                            "t n1 -7 3 playing 1 0 1 2 42 9000 t",
                            "c n1 12 2 t",
                            "c n1 twelve 1 t",
                            "c n1 12 1",
                            "p n1",
                            "p n1 x",
                            "n n1 x",
                            "u n1 80",
                            "u n1 80\n",
                            "u n1 x\n{}",
                            "u n1 80 1234",
                            "u n1 80 #x",
                            "u n1 80 #12 3",
                            "t n1 7 3 playing 1 0 1 2 42 9000 t-abc\n",
                            "m {}"}) {
        INFO(bad);
        const auto parsed = parse_news(bad, "me");
        CHECK_FALSE(parsed.news);
        CHECK_FALSE(parsed.user_news);
        CHECK_FALSE(parsed.own);
    }
}

TEST_CASE(
    "postgres: a database that stops answering fails the store's statements after the "
    "statement timeout, and then all works again",
    "[store][postgres]") {
    StorePlace place(Backend::postgres);
    auto store = open_postgres_store({.url = place.url(), .statement_timeout_ms = 300});
    StoredTable table = make_table("t-hung", 1);
    table.revision = 1;
    REQUIRE(saved(*store, table));

    // Another session holds every table row locked, as a hung migration or a stuck backup might.
    std::unique_ptr<PGconn, decltype(&PQfinish)> holder(PQconnectdb(place.url().c_str()),
                                                        &PQfinish);
    REQUIRE(PQstatus(holder.get()) == CONNECTION_OK);
    PQclear(PQexec(holder.get(), "BEGIN"));
    PGresult* locked = PQexec(holder.get(), "LOCK TABLE tables IN ACCESS EXCLUSIVE MODE");
    REQUIRE(PQresultStatus(locked) == PGRES_COMMAND_OK);
    PQclear(locked);

    StoredTable changed = table;
    changed.revision = 2;
    changed.seats[0] = StoredSeat{SeatKind::human, 0, "Ann", "", false};
    CHECK(outcome([&](auto done) { store->save_table(changed, done); }) == Written::failed);
    CHECK_THROWS_AS(store->find_table("t-hung"), StorageFailure);

    PQclear(PQexec(holder.get(), "ROLLBACK"));
    CHECK(outcome([&](auto done) { store->save_table(changed, done); }) == Written::committed);
    check_table(*store->find_table("t-hung"), changed);
}

TEST_CASE("store erase_user: the user's data goes, records keep a new name, the name is held",
          "[store][accounts]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    const auto ann = store->create_user("Ann", "$argon2id$a");
    const auto ben = store->create_user("Ben", "$argon2id$b");
    REQUIRE(ann);
    REQUIRE(ben);
    store->set_webhook(ben->id, "http://127.0.0.1:9/ben");
    store->set_email(ben->id, "ben@example.org", "token-ben", 9000);
    store->set_email(ann->id, "ann@example.org", "token-ann", 9000);
    store->add_session("hash-ben-1", ben->id, unix_now_ms() + 60'000);
    store->add_session("hash-ben-2", ben->id, unix_now_ms() + 60'000);
    store->add_session("hash-ann", ann->id, unix_now_ms() + 60'000);
    store->replace_vacations(ben->id, 0, {StoredVacation{1000, 2000}});
    store->set_preferences(ben->id, UserPreferences{false});
    store->set_muted(ben->id, ann->id, true);
    store->set_muted(ann->id, ben->id, true);
    QueuedMail mail;
    mail.key = "turn-ben";
    mail.user = ben->id;
    mail.recipient = "ben@example.org";
    mail.message = "Subject: your turn\r\n\r\nplay";
    mail.due = 1;
    REQUIRE(committed([&](auto done) { store->queue_mail(mail, done); }));
    StoredTable game = make_table("t-erased", 100);
    game.seats = {StoredSeat{SeatKind::human, ann->id, "Ann", "", false},
                  StoredSeat{SeatKind::human, ben->id, "Ben", "", false}};
    game.status = TableStatus::playing;
    game.to_act = 0;
    REQUIRE(saved(*store, game));
    for (std::uint64_t n = 1; n <= 3; ++n) {
        const bool bens = n != 2;
        const StoredChatLine line{n, bens ? ben->id : ann->id,    bens ? "Ben" : "Ann",
                                  0, "line " + std::to_string(n), static_cast<UnixMs>(n)};
        REQUIRE(committed([&](auto done) { store->append_chat("t-erased", line, done); }));
    }
    const auto league = store->create_league("Forum", ann->id, "{}");
    REQUIRE(league);
    store->open_season(league->id, 1);
    REQUIRE(store->sign_up(league->id, 1, ben->id));
    REQUIRE(store->sign_up(league->id, 1, ann->id));
    REQUIRE(store->chat_lines_of(ben->id, 10).size() == 2);
    CHECK(store->chat_lines_of(ben->id, 10)[1].table == "t-erased");
    CHECK(store->chat_lines_of(ben->id, 10)[1].line.text == "line 3");
    CHECK(store->vacations_of(ben->id) == std::vector<StoredVacation>{{1000, 2000}});

    // Erased 29 days ago: the name is still held.
    const UnixMs day = 24 * 60 * 60 * 1000;
    const auto sessions = store->erase_user(
        AccountErasure{ben->id, "deleted player 2", unix_now_ms() - 29 * day, {}});
    CHECK(std::set<std::string>(sessions.begin(), sessions.end()) ==
          std::set<std::string>{"hash-ben-1", "hash-ben-2"});
    const auto erased = store->user_by_id(ben->id);
    REQUIRE(erased);
    CHECK(erased->name == "deleted player 2");
    CHECK(erased->password_hash.empty());
    CHECK(erased->webhook.empty());
    CHECK_FALSE(store->user_by_name("Ben"));
    CHECK_FALSE(store->session_user("hash-ben-1", unix_now_ms()));
    CHECK(store->session_user("hash-ann", unix_now_ms()));
    CHECK_FALSE(store->email_of(ben->id));
    CHECK(store->email_of(ann->id));
    CHECK(store->vacations_of(ben->id).empty());
    CHECK(store->preferences_of(ben->id) == UserPreferences{});
    CHECK(store->muted_by(ben->id).empty());
    CHECK(store->muted_by(ann->id).empty());
    CHECK(store->take_due_mails(unix_now_ms(), 10, unix_now_ms() + 1000).empty());
    CHECK(store->chat_lines_of(ben->id, 10).empty());
    const auto chat = store->chat_lines("t-erased", std::nullopt, 10);
    REQUIRE(chat.size() == 1);
    CHECK(chat[0].text == "line 2");
    CHECK(store->load_table("t-erased")->chat_lines == 3);  // numbers stay taken
    const auto seats = store->find_table("t-erased")->seats;
    CHECK(seats[0].name == "Ann");
    CHECK(seats[1].name == "deleted player 2");
    CHECK(seats[1].user == ben->id);
    CHECK_FALSE(store->create_user("ben", "$argon2id$c"));
    // A season not started loses the sign-up: its start would deal games nobody plays.
    const auto members = store->members(league->id, 1);
    REQUIRE(members.size() == 1);
    CHECK(members[0].user.id == ann->id);

    // Another erased 31 days ago: that name is free again, and registering takes it.
    const auto cy = store->create_user("Cy", "$argon2id$d");
    REQUIRE(cy);
    store->erase_user(AccountErasure{cy->id, "deleted player 3", unix_now_ms() - 31 * day, {}});
    CHECK_FALSE(store->user_by_name("Cy"));
    const auto new_cy = store->create_user("CY", "$argon2id$e");
    REQUIRE(new_cy);
    CHECK(new_cy->id != cy->id);
    CHECK(store->user_by_name("cy")->id == new_cy->id);
    CHECK(store->user_by_id(cy->id)->name == "deleted player 3");
    CHECK_FALSE(store->create_user("Ben", "$argon2id$f"));  // still held
}

TEST_CASE("store tournaments: sign-ups, two servers racing to pair one round, the finish",
          "[store][tournament]") {
    FOR_EACH_BACKEND(backend);
    StorePlace place(backend);
    auto store = place.open();
    auto other = place.open();  // a second server on the same database
    const auto [ann, bob] = two_users(*store);
    const StoredTournament cup = store->create_tournament("Cup", ann.id, R"({"rounds":1})", 0);
    CHECK(cup.status == "signup");
    CHECK(cup.creator.name == "ann");
    CHECK(store->join_tournament(cup.id, ann.id, 2) == JoinOutcome::joined);
    CHECK(store->join_tournament(cup.id, ann.id, 2) == JoinOutcome::already);
    CHECK(other->join_tournament(cup.id, bob.id, 2) == JoinOutcome::joined);
    const StoredUser cy = store->create_guest("cy");
    CHECK(store->join_tournament(cup.id, cy.id, 2) == JoinOutcome::full);
    REQUIRE(store->tournament_players(cup.id).size() == 2);
    REQUIRE(store->tournaments_of(bob.id, 10).size() == 1);
    CHECK(store->tournaments_of(bob.id, 10)[0].tournament.id == cup.id);

    // Both servers pair round 1 at once, each with its own table: exactly one is stored.
    auto round_of = [&](const std::string& table) {
        RoundStart start;
        start.tournament = cup.id;
        start.round.number = 1;
        start.round.started = 1000;
        start.round.deadline = 5000;
        StoredTable made = seated(make_table(table, 1000), ann, bob);
        made.status = TableStatus::playing;
        start.tables.push_back(made);
        start.seeds = {TournamentPlayer{User{ann.id, "ann", false}, 0, 1, 1500, false},
                       TournamentPlayer{User{bob.id, "bob", false}, 0, 2, 1400, false}};
        return start;
    };
    const RoundStart first = round_of("t00000000000000a1");
    const RoundStart second = round_of("t00000000000000b2");
    std::promise<bool> one;
    std::promise<bool> two;
    std::thread racing([&] { other->start_round(second, [&](bool ok) { two.set_value(ok); }); });
    store->start_round(first, [&](bool ok) { one.set_value(ok); });
    racing.join();
    const bool first_won = one.get_future().get();
    const bool second_won = two.get_future().get();
    CHECK(first_won != second_won);
    const auto tables = store->tournament_tables(cup.id);
    REQUIRE(tables.size() == 1);
    CHECK(tables[0].round == 1);
    CHECK(tables[0].table.id == (first_won ? first : second).tables[0].id);
    CHECK_FALSE(store->find_table(second_won ? first.tables[0].id : second.tables[0].id));
    const auto rounds = store->tournament_rounds(cup.id);
    REQUIRE(rounds.size() == 1);
    CHECK(rounds[0].deadline == 5000);
    const auto running = store->tournament(cup.id);
    REQUIRE(running);
    CHECK(running->status == "running");
    CHECK(running->round == 1);
    const auto seeded = store->tournament_players(cup.id);
    CHECK(seeded[0].user.id == ann.id);
    CHECK(seeded[0].seed == 1);
    CHECK(seeded[1].seed == 2);
    // The same round again (a late sweep) is refused: the claim moved on.
    std::promise<bool> late;
    store->start_round(first, [&](bool ok) { late.set_value(ok); });
    CHECK_FALSE(late.get_future().get());

    CHECK(store->join_tournament(cup.id, cy.id, 3) == JoinOutcome::closed);
    CHECK(store->leave_tournament(cup.id, bob.id));  // running: withdrawn
    CHECK(store->tournament_players(cup.id)[1].withdrawn);
    CHECK_FALSE(store->finish_tournament(cup.id, 0));  // not the round it is at
    CHECK(store->finish_tournament(cup.id, 1));
    CHECK_FALSE(other->finish_tournament(cup.id, 1));
    CHECK(store->unfinished_tournaments().empty());
    CHECK(store->tournament(cup.id)->status == "finished");
}
