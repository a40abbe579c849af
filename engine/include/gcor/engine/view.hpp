#pragma once
// What one seat (or a spectator) may see, built from the data it may see.
#include <array>
#include <optional>
#include <vector>

#include "gcor/engine/state.hpp"

namespace gcor::engine {

struct CityCell {
    std::int8_t x = 0;
    std::int8_t y = 0;
    Cell cell;

    friend bool operator==(const CityCell&, const CityCell&) = default;
};

struct PlayerView {
    Seat seat = kNoSeat;
    int coins = 0;
    int influence = 0;
    std::vector<CardId> influence_cards;
    std::vector<CityCell> city;  // row by row
    int hand_size = 0;
    std::vector<CardId> hand;  // the cards of this hand the viewer knows (all of the viewer's own)
    ScoreBreakdown score;      // the running score: State::final_score as if the game ended now

    friend bool operator==(const PlayerView&, const PlayerView&) = default;
};

struct TurnView {
    Seat seat = kNoSeat;
    int space = 0;
    int bricks = 0;
    int cogs = 0;
    bool took = false;
    bool built = false;
    bool produced = false;

    friend bool operator==(const TurnView&, const TurnView&) = default;
};

struct View {
    Options options;
    std::optional<Seat> viewer;  // nullopt: a spectator
    Phase phase = Phase::draft;
    Step step = Step::take_card;
    int round = 0;
    int rounds = 0;
    Seat first_player = kNoSeat;
    Seat to_act = kNoSeat;
    std::array<Symbol, kStripSpaces> strip{};  // the strip in play, from the emperor outwards
    std::array<Seat, kStripSpaces> emissaries{};
    std::vector<CardId> offer;
    std::array<int, kDeckCount> deck_sizes{};  // buildings left; -1 for a deck not in play
    int influence_cards_in_deck = 0;
    std::vector<CardId> influence_on_table;
    std::vector<PlayerView> players;
    int draft_packet_size = 0;
    std::vector<CardId> draft_packet;  // to the drafter only
    std::optional<TurnView> turn;
    int school_deck = -1;  // while a school's draw is being resolved
    int school_drawn = 0;
    std::vector<CardId> school_cards;  // to the builder only
    std::vector<Move> legal_moves;     // to the seat to act only
    bool undo = false;  // the viewer may take back a move now (set from a Game, game.hpp)
    std::vector<ScoreBreakdown> scores;  // at the end
    std::vector<Seat> winners;

    friend bool operator==(const View&, const View&) = default;
};

View view_for(const State& state, std::optional<Seat> viewer);
// The same into `view`, whose lists keep their storage: no allocation once it has held a view
// of the same game.
void view_for(const State& state, std::optional<Seat> viewer, View& view);
// The same with what every viewer sees alike (all but the hand cards it knows, the draft packet,
// the school's draw and its moves) copied from `shared`, any viewer's view of `state`: a server
// that shows one state to several viewers builds the cities, the scores and the decks once.
void view_for(const State& state, std::optional<Seat> viewer, const View& shared, View& view);

}  // namespace gcor::engine
