// The store on a real small file system (a tmpfs this test mounts): a full disk refuses changes
// with storage_failed, the followers of a table stay with it, /healthz and /metrics say so, and
// everything goes on once there is room again. Mounting needs root: without it each test prints
// "SKIPPED:", which ctest reports as skipped (tests/server/CMakeLists.txt).
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <thread>

#include "table_support.hpp"

namespace gcor::testing {
namespace {

// A tmpfs of `megabytes` on a fresh folder, unmounted when destroyed.
class SmallDisk {
  public:
    explicit SmallDisk(int megabytes) {
        char pattern[] = "/tmp/cor-small-disk-XXXXXX";
        dir_ = mkdtemp(pattern);
        const std::string size = "size=" + std::to_string(megabytes) + "m";
        mounted_ = ::mount("tmpfs", dir_.c_str(), "tmpfs", 0, size.c_str()) == 0;
        if (!mounted_) why_ = std::strerror(errno);
    }
    ~SmallDisk() {
        if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
        ::rmdir(dir_.c_str());
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;

    bool mounted() const { return mounted_; }
    const std::string& why() const { return why_; }
    std::string database() const { return dir_ + "/cor.db"; }

    // Empties the database's write-ahead log into it from a connection of the test's own, as a
    // backup tool might: the next commit then has to grow the log file.
    void checkpoint() const {
        // Waits for the server's readers (the deadline sweep reads twice a second) to finish; a
        // checkpoint that met one anyway (busy: 1, which a loaded machine sees) is tried again.
        SQLite::Database db(database(), SQLite::OPEN_READWRITE, 5000);
        int busy = 1;
        for (int attempt = 0; attempt < 50 && busy != 0; ++attempt) {
            if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
            SQLite::Statement truncate(db, "PRAGMA wal_checkpoint(TRUNCATE)");
            REQUIRE(truncate.executeStep());
            busy = truncate.getColumn(0).getInt();
        }
        REQUIRE(busy == 0);
    }

    // Writes filler files until the file system is full; returns the bytes written.
    std::size_t fill() {
        const std::string path = dir_ + "/filler-" + std::to_string(fillers_++);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        REQUIRE(fd >= 0);
        const std::string block(4096, 'x');
        std::size_t written = 0;
        for (;;) {
            const auto n = ::write(fd, block.data(), block.size());
            if (n <= 0) break;
            written += static_cast<std::size_t>(n);
        }
        ::close(fd);
        return written;
    }
    // Removes the filler files: the room is back.
    void free_room() {
        for (int i = 0; i < fillers_; ++i)
            ::unlink((dir_ + "/filler-" + std::to_string(i)).c_str());
        fillers_ = 0;
    }

  private:
    std::string dir_;
    std::string why_;
    bool mounted_ = false;
    int fillers_ = 0;
};

// False, with the line ctest looks for, when the disk could not be mounted.
bool usable(const SmallDisk& disk) {
    if (disk.mounted()) return true;
    std::cout << "SKIPPED: cannot mount a tmpfs (" << disk.why() << "); run as root to test "
              << "full disks\n";
    return false;
}

std::vector<std::string> args_for(const SmallDisk& disk) {
    std::vector<std::string> args = kFast;
    args.insert(args.end(), {"--database", disk.database()});
    return args;
}

Json healthz(const ServerProcess& server, int& status) {
    const auto [code, body] = server.get("/healthz");
    status = code;
    return Json::parse(body, nullptr, false);
}

}  // namespace

TEST_CASE("storage: on a full disk a move is refused, the followers stay, and all goes on",
          "[server][storage]") {
    SmallDisk disk(16);
    if (!usable(disk)) return;
    ServerProcess server(args_for(disk));
    Follower ann(server.port(), "Ann"), bob(server.port(), "Bob"), carl(server.port(), "Carl");
    const std::string table = create(ann, create_request(options(2)));
    sit(bob, table);
    carl.follow(table);
    REQUIRE(carl.request(carl.about_table("watch")));
    start(ann, {&ann, &bob, &carl});
    Game game{{&ann, &bob, &carl}};
    for (int i = 0; i < 4; ++i)
        game.move(ann.my_turn() ? ann : bob);
    int status = 0;
    CHECK(healthz(server, status)["status"] == "ok");
    CHECK(status == 200);

    // An empty log, then a full disk: the next move cannot be stored.
    disk.checkpoint();
    disk.fill();
    Follower* mover = ann.my_turn() ? &ann : &bob;
    const std::string text = mover->view["moves"][0];
    const std::string move_id = "on-a-full-disk";
    const auto refused = ask(*mover->client, move_request(*mover, text, move_id), 900);
    check_error(refused, "storage_failed", 900, table);
    CHECK((*refused)["move_id"] == move_id);
    const std::uint64_t version = ann.version;

    // Every follower gets the table as stored: a snapshot at the version before the move.
    for (Follower* follower : {&ann, &bob, &carl}) {
        INFO(follower->name);
        const auto snapshot = follower->client->wait_for(of_type("snapshot", table));
        REQUIRE(snapshot);
        follower->absorb(*snapshot);
        CHECK(follower->version == version);
    }
    const Json failing = healthz(server, status);
    CHECK(status == 503);
    CHECK(failing["status"] == "storage_failing");
    CHECK(failing["failures"].get<int>() >= 1);
    CHECK_FALSE(failing["error"].get<std::string>().empty());
    CHECK(metric(server, "gcor_store_failing") == 1);
    CHECK(metric(server, "gcor_store_failures_total") >= 1);

    // Room again: the same move is stored, and every follower gets its patch.
    disk.free_room();
    const auto stored = mover->request(move_request(*mover, text, move_id));
    REQUIRE(stored);
    INFO(stored->dump());
    REQUIRE(acknowledges(*stored, move_id));
    mover->absorb(*stored);
    for (Follower* follower : {&ann, &bob, &carl})
        follower->catch_up(version + 1);
    CHECK(healthz(server, status)["status"] == "ok");
    CHECK(status == 200);
    CHECK(metric(server, "gcor_store_failing") == 0);
    for (int i = 0; i < 4; ++i)
        game.move(ann.my_turn() ? ann : bob);
    CHECK(carl.version == ann.version);
}

namespace {

// Plays a 4-player game of four guests on an 8 MiB disk that another file fills after 10 moves,
// as a disk fills in production: nothing empties the write-ahead log first. With
// `backup_reader`, a reader of its own (as a backup tool) holds a snapshot meanwhile, so the
// log cannot start over. Every move is answered within a bound, stored or refused with
// storage_failed; a sync sent beside it and whatever needs no write are answered at once.
void play_while_the_disk_fills(bool backup_reader) {
    SmallDisk disk(8);
    if (!usable(disk)) return;
    ServerProcess server(args_for(disk));
    std::vector<std::unique_ptr<Follower>> players;
    for (const char* name : {"Ann", "Bob", "Cy", "Di"})
        players.push_back(std::make_unique<Follower>(server.port(), name));
    const std::string table = create(*players[0], create_request(options(4, "publisher")));
    for (int seat = 1; seat < 4; ++seat)
        sit(*players[static_cast<std::size_t>(seat)], table, seat);
    const std::vector<Follower*> everyone = pointers(players);
    start(*players[0], everyone);
    Game game{everyone};
    REQUIRE_FALSE(game.play([&] { return game.moves == 10; }));
    Follower lobby_user(server.port(), "Eve");  // needs nothing of the table

    std::optional<SQLite::Database> backup;
    std::optional<SQLite::Transaction> snapshot_held;
    if (backup_reader) {
        backup.emplace(disk.database(), SQLite::OPEN_READONLY);
        snapshot_held.emplace(*backup, SQLite::TransactionBehavior::DEFERRED);
        REQUIRE(backup->execAndGet("SELECT count(*) FROM moves").getInt() > 0);
    }
    disk.fill();
    // Generous for a loaded machine under sanitizers; a write that waited for the reader
    // (5 s, the store's lock timeout) or for the writes queued before it would miss it.
    constexpr auto kAnswerWithin = 3s;
    int stored = 0;
    int refused = 0;
    for (int attempt = 0; attempt < 400 && refused < 10; ++attempt) {
        INFO("attempt " << attempt << ", " << stored << " stored, " << refused << " refused");
        Follower* mover = nullptr;
        for (Follower* player : everyone)
            if (player->my_turn()) mover = player;
        REQUIRE(mover != nullptr);
        Follower& other = mover == players[1].get() ? *players[2] : *players[1];
        const std::string text = mover->view["moves"][0];
        const std::string move_id = "full-" + std::to_string(attempt);
        const Json move_id_json = 1000 + attempt;
        const Json sync_id = 2000 + attempt;
        Json move = move_request(*mover, text, move_id);
        move["id"] = move_id_json;
        mover->client->send(move);
        Json sync = other.about_table("sync");
        sync["id"] = sync_id;
        other.client->send(sync);

        const auto reply = mover->client->wait_for(
            [&](const Json& message) { return message.value("id", Json()) == move_id_json; },
            kAnswerWithin);
        REQUIRE(reply);
        const auto synced = other.client->wait_for(
            [&](const Json& message) { return message.value("id", Json()) == sync_id; },
            kAnswerWithin);
        REQUIRE(synced);
        CHECK(type_of(*synced) == "snapshot");
        if (acknowledges(*reply, move_id)) {
            ++stored;
            mover->absorb(*reply);
            for (Follower* follower : everyone)
                follower->catch_up((*reply)["to"]);
            continue;
        }
        check_error(reply, "storage_failed", move_id_json, table);
        CHECK((*reply)["move_id"] == move_id);
        ++refused;
        // The followers get the table as stored, at its version before the move.
        const std::uint64_t version = mover->version;
        for (Follower* follower : everyone) {
            INFO(follower->name);
            const auto resent = follower->client->wait_for(
                [&](const Json& message) {
                    return type_of(message) == "snapshot" && table_of(message) == table &&
                           !message.contains("id");
                },
                kAnswerWithin);
            REQUIRE(resent);
            follower->absorb(*resent);
            CHECK(follower->version == version);
        }
        // The lobby and the health check answer as ever.
        const auto listed =
            ask(*lobby_user.client, Json{{"type", "list_tables"}}, 3000 + attempt, kAnswerWithin);
        REQUIRE(listed);
        CHECK(type_of(*listed) != "error");
        int status = 0;
        healthz(server, status);
        CHECK(status == 503);
    }
    INFO(stored << " moves stored, " << refused << " refused after the disk filled");
    CHECK(refused == 10);
    if (backup_reader) CHECK(stored == 0);  // the log could not start over

    // Room again: play resumes where it stood.
    snapshot_held.reset();
    backup.reset();
    disk.free_room();
    const std::uint64_t version = players[0]->version;
    const int moves_before = game.moves;
    REQUIRE_FALSE(game.play([&] { return game.moves == moves_before + 4; }));
    CHECK(players[0]->version >= version + 4);
    int status = 0;
    CHECK(healthz(server, status)["status"] == "ok");
    CHECK(status == 200);
}

}  // namespace

TEST_CASE("storage: a disk that fills while the log holds pages answers every request in time",
          "[server][storage]") {
    play_while_the_disk_fills(false);
}

TEST_CASE("storage: a full disk answers in time while a backup holds a snapshot of the log",
          "[server][storage]") {
    play_while_the_disk_fills(true);
}

TEST_CASE("storage: health recovers without traffic once the disk has room", "[server][storage]") {
    SmallDisk disk(16);
    if (!usable(disk)) return;
    ServerProcess server(args_for(disk));
    // Guests are stored: with an empty log and a full disk, one cannot be.
    disk.checkpoint();
    disk.fill();
    Client guest(server.port());
    const auto reply = guest.request(Json{{"type", "hello"}, {"name", "Guest"}});
    REQUIRE(reply);
    CHECK(type_of(*reply) == "error");
    CHECK((*reply)["code"] == "storage_failed");
    int status = 0;
    healthz(server, status);
    CHECK(status == 503);
    disk.free_room();
    // Nobody writes: the store's own probe (every 5 s) finds the room.
    for (int i = 0; i < 100 && status != 200; ++i) {
        std::this_thread::sleep_for(100ms);
        healthz(server, status);
    }
    CHECK(status == 200);
}

TEST_CASE("storage: a disk smaller than the write-ahead log's checkpoint interval keeps working",
          "[server][storage]") {
    // The log is checkpointed every 4,000 pages (16 MiB); this disk has room for a third of it.
    SmallDisk disk(6);
    if (!usable(disk)) return;
    Json last;
    {
        ServerProcess server(args_for(disk));
        // Each guest is a commit of a few pages: 1,500 of them write more log than the disk holds.
        for (int i = 0; i < 1500; ++i) {
            Client guest(server.port());
            const auto reply = guest.request(Json{{"type", "hello"}, {"name", "Guest"}});
            REQUIRE(reply);
            INFO("guest " << i << ": " << reply->dump());
            REQUIRE(type_of(*reply) == "welcome");
            last = *reply;
        }
        CHECK(metric(server, "gcor_store_failures_total") == 0);
    }
    // And the database opens again with everything in it.
    ServerProcess again(args_for(disk));
    Client back(again.port());
    const auto welcome = back.request(Json{{"type", "hello"}, {"token", last["token"]}});
    REQUIRE(welcome);
    CHECK((*welcome)["user"] == last["user"]);
}

}  // namespace gcor::testing
