// The rules of a game, one rule per test case, as DECISIONS.md settles them. Each scenario starts
// from a real game, plays to the phase it needs, edits the public fields of the State and then
// applies the move under test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gcor/engine/cards.hpp"
#include "gcor/engine/city.hpp"
#include "gcor/engine/event.hpp"
#include "gcor/engine/move.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/engine/strips.hpp"
#include "playout_support.hpp"

namespace Catch {
template <>
struct StringMaker<gcor::engine::MoveError> {
    static std::string convert(gcor::engine::MoveError error) {
        return std::string(gcor::engine::error_code(error));
    }
};
template <>
struct StringMaker<gcor::engine::Move> {
    static std::string convert(const gcor::engine::Move& move) { return move.to_string(); }
};
template <>
struct StringMaker<gcor::engine::Kind> {
    static std::string convert(gcor::engine::Kind kind) {
        return std::string(gcor::engine::info(kind).id);
    }
};
}  // namespace Catch

namespace gcor::engine {
namespace {

using testing::contains;

constexpr std::uint8_t bit(int seat) {
    return static_cast<std::uint8_t>(1u << seat);
}
constexpr std::array<CardId, 4> kNoRest{kNoCard, kNoCard, kNoCard, kNoCard};

State new_game(int players, Variant variant, std::uint64_t seed = 1, bool shrine = false,
               std::vector<Event>* events = nullptr) {
    const auto rules = Rules::make(Options{players, variant, shrine});
    REQUIRE(rules);
    return rules->new_game(seed, events);
}

void play(State& s, const Move& move, std::vector<Event>* events = nullptr) {
    INFO("move: " << move.to_string());
    REQUIRE(s.apply(s.to_act(), move, events) == MoveError::none);
}

void play_first(State& s, std::vector<Event>* events = nullptr) {
    const std::vector<Move> moves = s.legal_moves(s.to_act());
    REQUIRE_FALSE(moves.empty());
    play(s, moves.front(), events);
}

// The first legal move, but ending the turn whenever that is legal: a quick, passive game.
void play_simple(State& s, std::vector<Event>* events = nullptr) {
    const std::vector<Move> moves = s.legal_moves(s.to_act());
    REQUIRE_FALSE(moves.empty());
    play(s, contains(moves, Move::end_turn()) ? Move::end_turn() : moves.front(), events);
}

template <class Done>
void play_until(State& s, Done done, std::vector<Event>* events = nullptr) {
    for (int moves = 0; !done(s); ++moves) {
        REQUIRE_FALSE(s.over());
        REQUIRE(moves < 10000);
        play_simple(s, events);
    }
}

void finish_draft(State& s) {
    while (s.phase == Phase::draft)
        play_first(s);
}

void to_actions(State& s) {
    while (s.phase != Phase::actions) {
        REQUIRE_FALSE(s.over());
        play_first(s);
    }
}

void to_main(State& s) {
    while (s.phase != Phase::actions || s.step != Step::main) {
        REQUIRE_FALSE(s.over());
        play_first(s);
    }
}

void finish_round(State& s, std::vector<Event>* events = nullptr) {
    const int round = s.round;
    play_until(
        s, [round](const State& st) { return st.over() || st.round != round; }, events);
}

void play_to_end(State& s, std::vector<Event>* events = nullptr) {
    play_until(
        s, [](const State& st) { return st.over(); }, events);
}

bool city_holds(const City& city, CardId card) {
    bool found = false;
    city.for_each_building([&](int, int, const Cell& cell) { found |= cell.card == card; });
    return found;
}

// Whether the card is anywhere but in a deck.
bool in_use(const State& s, CardId card) {
    if (s.offer.contains(card) || s.packet.contains(card) || s.influence_on_table.contains(card) ||
        s.school.cards.contains(card))
        return true;
    for (const Player& player : s.players)
        if (player.holds(card) || city_holds(player.city, card) ||
            player.influence_cards.contains(card))
            return true;
    return false;
}

bool in_deck(const State& s, CardId card) {
    for (const auto& deck : s.decks)
        if (deck.contains(card)) return true;
    return false;
}

// A card of this kind that nothing uses; taken out of its deck when it is in one.
CardId free_card(State& s, Kind kind) {
    for (int id = 0; id < kCardCount; ++id) {
        const auto card = static_cast<CardId>(id);
        if (kind_of(card) == kind && !in_use(s, card) && !in_deck(s, card)) return card;
    }
    for (int id = 0; id < kCardCount; ++id) {
        const auto card = static_cast<CardId>(id);
        if (kind_of(card) != kind || in_use(s, card)) continue;
        for (auto& deck : s.decks)
            if (deck.contains(card)) {
                deck.erase_at(deck.index_of(card));
                return card;
            }
    }
    // The only copy may lie in the offer.
    for (CardId card : s.offer)
        if (kind_of(card) == kind) {
            s.offer.erase_at(s.offer.index_of(card));
            return card;
        }
    FAIL("no free card of kind " << info(kind).id);
    return kNoCard;
}

CardId give(State& s, Seat seat, Kind kind) {
    const CardId card = free_card(s, kind);
    s.players[seat].add_to_hand(card, bit(seat));
    return card;
}

CardId put(State& s, Seat seat, int x, int y, Kind kind, int tokens = 0) {
    const CardId card = free_card(s, kind);
    s.players[seat].city.place(x, y, kind, card, static_cast<std::uint8_t>(tokens));
    return card;
}

// A city with nothing but the starting buildings of `seat`.
City starting_city(Seat seat) {
    City city;
    city.place(0, 0, Kind::vegetable_farm, static_cast<CardId>(kFirstStartingCard + 2 * seat));
    city.place(1, 0, Kind::residential_2, static_cast<CardId>(kFirstStartingCard + 2 * seat + 1));
    return city;
}

void put_on_table(State& s, CardId card) {
    if (s.decks[0].contains(card)) s.decks[0].erase_at(s.decks[0].index_of(card));
    s.influence_on_table.push_back(card);
}

// The main step of the first action turn of a game; the acting seat's hand is emptied.
State at_main(int players = 4, Variant variant = Variant::publisher, std::uint64_t seed = 1,
              bool shrine = false) {
    State s = new_game(players, variant, seed, shrine);
    to_main(s);
    s.players[s.turn.seat].hand.clear();
    return s;
}

// Residences at (0,1) and (2,1): the cell (1,1) then has three neighbours.
void three_neighbours(State& s, Seat seat) {
    put(s, seat, 0, 1, Kind::residential_2);
    put(s, seat, 2, 1, Kind::residential_3);
    REQUIRE(s.players[seat].city.adjacent_buildings(1, 1) == 3);
}

std::vector<Event> of_type(const std::vector<Event>& events, EventType type) {
    std::vector<Event> found;
    for (const Event& event : events)
        if (event.type == type) found.push_back(event);
    return found;
}

bool any_automatic(const std::vector<Event>& events) {
    return std::any_of(events.begin(), events.end(), [](const Event& e) { return e.automatic; });
}

std::uint8_t known_to(const Player& player, CardId card) {
    for (const HandCard& held : player.hand)
        if (held.card == card) return held.known_to;
    FAIL("card not in hand");
    return 0;
}

template <std::size_t N>
std::vector<CardId> to_vector(const StaticVector<CardId, N>& cards) {
    return std::vector<CardId>(cards.begin(), cards.end());
}

}  // namespace

// === Setup ======================================================================================

TEST_CASE("setup: five coins and the starting buildings at (0,0) and (1,0)") {
    for (int players = 2; players <= 4; ++players) {
        const State s = new_game(players, Variant::publisher);
        for (int seat = 0; seat < players; ++seat) {
            INFO("players " << players << ", seat " << seat);
            const Player& p = s.players[seat];
            CHECK(p.coins == 5);
            CHECK(p.influence == 0);
            CHECK(p.influence_cards.empty());
            CHECK(p.hand.empty());
            CHECK(p.city.building_count() == 2);
            CHECK(p.city.at(0, 0).kind == Kind::vegetable_farm);
            CHECK(p.city.at(0, 0).card == 72 + 2 * seat);
            CHECK(p.city.at(1, 0).kind == Kind::residential_2);
            CHECK(p.city.at(1, 0).card == 73 + 2 * seat);
        }
    }
}

TEST_CASE("setup: decks in play and their sizes per player count") {
    struct Case {
        int players;
        std::array<int, 4> sizes;  // deck II without the draft packet; deck I with influence
    };
    for (const Case& c :
         {Case{2, {17, 20, 0, 0}}, Case{3, {18, 19, 18, 0}}, Case{4, {18, 18, 18, 18}}}) {
        INFO("players " << c.players);
        const State s = new_game(c.players, Variant::publisher);
        for (int deck = 0; deck < 4; ++deck)
            CHECK(static_cast<int>(s.decks[deck].size()) == c.sizes[deck]);
        CHECK(static_cast<int>(s.packet.size()) == c.players);
        // Every building of a deck in play is in it (deck II: or in the draft packet).
        for (int deck = 0; deck < s.decks_in_play(); ++deck)
            for (int id = kDeckStart[deck]; id < kDeckStart[deck + 1]; ++id) {
                const auto card = static_cast<CardId>(id);
                CHECK((s.decks[deck].contains(card) || (deck == 1 && s.packet.contains(card))));
            }
        for (CardId card : s.packet)
            CHECK(deck_of(card) == 1);
    }
}

TEST_CASE("setup: influence cards go into deck I after its 3rd, 6th, 10th and 14th card") {
    for (int players : {3, 4})
        for (std::uint64_t seed = 1; seed <= 8; ++seed) {
            INFO("players " << players << ", seed " << seed);
            const State s = new_game(players, Variant::publisher, seed);
            const auto& deck = s.decks[0];
            REQUIRE(deck.size() == 18);
            // i-th card from the top (0 = top).
            auto from_top = [&](std::size_t i) { return deck[deck.size() - 1 - i]; };
            for (std::size_t i = 0; i < deck.size(); ++i) {
                const CardId card = from_top(i);
                switch (i) {
                    case 3:
                        CHECK(influence_value(card) == 3);
                        break;
                    case 7:
                        CHECK(influence_value(card) == 6);
                        break;
                    case 12:
                        CHECK(influence_value(card) == 10);
                        break;
                    case 17:
                        CHECK(influence_value(card) == 14);
                        break;
                    default:
                        CHECK(deck_of(card) == 0);
                }
                if (i == 3 || i == 7 || i == 12 || i == 17) CHECK(is_influence_card(card));
            }
        }
}

TEST_CASE("setup: with 2 players influence cards 4, 8 and 14 go after the 4th, 8th and 14th card") {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        INFO("seed " << seed);
        const State s = new_game(2, Variant::publisher, seed);
        const auto& deck = s.decks[0];
        REQUIRE(deck.size() == 17);
        for (std::size_t i = 0; i < deck.size(); ++i) {
            const CardId card = deck[deck.size() - 1 - i];
            switch (i) {
                case 4:
                    REQUIRE(is_influence_card(card));
                    CHECK(influence_value(card) == 4);
                    break;
                case 9:
                    REQUIRE(is_influence_card(card));
                    CHECK(influence_value(card) == 8);
                    break;
                case 16:
                    REQUIRE(is_influence_card(card));
                    CHECK(influence_value(card) == 14);
                    break;
                default:
                    CHECK(deck_of(card) == 0);
            }
        }
    }
}

