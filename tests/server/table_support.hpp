#pragma once
// Test clients that follow tables (snapshots and patches), and the steps of a game: create, sit,
// start, move, sync. Shared by the server tests.
#include <stdlib.h>

#include <sys/wait.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gcor/engine/rng.hpp"
#include "server_support.hpp"

namespace gcor::testing {

// The table a message is about: "table" is an id, or a summary with an id.
inline std::string table_of(const Json& message) {
    if (!message.is_object()) return {};
    const auto it = message.find("table");
    if (it == message.end()) return {};
    if (it->is_string()) return it->get<std::string>();
    if (it->is_object() && it->contains("id") && (*it)["id"].is_string())
        return (*it)["id"].get<std::string>();
    return {};
}

inline std::function<bool(const Json&)> of_type(std::string type, std::string table = {}) {
    return [type = std::move(type), table = std::move(table)](const Json& message) {
        return type_of(message) == type && (table.empty() || table_of(message) == table);
    };
}

// Sends `message` with the given id and waits for the reply that carries it.
inline std::optional<Json> ask(Client& client, Json message, const Json& id,
                               std::chrono::milliseconds timeout = 5s) {
    message["id"] = id;
    client.send(message);
    return client.wait_for(
        [&](const Json& reply) {
            return reply.is_object() && reply.contains("id") && reply["id"] == id;
        },
        timeout);
}

// An HTTP API answer's body as a JSON object (the answer shown when it is not one).
inline Json api_body(const std::pair<int, std::string>& response) {
    INFO(response.second);
    const Json body = Json::parse(response.second, nullptr, false);
    REQUIRE(body.is_object());
    return body;
}

// The error code of a refused HTTP API request, checked against its HTTP status.
inline std::string api_refusal(const std::pair<int, std::string>& response, int status) {
    INFO(response.second);
    CHECK(response.first == status);
    return api_body(response).value("code", "");
}

// An error reply as docs/protocol.md describes it: its code, a message, the request's id when it
// had one (and only then), the table when one is named, a reason for illegal_move.
inline void check_error(const std::optional<Json>& reply, const std::string& code,
                        const Json& id = Json(), const std::string& table = {}) {
    INFO("expected error " << code);
    REQUIRE(reply);
    INFO("reply " << reply->dump());
    REQUIRE(type_of(*reply) == "error");
    CHECK((*reply)["code"] == code);
    REQUIRE(reply->contains("message"));
    REQUIRE((*reply)["message"].is_string());
    CHECK_FALSE((*reply)["message"].get<std::string>().empty());
    if (id.is_null()) {
        CHECK_FALSE(reply->contains("id"));
    } else {
        REQUIRE(reply->contains("id"));
        CHECK((*reply)["id"] == id);
    }
    if (!table.empty()) CHECK(table_of(*reply) == table);
    if (code == "illegal_move") {
        REQUIRE(reply->contains("reason"));
        REQUIRE((*reply)["reason"].is_string());
        CHECK_FALSE((*reply)["reason"].get<std::string>().empty());
    } else if (code != "not_your_turn") {
        CHECK_FALSE(reply->contains("reason"));
    }
}

struct Rng {
    std::uint64_t state;
    std::size_t below(std::size_t n) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return static_cast<std::size_t>(state % n);
    }
};

// A user's connection following one table by applying its snapshots and patches.
struct Follower {
    std::unique_ptr<Client> client;
    std::string name;
    std::string token;
    Json user;
    std::string table;
    std::optional<int> seat;  // nullopt: a spectator
    Json view;
    std::uint64_t version = 0;
    bool has_view = false;
    int patches = 0;
    int snapshots = 0;
    int moves_sent = 0;

    // A user who says hello with the session token `token` (from /api/login, say).
    static constexpr struct WithToken {
    } with_token{};
    Follower(std::uint16_t port, std::string token_, WithToken)
        : client(std::make_unique<Client>(port)), token(std::move(token_)) {
        const auto welcome = client->request(Json{{"type", "hello"}, {"token", token}});
        REQUIRE(welcome);
        REQUIRE(type_of(*welcome) == "welcome");
        user = (*welcome)["user"];
        name = user["name"];
    }

    Follower(std::uint16_t port, std::string who, int receive_buffer_bytes = 0)
        : client(std::make_unique<Client>(port, "/ws", receive_buffer_bytes)),
          name(std::move(who)) {
        const auto welcome = client->request(Json{{"type", "hello"}, {"name", name}});
        REQUIRE(welcome);
        REQUIRE(type_of(*welcome) == "welcome");
        token = (*welcome)["token"];
        user = (*welcome)["user"];
    }

