// A table's game on its own: a change applied makes the next version with its events and is
// remembered by its move id; a refused one changes nothing; an undo is a version too; a timeout's
// events begin with the timeout; a restored game's stored changes make its version and move ids.
#include <catch2/catch.hpp>
#include <string>

#include "tables/table_game.hpp"

namespace gcor::server {
namespace {

StoredGame table_game_record(bool undo = true) {
    protocol::TableSettings settings;
    settings.options = {2, engine::Variant::yucata, false};
    settings.undo = undo;
    return StoredGame("t1", settings, 42, "nonce", 0);
}

engine::Move table_game_first_move(const TableGame& game) {
    const auto moves = game.state().legal_moves(game.state().to_act());
    REQUIRE_FALSE(moves.empty());
    return moves.front();
}

}  // namespace

TEST_CASE("table game: a move is the next version, with its events and its move id", "[server]") {
    TableGame game(true);
    game.begin(table_game_record().deal());
    CHECK(game.version() == 0);
    const engine::Seat seat = game.state().to_act();
    const engine::Move move = table_game_first_move(game);
    REQUIRE(game.apply(seat, move, MovedBy::player, "m1"));
    CHECK(game.version() == 1);
    CHECK_FALSE(game.events().empty());
    CHECK(game.moves().version_of(seat, "m1") == 1u);
    CHECK(game.moves().last_own_move(seat) == 1u);
}

TEST_CASE("table game: a refused change leaves the game and its version as they were", "[server]") {
    TableGame game(true);
    game.begin(table_game_record().deal());
    const engine::Seat seat = game.state().to_act();
    const engine::Seat other = static_cast<engine::Seat>(1 - seat);
    const engine::Move move = table_game_first_move(game);
    const auto before = game.state().legal_moves(seat);
    CHECK_FALSE(game.apply(other, move, MovedBy::player, "x"));         // not their turn
    CHECK_FALSE(game.apply(seat, std::nullopt, MovedBy::player, "u"));  // nothing to take back
    CHECK(game.version() == 0);
    CHECK(game.state().legal_moves(seat) == before);
    CHECK_FALSE(game.moves().version_of(other, "x"));
}

TEST_CASE("table game: an undo offered by the seat's view is a version of its own", "[server]") {
    TableGame game(true);
    game.begin(table_game_record().deal());
    // Plays on until a move may be taken back (one that revealed nothing).
    for (int moves = 0; moves < 200 && !game.could_undo(); ++moves)
        REQUIRE(game.apply(game.state().to_act(), table_game_first_move(game), MovedBy::player,
                           "m" + std::to_string(moves)));
    const auto undoable = game.could_undo();
    REQUIRE(undoable);
    const std::uint64_t version = game.version();
    REQUIRE(game.apply(*undoable, std::nullopt, MovedBy::player, "undo"));
    CHECK(game.version() == version + 1);
    CHECK(game.moves().version_of(*undoable, "undo") == version + 1);

    TableGame no_undo(false);
    no_undo.begin(table_game_record(false).deal());
    for (int moves = 0; moves < 20; ++moves) {
        CHECK_FALSE(no_undo.could_undo());
        REQUIRE(no_undo.apply(no_undo.state().to_act(), table_game_first_move(no_undo),
                              MovedBy::player, ""));
    }
}

TEST_CASE("table game: a player's move is stored as waiting only when the end of the turn waits",
          "[server]") {
    TableGame game(true);
    game.begin(table_game_record().deal());
    int waits = 0;
    for (int moves = 0; moves < 400 && waits < 3; ++moves) {
        const engine::Seat seat = game.state().to_act();
        const auto stored = game.apply(seat, table_game_first_move(game), MovedBy::player_waiting,
                                       "m" + std::to_string(moves));
        REQUIRE(stored);
        const bool waiting = game.state().turn_waits_for_end();
        CHECK(*stored == (waiting ? MovedBy::player_waiting : MovedBy::player));
        CHECK(game.moves().last_own_move(seat) == game.version());
        if (!waiting) continue;
        ++waits;
        CHECK(game.state().to_act() == seat);
        // Its end, made by the player, hands the turn on and waits for nothing.
        REQUIRE(game.apply(seat, engine::Move::end_turn(), MovedBy::player_waiting,
                           "end" + std::to_string(moves)) == MovedBy::player);
    }
    CHECK(waits == 3);
    // A bot's move is a bot's: it never waits.
    const engine::Seat seat = game.state().to_act();
    CHECK(game.apply(seat, table_game_first_move(game), MovedBy::bot, "") == MovedBy::bot);
}

TEST_CASE("table game: a timeout's move begins with the timeout, and is not the player's own",
          "[server]") {
    TableGame game(true);
    game.begin(table_game_record().deal());
    const engine::Seat seat = game.state().to_act();
    REQUIRE(game.apply(seat, table_game_first_move(game), MovedBy::timeout, ""));
    REQUIRE_FALSE(game.events().empty());
    CHECK(game.events().front().type == engine::EventType::timed_out);
    CHECK(game.events().front().seat == seat);
    CHECK(game.moves().last_own_move(seat) == 0u);
}

TEST_CASE("table game: a restored game's stored changes make its version and move ids",
          "[server]") {
    TableGame played(true);
    StoredGame record = table_game_record();
    played.begin(record.deal());
    std::vector<StoredMove> changes;
    for (std::uint64_t seq = 1; seq <= 3; ++seq) {
        const engine::Seat seat = played.state().to_act();
        const engine::Move move = table_game_first_move(played);
        REQUIRE(played.apply(seat, move, MovedBy::player, "m" + std::to_string(seq)));
        changes.push_back(
            {seq, seat, move.to_string(), "m" + std::to_string(seq), 0, MovedBy::player});
    }
    auto stored = StoredGame::read(record.row(), changes);
    REQUIRE(stored);
    auto replayed = stored->replay();
    REQUIRE(replayed);

    TableGame restored(true);
    restored.begin(std::move(*replayed), changes);
    CHECK(restored.version() == 3);
    CHECK(restored.moves().version_of(static_cast<engine::Seat>(changes[1].seat), "m2") == 2u);
    CHECK(restored.state().legal_moves(restored.state().to_act()) ==
          played.state().legal_moves(played.state().to_act()));
}

}  // namespace gcor::server