TEST_CASE("setup: with the shrine option every player holds a shrine") {
    for (int players = 2; players <= 4; ++players) {
        const State with = new_game(players, Variant::publisher, 1, true);
        const State without = new_game(players, Variant::publisher, 1, false);
        for (int seat = 0; seat < players; ++seat) {
            INFO("players " << players << ", seat " << seat);
            REQUIRE(with.players[seat].hand.size() == 1);
            CHECK(with.players[seat].hand[0].card == 80 + seat);
            CHECK(kind_of(with.players[seat].hand[0].card) == Kind::shrine);
            // Engine choice: the shrine is known to everyone.
            CHECK(with.players[seat].hand[0].known_to == kEveryone);
            CHECK(without.players[seat].hand.empty());
        }
    }
}

TEST_CASE("setup: the first player is random in yucata and the first seat in publisher") {
    std::set<int> seen;
    for (std::uint64_t seed = 0; seed < 64; ++seed) {
        std::vector<Event> events;
        const State publisher = new_game(4, Variant::publisher, seed);
        CHECK(publisher.first_player == 0);
        const State yucata = new_game(4, Variant::yucata, seed, false, &events);
        seen.insert(yucata.first_player);
        const auto started = of_type(events, EventType::game_started);
        REQUIRE(started.size() == 1);
        CHECK(started[0].seat == yucata.first_player);
    }
    CHECK(seen == std::set<int>{0, 1, 2, 3});
}

// === Draft ======================================================================================

TEST_CASE("draft: counter-clockwise from the first player's right, the first player last") {
    SECTION("publisher, 4 players") {
        State s = new_game(4, Variant::publisher);
        CHECK(to_vector(s.draft_order) == std::vector<CardId>{3, 2, 1, 0});
        std::size_t packet = 4;
        for (int seat : {3, 2, 1, 0}) {
            REQUIRE(s.phase == Phase::draft);
            CHECK(s.to_act() == seat);
            CHECK(s.packet.size() == packet);
            const auto moves = s.legal_moves(static_cast<Seat>(seat));
            CHECK(moves.size() == packet);  // one move per card of the packet
            play(s, moves.front());
            --packet;
        }
        CHECK(s.phase == Phase::emissaries);
        CHECK(s.round == 1);
        for (int seat = 0; seat < 4; ++seat) {
            REQUIRE(s.players[seat].hand.size() == 1);
            CHECK(deck_of(s.players[seat].hand[0].card) == 1);
        }
    }
    SECTION("yucata, the random first player") {
        for (std::uint64_t seed = 0; seed < 12; ++seed) {
            for (int n : {2, 3, 4}) {
                const State s = new_game(n, Variant::yucata, seed);
                const int f = s.first_player;
                std::vector<CardId> expected;
                for (int i = 1; i <= n; ++i)
                    expected.push_back(static_cast<CardId>((f + n - i) % n));
                INFO("players " << n << ", first " << f);
                CHECK(to_vector(s.draft_order) == expected);
                CHECK(s.to_act() == (f + n - 1) % n);
            }
        }
    }
}

TEST_CASE("draft: the last card is known to its drafter and to the player who passed it") {
    SECTION("4 players") {
        State s = new_game(4, Variant::publisher);
        finish_draft(s);
        CHECK(s.players[3].hand[0].known_to == bit(3));
        CHECK(s.players[2].hand[0].known_to == bit(2));
        CHECK(s.players[1].hand[0].known_to == bit(1));
        CHECK(s.players[0].hand[0].known_to == (bit(0) | bit(1)));
    }
    SECTION("2 players: the other player knows the first player's card") {
        State s = new_game(2, Variant::publisher);
        std::vector<Event> events;
        play_first(s, &events);
        play_first(s, &events);
        CHECK(s.players[1].hand[0].known_to == bit(1));
        CHECK(s.players[0].hand[0].known_to == (bit(0) | bit(1)));
        const auto drafted = of_type(events, EventType::drafted);
        REQUIRE(drafted.size() == 2);
        CHECK(drafted[0].seat == 1);
        CHECK(drafted[0].known_to == bit(1));
        CHECK(drafted[1].seat == 0);
        CHECK(drafted[1].known_to == (bit(0) | bit(1)));
    }
}

// === Upkeep =====================================================================================

TEST_CASE("upkeep: the top strip turns over and goes to the bottom") {
    State s = new_game(4, Variant::publisher, 7);
    const auto shuffled = s.strips;
    finish_draft(s);
    REQUIRE(s.round == 1);
    for (int i = 0; i < 5; ++i)
        CHECK(s.strips[i] == shuffled[i + 1]);
    CHECK(s.strips[5] == StripSide{shuffled[0].strip, !shuffled[0].reversed});

    // Rounds 1-14 use S2..S6, then S1..S6 turned over, then S1..S3 as shuffled.
    std::vector<StripSide> in_play{s.strips[0]};
    int round = s.round;
    play_until(s, [&](const State& st) {
        if (st.round != round) {
            round = st.round;
            in_play.push_back(st.strips[0]);
        }
        return st.over();
    });
    REQUIRE(in_play.size() == 14);
    for (int r = 1; r <= 14; ++r) {
        INFO("round " << r);
        StripSide expected;
        if (r <= 5)
            expected = shuffled[r];
        else if (r <= 11)
            expected = StripSide{shuffled[r - 6].strip, !shuffled[r - 6].reversed};
        else
            expected = shuffled[r - 12];
        CHECK(in_play[r - 1] == expected);
    }
}

TEST_CASE("upkeep: the offer has the top card of each deck in play") {
    for (int players : {3, 4}) {
        INFO("players " << players);
        State s = new_game(players, Variant::publisher, 5);
        const auto decks = s.decks;
        finish_draft(s);
        std::vector<CardId> expected;
        for (int deck = 0; deck < players; ++deck) {
            expected.push_back(decks[deck].back());
            CHECK(s.decks[deck].size() == decks[deck].size() - 1);
        }
        std::sort(expected.begin(), expected.end());
        CHECK(to_vector(s.offer) == expected);

        // The next round again one from each deck.
        to_actions(s);
        const auto before = s.decks;
        finish_round(s);
        REQUIRE(s.round == 2);
        REQUIRE(s.offer.size() == static_cast<std::size_t>(players));
        for (int deck = 0; deck < players; ++deck) {
            CHECK(s.decks[deck].size() == before[deck].size() - 1);
            CHECK(s.offer.contains(before[deck].back()));
        }
    }
}

TEST_CASE("upkeep: with 2 players the offer has two cards each from decks I and II") {
    State s = new_game(2, Variant::publisher, 5);
    const auto decks = s.decks;
    finish_draft(s);
    std::vector<CardId> expected{decks[0][decks[0].size() - 1], decks[0][decks[0].size() - 2],
                                 decks[1][decks[1].size() - 1], decks[1][decks[1].size() - 2]};
    std::sort(expected.begin(), expected.end());
    CHECK(to_vector(s.offer) == expected);
    CHECK(s.decks[0].size() == 15);
    CHECK(s.decks[1].size() == 18);
}

TEST_CASE("upkeep: an influence card on top of deck I goes to the table") {
    SECTION("3 players: the 3 after the third round's card") {
        State s = new_game(3, Variant::publisher, 11);
        finish_draft(s);
        CHECK(s.influence_on_table.empty());
        finish_round(s);
        REQUIRE(s.round == 2);
        CHECK(s.influence_on_table.empty());
        finish_round(s);
        REQUIRE(s.round == 3);
        CHECK(to_vector(s.influence_on_table) == std::vector<CardId>{84});
        CHECK(s.decks[0].size() == 14);
        CHECK_FALSE(is_influence_card(s.decks[0].back()));
        // Nobody gains influence in this passive game: every scoring ties at 0 and the cards
        // stay, so the 6 joins the 3 in round 6 and all four lie there at the end.
        play_until(s, [](const State& st) { return st.round == 6; });
        CHECK(to_vector(s.influence_on_table) == std::vector<CardId>{84, 86});
        play_to_end(s);
        CHECK(to_vector(s.influence_on_table) == std::vector<CardId>{84, 86, 88, 89});
        for (int seat = 0; seat < 3; ++seat)
            CHECK(s.players[seat].influence_cards.empty());
    }
    SECTION("2 players: the 4 after the second round's cards") {
        State s = new_game(2, Variant::publisher, 11);
        finish_draft(s);
        CHECK(s.influence_on_table.empty());
        finish_round(s);
        REQUIRE(s.round == 2);
        CHECK(to_vector(s.influence_on_table) == std::vector<CardId>{85});
        CHECK(s.decks[0].size() == 12);
    }
}

// === Emissaries =================================================================================

