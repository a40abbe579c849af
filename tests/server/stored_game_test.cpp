#include <catch2/catch.hpp>

#include "gcor/engine/view.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/view_json.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {
namespace {

using protocol::Json;

constexpr const char* kId = "t0123456789abcdef";

protocol::TableSettings two_players() {
    protocol::TableSettings settings;
    settings.options = {2, engine::Variant::yucata, false};
    return settings;
}

StoredMove change_of(std::uint64_t seq, int seat, std::string move) {
    StoredMove change;
    change.seq = seq;
    change.seat = seat;
    change.move = std::move(move);
    return change;
}

// A game played as a table plays it: moves by the players (half of them by players whose turn
// waits for their end move), some by timeouts, and undos, each change stored as the table stores
// it.
struct PlayedGame {
    std::vector<StoredMove> log;
    std::vector<engine::State> states;  // before each change, then the last
    std::vector<engine::Event> events;
    std::vector<engine::Move> standing;  // the moves not taken back
    std::vector<std::size_t> waited;     // indexes into `standing` after which a turn waited
    int waits_undone = 0;
    std::vector<std::uint64_t> round_starts;
};

PlayedGame play(const StoredGame& game) {
    PlayedGame played;
    StoredGame::Replay dealt = game.deal();
    engine::Game& playing = dealt.game;
    played.events = dealt.events;
    int round = playing.state().round;
    if (round > 0) played.round_starts.push_back(0);
    while (!playing.state().over()) {
        REQUIRE(played.log.size() < 5000);
        played.states.push_back(playing.state());
        const engine::Seat seat = playing.state().to_act();
        StoredMove change = change_of(played.log.size() + 1, seat, "");
        const bool take_back = played.log.size() % 5 == 4 ||
                               (playing.state().turn_waits_for_end() && played.log.size() % 3 == 0);
        if (take_back && playing.can_undo(seat) == engine::UndoError::none) {
            REQUIRE(playing.undo(seat, &played.events) == engine::UndoError::none);
            change.move = kUndoText;
            played.standing.pop_back();
            if (!played.waited.empty() && played.waited.back() == played.standing.size()) {
                played.waited.pop_back();
                ++played.waits_undone;
            }
        } else {
            const auto moves = playing.state().legal_moves(seat);
            REQUIRE_FALSE(moves.empty());
            const engine::Move move = moves[played.log.size() * 7 % moves.size()];
            change.by = played.log.size() % 11 == 10 ? MovedBy::timeout : MovedBy::player;
            change.move_id = change.by == MovedBy::player ? "m" + std::to_string(change.seq) : "";
            if (change.by == MovedBy::timeout) played.events.push_back(timed_out(seat));
            const bool waits = change.by == MovedBy::player && seat == 0;
            REQUIRE(playing.apply(seat, move, &played.events, change.by == MovedBy::player,
                                  waits) == engine::MoveError::none);
            // As the table stores it: only a wait that held the end of the turn.
            if (waits && playing.state().turn_waits_for_end()) {
                change.by = MovedBy::player_waiting;
                played.waited.push_back(played.standing.size());
            }
            change.move = move.to_string();
            played.standing.push_back(move);
        }
        played.log.push_back(change);
        for (; round < playing.state().round; ++round)
            played.round_starts.push_back(played.log.size());
    }
    played.states.push_back(playing.state());
    return played;
}

// A finished table's row with its players' names.
StoredTable finished_row(const StoredGame& game, std::uint64_t version) {
    StoredTable row = game.row();
    row.status = TableStatus::finished;
    row.version = version;
    row.seats = {StoredSeat{SeatKind::human, 11, "Ann", {}},
                 StoredSeat{SeatKind::human, 12, "Bo", {}}};
    return row;
}

std::string log_text(const std::vector<engine::Event>& events) {
    return protocol::events_json(events, std::nullopt).dump();
}

TEST_CASE("a stored game reads its settings once, from the text it is stored with",
          "[stored game]") {
    protocol::TableSettings settings = two_players();
    settings.undo = false;
    settings.is_public = false;
    settings.clock = {protocol::TimeControl::Kind::correspondence, 0, 3,
                      protocol::TimeControl::OnTimeout::forfeit};
    const StoredGame created(kId, settings, 42, "cafe", 17);
    CHECK(created.row().creator == 17);
    CHECK(created.settings() == settings);
    CHECK(created.rules().options() == settings.options);
    CHECK(created.row().settings == protocol::table_settings_json(settings).dump());
    CHECK(created.row().commitment == protocol::seed_commitment(42, "cafe"));
    CHECK(created.moves().empty());

    const std::vector<StoredMove> moves{change_of(1, 0, "draft 3")};
    const auto read = StoredGame::read(created.row(), moves);
    REQUIRE(read);
    CHECK(read->id() == kId);
    CHECK(read->settings() == settings);
    CHECK(read->rules().options() == settings.options);
    CHECK(read->moves().size() == 1);
    CHECK(read->row() == created.row());

    // A table in memory keeps the record without the log.
    StoredGame kept = *read;
    const std::vector<StoredMove> taken = kept.take_moves();
    REQUIRE(taken.size() == 1);
    CHECK(taken[0].move == read->moves()[0].move);
    CHECK(kept.moves().empty());
    CHECK(kept.settings() == settings);
    CHECK(kept.row() == created.row());
}

TEST_CASE("a stored game's replay is the game as the table played it, at every change",
          "[stored game]") {
    const StoredGame created(kId, two_players(), 7, "beef", 0);
    const PlayedGame played = play(created);
    REQUIRE(played.log.size() > 20);
    // Turns that waited replay as they waited: their player's end move is the next change.
    REQUIRE(played.waited.size() > 2);
    CHECK(played.waits_undone > 0);
    const auto game = StoredGame::read(finished_row(created, played.log.size()), played.log);
    REQUIRE(game);

    const auto whole = game->replay();
    REQUIRE(whole);
    CHECK(engine::state_hash(whole->game.state()) == engine::state_hash(played.states.back()));
    CHECK(log_text(whole->events) == log_text(played.events));
    CHECK(whole->round_starts == played.round_starts);
    CHECK(whole->round_starts.size() == 7);  // a 2-player game

    for (const std::size_t changes : {std::size_t{0}, std::size_t{1}, std::size_t{9},
                                      played.log.size() / 2, played.log.size() - 1}) {
        INFO("after " << changes << " changes");
        const auto partial = game->replay(changes);
        REQUIRE(partial);
        CHECK(engine::state_hash(partial->game.state()) ==
              engine::state_hash(played.states[changes]));
        CHECK(partial->round_starts == played.round_starts);
    }
    // The deal is the replay of no change.
    const StoredGame::Replay dealt = game->deal();
    CHECK(engine::state_hash(dealt.game.state()) == engine::state_hash(played.states.front()));
    CHECK(log_text(dealt.events) == log_text(game->replay(0)->events));

    // A seat that forfeited is known by its stored seat, after the last change only.
    StoredTable forfeited = finished_row(created, played.log.size());
    forfeited.seats[1].forfeited = true;
    const auto with_forfeit = StoredGame::read(forfeited, played.log);
    REQUIRE(with_forfeit);
    CHECK(with_forfeit->replay()->game.state().forfeited == 0b10);
    CHECK(with_forfeit->replay(3)->game.state().forfeited == 0);
}

TEST_CASE("a finished game's record lists the moves that stand, as `cor replay` reads it",
          "[stored game]") {
    const StoredGame created(kId, two_players(), 99, "0123abcd", 0);
    const PlayedGame played = play(created);
    for (const bool bo_forfeited : {false, true}) {
        INFO("Bo forfeited: " << bo_forfeited);
        StoredTable row = finished_row(created, played.log.size());
        row.seats[1].forfeited = bo_forfeited;
        const auto game = StoredGame::read(row, played.log);
        REQUIRE(game);
        const auto record = game->record_json();
        REQUIRE(record);

        // What the API wrote before the record had a type of its own, to the byte.
        protocol::GameRecord expected;
        expected.options = two_players().options;
        expected.seed = 99;
        expected.moves = played.standing;
        expected.waited = played.waited;
        expected.commitment = protocol::seed_commitment(99, "0123abcd");
        expected.nonce = "0123abcd";
        expected.forfeited = bo_forfeited ? 0b10 : 0;
        const protocol::Replay replayed = protocol::replay(expected);
        REQUIRE_FALSE(replayed.refused_index);
        Json expected_json{{"table", kId}, {"names", {"Ann", "Bo"}}};
        expected_json.update(protocol::record_to_json(expected, &replayed.state));
        CHECK(record->dump() == expected_json.dump());

        CHECK((*record)["moves"].size() < played.log.size());  // no undos, nor what they undid
        CHECK((*record)["waited"] == Json(played.waited));
        CHECK((*record)["scores"].size() == 2);
        // As `cor replay` reads it: from the text.
        const auto parsed = protocol::parse_record(Json::parse(record->dump()));
        REQUIRE(parsed);
        CHECK(protocol::commitment_holds(*parsed));
        CHECK(engine::state_hash(protocol::replay(*parsed).state) ==
              engine::state_hash(game->replay()->game.state()));
    }
}

TEST_CASE("each move that stands names the stored change that made it, undos skipped",
          "[stored game][analysis]") {
    const StoredGame created(kId, two_players(), 99, "0123abcd", 0);
    const PlayedGame played = play(created);
    const auto game = StoredGame::read(finished_row(created, played.log.size()), played.log);
    REQUIRE(game);
    const StoredGame::Standing standing = game->standing();
    CHECK(standing.record.moves == played.standing);
    CHECK(standing.record.waited == played.waited);
    REQUIRE(standing.changes.size() == played.standing.size());
    std::size_t skipped = 0;
    for (std::size_t i = 0; i < standing.changes.size(); ++i) {
        const std::uint64_t change = standing.changes[i];
        INFO("move " << i << " made by change " << change);
        REQUIRE(change < played.log.size());
        if (i > 0) CHECK(change > standing.changes[i - 1]);
        CHECK(played.log[change].move == played.standing[i].to_string());
        // The replay's position before that change is the one the move was made at.
        const auto before = game->replay(change);
        REQUIRE(before);
        CHECK(engine::state_hash(before->game.state()) ==
              engine::state_hash(played.states[change]));
        skipped = change - i;
    }
    CHECK(skipped > 0);  // undos and what they took back lie between
}

TEST_CASE("before the end a record holds only what is public", "[stored game]") {
    const StoredGame created(kId, two_players(), 5, "ab", 0);
    const auto waiting = created.record_json();
    REQUIRE(waiting);
    CHECK(waiting->dump() ==
          R"({"table":"t0123456789abcdef","options":{"players":2,"rules":"yucata","shrine":false},)"
          R"("names":["",""],"status":"waiting","version":0})");

    StoredTable row = finished_row(created, 3);
    row.status = TableStatus::playing;
    const auto playing = StoredGame::read(row, {change_of(1, 0, "x")});
    REQUIRE(playing);
    const auto record = playing->record_json();
    REQUIRE(record);
    CHECK((*record)["status"] == "playing");
    CHECK((*record)["version"] == 3);
    CHECK((*record)["names"] == Json{"Ann", "Bo"});
    CHECK((*record)["commitment"] == protocol::seed_commitment(5, "ab"));
    CHECK_FALSE(record->contains("seed"));
    CHECK_FALSE(record->contains("nonce"));
    CHECK_FALSE(record->contains("moves"));
}

TEST_CASE("a replay document is the game after N changes as a spectator saw it", "[stored game]") {
    const StoredGame created(kId, two_players(), 3, "cd", 0);
    const PlayedGame played = play(created);
    const auto game = StoredGame::read(finished_row(created, played.log.size()), played.log);
    REQUIRE(game);
    const std::uint64_t total = played.log.size();
    const auto end = game->replay_json(total);
    REQUIRE(end);
    CHECK((*end)["table"] == kId);
    CHECK((*end)["names"] == Json{"Ann", "Bo"});
    CHECK((*end)["move"] == total);
    CHECK((*end)["moves"] == total);
    CHECK((*end)["rounds"] == Json(played.round_starts));
    CHECK((*end)["view"] ==
          protocol::view_to_json(engine::view_for(played.states.back(), std::nullopt)));
    CHECK((*end)["log"].dump() == log_text(played.events));

    const auto start = game->replay_json(0);
    REQUIRE(start);
    CHECK((*start)["move"] == 0);
    CHECK((*start)["moves"] == total);
    CHECK((*start)["view"] ==
          protocol::view_to_json(engine::view_for(played.states.front(), std::nullopt)));
}

TEST_CASE("stored settings or moves this server cannot play are errors, not crashes",
          "[stored game]") {
    const StoredGame created(kId, two_players(), 1, "ef", 0);
    for (const std::string text : {R"({"options":)", R"([1,2])", R"({"options":{"players":9}})",
                                   R"({"options":{"players":2},"chat":"shout"})", ""}) {
        INFO(text);
        StoredTable row = created.row();
        row.settings = text;
        const auto settings = StoredGame::read_settings(row);
        REQUIRE_FALSE(settings);
        CHECK(settings.error().code == protocol::ErrorCode::internal);
        CHECK_THAT(settings.error().message, Catch::StartsWith("its settings are refused: "));
        const auto game = StoredGame::read(row);
        REQUIRE_FALSE(game);
        CHECK(game.error().message == settings.error().message);
    }

    const PlayedGame played = play(created);
    const StoredTable row = finished_row(created, played.log.size());
    auto broken_at = [&](std::size_t index, StoredMove broken) {
        std::vector<StoredMove> log = played.log;
        log.at(index) = std::move(broken);
        const auto game = StoredGame::read(row, log);
        REQUIRE(game);
        return game;
    };
    const auto not_a_move = broken_at(4, change_of(5, 0, "fly away"));
    const auto replayed = not_a_move->replay();
    REQUIRE_FALSE(replayed);
    CHECK(replayed.error().code == protocol::ErrorCode::internal);
    CHECK(replayed.error().message == R"(move 5 does not replay: "fly away" is not a move)");
    CHECK_FALSE(not_a_move->replay(4));  // the whole log replays, for the rounds
    CHECK_FALSE(not_a_move->record_json());
    CHECK_FALSE(not_a_move->replay_json(0));

    const auto no_such_seat = broken_at(0, change_of(1, 3, "draft 1"));
    CHECK(no_such_seat->replay().error().message ==
          "move 1 does not replay: its seat 3 is not a seat of this game");
    const auto early_undo = broken_at(0, change_of(1, 0, "undo"));
    CHECK_THAT(early_undo->replay().error().message,
               Catch::StartsWith("move 1 does not replay: its undo is refused: "));
}

}  // namespace
}  // namespace gcor::server
