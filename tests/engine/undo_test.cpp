// Taking moves back (docs/rules.md, "Taking moves back"): undo restores the state exactly, never
// crosses the turn's information horizon, and a game with undos replays from the moves that
// stand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bitset>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/game.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

using testing::contains;
using testing::new_game;
using testing::Variation;

bool is_school(CardId card) {
    const Kind kind = kind_of(card);
    return kind == Kind::school || kind == Kind::university;
}

// A 4-player game played by the first legal move (ending turns whenever it may) until `found`
// holds for the seat to act; nullopt when no game of the first seeds gets there.
std::optional<Game> find_game(Variant variant, const std::function<bool(const State&)>& found) {
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        Game game(Rules::make({4, variant, false})->new_game(seed), true);
        while (!game.state().over()) {
            if (found(game.state())) return game;
            const State& s = game.state();
            std::vector<Move> legal = s.legal_moves(s.to_act());
            const Move move = contains(legal, Move::end_turn()) ? Move::end_turn() : legal.front();
            REQUIRE(game.apply(s.to_act(), move) == MoveError::none);
        }
    }
    return std::nullopt;
}

bool contains_card(const std::vector<CardId>& cards, CardId card) {
    return std::find(cards.begin(), cards.end(), card) != cards.end();
}

// The first legal move of the seat to act that `pick` chooses.
std::optional<Move> legal_move(const State& s, const std::function<bool(const Move&)>& pick) {
    for (const Move& move : s.legal_moves(s.to_act()))
        if (pick(move)) return move;
    return std::nullopt;
}

TEST_CASE("undo restores the state exactly, back to the start of the turn or its horizon",
          "[undo]") {
    int undone = 0;
    int horizons = 0;
    for (const Variation& v : testing::all_variations()) {
        INFO(testing::name(v));
        for (std::uint64_t seed = 1; seed <= 400; ++seed) {
            INFO("seed " << seed);
            Game game(new_game(v, seed), true);
            Rng rng(seed);
            std::vector<Move> legal;
            // The state before each move of the turn under way by the seat to act.
            std::vector<State> before;
            Seat turn_seat = kNoSeat;
            int turn_space = -1;
            while (!game.state().over()) {
                const State& s = game.state();
                const Seat seat = s.to_act();
                if (s.phase != Phase::actions || s.turn.seat != turn_seat ||
                    s.turn.space != turn_space)
                    before.clear();
                turn_seat = s.phase == Phase::actions ? s.turn.seat : kNoSeat;
                turn_space = s.phase == Phase::actions ? s.turn.space : -1;
                before.push_back(s);
                s.legal_moves(legal);
                const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
                REQUIRE(game.apply(seat, move) == MoveError::none);
                const UndoError why = game.can_undo(seat);
                if (why != UndoError::none) {
                    horizons += why == UndoError::horizon ? 1 : 0;
                    continue;
                }
                // Every move that may be undone goes back to exactly the state before it, and
                // the ones before it too, until the horizon.
                Game back = game;
                std::size_t steps = 0;
                while (back.can_undo(seat) == UndoError::none) {
                    std::vector<Event> events;
                    REQUIRE(back.undo(seat, &events) == UndoError::none);
                    ++steps;
                    REQUIRE(steps <= before.size());
                    REQUIRE(back.state() == before[before.size() - steps]);
                    REQUIRE(back.state().ok());
                    REQUIRE(events.size() == 1);
                    CHECK(events[0].type == EventType::undone);
                    CHECK(events[0].seat == seat);
                    ++undone;
                }
                CHECK(back.can_undo(seat) != UndoError::not_your_turn);
                // Half the time the player does take the move back and plays on from there.
                if (rng.below(2) == 0) {
                    REQUIRE(game.undo(seat) == UndoError::none);
                    before.pop_back();
                }
            }
        }
    }
    INFO("undone " << undone << " moves, " << horizons << " horizons");
    CHECK(undone > 10000);
    CHECK(horizons > 100);
}

// A set of card ids, one bit per id.
using Cards = std::bitset<std::numeric_limits<CardId>::max() + 1>;

void add(Cards& cards, const std::vector<CardId>& more) {
    for (CardId card : more)
        cards.set(card);
}