TEST_CASE("emissaries: placed one each from the first player clockwise") {
    SECTION("publisher, 4 players") {
        State s = new_game(4, Variant::publisher);
        finish_draft(s);
        CHECK(to_vector(s.placement_order) == std::vector<CardId>{0, 1, 2, 3});
        for (int seat : {0, 1, 2, 3}) {
            CHECK(s.to_act() == seat);
            play_first(s);
        }
        CHECK(s.phase == Phase::actions);
        finish_round(s);
        CHECK(to_vector(s.placement_order) == std::vector<CardId>{1, 2, 3, 0});
    }
    SECTION("yucata, 3 players") {
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            State s = new_game(3, Variant::yucata, seed);
            finish_draft(s);
            const int f = s.first_player;
            INFO("first " << f);
            CHECK(to_vector(s.placement_order) ==
                  std::vector<CardId>{static_cast<CardId>(f), static_cast<CardId>((f + 1) % 3),
                                      static_cast<CardId>((f + 2) % 3)});
            CHECK(s.to_act() == f);
        }
    }
}

TEST_CASE("emissaries: with 2 players the order is first, second, first, second") {
    State s = new_game(2, Variant::publisher);
    finish_draft(s);
    CHECK(to_vector(s.placement_order) == std::vector<CardId>{0, 1, 0, 1});
    for (int i = 0; i < 4; ++i) {
        CHECK(s.to_act() == i % 2);
        play(s, Move::place(i));
    }
    CHECK(s.spaces == std::array<Seat, 5>{0, 1, 0, 1, kNoSeat});
    CHECK(s.phase == Phase::actions);
}

TEST_CASE("emissaries: a space holds one emissary") {
    State s = new_game(4, Variant::publisher);
    finish_draft(s);
    play(s, Move::place(2));
    const State before = s;
    CHECK(s.apply(s.to_act(), Move::place(2)) == MoveError::space_taken);
    CHECK(s == before);
    CHECK_FALSE(contains(s.legal_moves(s.to_act()), Move::place(2)));
}

// === Actions ====================================================================================

TEST_CASE("actions: turns follow the emissaries from the emperor outwards") {
    State s = new_game(4, Variant::publisher);
    finish_draft(s);
    play(s, Move::place(4));  // seat 0
    play(s, Move::place(0));  // seat 1
    play(s, Move::place(3));  // seat 2
    play(s, Move::place(1));  // seat 3
    const std::array<std::pair<Seat, int>, 4> order{{{1, 0}, {3, 1}, {2, 3}, {0, 4}}};
    for (const auto& [seat, space] : order) {
        REQUIRE(s.phase == Phase::actions);
        CHECK(s.turn.seat == seat);
        CHECK(s.turn.space == space);
        CHECK(s.to_act() == seat);
        play(s, Move::take(s.offer[0]));
        play(s, Move::end_turn());
        CHECK(s.spaces[static_cast<std::size_t>(space)] == kNoSeat);
    }
    CHECK(s.round == 2);
}

TEST_CASE("actions: an emissary on space i has the bricks and cogs of spaces 0..i") {
    struct Case {
        StripSide strip;
        std::array<std::pair<int, int>, 4> bricks_cogs;  // for spaces 0, 1, 2, 4
    };
    for (const Case& c : {Case{{2, false}, {{{0, 1}, {0, 2}, {1, 2}, {3, 2}}}},     // CCBBB
                          Case{{2, true}, {{{1, 0}, {2, 0}, {3, 0}, {3, 2}}}},      // BBBCC
                          Case{{1, false}, {{{1, 0}, {1, 1}, {2, 1}, {3, 2}}}}}) {  // BCBCB
        INFO("strip " << int(c.strip.strip) << (c.strip.reversed ? " reversed" : ""));
        State s = new_game(4, Variant::publisher);
        finish_draft(s);
        s.strips[0] = c.strip;
        std::vector<Event> events;
        for (int space : {0, 1, 2, 4})
            play(s, Move::place(space), &events);
        int i = 0;
        for (int space : {0, 1, 2, 4}) {
            REQUIRE(s.turn.space == space);
            CHECK(s.turn.bricks == c.bricks_cogs[i].first);
            CHECK(s.turn.cogs == c.bricks_cogs[i].second);
            play(s, Move::take(s.offer[0]), &events);
            play(s, Move::end_turn(), &events);
            ++i;
        }
        const auto started = of_type(events, EventType::turn_started);
        REQUIRE(started.size() >= 4);
        for (std::size_t t = 0; t < 4; ++t) {
            CHECK(started[t].bricks == c.bricks_cogs[t].first);
            CHECK(started[t].cogs == c.bricks_cogs[t].second);
        }
    }
    SECTION("every strip has three bricks and two cogs; its back is its front reversed") {
        for (int strip = 0; strip < kStripCount; ++strip) {
            const StripSide front{static_cast<std::uint8_t>(strip), false};
            const StripSide back{static_cast<std::uint8_t>(strip), true};
            CHECK(front.bricks_up_to(4) == 3);
            CHECK(front.cogs_up_to(4) == 2);
            for (int space = 0; space < kStripSpaces; ++space)
                CHECK(back.at(space) == front.at(kStripSpaces - 1 - space));
        }
    }
}

TEST_CASE("actions: a turn starts by taking a card from the offer") {
    State s = new_game(4, Variant::publisher);
    to_actions(s);
    const Seat me = s.turn.seat;
    REQUIRE(s.step == Step::take_card);
    std::vector<Move> takes;
    for (CardId card : s.offer)
        takes.push_back(Move::take(card));
    CHECK(s.legal_moves(me) == takes);
    const State before = s;
    CHECK(s.apply(me, Move::end_turn()) == MoveError::wrong_phase);
    CHECK(s.apply(me, Move::produce()) == MoveError::wrong_phase);
    CHECK(s.apply(me, Move::build(s.players[me].hand[0].card, 0, 1)) == MoveError::wrong_phase);
    CHECK(s.apply(me, Move::take(s.decks[1].back())) == MoveError::card_not_available);
    CHECK(s == before);

    const CardId card = s.offer[1];
    play(s, Move::take(card));
    CHECK(s.players[me].holds(card));
    CHECK(known_to(s.players[me], card) == kEveryone);
    CHECK_FALSE(s.offer.contains(card));
    CHECK(s.offer.size() == 3);
    CHECK(s.step == Step::main);
    CHECK(s.turn.took);
    CHECK(s.turn.seat == me);
}

// === Build: placement ===========================================================================

TEST_CASE("build: orthogonally next to the city") {
    State s = at_main();
    const Seat me = s.turn.seat;
    const CardId card = give(s, me, Kind::residential_2);
    s.turn.bricks = 1;
    using Cells = std::initializer_list<std::pair<int, int>>;
    for (const auto& [x, y] : Cells{{3, 0}, {2, 1}, {-1, -1}, {0, 2}, {2, -1}}) {
        INFO(x << "," << y);
        CHECK(s.check(me, Move::build(card, x, y)) == MoveError::not_adjacent);
    }
    for (const auto& [x, y] : Cells{{2, 0}, {-1, 0}, {0, 1}, {1, 1}, {0, -1}, {1, -1}}) {
        INFO(x << "," << y);
        CHECK(s.check(me, Move::build(card, x, y)) == MoveError::none);
    }
    play(s, Move::build(card, 1, -1));
    const City& city = s.players[me].city;
    CHECK(city.at(1, -1).kind == Kind::residential_2);
    CHECK(city.at(1, -1).card == card);
    CHECK(city.building_count() == 3);
    CHECK_FALSE(s.players[me].holds(card));
    CHECK(s.turn.built);
}

TEST_CASE("build: not on an occupied cell (only an aqueduct replaces)") {
    State s = at_main();
    const Seat me = s.turn.seat;
    s.turn.bricks = 3;
    for (Kind kind : {Kind::residential_2, Kind::market, Kind::vegetable_farm, Kind::temple_luna}) {
        const CardId card = give(s, me, kind);
        INFO(info(kind).id);
        CHECK(s.check(me, Move::build(card, 0, 0)) == MoveError::cell_occupied);
        CHECK(s.check(me, Move::build(card, 1, 0)) == MoveError::cell_occupied);
    }
}

TEST_CASE("build: the city stays within a 4x4 box, negative coordinates included") {
    State s = at_main();
    const Seat me = s.turn.seat;
    put(s, me, -1, 0, Kind::residential_2);
    put(s, me, -2, 0, Kind::residential_3);  // row -2..1: four wide
    const CardId card = give(s, me, Kind::residential_2);
    s.turn.bricks = 1;
    CHECK(s.check(me, Move::build(card, 2, 0)) == MoveError::city_too_large);
    CHECK(s.check(me, Move::build(card, -3, 0)) == MoveError::city_too_large);
    CHECK(s.check(me, Move::build(card, -2, -1)) == MoveError::none);
    CHECK(s.check(me, Move::build(card, 1, 1)) == MoveError::none);
    put(s, me, 0, -1, Kind::residential_2);
    put(s, me, 0, -2, Kind::residential_2);
    put(s, me, 0, -3, Kind::residential_2);  // column -3..0: four high
    CHECK(s.check(me, Move::build(card, 0, 1)) == MoveError::city_too_large);
    CHECK(s.check(me, Move::build(card, 1, 1)) == MoveError::city_too_large);
    CHECK(s.check(me, Move::build(card, -1, -3)) == MoveError::none);
    CHECK_FALSE(contains(s.legal_moves(me), Move::build(card, 0, 1)));
    CHECK(contains(s.legal_moves(me), Move::build(card, -2, -1)));
    play(s, Move::build(card, -2, -1));
    const City& city = s.players[me].city;
    CHECK(city.at(-2, -1).card == card);
    CHECK(city.min_x() == -2);
    CHECK(city.max_x() == 1);
    CHECK(city.min_y() == -3);
    CHECK(city.max_y() == 0);
}

