// The store through the real server: restarts (graceful and kill -9), tokens across restarts,
// duplicate move ids, tables unloaded and loaded again, time control, fair-play records.
#include <stdlib.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "gcor/protocol/game_json.hpp"
#include "postgres_support.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

// A two-player table of two test clients, started.
struct TwoPlayers {
    std::unique_ptr<Follower> ann, bob;
    std::string table;
    std::string commitment;

    explicit TwoPlayers(std::uint16_t port, const Json& extra = Json::object()) {
        ann = std::make_unique<Follower>(port, "Ann");
        bob = std::make_unique<Follower>(port, "Bob");
        table = create(*ann, create_request(options(2), {}, extra));
        sit(*bob, table);
        const auto started = ann->request(ann->about_table("start"));
        REQUIRE(started);
        REQUIRE(type_of(*started) == "started");
        commitment = (*started)["commitment"];
        ann->catch_up(0);
        bob->catch_up(0);
    }
    std::vector<Follower*> both() { return {ann.get(), bob.get()}; }
    Follower& to_act() { return ann->my_turn() ? *ann : *bob; }
};

Json parse(const std::string& text) {
    return Json::parse(text);
}

std::optional<Json> my_game(Client& client, const std::string& table) {
    const auto mine = client.request(Json{{"type", "my_games"}});
    REQUIRE(mine);
    REQUIRE(type_of(*mine) == "my_games");
    for (const Json& game : (*mine)["games"])
        if (game["id"] == table) return game;
    return std::nullopt;
}

// The record after the end, checked as `cor replay` checks it: the seed matches the commitment
// published at the start, and the moves replay to the scores the players saw.
void check_record(const ServerProcess& server, const std::string& table,
                  const std::string& commitment, const Json& final_view) {
    const auto [status, body] = server.get("/api/tables/" + table + "/record");
    REQUIRE(status == 200);
    const Json record = parse(body);
    CHECK(record["commitment"] == commitment);
    const auto parsed = protocol::parse_record(record);
    REQUIRE(parsed);
    CHECK(protocol::commitment_holds(*parsed));
    CHECK(protocol::seed_commitment(parsed->seed, *parsed->nonce) == commitment);
    const protocol::Replay replayed = protocol::replay(*parsed);
    REQUIRE_FALSE(replayed.refused_index);
    CHECK(replayed.state.over());
    CHECK(plain(protocol::result_to_json(replayed.state)["scores"]) ==
          plain(final_view["result"]["scores"]));
    protocol::GameRecord forged = *parsed;
    forged.seed += 1;
    CHECK_FALSE(protocol::commitment_holds(forged));
}

// A fresh database on the test process's PostgreSQL server, for the server processes of one test.
struct PostgresDatabase {
    std::string url = PostgresServer::shared().create_database();
    std::vector<std::string> args() const {
        std::vector<std::string> result = kFast;
        result.insert(result.end(), {"--database", url});
        return result;
    }
};

// A game played to its end over a restart of the server, which `args` start.
void game_over_a_restart(const std::vector<std::string>& args) {
    auto server = std::make_unique<ServerProcess>(args);
    TwoPlayers game(server->port());
    // Before the end the record is only what is public: no seed, no moves.
    const Json early = parse(server->get("/api/tables/" + game.table + "/record").second);
    CHECK(early["status"] == "playing");
    CHECK(early["commitment"] == game.commitment);
    CHECK_FALSE(early.contains("seed"));
    CHECK_FALSE(early.contains("moves"));

    Game play{game.both()};
    REQUIRE_FALSE(play.play([&] { return play.moves == 25; }));
    Follower& last = game.to_act();
    const Json view_before = game.ann->view;
    const std::uint64_t version = game.ann->version;
    // The move the next player is about to make, sent again after the restart.
    const std::string text = last.view["moves"][0];
    const auto patch = last.request(move_request(last, text, "before-restart"));
    REQUIRE(patch);
    REQUIRE(acknowledges(*patch, "before-restart"));
    CHECK(server->stop() == 0);

    server = std::make_unique<ServerProcess>(args);
    game.ann->reconnect(server->port());
    game.bob->reconnect(server->port());
    CHECK(game.ann->version == version + 1);
    CHECK(game.bob->version == version + 1);
    // The same move id again after the restart: the same ack, nothing applied twice.
    const auto again = last.request(move_request(last, text, "before-restart", version));
    REQUIRE(again);
    CHECK(type_of(*again) == "ack");
    CHECK((*again)["move_id"] == "before-restart");
    CHECK((*again)["version"] == (*patch)["to"]);
    CHECK(sync(*game.bob)["version"] == version + 1);
    CHECK(plain(view_before) != plain(game.ann->view));

    REQUIRE(play.play());
    check_final(*game.ann);
    check_final(*game.bob);
    const auto mine = my_game(*game.ann->client, game.table);
    REQUIRE(mine);
    CHECK((*mine)["status"] == "finished");
    check_record(*server, game.table, game.commitment, game.ann->view);
}