// The card ids a view shows, wherever they stand.
Cards shown_in(const View& view) {
    Cards shown;
    add(shown, view.offer);
    add(shown, view.influence_on_table);
    add(shown, view.draft_packet);
    add(shown, view.school_cards);
    for (const PlayerView& player : view.players) {
        add(shown, player.hand);
        add(shown, player.influence_cards);
        for (const CityCell& cell : player.city)
            shown.set(cell.cell.card);
    }
    return shown;
}

// The card ids of `state` that `view` hides: in a deck (influence cards keep public places), in a
// hand without being named, in a draft packet or a school's draw it does not show.
Cards hidden_by(const State& state, const View& view) {
    Cards hidden;
    for (const auto& deck : state.decks)
        for (CardId card : deck)
            if (!is_influence_card(card)) hidden.set(card);
    for (const PlayerView& player : view.players)
        for (const HandCard& held : state.players[player.seat].hand)
            if (!contains_card(player.hand, held.card)) hidden.set(held.card);
    for (CardId card : state.packet)
        if (!contains_card(view.draft_packet, card)) hidden.set(card);
    for (CardId card : state.school.cards)
        if (!contains_card(view.school_cards, card)) hidden.set(card);
    return hidden;
}

TEST_CASE("undo never hides again a card that a view has shown, and a view offers undo only then",
          "[undo]") {
    // Told from the views every connection gets (each seat and a spectator), not from the engine's
    // bookkeeping: every view shown since the state that an undo restores is remembered, and the
    // restored views may hide none of the cards they showed.
    int undone = 0;
    int revealing_builds = 0;
    for (const Variation& v : testing::all_variations()) {
        INFO(testing::name(v));
        std::vector<std::optional<Seat>> viewers{std::nullopt};
        for (int seat = 0; seat < v.players; ++seat)
            viewers.emplace_back(static_cast<Seat>(seat));
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            INFO("seed " << seed);
            Game game(new_game(v, seed), true);
            Rng rng(seed * 104729);
            // Per viewer, what each view it was shown showed, in the order shown; and per move
            // that stands, how many views had been shown before it.
            std::vector<std::vector<Cards>> shown(viewers.size());
            std::vector<std::size_t> shown_before_move;
            auto show = [&] {
                for (std::size_t i = 0; i < viewers.size(); ++i) {
                    View view;
                    view_for(game, viewers[i], view);
                    shown[i].push_back(shown_in(view));
                }
            };
            show();
            std::vector<Move> legal;
            while (!game.state().over()) {
                const Seat seat = game.state().to_act();
                if (game.can_undo(seat) == UndoError::none && rng.below(3) == 0) {
                    View own;
                    view_for(game, seat, own);
                    REQUIRE(own.undo);  // the view offers what undo then does
                    REQUIRE(game.undo(seat) == UndoError::none);
                    ++undone;
                    const std::size_t since = shown_before_move.back();
                    shown_before_move.pop_back();
                    for (std::size_t i = 0; i < viewers.size(); ++i) {
                        View restored;
                        view_for(game, viewers[i], restored);
                        Cards shown_since;
                        for (std::size_t at = since; at < shown[i].size(); ++at)
                            shown_since |= shown[i][at];
                        const Cards hidden_again = shown_since & hidden_by(game.state(), restored);
                        INFO("viewer " << i << " (0: the spectator)");
                        CHECK(hidden_again.none());
                    }
                    show();
                    continue;
                }
                game.state().legal_moves(legal);
                const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
                // What each viewer's view hid before the move, to tell whether the move showed it.
                std::vector<Cards> hidden_before;
                for (const auto& viewer : viewers)
                    hidden_before.push_back(
                        hidden_by(game.state(), view_for(game.state(), viewer)));
                shown_before_move.push_back(shown.front().size());
                REQUIRE(game.apply(seat, move) == MoveError::none);
                show();
                bool revealed = false;
                for (std::size_t i = 0; i < viewers.size(); ++i)
                    revealed |= (shown[i].back() & hidden_before[i]).any();
                if (!revealed) continue;
                revealing_builds += move.type == MoveType::build ? 1 : 0;
                View own;
                view_for(game, seat, own);
                INFO("move " << move.to_string());
                CHECK_FALSE(own.undo);
                CHECK(game.can_undo(seat) != UndoError::none);
            }
        }
    }
    INFO("undone " << undone << ", builds that showed a card " << revealing_builds);
    CHECK(undone > 1000);
    CHECK(revealing_builds > 100);
}