TEST_CASE("build: at most one aqueduct per row and per column") {
    State s = at_main();
    const Seat me = s.turn.seat;
    put(s, me, 2, 0, Kind::aqueduct);
    const CardId aqueduct = give(s, me, Kind::aqueduct);
    const CardId grand = give(s, me, Kind::grand_aqueduct);
    s.turn.bricks = 1;
    CHECK(s.check(me, Move::build(aqueduct, 2, 1)) == MoveError::aqueduct_conflict);   // column 2
    CHECK(s.check(me, Move::build(aqueduct, 2, -1)) == MoveError::aqueduct_conflict);  // column 2
    CHECK(s.check(me, Move::build(aqueduct, -1, 0)) == MoveError::aqueduct_conflict);  // row 0
    CHECK(s.check(me, Move::build(grand, 3, 0)) == MoveError::aqueduct_conflict);      // row 0
    CHECK(s.check(me, Move::build(grand, 0, 1)) == MoveError::none);
    CHECK(s.check(me, Move::build(aqueduct, 1, 1)) == MoveError::none);
    const auto moves = s.legal_moves(me);
    CHECK_FALSE(contains(moves, Move::build(aqueduct, 2, 1)));
    CHECK_FALSE(contains(moves, Move::build(aqueduct, -1, 0)));
    CHECK(contains(moves, Move::build(aqueduct, 0, 1)));
    // Other buildings are not limited.
    const CardId residence = give(s, me, Kind::residential_2);
    CHECK(s.check(me, Move::build(residence, 2, 1)) == MoveError::none);
    play(s, Move::build(aqueduct, 1, 1));
    CHECK(s.players[me].city.at(1, 1).kind == Kind::aqueduct);
}

TEST_CASE("build: an aqueduct may replace any building, the replaced card leaves with its tokens") {
    State s = at_main();
    const Seat me = s.turn.seat;
    const City& city = s.players[me].city;
    s.turn.bricks = 1;
    SECTION("the starting vegetable farm") {
        const CardId aqueduct = give(s, me, Kind::aqueduct);
        const CardId farm = city.at(0, 0).card;
        std::vector<Event> events;
        REQUIRE(s.apply(me, Move::build(aqueduct, 0, 0), &events) == MoveError::none);
        CHECK(city.at(0, 0).kind == Kind::aqueduct);
        CHECK(city.at(0, 0).card == aqueduct);
        CHECK(city.building_count() == 2);
        CHECK_FALSE(in_use(s, farm));
        CHECK_FALSE(in_deck(s, farm));
        CHECK(s.players[me].coins == 5);
        const auto built = of_type(events, EventType::built);
        REQUIRE(built.size() == 1);
        CHECK(built[0].other == farm);
    }
    SECTION("an aqueduct (the rule checked after the replacement)") {
        const CardId old = put(s, me, 1, 0, Kind::aqueduct);
        const CardId grand = give(s, me, Kind::grand_aqueduct);
        // (0,0) shares row 0 with the aqueduct that stays; (1,0) replaces that aqueduct.
        CHECK(s.check(me, Move::build(grand, 0, 0)) == MoveError::aqueduct_conflict);
        play(s, Move::build(grand, 1, 0));
        CHECK(city.at(1, 0).kind == Kind::grand_aqueduct);
        CHECK_FALSE(in_use(s, old));
        CHECK(s.players[me].influence == 1);  // the grand aqueduct's star
    }
    SECTION("thermal baths with their point tokens") {
        const CardId baths = put(s, me, 0, 1, Kind::thermal_baths, 3);
        const CardId aqueduct = give(s, me, Kind::aqueduct);
        play(s, Move::build(aqueduct, 0, 1));
        CHECK(city.at(0, 1) == Cell{Kind::aqueduct, aqueduct, 0});
        CHECK_FALSE(in_use(s, baths));
    }
    SECTION("a grain farm with its brick token, the bricks paid by the strip") {
        put(s, me, 0, 1, Kind::grain_farm, 1);
        const CardId aqueduct = give(s, me, Kind::aqueduct);
        play(s, Move::build(aqueduct, 0, 1));
        CHECK(city.at(0, 1) == Cell{Kind::aqueduct, aqueduct, 0});
        CHECK(city.brick_tokens() == 0);
        CHECK(s.players[me].coins == 5);
    }
    SECTION("a market: what it gave stays given") {
        put(s, me, 0, 1, Kind::market);
        s.players[me].coins = 7;
        const CardId aqueduct = give(s, me, Kind::aqueduct);
        play(s, Move::build(aqueduct, 0, 1));
        CHECK(s.players[me].coins == 7);
        CHECK(city.building_count() == 3);
    }
}

TEST_CASE("build: an aqueduct replacing a grain farm may spend that farm's own token (engine)") {
    // DECISIONS.md is silent; the engine spends the replaced building's token first.
    State s = at_main();
    const Seat me = s.turn.seat;
    const City& city = s.players[me].city;
    put(s, me, 0, 1, Kind::grain_farm, 1);
    put(s, me, 1, 1, Kind::grain_farm, 1);
    const CardId aqueduct = give(s, me, Kind::aqueduct);
    s.turn.bricks = 0;
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::build(aqueduct, 0, 1), &events) == MoveError::none);
    CHECK(s.players[me].coins == 5);
    CHECK(city.at(1, 1).tokens == 1);
    CHECK(city.brick_tokens() == 1);
    const auto built = of_type(events, EventType::built);
    REQUIRE(built.size() == 1);
    CHECK(built[0].brick_tokens == 1);
    CHECK(built[0].coins_paid == 0);
}

// === Build: paying ==============================================================================

TEST_CASE("build: brick tokens are spent before coins") {
    State s = at_main();
    const Seat me = s.turn.seat;
    const City& city = s.players[me].city;
    SECTION("one token and one bought brick") {
        put(s, me, 0, 1, Kind::grain_farm, 1);
        const CardId card = give(s, me, Kind::residential_4);  // 3 bricks
        s.turn.bricks = 1;
        std::vector<Event> events;
        REQUIRE(s.apply(me, Move::build(card, 2, 0), &events) == MoveError::none);
        CHECK(s.players[me].coins == 3);
        CHECK(city.at(0, 1).tokens == 0);
        const auto built = of_type(events, EventType::built);
        REQUIRE(built.size() == 1);
        CHECK(built[0].brick_tokens == 1);
        CHECK(built[0].coins_paid == 2);
    }
    SECTION("two tokens (grain farm and vineyard) and no coins") {
        put(s, me, 0, 1, Kind::grain_farm, 1);
        put(s, me, 1, 1, Kind::vineyard, 1);
        const CardId card = give(s, me, Kind::residential_3);  // 2 bricks
        s.turn.bricks = 0;
        play(s, Move::build(card, 2, 0));
        CHECK(s.players[me].coins == 5);
        CHECK(city.brick_tokens() == 0);
    }
    SECTION("tokens are kept when the strip's bricks suffice") {
        put(s, me, 0, 1, Kind::grain_farm, 1);
        const CardId card = give(s, me, Kind::residential_3);
        s.turn.bricks = 2;
        play(s, Move::build(card, 2, 0));
        CHECK(s.players[me].coins == 5);
        CHECK(city.brick_tokens() == 1);
    }
}

TEST_CASE("build: missing bricks are bought at 2 coins each") {
    struct Case {
        int bricks;
        int coins_after;
    };
    for (const Case& c : {Case{0, 4}, Case{1, 6}, Case{2, 8}, Case{3, 10}}) {
        INFO("strip bricks " << c.bricks);
        State s = at_main();
        const Seat me = s.turn.seat;
        s.players[me].coins = 10;
        const CardId card = give(s, me, Kind::residential_4);  // 3 bricks
        s.turn.bricks = static_cast<std::uint8_t>(c.bricks);
        std::vector<Event> events;
        REQUIRE(s.apply(me, Move::build(card, 2, 0), &events) == MoveError::none);
        CHECK(s.players[me].coins == c.coins_after);
        const auto built = of_type(events, EventType::built);
        REQUIRE(built.size() == 1);
        CHECK(built[0].coins_paid == 10 - c.coins_after);
    }
}

TEST_CASE("build: refused when the coins do not suffice, and then nothing changes") {
    State s = at_main();
    const Seat me = s.turn.seat;
    s.turn.bricks = 0;
    SECTION("5 coins for 3 missing bricks") {
        const CardId card = give(s, me, Kind::residential_4);
        const State before = s;
        CHECK(s.apply(me, Move::build(card, 2, 0)) == MoveError::not_enough_coins);
        CHECK(s == before);
        for (const Move& move : s.legal_moves(me))
            CHECK(move.card != card);
    }
    SECTION("a token and 3 coins for 3 missing bricks") {
        put(s, me, 0, 1, Kind::grain_farm, 1);
        s.players[me].coins = 3;
        const CardId card = give(s, me, Kind::market);
        const State before = s;
        CHECK(s.apply(me, Move::build(card, 2, 0)) == MoveError::not_enough_coins);
        CHECK(s == before);
        CHECK(s.players[me].city.brick_tokens() == 1);
    }
    SECTION("exactly enough is enough") {
        s.players[me].coins = 6;
        const CardId card = give(s, me, Kind::residential_4);
        play(s, Move::build(card, 2, 0));
        CHECK(s.players[me].coins == 0);
    }
}

// === Build: effects =============================================================================

TEST_CASE("build: a market gains a coin per adjacent building") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId card = give(s, me, Kind::market);
    s.turn.bricks = 3;
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::build(card, 1, 1), &events) == MoveError::none);
    CHECK(s.players[me].coins == 8);
    const auto built = of_type(events, EventType::built);
    REQUIRE(built.size() == 1);
    CHECK(built[0].coins_gained == 3);
    SECTION("with bought bricks") {
        State t = at_main();
        const Seat seat = t.turn.seat;
        const CardId market = give(t, seat, Kind::market);
        t.players[seat].coins = 10;
        t.turn.bricks = 0;
        play(t, Move::build(market, 2, 0));  // one neighbour: pays 6, gains 1
        CHECK(t.players[seat].coins == 5);
    }
}

TEST_CASE("build: the forum romanum gains one coin more") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId card = give(s, me, Kind::forum_romanum);
    s.turn.bricks = 3;
    play(s, Move::build(card, 1, 1));
    CHECK(s.players[me].coins == 9);
    CHECK(s.players[me].influence == 0);
}

TEST_CASE("build: an arena gains an influence token per adjacent building") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId card = give(s, me, Kind::arena);
    s.turn.bricks = 3;
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::build(card, 1, 1), &events) == MoveError::none);
    CHECK(s.players[me].influence == 3);
    CHECK(s.players[me].coins == 5);
    const auto built = of_type(events, EventType::built);
    REQUIRE(built.size() == 1);
    CHECK(built[0].influence == 3);
}

TEST_CASE("build: the colosseum gains one influence token more") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId card = give(s, me, Kind::colosseum);
    s.turn.bricks = 3;
    play(s, Move::build(card, 1, 1));
    CHECK(s.players[me].influence == 4);
}

