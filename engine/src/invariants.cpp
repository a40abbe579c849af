// State::ok: what every state of a game keeps true, whatever was played. Checked after every
// change in builds with assertions; release builds never call it.
#include <algorithm>
#include <array>
#include <bitset>

#include "gcor/engine/state.hpp"

namespace gcor::engine {
namespace {

// The cards found so far; refuses a card that is no card or was already found elsewhere.
class CardsSeen {
  public:
    bool add(CardId card, bool influence) {
        if (card >= kCardCount || seen_.test(card) || is_influence_card(card) != influence)
            return false;
        seen_.set(card);
        return true;
    }
    template <class Cards>
    bool add_all(const Cards& cards, bool influence = false) {
        return std::all_of(cards.begin(), cards.end(),
                           [&](CardId card) { return add(card, influence); });
    }

  private:
    std::bitset<kCardCount> seen_;
};

bool hand_ok(const Player& player, Seat seat, CardsSeen& seen) {
    const auto& hand = player.hand;
    const bool sorted =
        std::is_sorted(hand.begin(), hand.end(),
                       [](const HandCard& a, const HandCard& b) { return a.card < b.card; });
    return sorted && std::all_of(hand.begin(), hand.end(), [&](const HandCard& held) {
               return (held.known_to >> seat & 1u) != 0 && seen.add(held.card, false);
           });
}

// The city fits 4x4, each building's card is of its kind, and only farms that make bricks (one
// at most) and thermal baths hold tokens.
bool city_ok(const City& city, CardsSeen& seen) {
    bool ok = city.max_x() - city.min_x() < City::kMaxSpan &&
              city.max_y() - city.min_y() < City::kMaxSpan;
    city.for_each_building([&](int, int, const Cell& cell) {
        const int max_tokens = makes_bricks(cell.kind) ? 1 : is_thermal_baths(cell.kind) ? 255 : 0;
        ok = ok && kind_of(cell.card) == cell.kind && cell.tokens <= max_tokens &&
             seen.add(cell.card, false);
    });
    return ok;
}

// No card is in two places, and each is where its kind may be (influence cards in deck I, on the
// table or won). Not that every card of the game is somewhere: tests set up scenarios by taking
// cards out of play and bringing others in (the playout tests count them exactly).
bool cards_ok(const State& state) {
    CardsSeen seen;
    for (CardId card : state.decks[0])
        if (!seen.add(card, is_influence_card(card))) return false;
    for (std::size_t deck = 1; deck < state.decks.size(); ++deck)
        if (!seen.add_all(state.decks[deck])) return false;
    if (!std::is_sorted(state.offer.begin(), state.offer.end()) || !seen.add_all(state.offer) ||
        !std::is_sorted(state.packet.begin(), state.packet.end()) || !seen.add_all(state.packet) ||
        !std::is_sorted(state.school.cards.begin(), state.school.cards.end()) ||
        !seen.add_all(state.school.cards) || !seen.add_all(state.influence_on_table, true))
        return false;
    for (std::size_t seat = 0; seat < state.players.size(); ++seat) {
        const Player& player = state.players[seat];
        if (!hand_ok(player, static_cast<Seat>(seat), seen) || !city_ok(player.city, seen) ||
            !seen.add_all(player.influence_cards, true))
            return false;
    }
    return true;
}

bool seats_ok(const State& state) {
    const int n = state.player_count();
    auto seat_ok = [n](Seat seat) { return seat < n; };
    if (!seat_ok(state.first_player) || (state.forfeited >> n) != 0) return false;
    if (!std::all_of(state.spaces.begin(), state.spaces.end(),
                     [&](Seat seat) { return seat == kNoSeat || seat_ok(seat); }))
        return false;
    for (std::size_t seat = 0; seat < state.players.size(); ++seat) {
        const Player& player = state.players[seat];
        if (static_cast<int>(seat) >= n ? !(player == Player{})
                                        : player.coins < 0 || player.influence < 0)
            return false;
    }
    for (std::size_t deck = static_cast<std::size_t>(state.decks_in_play());
         deck < state.decks.size(); ++deck)
        if (!state.decks[deck].empty()) return false;
    return std::all_of(state.strips.begin(), state.strips.end(),
                       [](const StripSide& side) { return side.strip < kStripCount; });
}

bool turn_ok(const State& state) {
    const Turn& turn = state.turn;
    if (turn.seat >= state.player_count() || turn.space >= kStripSpaces ||
        state.spaces[turn.space] != turn.seat)
        return false;
    const SchoolDraw& school = state.school;
    switch (state.step) {
        case Step::take_card:
            return !turn.took && !turn.built && !turn.produced && !state.offer.empty() &&
                   school == SchoolDraw{};
        case Step::main:
            return school == SchoolDraw{};
        case Step::school_deck:
            return turn.built && school.size > 0 && school.cards.empty();
        case Step::school_keep:
            return turn.built && !school.cards.empty() && school.cards.size() <= school.size;
    }
    return false;
}

// The phase's counters agree with each other and name the seat to act.
bool phase_ok(const State& state) {
    const auto n = static_cast<std::size_t>(state.player_count());
    const bool between_turns = state.turn == Turn{} && state.school == SchoolDraw{};
    switch (state.phase) {
        case Phase::draft:
            return state.round == 0 && between_turns && state.draft_order.size() == n &&
                   state.drafted < n && state.packet.size() == n - state.drafted;
        case Phase::emissaries: {
            const auto placed =
                static_cast<std::size_t>(std::count_if(state.spaces.begin(), state.spaces.end(),
                                                       [](Seat seat) { return seat != kNoSeat; }));
            return state.round >= 1 && state.round <= state.rounds() && between_turns &&
                   state.packet.empty() && state.placement_order.size() == (n == 2 ? 4 : n) &&
                   state.placed < state.placement_order.size() && placed == state.placed;
        }
        case Phase::actions:
            return state.round >= 1 && state.round <= state.rounds() && state.packet.empty() &&
                   turn_ok(state);
        case Phase::game_over:
            return state.round == state.rounds() && between_turns && state.packet.empty();
    }
    return false;
}

}  // namespace

bool State::ok() const {
    if (player_count() < 2 || player_count() > kMaxPlayers) return false;
    return seats_ok(*this) && phase_ok(*this) && cards_ok(*this);
}

}  // namespace gcor::engine