TEST_CASE("undo: the moves that stand replay to the same game", "[undo]") {
    for (const Variation& v : testing::all_variations()) {
        INFO(testing::name(v));
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            Game game(new_game(v, seed), true);
            Rng rng(seed * 7919);
            std::vector<std::pair<Seat, Move>> standing;
            std::vector<Move> legal;
            while (!game.state().over()) {
                const Seat seat = game.state().to_act();
                if (game.can_undo(seat) == UndoError::none && rng.below(3) == 0) {
                    REQUIRE(game.undo(seat) == UndoError::none);
                    standing.pop_back();
                    continue;
                }
                game.state().legal_moves(legal);
                const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
                REQUIRE(game.apply(seat, move) == MoveError::none);
                standing.emplace_back(seat, move);
            }
            State replayed = new_game(v, seed);
            for (const auto& [seat, move] : standing)
                REQUIRE(replayed.apply(seat, move) == MoveError::none);
            CHECK(replayed == game.state());
        }
    }
}

TEST_CASE("undo: take, build and produce can be taken back, a school's draw cannot", "[undo]") {
    // A publisher game makes no automatic moves, so each move stands alone.
    auto game = find_game(Variant::publisher, [](const State& s) {
        return s.phase == Phase::actions && s.step == Step::take_card;
    });
    REQUIRE(game);
    const Seat me = game->state().to_act();
    CHECK(game->can_undo(me) == UndoError::nothing_to_undo);
    const State start = game->state();
    const Move take = Move::take(start.offer[0]);
    REQUIRE(game->apply(me, take) == MoveError::none);
    REQUIRE(game->can_undo(me) == UndoError::none);
    CHECK(game->can_undo(static_cast<Seat>((me + 1) % 4)) == UndoError::not_your_turn);
    std::vector<Event> events;
    REQUIRE(game->undo(me, &events) == UndoError::none);
    CHECK(game->state() == start);
    CHECK(game->can_undo(me) == UndoError::nothing_to_undo);
    REQUIRE(events.size() == 1);
    CHECK(events[0].undone == MoveType::take);
    CHECK(events[0].card == take.card);
    CHECK(events[0].type == EventType::undone);
    CHECK(events[0].visible_to(std::nullopt));  // the offer's card was seen by all

    SECTION("a build that is not a school, then a produce") {
        auto built = find_game(Variant::publisher, [](const State& s) {
            return s.phase == Phase::actions && s.step == Step::main &&
                   legal_move(s,
                              [](const Move& m) {
                                  return m.type == MoveType::build && !is_school(m.card);
                              }) &&
                   legal_move(s, [](const Move& m) { return m.type == MoveType::produce; });
        });
        REQUIRE(built);
        const Seat seat = built->state().to_act();
        const State before_build = built->state();
        const Move build = *legal_move(before_build, [](const Move& m) {
            return m.type == MoveType::build && !is_school(m.card);
        });
        REQUIRE(built->apply(seat, build) == MoveError::none);
        REQUIRE(built->can_undo(seat) == UndoError::none);
        std::vector<State> befores{before_build};
        if (const auto produce = legal_move(
                built->state(), [](const Move& m) { return m.type == MoveType::produce; })) {
            befores.push_back(built->state());
            REQUIRE(built->apply(seat, *produce) == MoveError::none);
        }
        for (; !befores.empty(); befores.pop_back()) {
            REQUIRE(built->undo(seat) == UndoError::none);
            CHECK(built->state() == befores.back());
        }
    }
    SECTION("a school: neither its draw nor anything before it") {
        auto schooled = find_game(Variant::publisher, [](const State& s) {
            return s.phase == Phase::actions && s.step == Step::main && s.turn.took &&
                   legal_move(s, [](const Move& m) {
                       return m.type == MoveType::build && is_school(m.card);
                   });
        });
        REQUIRE(schooled);
        const Seat seat = schooled->state().to_act();
        const Move school = *legal_move(schooled->state(), [](const Move& m) {
            return m.type == MoveType::build && is_school(m.card);
        });
        REQUIRE(schooled->apply(seat, school) == MoveError::none);
        if (schooled->state().step == Step::school_deck) {
            CHECK(schooled->can_undo(seat) == UndoError::horizon);
            const Move deck = schooled->state().legal_moves(seat).front();
            REQUIRE(schooled->apply(seat, deck) == MoveError::none);
            CHECK(schooled->can_undo(seat) == UndoError::horizon);
            // Keeping a card after the draw reveals nothing more: it may be taken back, back to
            // the draw and no further.
            const State drawn = schooled->state();
            const Move keep = drawn.legal_moves(seat).front();
            REQUIRE(keep.type == MoveType::school_keep);
            REQUIRE(schooled->apply(seat, keep) == MoveError::none);
            REQUIRE(schooled->can_undo(seat) == UndoError::none);
            std::vector<Event> undone;
            REQUIRE(schooled->undo(seat, &undone) == UndoError::none);
            CHECK(schooled->state() == drawn);
            CHECK(schooled->can_undo(seat) == UndoError::horizon);
            // The kept card is named to its keeper only.
            REQUIRE(undone.size() == 1);
            const Seat other = static_cast<Seat>((seat + 1) % 4);
            CHECK_FALSE(undone[0].visible_to(other));
            CHECK_FALSE(undone[0].visible_to(std::nullopt));
            CHECK(undone[0].visible_to(seat));
        } else {
            // No deck could draw: the school revealed nothing and is taken back like any build.
            CHECK(schooled->can_undo(seat) == UndoError::none);
        }
    }
}