TEST_CASE("build: thermal baths get a point token per adjacent building") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId card = give(s, me, Kind::thermal_baths);
    s.turn.bricks = 3;
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::build(card, 1, 1), &events) == MoveError::none);
    CHECK(s.players[me].city.at(1, 1).tokens == 3);
    CHECK(s.players[me].coins == 5);
    CHECK(s.players[me].influence == 0);
    const auto built = of_type(events, EventType::built);
    REQUIRE(built.size() == 1);
    CHECK(built[0].point_tokens == 3);
}

TEST_CASE("build: the imperial thermal baths get one point token more") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId card = give(s, me, Kind::imperial_thermal_baths);
    s.turn.bricks = 3;
    play(s, Move::build(card, 1, 1));
    CHECK(s.players[me].city.at(1, 1).tokens == 4);
}

TEST_CASE("build: a school draws one card per adjacent building, keeps one, the rest go under") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId school = give(s, me, Kind::school);
    s.turn.bricks = 3;
    play(s, Move::build(school, 1, 1));
    CHECK(s.turn.built);
    REQUIRE(s.step == Step::school_deck);
    CHECK(s.legal_moves(me) ==
          std::vector<Move>{Move::school_deck(1), Move::school_deck(2), Move::school_deck(3)});
    CHECK(s.check(me, Move::school_deck(0)) == MoveError::bad_deck);
    CHECK(s.check(me, Move::end_turn()) == MoveError::wrong_phase);

    const auto deck = s.decks[2];  // deck III
    const std::size_t n = deck.size();
    REQUIRE(n >= 3);
    play(s, Move::school_deck(2));
    REQUIRE(s.step == Step::school_keep);
    std::vector<CardId> drawn{deck[n - 1], deck[n - 2], deck[n - 3]};
    std::sort(drawn.begin(), drawn.end());
    CHECK(to_vector(s.school.cards) == drawn);
    CHECK(s.decks[2].size() == n - 3);

    // Keep the middle one; put the highest under first, then the lowest at the very bottom.
    const CardId keep = drawn[1];
    CHECK(s.check(me, Move::school_keep(keep, {drawn[2], kNoCard, kNoCard, kNoCard})) ==
          MoveError::bad_order);
    CHECK(s.check(me, Move::school_keep(deck[0], {drawn[0], drawn[2], kNoCard, kNoCard})) ==
          MoveError::bad_keep);
    play(s, Move::school_keep(keep, {drawn[2], drawn[0], kNoCard, kNoCard}));
    CHECK(s.players[me].holds(keep));
    CHECK(known_to(s.players[me], keep) == bit(me));
    REQUIRE(s.decks[2].size() == n - 1);
    CHECK(s.decks[2][0] == drawn[0]);
    CHECK(s.decks[2][1] == drawn[2]);
    for (std::size_t i = 0; i + 3 < n; ++i)
        CHECK(s.decks[2][i + 2] == deck[i]);
    CHECK(s.step == Step::main);
    CHECK(s.check(me, Move::build(keep, 2, 0)) == MoveError::already_built);
}

TEST_CASE("build: the university draws one card more") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId university = give(s, me, Kind::university);
    s.turn.bricks = 3;
    play(s, Move::build(university, 1, 1));
    REQUIRE(s.step == Step::school_deck);
    const auto deck = s.decks[1];  // deck II
    const std::size_t n = deck.size();
    play(s, Move::school_deck(1));
    REQUIRE(s.school.cards.size() == 4);
    for (std::size_t i = 1; i <= 4; ++i)
        CHECK(s.school.cards.contains(deck[n - i]));
    const auto drawn = to_vector(s.school.cards);
    play(s, Move::school_keep(drawn[3], {drawn[1], drawn[0], drawn[2], kNoCard}));
    REQUIRE(s.decks[1].size() == n - 1);
    CHECK(s.decks[1][0] == drawn[2]);
    CHECK(s.decks[1][1] == drawn[0]);
    CHECK(s.decks[1][2] == drawn[1]);
    CHECK(s.players[me].holds(drawn[3]));
}

TEST_CASE("build: a university surrounded by four buildings draws five") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    put(s, me, 1, 2, Kind::residential_4);
    const CardId university = give(s, me, Kind::university);
    s.turn.bricks = 3;
    play(s, Move::build(university, 1, 1));
    const auto deck = s.decks[3];  // deck IV
    const std::size_t n = deck.size();
    play(s, Move::school_deck(3));
    REQUIRE(s.school.cards.size() == 5);
    for (std::size_t i = 1; i <= 5; ++i)
        CHECK(s.school.cards.contains(deck[n - i]));
    CHECK(s.legal_moves(me).size() == 5 * 24);  // a card to keep, an order for the other four
    const auto d = to_vector(s.school.cards);
    play(s, Move::school_keep(d[2], {d[4], d[0], d[3], d[1]}));
    REQUIRE(s.decks[3].size() == n - 1);
    CHECK(s.decks[3][0] == d[1]);
    CHECK(s.decks[3][1] == d[3]);
    CHECK(s.decks[3][2] == d[0]);
    CHECK(s.decks[3][3] == d[4]);
    CHECK(s.players[me].holds(d[2]));
}

TEST_CASE("build: a school draws at most what the chosen deck holds") {
    State s = at_main();
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    s.turn.bricks = 3;
    SECTION("one card left in deck IV") {
        const CardId school = give(s, me, Kind::school);
        const CardId last = s.decks[3].back();
        s.decks[3] = StaticVector<CardId, 24>{last};
        play(s, Move::build(school, 1, 1));
        play(s, Move::school_deck(3));
        CHECK(to_vector(s.school.cards) == std::vector<CardId>{last});
        CHECK(s.legal_moves(me) == std::vector<Move>{Move::school_keep(last, kNoRest)});
        play(s, Move::school_keep(last, kNoRest));
        CHECK(s.decks[3].empty());
        CHECK(s.players[me].holds(last));
        CHECK(s.step == Step::main);
    }
    SECTION("two cards left for the university's four") {
        const CardId university = give(s, me, Kind::university);
        const CardId a = s.decks[2][0];
        const CardId b = s.decks[2][1];
        s.decks[2] = StaticVector<CardId, 24>{a, b};
        play(s, Move::build(university, 1, 1));
        play(s, Move::school_deck(2));
        CHECK(s.school.cards.size() == 2);
        play(s, Move::school_keep(a, {b, kNoCard, kNoCard, kNoCard}));
        CHECK(to_vector(s.decks[2]) == std::vector<CardId>{b});
    }
    SECTION("an empty deck is not a choice") {
        const CardId school = give(s, me, Kind::school);
        s.decks[1].clear();
        play(s, Move::build(school, 1, 1));
        CHECK(s.legal_moves(me) == std::vector<Move>{Move::school_deck(2), Move::school_deck(3)});
        CHECK(s.check(me, Move::school_deck(1)) == MoveError::bad_deck);
    }
    SECTION("no deck to draw from: no draw (engine)") {
        const CardId school = give(s, me, Kind::school);
        for (int deck = 1; deck < 4; ++deck)
            s.decks[deck].clear();
        play(s, Move::build(school, 1, 1));
        CHECK(s.step == Step::main);
        CHECK(s.players[me].hand.empty());
    }
}

TEST_CASE("build: with 2 players a school draws from deck II only") {
    State s = at_main(2);
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId school = give(s, me, Kind::school);
    s.turn.bricks = 3;
    play(s, Move::build(school, 1, 1));
    CHECK(s.legal_moves(me) == std::vector<Move>{Move::school_deck(1)});
    CHECK(s.check(me, Move::school_deck(2)) == MoveError::bad_deck);
}

TEST_CASE("build: stars give that many influence tokens") {
    struct Case {
        Kind kind;
        int influence;
    };
    for (const Case& c :
         {Case{Kind::luxury_residential_2, 1}, Case{Kind::luxury_residential_3, 1},
          Case{Kind::luxury_residential_4, 1}, Case{Kind::grand_aqueduct, 1},
          Case{Kind::temple_luna, 1}, Case{Kind::temple_mars, 3}, Case{Kind::temple_venus, 1},
          Case{Kind::temple_jupiter, 2}, Case{Kind::temple_mercury, 2},
          Case{Kind::residential_4, 0}, Case{Kind::temple_minerva, 0}, Case{Kind::aqueduct, 0}}) {
        INFO(info(c.kind).id);
        State s = at_main();
        const Seat me = s.turn.seat;
        const CardId card = give(s, me, c.kind);
        s.turn.bricks = 3;
        std::vector<Event> events;
        REQUIRE(s.apply(me, Move::build(card, 0, 1), &events) == MoveError::none);
        CHECK(s.players[me].influence == c.influence);
        CHECK(s.players[me].coins == 5);
        const auto built = of_type(events, EventType::built);
        REQUIRE(built.size() == 1);
        CHECK(built[0].influence == c.influence);
    }
}

TEST_CASE("build: the shrine costs nothing") {
    State s = at_main(4, Variant::publisher, 1, true);
    const Seat me = s.turn.seat;
    const auto shrine = static_cast<CardId>(kFirstShrine + me);
    s.players[me].add_to_hand(shrine, kEveryone);
    s.players[me].coins = 0;
    s.turn.bricks = 0;
    CHECK(contains(s.legal_moves(me), Move::build(shrine, 0, 1)));
    CHECK(s.check(me, Move::build(shrine, 3, 0)) == MoveError::not_adjacent);
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::build(shrine, 0, 1), &events) == MoveError::none);
    CHECK(s.players[me].city.at(0, 1).kind == Kind::shrine);
    CHECK(s.players[me].coins == 0);
    CHECK(s.players[me].influence == 0);
    CHECK(s.players[me].city.at(0, 1).tokens == 0);
}

// === Produce ====================================================================================

