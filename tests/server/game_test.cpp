// Whole games through the real server: humans alone, and with bots.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "gcor/engine/game.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/view_json.hpp"
#include "server_support.hpp"

namespace gcor::testing {
namespace {

// A player's client: follows one table by applying snapshots and patches.
struct Player {
    Client client;
    std::string table;
    Json view;
    std::uint64_t version = 0;
    int patches = 0;

    explicit Player(std::uint16_t port) : client(port) {}

    // Applies every snapshot and patch of the table that has arrived.
    void absorb(const Json& message) {
        const bool state = message["type"] == "snapshot" || message["type"] == "patch";
        if (!state || message["table"] != table) return;
        if (message["type"] == "snapshot") {
            view = message["view"];
            version = message["version"];
        } else if (message["type"] == "patch") {
            REQUIRE(message["from"] == version);
            view = view.patch(message["ops"]);
            version = message["to"];
            ++patches;
        }
    }
    void drain(std::chrono::milliseconds timeout = 20ms) {
        while (auto message = client.receive(timeout))
            absorb(*message);
    }
};

// Plays seat 0's moves (its n-th move: the n-th legal one, cyclically) while the bots play the
// others, until the game ends.
void play_to_the_end(Player& ann) {
    int moves = 0;
    while (ann.view["result"].is_null()) {
        REQUIRE(moves < 1000);
        if (ann.view["to_act"] == 0 && !ann.view["moves"].empty()) {
            const Json& legal = ann.view["moves"];
            const Json move = legal[static_cast<std::size_t>(moves) % legal.size()];
            const std::string move_id = "m" + std::to_string(moves);
            const auto patch = ann.client.request(Json{{"type", "move"},
                                                       {"table", ann.table},
                                                       {"version", ann.version},
                                                       {"move_id", move_id},
                                                       {"move", move}});
            REQUIRE(patch);
            INFO(patch->dump());
            REQUIRE(acknowledges(*patch, move_id));
            ann.absorb(*patch);
            ++moves;
        }
        ann.drain();
    }
}

Json game_create_request(int players, const std::vector<Json>& bots) {
    return Json{{"type", "create_table"},
                {"options", {{"players", players}, {"rules", "yucata"}, {"shrine", true}}},
                {"bots", bots}};
}

// Walks a JSON value, checking every card id in it (members named "card", items of card lists).
void check_cards(const Json& value, const std::string& key, const std::vector<bool>& visible,
                 const std::string& context) {
    static const std::vector<std::string> kCardLists{"hand", "offer", "cards", "influence_on_table",
                                                     "influence_cards"};
    const bool card_list = std::find(kCardLists.begin(), kCardLists.end(), key) != kCardLists.end();
    if (value.is_number_unsigned() && (key == "card" || card_list)) {
        INFO(key << " " << value << " in " << context);
        CHECK(visible[value.get<std::size_t>()]);
    } else if (value.is_object()) {
        for (const auto& [child_key, child] : value.items())
            check_cards(child, child_key, visible, context);
    } else if (value.is_array()) {
        for (const Json& child : value)
            check_cards(child, card_list ? key : "", visible, context);
    }
}

TEST_CASE("server: one human and three bots play a whole game, patches keep the view exact",
          "[server]") {
    ServerProcess server;
    Player ann(server.port());
    ann.client.hello("Ann");
    const auto created =
        ann.client.request(game_create_request(4, {nullptr, "greedy", "random", "greedy"}));
    REQUIRE(created);
    REQUIRE((*created)["type"] == "table_created");
    ann.table = (*created)["table"]["id"];
    const auto seated = ann.client.wait_for([](const Json& m) { return m["type"] == "seated"; });
    REQUIRE(seated);
    CHECK((*seated)["seat"] == 0);
    const auto started = ann.client.request(Json{{"type", "start"}, {"table", ann.table}});
    REQUIRE(started);
    REQUIRE((*started)["type"] == "started");
    const auto snapshot0 =
        ann.client.wait_for([](const Json& m) { return m["type"] == "snapshot"; });
    REQUIRE(snapshot0);
    ann.absorb(*snapshot0);

    play_to_the_end(ann);
    CHECK(ann.patches > 100);
    CHECK(ann.view["result"]["scores"].size() == 4);
    // The patched view is exactly the server's view at the end.
    const auto snapshot = ann.client.request(Json{{"type", "sync"}, {"table", ann.table}});
    REQUIRE(snapshot);
    REQUIRE((*snapshot)["type"] == "snapshot");
    CHECK((*snapshot)["version"] == ann.version);
    CHECK(plain((*snapshot)["view"]) == plain(ann.view));
    CHECK(server.stop() == 0);
}

TEST_CASE("server: a table of strong bots plays to the end, the bots thinking on their own pool",
          "[server]") {
    ServerProcess server({"--bot-ms", "5", "--bot-threads", "1"});
    Player ann(server.port());
    ann.client.hello("Ann");
    const auto created =
        ann.client.request(game_create_request(4, {nullptr, "strong", "strong", "strong"}));
    REQUIRE(created);
    REQUIRE((*created)["type"] == "table_created");
    ann.table = (*created)["table"]["id"];
    for (int seat = 1; seat < 4; ++seat)
        CHECK((*created)["table"]["seats"][seat]["bot"] == "strong");
    REQUIRE(ann.client.wait_for([](const Json& m) { return m["type"] == "seated"; }));
    const auto started = ann.client.request(Json{{"type", "start"}, {"table", ann.table}});
    REQUIRE(started);
    REQUIRE((*started)["type"] == "started");
    const auto snapshot0 =
        ann.client.wait_for([](const Json& m) { return m["type"] == "snapshot"; });
    REQUIRE(snapshot0);
    ann.absorb(*snapshot0);

    play_to_the_end(ann);
    CHECK(ann.view["result"]["scores"].size() == 4);
    const auto snapshot = ann.client.request(Json{{"type", "sync"}, {"table", ann.table}});
    REQUIRE(snapshot);
    CHECK((*snapshot)["version"] == ann.version);
    CHECK(plain((*snapshot)["view"]) == plain(ann.view));
    CHECK(server.stop() == 0);
}

// Every seat is a test client, so the test knows every move and (from --test-seed) the deal:
// it replays the game with the engine and checks each seat's view after every move against the
// engine's view for that seat, and that no message names a card the seat may not see.
TEST_CASE("server: humans only, each seat sees exactly its own view and never a hidden card",
          "[server]") {
    // Table n is dealt from seed 1000 + n. The clients move as fast as the server answers: the
    // default 20 messages a second would refuse some of a game's moves, depending on its length.
    ServerProcess server({"--messages-per-second", "100000", "--message-burst", "100000"});
    for (int count = 2; count <= 4; ++count) {
        INFO(count << " players");
        std::vector<std::unique_ptr<Player>> players;
        for (int seat = 0; seat < count; ++seat) {
            players.push_back(std::make_unique<Player>(server.port()));
            players.back()->client.hello("P" + std::to_string(seat));
        }
        const auto created = players[0]->client.request(game_create_request(count, {}));
        REQUIRE(created);
        const std::string table = (*created)["table"]["id"];
        for (auto& player : players)
            player->table = table;
        REQUIRE(players[0]->client.wait_for([](const Json& m) { return m["type"] == "seated"; }));
        for (int seat = 1; seat < count; ++seat) {
            const auto seated = players[seat]->client.request(
                Json{{"type", "sit"}, {"table", table}, {"seat", seat}});
            REQUIRE(seated);
            REQUIRE((*seated)["type"] == "seated");
        }
        REQUIRE(players[1]->client.request(Json{{"type", "start"}, {"table", table}}));
        for (auto& player : players)
            player->drain(100ms);

        // The players take moves back now and then: the views after an undo are checked too.
        engine::Game game(engine::Rules::make({count, engine::Variant::yucata, true})
                              ->new_game(static_cast<std::uint64_t>(1000 + count - 2)),
                          true);
        engine::Rng rng(5);
        std::uint64_t version = 0;
        int undos = 0;
        while (!game.state().over()) {
            const engine::Seat seat = game.state().to_act();
            const auto legal = game.state().legal_moves(seat);
            const engine::Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
            const bool undo = game.can_undo(seat) == engine::UndoError::none && rng.below(3) == 0;
            Player& mover = *players[seat];
            std::vector<std::size_t> seen;  // messages each player had before this move
            for (const auto& player : players)
                seen.push_back(player->client.received_texts.size());
            Json change{{"type", undo ? "undo" : "move"},
                        {"table", table},
                        {"version", version},
                        {"move_id", std::to_string(version)}};
            if (!undo) change["move"] = move.to_string();
            const auto patch = mover.client.request(change);
            INFO("server running " << server.running());
            INFO("closed " << mover.client.closed() << " code " << mover.client.close_code()
                           << " last "
                           << (mover.client.received_texts.empty()
                                   ? ""
                                   : mover.client.received_texts.back()));
            REQUIRE(patch);
            REQUIRE(acknowledges(*patch, std::to_string(version)));
            mover.absorb(*patch);
            if (undo) {
                REQUIRE(game.undo(seat) == engine::UndoError::none);
                ++undos;
            } else {
                // The players keep the default preference: their turns wait for their end.
                REQUIRE(game.apply(seat, move, nullptr, true, true) == engine::MoveError::none);
            }
            ++version;
            for (int s = 0; s < count; ++s) {
                Player& player = *players[static_cast<std::size_t>(s)];
                player.drain(s == seat ? 1ms : 5ms);
                while (player.version < version) {
                    const auto message = player.client.receive(2s);
                    REQUIRE(message);
                    player.absorb(*message);
                }
                engine::View view;
                engine::view_for(game, static_cast<engine::Seat>(s), view);
                REQUIRE(plain(player.view) == plain(protocol::view_to_json(view)));
                // No message of this move names a card id the seat may not see.
                std::vector<bool> visible(engine::kCardCount);
                for (const auto& p : view.players) {
                    for (engine::CardId card : p.hand)
                        visible[card] = true;
                    for (const auto& cell : p.city)
                        visible[cell.cell.card] = true;
                    for (engine::CardId card : p.influence_cards)
                        visible[card] = true;
                }
                for (auto* cards : {&view.offer, &view.influence_on_table, &view.draft_packet,
                                    &view.school_cards})
                    for (engine::CardId card : *cards)
                        visible[card] = true;
                for (std::size_t i = seen[static_cast<std::size_t>(s)];
                     i < player.client.received_texts.size(); ++i) {
                    const Json message = Json::parse(player.client.received_texts[i]);
                    if (message["type"] != "patch") continue;
                    for (const Json& op : message["ops"]) {
                        const std::string path = op["path"];
                        if (!op.contains("value") || path == "/result" ||
                            path.find("/score") != std::string::npos)
                            continue;  // scores, not cards
                        check_cards(op["value"], path.substr(path.rfind('/') + 1), visible,
                                    op.dump());
                    }
                }
            }
        }
        CHECK(undos > 5);
        for (auto& player : players) {
            REQUIRE_FALSE(player->view["result"].is_null());
            // The running scores the patches kept up to date are the final scores.
            for (int seat = 0; seat < count; ++seat)
                CHECK(player->view["players"][seat]["score"] ==
                      player->view["result"]["scores"][seat]);
        }
    }
}

}  // namespace
}  // namespace gcor::testing