TEST_CASE("store: a game goes on after a restart, players resume with their tokens", "[store]") {
    game_over_a_restart(Database().args());
}

TEST_CASE("store: on PostgreSQL, a whole game is served, and goes on after a restart",
          "[store][postgres]") {
    game_over_a_restart(PostgresDatabase().args());
}

// Moves in flight on many tables when the server (which `args` start) is killed: every
// acknowledged move is there after the restart.
void kill_during_a_burst(const std::vector<std::string>& args) {
    auto server = std::make_unique<ServerProcess>(args);
    constexpr int kTables = 6;
    std::vector<std::unique_ptr<TwoPlayers>> tables;
    for (int i = 0; i < kTables; ++i)
        tables.push_back(std::make_unique<TwoPlayers>(server->port()));
    std::vector<std::vector<std::string>> sent(kTables);  // move texts, by version - 1
    std::vector<std::uint64_t> acked(kTables, 0);
    Rng rng{42};

    // Every table has a move in flight at once; the last round is cut by kill -9.
    constexpr int kRounds = 12;
    for (int round = 0; round < kRounds; ++round) {
        std::vector<Follower*> movers;
        for (int t = 0; t < kTables; ++t) {
            Follower& mover = tables[t]->to_act();
            const Json& legal = mover.view["moves"];
            REQUIRE_FALSE(legal.empty());
            const std::string text = legal[rng.below(legal.size())];
            mover.client->send(move_request(mover, text, "m" + std::to_string(round)));
            sent[t].push_back(text);
            movers.push_back(&mover);
        }
        if (round == kRounds - 1) {
            server->kill_hard();
            for (int t = 0; t < kTables; ++t)
                while (const auto message = movers[t]->client->receive(200ms))
                    if (acknowledges(*message, "m" + std::to_string(round)))
                        acked[t] = std::max<std::uint64_t>(acked[t], (*message)["to"]);
            break;
        }
        for (int t = 0; t < kTables; ++t) {
            const std::string move_id = "m" + std::to_string(round);
            const auto patch = movers[t]->client->wait_for(
                [&](const Json& message) { return acknowledges(message, move_id); });
            REQUIRE(patch);
            movers[t]->absorb(*patch);
            acked[t] = (*patch)["to"];
            for (Follower* follower : tables[t]->both())
                follower->catch_up(acked[t]);
        }
    }

    server = std::make_unique<ServerProcess>(args);
    for (int t = 0; t < kTables; ++t) {
        INFO("table " << t << ": acknowledged " << acked[t] << ", sent " << sent[t].size());
        CHECK(acked[t] >= kRounds - 1);
        for (Follower* follower : tables[t]->both())
            follower->reconnect(server->port());
        const std::uint64_t version = tables[t]->ann->version;
        CHECK(version >= acked[t]);
        CHECK(version <= sent[t].size());
        sent[t].resize(version);
        // Play on to the end; the record then shows every stored move as it was sent.
        Game rest{tables[t]->both(), Rng{static_cast<std::uint64_t>(t + 1)}};
        REQUIRE(rest.play());
        const Json record =
            parse(server->get("/api/tables/" + tables[t]->table + "/record").second);
        REQUIRE(record["moves"].size() >= version);
        for (std::size_t i = 0; i < version; ++i)
            CHECK(record["moves"][i] == sent[t][i]);
    }
}

TEST_CASE("store: kill -9 during a burst of moves from many tables loses no acknowledged move",
          "[store]") {
    kill_during_a_burst(Database().args());
}

TEST_CASE("store: on PostgreSQL, kill -9 during a burst of moves loses no acknowledged move",
          "[store][postgres]") {
    kill_during_a_burst(PostgresDatabase().args());
}