TEST_CASE("produce: missing cogs are bought at 1 coin each") {
    struct Case {
        int cogs;
        int coins_after;  // 5 - cost + 1 from the starting vegetable farm
    };
    for (const Case& c : {Case{0, 4}, Case{1, 5}, Case{2, 6}}) {
        INFO("strip cogs " << c.cogs);
        State s = at_main();
        const Seat me = s.turn.seat;
        s.turn.cogs = static_cast<std::uint8_t>(c.cogs);
        std::vector<Event> events;
        REQUIRE(s.apply(me, Move::produce(), &events) == MoveError::none);
        CHECK(s.players[me].coins == c.coins_after);
        CHECK(s.turn.produced);
        const auto produced = of_type(events, EventType::produced);
        REQUIRE(produced.size() == 1);
        CHECK(produced[0].coins_paid == 2 - c.cogs);
        CHECK(produced[0].coins_gained == 1);
    }
    SECTION("too few coins") {
        State s = at_main();
        const Seat me = s.turn.seat;
        s.turn.cogs = 0;
        s.players[me].coins = 1;
        const State before = s;
        CHECK(s.apply(me, Move::produce()) == MoveError::not_enough_coins);
        CHECK(s == before);
    }
}

TEST_CASE("produce: every vegetable farm and the vineyard give a coin") {
    State s = at_main();
    const Seat me = s.turn.seat;
    put(s, me, 0, 1, Kind::vegetable_farm);
    put(s, me, 1, 1, Kind::vineyard);
    s.turn.cogs = 2;
    play(s, Move::produce());
    CHECK(s.players[me].coins == 8);
    CHECK(s.players[me].influence == 0);
}

TEST_CASE("produce: grain farms and the vineyard get a brick token only when they have none") {
    State s = at_main();
    const Seat me = s.turn.seat;
    const City& city = s.players[me].city;
    put(s, me, 0, 1, Kind::grain_farm, 0);
    put(s, me, 1, 1, Kind::grain_farm, 1);
    put(s, me, 2, 0, Kind::vineyard, 0);
    s.turn.cogs = 2;
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::produce(), &events) == MoveError::none);
    CHECK(city.at(0, 1).tokens == 1);
    CHECK(city.at(1, 1).tokens == 1);
    CHECK(city.at(2, 0).tokens == 1);
    CHECK(city.brick_tokens() == 3);
    CHECK(s.players[me].coins == 7);  // starting farm and vineyard
    const auto produced = of_type(events, EventType::produced);
    REQUIRE(produced.size() == 1);
    CHECK(produced[0].brick_tokens == 2);
}

TEST_CASE("produce: every sheep farm gives an influence token") {
    State s = at_main();
    const Seat me = s.turn.seat;
    put(s, me, 0, 1, Kind::sheep_farm);
    put(s, me, 1, 1, Kind::sheep_farm);
    s.turn.cogs = 2;
    play(s, Move::produce());
    CHECK(s.players[me].influence == 2);
    CHECK(s.players[me].coins == 6);
}

TEST_CASE("produce: brick tokens it makes pay a later build of the same turn") {
    State s = at_main();
    const Seat me = s.turn.seat;
    put(s, me, 0, 1, Kind::grain_farm, 0);
    const CardId card = give(s, me, Kind::residential_3);  // 2 bricks
    s.turn.bricks = 1;
    s.turn.cogs = 2;
    play(s, Move::produce());
    CHECK(s.players[me].coins == 6);
    play(s, Move::build(card, 2, 0));
    CHECK(s.players[me].coins == 6);
    CHECK(s.players[me].city.brick_tokens() == 0);
    SECTION("build first, then produce") {
        State t = at_main();
        const Seat seat = t.turn.seat;
        const CardId residence = give(t, seat, Kind::residential_2);
        t.turn.bricks = 1;
        t.turn.cogs = 2;
        play(t, Move::build(residence, 2, 0));
        play(t, Move::produce());
        CHECK(t.players[seat].coins == 6);
    }
}

namespace {
struct ProduceCase {
    const char* name;
    std::vector<std::pair<Kind, int>> extra;  // buildings (and tokens) besides the starting ones
    bool keep_start_farm;
    int cogs;
    bool yucata_allows;
};

const std::vector<ProduceCase>& produce_cases() {
    static const std::vector<ProduceCase> cases{
        {"2 cogs, nothing to produce", {}, false, 2, true},
        {"1 cog, nothing to produce", {}, false, 1, false},
        {"2 cogs, one vegetable farm", {}, true, 2, true},
        {"1 cog, one vegetable farm: 1 coin for 1", {}, true, 1, false},
        {"0 cogs, one vegetable farm", {}, true, 0, false},
        {"1 cog, two vegetable farms: 2 coins for 1", {{Kind::vegetable_farm, 0}}, true, 1, true},
        {"0 cogs, two vegetable farms: 2 coins for 2", {{Kind::vegetable_farm, 0}}, true, 0, false},
        {"0 cogs, three vegetable farms",
         {{Kind::vegetable_farm, 0}, {Kind::vegetable_farm, 0}},
         true,
         0,
         true},
        {"0 cogs, a sheep farm gains influence", {{Kind::sheep_farm, 0}}, true, 0, true},
        {"0 cogs, a sheep farm alone", {{Kind::sheep_farm, 0}}, false, 0, true},
        {"0 cogs, an empty grain farm: 1 + 2 x 1 > 2", {{Kind::grain_farm, 0}}, true, 0, true},
        {"0 cogs, a full grain farm: 1 > 2 fails", {{Kind::grain_farm, 1}}, true, 0, false},
        {"1 cog, a full grain farm: 1 > 1 fails", {{Kind::grain_farm, 1}}, true, 1, false},
        {"1 cog, an empty grain farm alone: 2 > 1", {{Kind::grain_farm, 0}}, false, 1, true},
        {"0 cogs, an empty vineyard alone: 1 + 2 > 2", {{Kind::vineyard, 0}}, false, 0, true},
        {"0 cogs, a full vineyard alone: 1 > 2 fails", {{Kind::vineyard, 1}}, false, 0, false},
    };
    return cases;
}

void set_up_produce(State& s, const ProduceCase& c) {
    const Seat me = s.turn.seat;
    Player& player = s.players[me];
    player.city = City{};
    player.city.place(0, 0, c.keep_start_farm ? Kind::vegetable_farm : Kind::residential_3,
                      c.keep_start_farm ? static_cast<CardId>(kFirstStartingCard + 2 * me)
                                        : free_card(s, Kind::residential_3));
    player.city.place(1, 0, Kind::residential_2,
                      static_cast<CardId>(kFirstStartingCard + 2 * me + 1));
    int x = 0;
    for (const auto& [kind, tokens] : c.extra)
        put(s, me, x++, 1, kind, tokens);
    player.coins = 10;
    s.turn.cogs = static_cast<std::uint8_t>(c.cogs);
}
}  // namespace

TEST_CASE("produce: yucata allows it only with 2 cogs, an influence gain, or a net gain") {
    for (const ProduceCase& c : produce_cases()) {
        INFO(c.name);
        State s = at_main(4, Variant::yucata);
        const Seat me = s.turn.seat;
        set_up_produce(s, c);
        const MoveError expected = c.yucata_allows ? MoveError::none : MoveError::pointless_produce;
        CHECK(s.check(me, Move::produce()) == expected);
        CHECK(contains(s.legal_moves(me), Move::produce()) == c.yucata_allows);
        const State before = s;
        if (!c.yucata_allows) {
            CHECK(s.apply(me, Move::produce()) == MoveError::pointless_produce);
            CHECK(s == before);
        }
    }
}

TEST_CASE("produce: the publisher rules have no such restriction") {
    for (const ProduceCase& c : produce_cases()) {
        INFO(c.name);
        State s = at_main(4, Variant::publisher);
        const Seat me = s.turn.seat;
        set_up_produce(s, c);
        CHECK(s.check(me, Move::produce()) == MoveError::none);
        CHECK(contains(s.legal_moves(me), Move::produce()));
    }
}

// === One build and one produce ==================================================================

TEST_CASE("turn: one build and one produce per turn, in either order") {
    State s = at_main();
    const Seat me = s.turn.seat;
    const CardId first = give(s, me, Kind::residential_2);
    const CardId second = give(s, me, Kind::residential_2);
    s.turn.bricks = 3;
    s.turn.cogs = 2;
    play(s, Move::build(first, 2, 0));
    CHECK(s.check(me, Move::build(second, 3, 0)) == MoveError::already_built);
    play(s, Move::produce());
    CHECK(s.check(me, Move::produce()) == MoveError::already_produced);
    const State before = s;
    CHECK(s.apply(me, Move::produce()) == MoveError::already_produced);
    CHECK(s.apply(me, Move::build(second, 3, 0)) == MoveError::already_built);
    CHECK(s == before);
    CHECK(s.legal_moves(me) == std::vector<Move>{Move::end_turn()});
}

// === End of round ===============================================================================

TEST_CASE("end of round: the first player marker moves clockwise") {
    State s = new_game(4, Variant::publisher);
    finish_draft(s);
    for (int round = 1; round <= 5; ++round) {
        REQUIRE(s.round == round);
        CHECK(s.first_player == (round - 1) % 4);
        CHECK(s.placement_order[0] == (round - 1) % 4);
        std::vector<Event> events;
        finish_round(s, &events);
        const auto passed = of_type(events, EventType::first_player_passed);
        REQUIRE(passed.size() == 1);
        CHECK(passed[0].seat == round % 4);
    }
}

TEST_CASE(
    "influence: the one player with strictly the most tokens takes the cards and returns "
    "all tokens") {
    State s = new_game(4, Variant::publisher, 3);
    to_actions(s);
    put_on_table(s, 84);  // worth 3
    const std::array<int, 4> tokens{1, 0, 4, 2};
    for (int seat = 0; seat < 4; ++seat)
        s.players[seat].influence = tokens[seat];
    std::vector<Event> events;
    finish_round(s, &events);
    REQUIRE(s.round == 2);
    CHECK(to_vector(s.players[2].influence_cards) == std::vector<CardId>{84});
    CHECK(s.players[2].influence == 0);
    CHECK(s.players[0].influence == 1);
    CHECK(s.players[1].influence == 0);
    CHECK(s.players[3].influence == 2);
    CHECK(s.influence_on_table.empty());
    CHECK(s.players[2].influence_points() == 3);
    const auto awarded = of_type(events, EventType::influence_awarded);
    REQUIRE(awarded.size() == 1);
    CHECK(awarded[0].seat == 2);
    CHECK(awarded[0].count == 1);
    CHECK(awarded[0].points == 3);
    CHECK(awarded[0].influence == 4);
    SECTION("a tie below the leader does not matter") {
        State t = new_game(4, Variant::publisher, 3);
        to_actions(t);
        put_on_table(t, 84);
        const std::array<int, 4> tied_below{1, 1, 3, 0};
        for (int seat = 0; seat < 4; ++seat)
            t.players[seat].influence = tied_below[seat];
        finish_round(t);
        CHECK(to_vector(t.players[2].influence_cards) == std::vector<CardId>{84});
    }
}