    // Follows another table: forgets the state of the one before.
    void follow(const std::string& id) {
        if (id == table) return;
        table = id;
        view = Json();
        version = 0;
        has_view = false;
        patches = 0;
        snapshots = 0;
    }
    std::optional<Json> request(Json message) { return client->request(std::move(message)); }
    Json about_table(const std::string& type) const {
        return Json{{"type", type}, {"table", table}};
    }

    void absorb(const Json& message) {
        const std::string type = type_of(message);
        if ((type != "snapshot" && type != "patch") || table_of(message) != table) return;
        if (type == "snapshot") {
            view = message["view"];
            version = message["version"];
            has_view = true;
            ++snapshots;
            return;
        }
        INFO(name << " at version " << version << " gets " << message.dump().substr(0, 300));
        REQUIRE(has_view);
        REQUIRE(message["from"] == version);
        REQUIRE(message["to"] == version + 1);
        view = view.patch(message["ops"]);
        version = message["to"];
        ++patches;
    }
    bool next(std::chrono::milliseconds timeout = 5s) {
        const auto message = client->receive(timeout);
        if (!message) return false;
        absorb(*message);
        return true;
    }
    void catch_up(std::uint64_t target) {
        while (!has_view || version < target) {
            INFO(name << " waits for version " << target << ", has " << version);
            REQUIRE(next());
        }
    }
    bool my_turn() const { return seat && view["to_act"] == *seat; }
    // A new connection to `port` (after a restart, say) that resumes this user with its token
    // and follows its table again from a fresh snapshot.
    void reconnect(std::uint16_t port) {
        client = std::make_unique<Client>(port);
        const auto welcome = client->request(Json{{"type", "hello"}, {"token", token}});
        REQUIRE(welcome);
        INFO(welcome->dump());
        REQUIRE(type_of(*welcome) == "welcome");
        CHECK((*welcome)["user"] == user);
        has_view = false;
        const auto snapshot = client->request(Json{{"type", "sync"}, {"table", table}});
        REQUIRE(snapshot);
        INFO(snapshot->dump().substr(0, 300));
        REQUIRE(type_of(*snapshot) == "snapshot");
        absorb(*snapshot);
    }
};

inline Json options(int players, const std::string& rules = "yucata", bool shrine = false) {
    return Json{{"players", players}, {"rules", rules}, {"shrine", shrine}};
}

inline Json create_request(const Json& table_options, const std::vector<Json>& bots = {},
                           const Json& extra = Json::object()) {
    Json request{{"type", "create_table"}, {"options", table_options}};
    if (!bots.empty()) request["bots"] = bots;
    for (const auto& [key, value] : extra.items())
        request[key] = value;
    return request;
}

// Creates a table; unless the request says "sit": false the creator takes a seat.
inline std::string create(Follower& creator, const Json& request) {
    const auto created = creator.request(request);
    REQUIRE(created);
    INFO(created->dump());
    REQUIRE(type_of(*created) == "table_created");
    creator.follow((*created)["table"]["id"]);
    if (!request.contains("sit") || request["sit"] == true) {
        const auto seated = creator.client->wait_for(of_type("seated", creator.table));
        REQUIRE(seated);
        CHECK_FALSE(seated->contains("id"));  // the create_table request had the id
        creator.seat = (*seated)["seat"].get<int>();
    }
    return creator.table;
}

inline int sit(Follower& follower, const std::string& table,
               std::optional<int> seat = std::nullopt) {
    Json request{{"type", "sit"}, {"table", table}};
    if (seat) request["seat"] = *seat;
    const auto seated = follower.request(request);
    REQUIRE(seated);
    INFO(seated->dump());
    REQUIRE(type_of(*seated) == "seated");
    CHECK((*seated)["table"] == table);
    if (seat) CHECK((*seated)["seat"] == *seat);
    follower.follow(table);
    follower.seat = (*seated)["seat"].get<int>();
    return *follower.seat;
}

inline void start(Follower& starter, const std::vector<Follower*>& followers) {
    const auto started = starter.request(starter.about_table("start"));
    REQUIRE(started);
    INFO(started->dump());
    REQUIRE(type_of(*started) == "started");
    CHECK((*started)["table"] == starter.table);
    for (Follower* follower : followers)
        follower->catch_up(0);
}

inline Json sync(Follower& follower) {
    const auto snapshot = follower.request(follower.about_table("sync"));
    REQUIRE(snapshot);
    INFO(snapshot->dump().substr(0, 300));
    REQUIRE(type_of(*snapshot) == "snapshot");
    return *snapshot;
}