// Runs cor-server with `args` to its end: its exit status (-1 when it had to be stopped).
int run_cor_server(std::vector<std::string> args) {
    args.insert(args.begin(), COR_SERVER_PATH);
    support::ChildProcess process(std::move(args));
    for (int waited = 0; waited < 60'000 && process.running(); waited += 10)
        std::this_thread::sleep_for(10ms);
    return process.stop();
}

TEST_CASE("store: --copy-database moves a site from SQLite to PostgreSQL, where its games go on",
          "[store][postgres]") {
    Database sqlite;
    PostgresDatabase postgres;
    auto server = std::make_unique<ServerProcess>(sqlite.args());
    TwoPlayers game(server->port());
    Game play{game.both()};
    REQUIRE_FALSE(play.play([&] { return play.moves == 12; }));
    const std::uint64_t version = game.ann->version;
    const Json preferences{{"confirm_turn", false}};
    REQUIRE(api_body(server->post("/api/preferences", preferences.dump(), game.bob->token)) ==
            preferences);
    CHECK(server->stop() == 0);

    const std::string file = sqlite.dir + "/cor.db";
    CHECK(run_cor_server({"--copy-database", file, postgres.url}) == 0);
    // Never into a database that holds something, and never from a file that is not there.
    CHECK(run_cor_server({"--copy-database", file, postgres.url}) == 1);
    CHECK(run_cor_server({"--copy-database", sqlite.dir + "/none.db", postgres.url}) == 1);
    CHECK_FALSE(std::filesystem::exists(sqlite.dir + "/none.db"));

    // The players' sessions came along: they reconnect with their tokens and finish the game.
    server = std::make_unique<ServerProcess>(postgres.args());
    game.ann->reconnect(server->port());
    game.bob->reconnect(server->port());
    CHECK(game.ann->version == version);
    CHECK(game.bob->version == version);
    CHECK(api_body(server->get("/api/preferences", game.bob->token)) == preferences);
    REQUIRE(play.play());
    check_final(*game.ann);
    check_final(*game.bob);
}

TEST_CASE("store: cor-server stops with an error when its PostgreSQL database cannot be reached",
          "[store][postgres]") {
    // Port 1 on loopback: nobody listens there.
    CHECK(run_cor_server({"--port", "0", "--database", "postgresql://gcor:pw@127.0.0.1:1/gcor"}) ==
          1);
    CHECK(run_cor_server({"--port", "0", "--database", "postgresql://127.0.0.1:port/gcor"}) == 1);
}

TEST_CASE("store: two connections moving for one seat at once, one move is applied", "[store]") {
    Database db;
    ServerProcess server(db.args());
    TwoPlayers game(server.port());
    Follower& mover = game.to_act();
    Client twin(server.port());
    REQUIRE(type_of(*twin.request(Json{{"type", "hello"}, {"token", mover.token}})) == "welcome");
    const std::string first = mover.view["moves"][0];
    const std::string last = mover.view["moves"].back();
    mover.client->send(move_request(mover, first, "one"));
    twin.send(move_request(mover, last, "two"));
    const auto one = mover.client->wait_for(
        [](const Json& m) { return acknowledges(m, "one") || type_of(m) == "error"; });
    const auto two = twin.wait_for(
        [](const Json& m) { return acknowledges(m, "two") || type_of(m) == "error"; });
    REQUIRE(one);
    REQUIRE(two);
    INFO(one->dump() << " / " << two->dump());
    CHECK((type_of(*one) == "patch") != (type_of(*two) == "patch"));
    const Json& refused = type_of(*one) == "patch" ? *two : *one;
    CHECK(refused["code"] == "stale_version");
    CHECK(sync(*game.ann)["version"] == 1);
}

TEST_CASE("store: a table nobody follows leaves memory and is loaded again on demand", "[store]") {
    Database db;
    ServerProcess server(db.args({"--unload-after", "1"}));
    TwoPlayers game(server.port());
    Game play{game.both()};
    REQUIRE_FALSE(play.play([&] { return play.moves == 10; }));
    const std::uint64_t version = game.ann->version;
    game.ann->client.reset();  // both disconnect
    game.bob->client.reset();
    auto playing_tables = [&] {
        const std::string metrics = server.get("/metrics").second;
        const std::string key = "gcor_tables{state=\"playing\"} ";
        const auto at = metrics.find(key);
        REQUIRE(at != std::string::npos);
        return std::stol(metrics.substr(at + key.size()));
    };
    bool unloaded = false;
    for (int i = 0; i < 100 && !unloaded; ++i) {
        unloaded = playing_tables() == 0;
        if (!unloaded) std::this_thread::sleep_for(50ms);
    }
    CHECK(unloaded);
    game.ann->reconnect(server.port());
    CHECK(game.ann->version == version);
    CHECK(playing_tables() == 1);
    game.bob->reconnect(server.port());
    REQUIRE(play.play());
    check_final(*game.ann);
}

// A tiny HTTP receiver for webhook calls, on a loopback port of its own.
class HookReceiver {
  public:
    HookReceiver() : acceptor_(io_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
        thread_ = std::thread([this] {
            while (true) {
                boost::beast::error_code ec;
                boost::asio::ip::tcp::socket socket(io_);
                acceptor_.accept(socket, ec);
                if (ec || stopping_) return;
                boost::beast::flat_buffer buffer;
                boost::beast::http::request<boost::beast::http::string_body> request;
                boost::beast::http::read(socket, buffer, request, ec);
                if (ec) continue;
                {
                    std::lock_guard lock(mutex_);
                    bodies_.push_back(request.body());
                }
                boost::beast::http::response<boost::beast::http::string_body> response{
                    boost::beast::http::status::ok, 11};
                response.prepare_payload();
                boost::beast::http::write(socket, response, ec);
            }
        });
    }
    ~HookReceiver() {
        stopping_ = true;
        boost::beast::error_code ec;
        boost::asio::ip::tcp::socket poke(io_);
        poke.connect(acceptor_.local_endpoint(), ec);
        thread_.join();
    }
    std::string url() const {
        return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + "/hook";
    }
    // The bodies received so far, waiting up to `timeout` for at least `count`.
    std::vector<std::string> bodies(std::size_t count, std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            {
                std::lock_guard lock(mutex_);
                if (bodies_.size() >= count) return bodies_;
            }
            std::this_thread::sleep_for(10ms);
        }
        std::lock_guard lock(mutex_);
        return bodies_;
    }

  private:
    boost::asio::io_context io_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
    std::mutex mutex_;
    std::vector<std::string> bodies_;
};