TEST_CASE("influence: a tie for the most, all at 0 included, postpones") {
    for (const std::array<int, 4>& tokens :
         {std::array<int, 4>{2, 2, 1, 0}, std::array<int, 4>{0, 0, 0, 0},
          std::array<int, 4>{0, 3, 1, 3}}) {
        State s = new_game(4, Variant::publisher, 3);
        to_actions(s);
        put_on_table(s, 84);
        for (int seat = 0; seat < 4; ++seat)
            s.players[seat].influence = tokens[seat];
        std::vector<Event> events;
        finish_round(s, &events);
        REQUIRE(s.round == 2);
        CHECK(to_vector(s.influence_on_table) == std::vector<CardId>{84});
        for (int seat = 0; seat < 4; ++seat) {
            CHECK(s.players[seat].influence == tokens[seat]);
            CHECK(s.players[seat].influence_cards.empty());
        }
        CHECK(of_type(events, EventType::influence_postponed).size() == 1);
        CHECK(of_type(events, EventType::influence_awarded).empty());
    }
}

TEST_CASE("influence: postponed cards accumulate and all go to the next strict leader") {
    State s = new_game(4, Variant::publisher, 3);
    to_actions(s);
    put_on_table(s, 84);  // 3
    for (int seat = 0; seat < 4; ++seat)
        s.players[seat].influence = seat < 2 ? 2 : 0;
    finish_round(s);
    REQUIRE(s.round == 2);
    REQUIRE(to_vector(s.influence_on_table) == std::vector<CardId>{84});
    to_actions(s);
    put_on_table(s, 86);  // 6
    s.players[0].influence = 0;
    s.players[1].influence = 5;
    std::vector<Event> events;
    finish_round(s, &events);
    REQUIRE(s.round == 3);
    CHECK(to_vector(s.players[1].influence_cards) == std::vector<CardId>{84, 86});
    CHECK(s.players[1].influence_points() == 9);
    CHECK(s.players[1].influence == 0);
    CHECK(s.influence_on_table.empty());
    const auto awarded = of_type(events, EventType::influence_awarded);
    REQUIRE(awarded.size() == 1);
    CHECK(awarded[0].count == 2);
    CHECK(awarded[0].points == 9);
}

TEST_CASE("influence: a tie after the last round leaves the cards unawarded") {
    State s = new_game(4, Variant::publisher, 3);
    to_actions(s);
    s.round = 14;  // play this round as the last one
    put_on_table(s, 84);
    SECTION("a tie") {
        s.players[0].influence = 1;
        s.players[1].influence = 1;
        finish_round(s);
        REQUIRE(s.over());
        CHECK(to_vector(s.influence_on_table) == std::vector<CardId>{84});
        for (int seat = 0; seat < 4; ++seat)
            CHECK(s.players[seat].influence_cards.empty());
        CHECK(s.players[0].influence == 1);
    }
    SECTION("a strict leader still takes them") {
        s.players[3].influence = 2;
        finish_round(s);
        REQUIRE(s.over());
        CHECK(to_vector(s.players[3].influence_cards) == std::vector<CardId>{84});
        CHECK(s.influence_on_table.empty());
        CHECK(s.final_score(3).influence_cards == 3);
    }
}

// === The 2-player game ==========================================================================

TEST_CASE("rounds: 7 with 2 players, 14 with 3 or 4") {
    using Cases = std::initializer_list<std::pair<int, int>>;
    for (const auto& [players, rounds] : Cases{{2, 7}, {3, 14}, {4, 14}}) {
        INFO("players " << players);
        State s = new_game(players, Variant::publisher, 9);
        CHECK(s.rounds() == rounds);
        std::vector<Event> events;
        play_to_end(s, &events);
        CHECK(s.round == rounds);
        CHECK(static_cast<int>(of_type(events, EventType::round_started).size()) == rounds);
        CHECK(of_type(events, EventType::game_over).size() == 1);
    }
}

TEST_CASE("two players: four emissaries, each its own turn with its own bricks and cogs") {
    State s = new_game(2, Variant::publisher);
    finish_draft(s);
    s.strips[0] = StripSide{2, false};  // CCBBB
    play(s, Move::place(0));            // seat 0
    play(s, Move::place(2));            // seat 1
    play(s, Move::place(3));            // seat 0
    play(s, Move::place(4));            // seat 1
    REQUIRE(s.phase == Phase::actions);

    // Seat 0 on space 0: no brick, one cog. It buys a cog and produces.
    CHECK(s.turn == Turn{0, 0, 0, 1, false, false, false});
    CHECK(s.offer.size() == 4);
    play(s, Move::take(s.offer[0]));
    play(s, Move::produce());
    CHECK(s.players[0].coins == 5);
    play(s, Move::end_turn());

    CHECK(s.turn == Turn{1, 2, 1, 2, false, false, false});
    play(s, Move::take(s.offer[0]));
    play(s, Move::end_turn());

    // Seat 0 again, fresh: bricks and cogs of its second emissary, may produce again.
    CHECK(s.turn == Turn{0, 3, 2, 2, false, false, false});
    CHECK(s.offer.size() == 2);
    play(s, Move::take(s.offer[0]));
    play(s, Move::produce());
    CHECK(s.players[0].coins == 6);
    play(s, Move::end_turn());

    CHECK(s.turn == Turn{1, 4, 3, 2, false, false, false});
    play(s, Move::take(s.offer[0]));
    play(s, Move::end_turn());
    CHECK(s.round == 2);
    CHECK(s.players[0].hand.size() == 3);
    CHECK(s.players[1].hand.size() == 3);
}

// === Automatic actions ==========================================================================

TEST_CASE("automatic: the last draft card is kept automatically in yucata only") {
    SECTION("yucata") {
        State s = new_game(3, Variant::yucata, 4);
        const Seat first = s.first_player;
        std::vector<Event> events;
        play_first(s, &events);
        CHECK(s.phase == Phase::draft);
        play_first(s, &events);
        CHECK(s.phase == Phase::emissaries);
        const auto drafted = of_type(events, EventType::drafted);
        REQUIRE(drafted.size() == 3);
        CHECK_FALSE(drafted[0].automatic);
        CHECK_FALSE(drafted[1].automatic);
        CHECK(drafted[2].automatic);
        CHECK(drafted[2].seat == first);
        CHECK(s.players[first].hand.size() == 1);
    }
    SECTION("publisher") {
        State s = new_game(3, Variant::publisher, 4);
        std::vector<Event> events;
        play_first(s, &events);
        play_first(s, &events);
        CHECK(s.phase == Phase::draft);
        CHECK(s.to_act() == 0);
        CHECK(s.legal_moves(0).size() == 1);
        CHECK_FALSE(any_automatic(events));
    }
}

TEST_CASE("automatic: the last offer card is taken automatically in yucata only") {
    for (Variant variant : {Variant::yucata, Variant::publisher}) {
        INFO(variant_id(variant));
        State s = new_game(4, variant, 6);
        to_actions(s);
        std::vector<Event> events;
        finish_round(s, &events);
        const auto taken = of_type(events, EventType::card_taken);
        REQUIRE(taken.size() == 4);
        for (std::size_t i = 0; i < 3; ++i)
            CHECK_FALSE(taken[i].automatic);
        CHECK(taken[3].automatic == (variant == Variant::yucata));
    }
}

TEST_CASE("automatic: a turn with nothing left to do ends automatically in yucata only") {
    // The acting player has no coins, no bricks, no cogs and an empty hand.
    auto start = [](Variant variant) {
        State s = new_game(4, variant, 2);
        to_actions(s);
        const Seat me = s.turn.seat;
        s.players[me].hand.clear();
        s.players[me].coins = 0;
        s.turn.bricks = 0;
        s.turn.cogs = 0;
        return s;
    };
    SECTION("right after taking a card") {
        for (Variant variant : {Variant::yucata, Variant::publisher}) {
            INFO(variant_id(variant));
            State s = start(variant);
            const Seat me = s.turn.seat;
            std::vector<Event> events;
            REQUIRE(s.apply(me, Move::take(s.offer[0]), &events) == MoveError::none);
            const auto taken = of_type(events, EventType::card_taken);
            REQUIRE(taken.size() >= 1);
            CHECK_FALSE(taken[0].automatic);
            const auto ended = of_type(events, EventType::turn_ended);
            if (variant == Variant::yucata) {
                REQUIRE(ended.size() >= 1);
                CHECK(ended[0].seat == me);
                CHECK(ended[0].automatic);
                CHECK(s.turn.seat != me);
            } else {
                CHECK(ended.empty());
                CHECK(s.turn.seat == me);
                CHECK(s.legal_moves(me) == std::vector<Move>{Move::end_turn()});
            }
        }
    }
    SECTION("after a build, with nothing to produce with") {
        for (Variant variant : {Variant::yucata, Variant::publisher}) {
            INFO(variant_id(variant));
            State s = start(variant);
            const Seat me = s.turn.seat;
            s.turn.bricks = 1;
            const CardId residence = give(s, me, Kind::residential_2);
            play(s, Move::take(s.offer[0]));
            REQUIRE(s.turn.seat == me);
            REQUIRE(s.step == Step::main);
            std::vector<Event> events;
            REQUIRE(s.apply(me, Move::build(residence, 0, 1), &events) == MoveError::none);
            const auto ended = of_type(events, EventType::turn_ended);
            if (variant == Variant::yucata) {
                REQUIRE(ended.size() >= 1);
                CHECK(ended[0].seat == me);
                CHECK(ended[0].automatic);
            } else {
                CHECK(ended.empty());
                CHECK(s.legal_moves(me) == std::vector<Move>{Move::end_turn()});
            }
        }
    }
}