// The summary list_tables gives for a public table (null when not listed).
inline Json listed(Client& client, const std::string& table) {
    const auto tables = client.request(Json{{"type", "list_tables"}});
    REQUIRE(tables);
    REQUIRE(type_of(*tables) == "tables");
    for (const Json& summary : (*tables)["tables"])
        if (summary["id"] == table) return summary;
    return Json();
}

// The listing is published after a table's reply (e.g. "seated" comes first): polls until the
// summary satisfies `ready`, and returns it.
inline Json listed_when(Client& client, const std::string& table,
                        const std::function<bool(const Json&)>& ready) {
    Json summary;
    for (int attempt = 0; attempt < 200; ++attempt) {
        summary = listed(client, table);
        if (summary.is_object() && ready(summary)) break;
        std::this_thread::sleep_for(5ms);
    }
    return summary;
}

inline std::function<bool(const Json&)> seat_is(std::size_t seat, const std::string& kind) {
    return [seat, kind](const Json& summary) { return summary["seats"][seat]["kind"] == kind; };
}

inline Json move_json(const std::string& table, const Json& version, const Json& move_id,
                      const Json& move) {
    return Json{{"type", "move"},
                {"table", table},
                {"version", version},
                {"move_id", move_id},
                {"move", move}};
}

inline Json move_request(const Follower& mover, const std::string& move, const std::string& move_id,
                         std::optional<std::uint64_t> version = std::nullopt) {
    return move_json(mover.table, version ? *version : mover.version, move_id, move);
}

// Plays a table's game with test clients: the seat to act (as the first follower sees it) moves
// at random among its legal moves; bots' moves arrive as patches.
struct Game {
    std::vector<Follower*> followers;
    Rng rng{0x9e3779b97f4a7c15ull};
    int moves = 0;
    Follower* last_mover = nullptr;
    Json last_move{};  // the last move request sent

    Json move(Follower& mover) {
        const Json& legal = mover.view["moves"];
        REQUIRE_FALSE(legal.empty());
        const std::string text = legal[rng.below(legal.size())];
        const std::string move_id = mover.name + "-" + std::to_string(mover.moves_sent++);
        last_mover = &mover;
        last_move = move_request(mover, text, move_id);
        const auto patch = mover.request(last_move);
        REQUIRE(patch);
        INFO(mover.name << " moves " << text << " at version " << mover.version << ": "
                        << patch->dump());
        REQUIRE(acknowledges(*patch, move_id));
        CHECK((*patch)["table"] == mover.table);
        mover.absorb(*patch);
        const std::uint64_t version = (*patch)["to"];
        for (Follower* follower : followers)
            follower->catch_up(version);
        ++moves;
        return *patch;
    }

    // Plays until the game ends (true) or `stop` holds before a move (false).
    bool play(const std::function<bool()>& stop = {}) {
        Follower& watcher = *followers.front();
        watcher.catch_up(0);
        for (int step = 0;; ++step) {
            REQUIRE(step < 50000);
            if (!watcher.view["result"].is_null()) break;
            if (stop && stop()) return false;
            std::vector<Follower*> movers;
            for (Follower* follower : followers)
                if (follower->seat && watcher.view["to_act"] == *follower->seat)
                    movers.push_back(follower);
            if (movers.empty()) {
                // A bot is to act: its move comes as a patch.
                INFO("waiting for a bot at version " << watcher.version);
                REQUIRE(watcher.next());
                if (step % 8 == 0)
                    for (Follower* follower : followers)
                        follower->catch_up(watcher.version);
                continue;
            }
            Follower& mover = *movers[rng.below(movers.size())];
            mover.catch_up(watcher.version);
            move(mover);
        }
        for (Follower* follower : followers)
            follower->catch_up(watcher.version);
        return true;
    }
};

// At the end: a result, and the patched view is exactly the view of a fresh snapshot.
inline void check_final(Follower& follower) {
    INFO(follower.name);
    CHECK(follower.view["phase"] == "game_over");
    REQUIRE(follower.view["result"].is_object());
    CHECK(follower.view["result"]["scores"].size() == follower.view["players"].size());
    CHECK_FALSE(follower.view["result"]["winners"].empty());
    CHECK(follower.view["to_act"].is_null());
    const Json snapshot = sync(follower);
    CHECK(snapshot["version"] == follower.version);
    CHECK(snapshot["seat"] == (follower.seat ? Json(*follower.seat) : Json()));
    CHECK(snapshot["view"]["viewer"] == snapshot["seat"]);
    CHECK(plain(snapshot["view"]) == plain(follower.view));
}