TEST_CASE("accounts: register, log in, log out, and bad names, passwords and tokens",
          "[accounts]") {
    Database db;
    ServerProcess server(db.args());
    auto body = [](const std::string& name, const std::string& password) {
        return Json{{"name", name}, {"password", password}}.dump();
    };
    auto code_of = [](const std::pair<int, std::string>& reply) {
        return parse(reply.second)["code"].get<std::string>();
    };
    const auto made = server.post("/api/register", body("Livia", "aqueducts-forever"));
    REQUIRE(made.first == 201);
    const Json session = parse(made.second);
    CHECK(session["user"]["name"] == "Livia");
    CHECK(session["token"].get<std::string>().size() == 64);
    CHECK(session["expires"].get<std::int64_t>() > 0);

    SECTION("names are unique, case-insensitively") {
        const auto taken = server.post("/api/register", body("livia", "another-password"));
        CHECK(taken.first == 409);
        CHECK(code_of(taken) == "name_taken");
    }
    SECTION("malformed names and passwords are refused") {
        for (const std::string& name :
             {std::string(33, 'a'), std::string("ab"), std::string("a b"), std::string("-dash"),
              std::string("Lívia"), std::string("")}) {
            INFO(name);
            const auto refused = server.post("/api/register", body(name, "long enough pw"));
            CHECK(refused.first == 400);
            CHECK(code_of(refused) == "bad_field");
        }
        CHECK(code_of(server.post("/api/register", body("Marcus", "short"))) == "bad_field");
        CHECK(code_of(server.post("/api/register", "{not json")) == "bad_json");
        // Members as the WebSocket protocol reads them: of the wrong type, unknown, or given
        // twice (where the last one would otherwise win silently).
        CHECK(code_of(server.post("/api/register", R"({"name":"Marcus","password":7})")) ==
              "bad_field");
        CHECK(code_of(server.post("/api/register", R"({"name":"Marcus","extra":"x"})")) ==
              "bad_field");
        const auto twice = server.post(
            "/api/register", R"({"name":"Marcus","name":"Brutus","password":"long enough pw"})");
        CHECK(twice.first == 400);
        CHECK(code_of(twice) == "bad_field");
        CHECK(code_of(server.post("/api/login", body("Brutus", "long enough pw"))) ==
              "bad_credentials");
    }
    SECTION("a wrong password or an unknown name is refused the same way") {
        const auto wrong = server.post("/api/login", body("Livia", "not-her-password"));
        CHECK(wrong.first == 401);
        CHECK(code_of(wrong) == "bad_credentials");
        const auto unknown = server.post("/api/login", body("Nobody", "not-her-password"));
        CHECK(unknown.first == 401);
        CHECK(parse(unknown.second)["message"] == parse(wrong.second)["message"]);
    }
    SECTION("a login's token says hello, and stops working after logout") {
        const auto login = server.post("/api/login", body("LIVIA", "aqueducts-forever"));
        REQUIRE(login.first == 200);
        const std::string token = parse(login.second)["token"];
        CHECK(token != session["token"]);
        Client client(server.port());
        const auto welcome = client.request(Json{{"type", "hello"}, {"token", token}});
        REQUIRE(welcome);
        CHECK((*welcome)["user"] == session["user"]);
        CHECK(server.post("/api/logout", "", token).first == 200);
        Client after(server.port());
        check_error(ask(after, Json{{"type", "hello"}, {"token", token}}, 7), "bad_token", 7);
        CHECK(code_of(server.post("/api/logout", "", token)) == "bad_token");
        // The other session of the same user still works.
        Client other(server.port());
        CHECK(type_of(*other.request(Json{{"type", "hello"}, {"token", session["token"]}})) ==
              "welcome");
    }
    SECTION("unknown tokens are refused") {
        Client client(server.port());
        check_error(ask(client, Json{{"type", "hello"}, {"token", std::string(64, 'f')}}, 8),
                    "bad_token", 8);
        CHECK(code_of(server.post("/api/webhook", R"({"url":""})", "nonsense")) == "bad_token");
    }
    SECTION("webhook URLs are checked") {
        const std::string token = session["token"];
        CHECK(code_of(server.post("/api/webhook", R"({"url":"ftp://x"})", token)) == "bad_field");
        CHECK(code_of(server.post("/api/webhook", R"({"url":"https://x.example/"})", token)) ==
              "bad_field");
        CHECK(server.post("/api/webhook", R"({"url":"http://127.0.0.1:9/x"})", token).first == 200);
        // Read back (the settings page shows it); a refused URL changed nothing.
        const auto [status, hook] = server.get("/api/webhook", token);
        CHECK(status == 200);
        CHECK(Json::parse(hook) == Json{{"webhook", "http://127.0.0.1:9/x"}});
        CHECK(code_of(server.get("/api/webhook", "nonsense")) == "bad_token");
        CHECK(server.post("/api/webhook", R"({"url":""})", token).first == 200);
        CHECK(Json::parse(server.get("/api/webhook", token).second) == Json{{"webhook", ""}});
    }
    SECTION("tokens survive a restart") {
        server.stop();
        ServerProcess again(db.args());
        Client client(again.port());
        const auto welcome = client.request(Json{{"type", "hello"}, {"token", session["token"]}});
        REQUIRE(welcome);
        CHECK((*welcome)["user"] == session["user"]);
    }
}

TEST_CASE("async play: my games, your_turn notices and the webhook", "[async]") {
    Database db;
    ServerProcess server(db.args({"--webhooks-to-private"}));
    HookReceiver hook;
    const auto made = server.post("/api/register",
                                  Json{{"name", "Cassia"}, {"password", "correspondence"}}.dump());
    REQUIRE(made.first == 201);
    const std::string token = parse(made.second)["token"];
    REQUIRE(server.post("/api/webhook", Json{{"url", hook.url()}}.dump(), token).first == 200);

    Follower cassia(server.port(), token, Follower::with_token);
    Client elsewhere(server.port());  // a second connection of hers, following nothing
    elsewhere.keep_turn_notices = true;
    REQUIRE(type_of(*elsewhere.request(Json{{"type", "hello"}, {"token", token}})) == "welcome");
    Follower titus(server.port(), "Titus");
    const std::string table = create(
        titus, create_request(options(2), {},
                              Json{{"time_control", {{"kind", "correspondence"}, {"days", 3}}}}));
    sit(cassia, table);
    REQUIRE(type_of(*titus.request(titus.about_table("start"))) == "started");
    titus.catch_up(0);
    cassia.catch_up(0);
    // Play until it becomes Cassia's turn after Titus moved.
    Game play{{&titus, &cassia}};
    while (!cassia.my_turn())
        play.move(titus);
    const auto notice = elsewhere.wait_for(of_type("your_turn", table));
    REQUIRE(notice);
    CHECK((*notice)["seat"] == *cassia.seat);
    const auto deadline = (*notice)["deadline"].get<std::int64_t>();
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    CHECK(deadline > now + 2 * 86'400'000);
    CHECK(deadline <= now + 3 * 86'400'000);
    const auto mine = my_game(*cassia.client, table);
    REQUIRE(mine);
    CHECK((*mine)["your_turn"] == true);
    CHECK((*mine)["seat"] == *cassia.seat);
    CHECK((*mine)["deadline"] == deadline);
    // Her connection that follows the table saw the turn in its patch: no notice there.
    CHECK(std::ranges::none_of(cassia.client->received_texts, [](const std::string& text) {
        return text.find(R"("type":"your_turn")") != std::string::npos;
    }));
    const auto theirs = my_game(*titus.client, table);
    REQUIRE(theirs);
    CHECK((*theirs)["your_turn"] == false);
    const auto bodies = hook.bodies(1, 5s);
    REQUIRE_FALSE(bodies.empty());
    const Json called = parse(bodies.back());
    CHECK(called["type"] == "your_turn");
    CHECK(called["table"] == table);
}

// Waits until `follower` has seen version `version` (bots and timeouts move by themselves).
void wait_version(Follower& follower, std::uint64_t version, std::chrono::seconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (follower.version < version && std::chrono::steady_clock::now() < deadline)
        follower.next(200ms);
    REQUIRE(follower.version >= version);
}

TEST_CASE("time control: a bot moves for a seat out of time, also when the server was down",
          "[time]") {
    Database db;
    const auto fast_sweep = db.args({"--deadline-sweep-ms", "50"});
    auto server = std::make_unique<ServerProcess>(fast_sweep);
    const Json clock{
        {"time_control", {{"kind", "realtime"}, {"seconds", 1}, {"on_timeout", "bot"}}}};
    TwoPlayers game(server->port(), clock);
    CHECK(sync(*game.ann)["version"] == 0);
    // Nobody moves: within the second (and a sweep), a bot moves for the seat to act.
    wait_version(*game.ann, 1, 5s);
    wait_version(*game.bob, 1, 5s);

    // The server stops with a deadline pending and starts after it passed.
    const std::uint64_t at_stop = sync(*game.ann)["version"];
    CHECK(server->stop() == 0);
    std::this_thread::sleep_for(1500ms);
    server = std::make_unique<ServerProcess>(fast_sweep);
    game.ann->reconnect(server->port());
    wait_version(*game.ann, at_stop + 1, 5s);
    const Json record = parse(server->get("/api/tables/" + game.table + "/record").second);
    CHECK(record["version"].get<std::uint64_t>() > at_stop);
}

TEST_CASE("time control: a seat out of time forfeits, a bot finishes its game, it cannot win",
          "[time]") {
    Database db;
    // The forfeited seat is played by the strong bot: a short think keeps the test quick.
    ServerProcess server(db.args({"--deadline-sweep-ms", "50", "--bot-ms", "5"}));
    Follower ann(server.port(), "Ann");
    const std::string table = create(
        ann,
        create_request(options(2), {nullptr, "greedy"},
                       Json{{"time_control",
                             {{"kind", "realtime"}, {"seconds", 1}, {"on_timeout", "forfeit"}}}}));
    REQUIRE(type_of(*ann.request(ann.about_table("start"))) == "started");
    const auto forfeited = ann.client->wait_for(of_type("forfeited", table), 10s);
    REQUIRE(forfeited);
    CHECK((*forfeited)["seat"] == 0);
    // Bots play both seats to the end.
    std::optional<Json> game;
    for (int i = 0; i < 200; ++i) {
        game = my_game(*ann.client, table);
        REQUIRE(game);
        if ((*game)["status"] == "finished") break;
        std::this_thread::sleep_for(50ms);
    }
    REQUIRE((*game)["status"] == "finished");
    CHECK((*game)["seats"][0]["forfeited"] == true);
    CHECK((*game)["result"]["forfeited"] == Json::array({0}));
    CHECK((*game)["result"]["winners"] == Json::array({1}));
    const Json record = parse(server.get("/api/tables/" + table + "/record").second);
    const auto parsed = protocol::parse_record(record);
    REQUIRE(parsed);
    CHECK(parsed->forfeited == 1);
    const auto replayed = protocol::replay(*parsed);
    REQUIRE_FALSE(replayed.refused_index);
    CHECK(replayed.state.winners() == std::vector<engine::Seat>{1});
}

}  // namespace
}  // namespace gcor::testing