TEST_CASE("automatic: a school with a single deck to draw from draws automatically in yucata") {
    State s = at_main(2, Variant::yucata);
    const Seat me = s.turn.seat;
    three_neighbours(s, me);
    const CardId school = give(s, me, Kind::school);
    s.turn.bricks = 3;
    std::vector<Event> events;
    REQUIRE(s.apply(me, Move::build(school, 1, 1), &events) == MoveError::none);
    const auto drew = of_type(events, EventType::school_drew);
    REQUIRE(drew.size() == 1);
    CHECK(drew[0].automatic);
    CHECK(drew[0].index == 1);
    CHECK(drew[0].count == 3);
    CHECK(s.step == Step::school_keep);
}

TEST_CASE("automatic: the last emissary goes to the far end of a run of free spaces") {
    SECTION("3 players: one run left, placed automatically") {
        State s = new_game(3, Variant::yucata, 5);
        finish_draft(s);
        const Seat last = s.placement_order[2];
        CHECK(s.legal_moves(s.to_act()).size() == 5);  // not the last: anywhere
        play(s, Move::place(3));
        play(s, Move::place(4));
        // Free 0, 1, 2: only 2 is reasonable.
        CHECK(s.phase == Phase::actions);
        CHECK(s.spaces[2] == last);
        CHECK(s.spaces[0] == kNoSeat);
        CHECK(s.spaces[1] == kNoSeat);
    }
    SECTION("3 players: the far end of each run") {
        State s = new_game(3, Variant::yucata, 5);
        finish_draft(s);
        play(s, Move::place(0));
        play(s, Move::place(3));
        // Free 1, 2 and 4.
        CHECK(s.legal_moves(s.to_act()) == std::vector<Move>{Move::place(2), Move::place(4)});
        const State before = s;
        CHECK(s.apply(s.to_act(), Move::place(1)) == MoveError::unreasonable_space);
        CHECK(s == before);
    }
    SECTION("3 players: three single free spaces") {
        State s = new_game(3, Variant::yucata, 5);
        finish_draft(s);
        play(s, Move::place(1));
        play(s, Move::place(3));
        CHECK(s.legal_moves(s.to_act()) ==
              std::vector<Move>{Move::place(0), Move::place(2), Move::place(4)});
    }
    SECTION("publisher: no restriction") {
        State s = new_game(3, Variant::publisher, 5);
        finish_draft(s);
        play(s, Move::place(3));
        play(s, Move::place(4));
        CHECK(s.legal_moves(s.to_act()) ==
              std::vector<Move>{Move::place(0), Move::place(1), Move::place(2)});
        CHECK(s.phase == Phase::emissaries);
    }
}

TEST_CASE("automatic: with 2 players a run of free spaces continues across one's own emissary") {
    SECTION("own emissary at 2 between free 1 and 3: only 3") {
        State s = new_game(2, Variant::yucata, 5);
        finish_draft(s);
        const Seat second = s.placement_order[1];
        std::vector<Event> events;
        play(s, Move::place(0), &events);  // first
        play(s, Move::place(2), &events);  // second
        play(s, Move::place(4), &events);  // first
        CHECK(s.phase == Phase::actions);
        CHECK(s.spaces[3] == second);
        CHECK(s.spaces[1] == kNoSeat);
        const auto placed = of_type(events, EventType::emissary_placed);
        REQUIRE(placed.size() == 4);
        CHECK(placed[3].automatic);
        CHECK(placed[3].index == 3);
        CHECK(placed[3].seat == second);
    }
    SECTION("own emissary at 1 between free 0 and 2: only 2") {
        State s = new_game(2, Variant::yucata, 5);
        finish_draft(s);
        const Seat second = s.placement_order[1];
        play(s, Move::place(3));  // first
        play(s, Move::place(1));  // second
        play(s, Move::place(4));  // first
        CHECK(s.phase == Phase::actions);
        CHECK(s.spaces[2] == second);
    }
    SECTION("the other player's emissary ends a run") {
        State s = new_game(2, Variant::yucata, 5);
        finish_draft(s);
        play(s, Move::place(1));  // first
        play(s, Move::place(3));  // second
        play(s, Move::place(4));  // first
        // 0 ends before the first player's 1; 2 runs over the own 3 up to the first player's 4.
        CHECK(s.legal_moves(s.to_act()) == std::vector<Move>{Move::place(0), Move::place(2)});
    }
    SECTION("publisher: no restriction") {
        State s = new_game(2, Variant::publisher, 5);
        finish_draft(s);
        play(s, Move::place(0));
        play(s, Move::place(2));
        play(s, Move::place(4));
        CHECK(s.legal_moves(s.to_act()) == std::vector<Move>{Move::place(1), Move::place(3)});
    }
}

TEST_CASE("automatic: the publisher rules never move for a player") {
    for (int players = 2; players <= 4; ++players) {
        INFO("players " << players);
        std::vector<Event> events;
        State s = new_game(players, Variant::publisher, 13, false, &events);
        play_to_end(s, &events);
        CHECK_FALSE(any_automatic(events));
    }
    // The yucata rules do (at least the last draft card of every game).
    std::vector<Event> events;
    State s = new_game(4, Variant::yucata, 13, false, &events);
    play_to_end(s, &events);
    CHECK(any_automatic(events));
}

// === Game end ===================================================================================

TEST_CASE("game end: after the last round nothing more is played") {
    State s = new_game(3, Variant::publisher, 21);
    std::vector<Event> events;
    play_to_end(s, &events);
    CHECK(s.over());
    CHECK(s.phase == Phase::game_over);
    CHECK(s.round == 14);
    CHECK(s.to_act() == kNoSeat);
    REQUIRE_FALSE(events.empty());
    CHECK(events.back().type == EventType::game_over);
    for (Seat seat = 0; seat < 3; ++seat) {
        CHECK(s.legal_moves(seat).empty());
        CHECK(s.apply(seat, Move::end_turn()) == MoveError::game_over);
        CHECK(s.apply(seat, Move::place(0)) == MoveError::game_over);
    }
}

TEST_CASE("game end: winners by points, then influence tokens, then coins, else shared") {
    State s = new_game(4, Variant::publisher, 21);
    play_to_end(s);
    for (Seat seat = 0; seat < 4; ++seat) {
        Player& player = s.players[seat];
        player.city = starting_city(seat);  // scores nothing
        player.influence_cards.clear();
        player.influence = 0;
        player.coins = 0;
    }
    SECTION("most points") {
        s.players[0].coins = 5;
        s.players[1].coins = 3;
        s.players[2].coins = 10;
        CHECK(s.final_score(2).total == 10);
        CHECK(s.winners() == std::vector<Seat>{2});
    }
    SECTION("tied points: most influence tokens") {
        s.players[0].coins = 10;  // 10 points
        s.players[1].coins = 9;
        s.players[1].influence = 2;  // 9 + 1 points
        REQUIRE(s.final_score(0).total == s.final_score(1).total);
        CHECK(s.winners() == std::vector<Seat>{1});
    }
    SECTION("tied points and tokens: most coins") {
        s.players[0].coins = 7;
        s.players[0].influence_cards.push_back(84);  // 7 + 3 points
        s.players[3].coins = 10;
        REQUIRE(s.final_score(0).total == s.final_score(3).total);
        CHECK(s.winners() == std::vector<Seat>{3});
    }
    SECTION("still tied: shared") {
        s.players[1].coins = 8;
        s.players[1].influence = 1;
        s.players[3].coins = 8;
        s.players[3].influence = 1;
        s.players[0].coins = 7;
        s.players[0].influence = 1;
        CHECK(s.winners() == std::vector<Seat>{1, 3});
        CHECK(s.places() == std::vector<int>{3, 1, 4, 1});
    }
    SECTION("places: tied seats share the better place, forfeited seats come last") {
        s.players[0].coins = 9;
        s.players[1].coins = 5;
        s.players[2].coins = 5;
        s.players[3].coins = 20;
        CHECK(s.places() == std::vector<int>{2, 3, 3, 1});
        s.forfeited = 1u << 3;
        CHECK(s.places() == std::vector<int>{1, 2, 2, 4});
        CHECK(s.winners() == std::vector<Seat>{0});
        s.forfeited = 1u << 3 | 1u << 0;
        CHECK(s.places() == std::vector<int>{3, 1, 1, 3});
    }
}

// === Refused moves ==============================================================================

TEST_CASE("moves: a move of the wrong seat or of the wrong phase is refused and changes nothing") {
    State s = new_game(4, Variant::publisher);
    SECTION("draft") {
        const State before = s;
        CHECK(s.to_act() == 3);
        CHECK(s.apply(0, Move::draft(s.packet[0])) == MoveError::not_your_turn);
        CHECK(s.apply(3, Move::place(0)) == MoveError::wrong_phase);
        CHECK(s.apply(3, Move::take(s.packet[0])) == MoveError::wrong_phase);
        CHECK(s.apply(3, Move::draft(s.decks[1].back())) == MoveError::card_not_available);
        CHECK(s == before);
        CHECK(s.legal_moves(0).empty());
    }
    SECTION("emissaries") {
        finish_draft(s);
        const State before = s;
        CHECK(s.apply(1, Move::place(0)) == MoveError::not_your_turn);
        CHECK(s.apply(0, Move::take(s.offer[0])) == MoveError::wrong_phase);
        CHECK(s.apply(0, Move::draft(s.offer[0])) == MoveError::wrong_phase);
        CHECK(s == before);
    }
    SECTION("actions") {
        to_actions(s);
        const Seat me = s.turn.seat;
        const Seat other = static_cast<Seat>((me + 1) % 4);
        const State before = s;
        CHECK(s.apply(other, Move::take(s.offer[0])) == MoveError::not_your_turn);
        CHECK(s.apply(me, Move::place(1)) == MoveError::wrong_phase);
        CHECK(s == before);
        play(s, Move::take(s.offer[0]));
        const State taken = s;
        CHECK(s.apply(other, Move::end_turn()) == MoveError::not_your_turn);
        CHECK(s.apply(me, Move::take(s.offer[0])) == MoveError::wrong_phase);
        CHECK(s.apply(me, Move::school_deck(1)) == MoveError::wrong_phase);
        CHECK(s.apply(me, Move::school_keep(s.offer[0], kNoRest)) == MoveError::wrong_phase);
        CHECK(s == taken);
        CHECK(s.legal_moves(other).empty());
    }
}

}  // namespace gcor::engine