// The snapshot of a table as `client`'s user sees it.
inline Json table_snapshot(Client& client, const std::string& table) {
    const auto snapshot = client.request(Json{{"type", "sync"}, {"table", table}});
    REQUIRE(snapshot);
    REQUIRE(type_of(*snapshot) == "snapshot");
    return *snapshot;
}

// Plays a started table to its end, each seat by its client in `seats` (by seat) as the random
// bot would: a legal move of its view, uniformly at random. A seat without a client is played
// by the server (a bot, or a seat that forfeited). The clients may be connected to different
// servers sharing one database.
inline void play_table_to_the_end(const std::string& table, const std::vector<Client*>& seats,
                                  engine::Rng& rng) {
    const auto first = std::find_if(seats.begin(), seats.end(), [](Client* c) { return c; });
    REQUIRE(first != seats.end());
    Client* watcher = *first;
    for (int step = 0; step < 10'000; ++step) {
        Json state = table_snapshot(*watcher, table);
        if (state["summary"]["status"] == "finished") return;
        const Json to_act = state["summary"]["to_act"];
        Client* mover = seats.at(to_act.get<std::size_t>());
        if (mover == nullptr) {
            std::this_thread::sleep_for(20ms);
            continue;
        }
        // The mover watches next: a player's turns often come in a row.
        if (mover != watcher) state = table_snapshot(*mover, table);
        watcher = mover;
        const Json& legal = state["view"]["moves"];
        // The mover's server has not caught up with the last move yet.
        if (state["summary"]["to_act"] != to_act || legal.empty()) {
            std::this_thread::sleep_for(10ms);
            continue;
        }
        const std::uint64_t version = state["version"];
        const std::string move_id = "m" + std::to_string(version);
        const auto patch = mover->request(
            Json{{"type", "move"},
                 {"table", table},
                 {"version", version},
                 {"move_id", move_id},
                 {"move", legal[rng.below(static_cast<std::uint32_t>(legal.size()))]}});
        REQUIRE(patch);
        INFO(patch->dump());
        REQUIRE(acknowledges(*patch, move_id));
    }
    FAIL("table " << table << " did not finish");
}

// Test clients move much faster than people: the default 20 messages a second would throttle them.
inline const std::vector<std::string> kFast{"--messages-per-second", "100000", "--message-burst",
                                            "100000"};

// A database folder that outlives the server processes of one test.
struct Database {
    std::string dir;
    Database() {
        char pattern[] = "/tmp/cor-store-test-XXXXXX";
        dir = mkdtemp(pattern);
    }
    ~Database() {
        std::error_code ignored;
        std::filesystem::remove_all(dir, ignored);
    }
    std::vector<std::string> args(std::vector<std::string> extra = {}) const {
        std::vector<std::string> result = kFast;
        result.insert(result.end(), {"--database", dir + "/cor.db"});
        result.insert(result.end(), extra.begin(), extra.end());
        return result;
    }
};

// Runs tests/server/schema_check.py on a file of recorded WebSocket messages (with `http`, of
// HTTP API exchanges): its exit status and output.
inline std::pair<int, std::string> schema_check(const std::string& file, bool http = false) {
    const std::string output = file + ".out";
    const std::string command = std::string("'") + GCOR_PYTHON + "' '" + GCOR_SCHEMA_CHECK + "' " +
                                (http ? "--http '" : "'") + GCOR_SCHEMA_DIR + "' '" + file +
                                "' > '" + output + "' 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(output);
    std::stringstream text;
    text << in.rdbuf();
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

struct Recording {
    std::ostringstream lines;
    std::set<std::string> sent, received, codes;

    // Every message `client` received, and (when its requests are meant to be valid) sent.
    void add(const Client& client, bool with_sent) {
        if (with_sent)
            for (const std::string& text : client.sent_texts) {
                sent.insert(type_of(Json::parse(text)));
                lines << R"({"direction":"sent","message":)" << text << "}\n";
            }
        for (const std::string& text : client.received_texts) {
            const Json message = Json::parse(text);
            received.insert(type_of(message));
            if (type_of(message) == "error") codes.insert(message["code"].get<std::string>());
            lines << R"({"direction":"received","message":)" << text << "}\n";
        }
    }
};

inline std::vector<Follower*> pointers(const std::vector<std::unique_ptr<Follower>>& followers) {
    std::vector<Follower*> result;
    for (const auto& follower : followers)
        result.push_back(follower.get());
    return result;
}

}  // namespace gcor::testing