TEST_CASE("undo: placing an emissary, a draft pick and ending the turn hand the turn on",
          "[undo]") {
    Game game(Rules::make({3, Variant::publisher, false})->new_game(3), true);
    int checked = 0;
    while (!game.state().over()) {
        const State& s = game.state();
        const Seat seat = s.to_act();
        const Move move = s.legal_moves(seat).back();
        const bool hands_on = move.type == MoveType::draft || move.type == MoveType::place ||
                              move.type == MoveType::end_turn;
        REQUIRE(game.apply(seat, move) == MoveError::none);
        if (!hands_on) continue;
        ++checked;
        CHECK(game.can_undo(seat) != UndoError::none);
    }
    CHECK(checked > 60);
}

TEST_CASE("undo: automatic moves that end the turn put its moves out of reach", "[undo]") {
    // In the yucata rules a turn with nothing left to do ends by itself.
    int ended = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        Game game(Rules::make({4, Variant::yucata, false})->new_game(seed), true);
        Rng rng(seed);
        while (!game.state().over()) {
            const State& s = game.state();
            const Seat seat = s.to_act();
            std::vector<Move> legal = s.legal_moves(seat);
            const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
            std::vector<Event> events;
            REQUIRE(game.apply(seat, move, &events) == MoveError::none);
            const bool automatic_end = std::any_of(
                events.begin(), events.end(),
                [](const Event& e) { return e.type == EventType::turn_ended && e.automatic; });
            if (move.type != MoveType::end_turn && automatic_end) {
                ++ended;
                CHECK(game.can_undo(seat) != UndoError::none);
            }
        }
    }
    CHECK(ended > 50);
}

TEST_CASE("undo: off at the table, after a bot's move, and after a forfeit", "[undo]") {
    auto at_take = [](bool undo) {
        Game game(Rules::make({2, Variant::publisher, false})->new_game(5), undo);
        while (game.state().phase != Phase::actions) {
            const Seat seat = game.state().to_act();
            REQUIRE(game.apply(seat, game.state().legal_moves(seat).front()) == MoveError::none);
        }
        return game;
    };
    Game off = at_take(false);
    const Seat seat = off.state().to_act();
    REQUIRE(off.apply(seat, off.state().legal_moves(seat).front()) == MoveError::none);
    CHECK(off.can_undo(seat) == UndoError::not_allowed);
    const State kept = off.state();
    CHECK(off.undo(seat) == UndoError::not_allowed);
    CHECK(off.state() == kept);

    Game by_bot = at_take(true);
    REQUIRE(by_bot.apply(seat, by_bot.state().legal_moves(seat).front(), nullptr, false) ==
            MoveError::none);
    CHECK(by_bot.can_undo(seat) == UndoError::horizon);

    Game forfeited = at_take(true);
    REQUIRE(forfeited.apply(seat, forfeited.state().legal_moves(seat).front()) == MoveError::none);
    REQUIRE(forfeited.can_undo(seat) == UndoError::none);
    forfeited.forfeit(seat);
    CHECK(forfeited.state().forfeited == (1u << seat));
    CHECK(forfeited.can_undo(seat) == UndoError::nothing_to_undo);
}

}  // namespace
}  // namespace gcor::engine
