#pragma once
// Shared by the generic engine tests: random playouts and checks of the state's invariants.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "gcor/engine/state.hpp"

namespace gcor::engine::testing {

struct Variation {
    int players;
    Variant variant;
    bool shrine;
};

// The variations the generic tests cover: every player count, both rule sets, with and without
// the Shrine.
inline std::vector<Variation> all_variations() {
    std::vector<Variation> out;
    for (int players = 2; players <= 4; ++players)
        for (Variant variant : {Variant::yucata, Variant::publisher})
            out.push_back({players, variant, players % 2 == (variant == Variant::yucata ? 0 : 1)});
    return out;
}

inline std::string name(const Variation& v) {
    return std::to_string(v.players) + " players, " + std::string(variant_id(v.variant)) +
           (v.shrine ? ", shrine" : "");
}

// A new game of the variation from `seed`.
inline State new_game(const Variation& v, std::uint64_t seed) {
    return Rules::make({v.players, v.variant, v.shrine})->new_game(seed);
}

// Whether `moves` holds `move`.
inline bool contains(const std::vector<Move>& moves, const Move& move) {
    return std::find(moves.begin(), moves.end(), move) != moves.end();
}

// Everything that must hold in every state of every game; "" when it does, else what broke.
std::string check_invariants(const State& state, int replaced_cards);

// Whether a hand card's `known_to` lets `viewer` (nullopt: a spectator) know it.
inline bool knows(std::uint8_t known_to, std::optional<Seat> viewer) {
    return known_to == kEveryone || (viewer && ((known_to >> *viewer) & 1u));
}

// A state that differs from `state` only in what `viewer` cannot see: the generator, the order
// and content of the decks (influence cards keep their public places), the unknown cards of other
// hands, draft packets and school draws, and the strips below the one in play (order and sides)
// are dealt out again at random.
inline State hidden_differently(const State& state, std::optional<Seat> viewer, Rng& rng) {
    State other = state;
    other.rng = Rng(rng.next());
    std::vector<CardId*> slots;
    for (auto& deck : other.decks)
        for (CardId& card : deck)
            if (!is_influence_card(card)) slots.push_back(&card);
    for (int seat = 0; seat < other.player_count(); ++seat)
        for (HandCard& held : other.players[static_cast<std::size_t>(seat)].hand)
            if (!knows(held.known_to, viewer)) slots.push_back(&held.card);
    if (!viewer || *viewer != state.to_act()) {
        for (CardId& card : other.packet)
            slots.push_back(&card);
        for (CardId& card : other.school.cards)
            slots.push_back(&card);
    }
    std::vector<CardId> cards;
    for (CardId* slot : slots)
        cards.push_back(*slot);
    rng.shuffle(cards);
    for (std::size_t i = 0; i < slots.size(); ++i)
        *slots[i] = cards[i];
    for (Player& player : other.players)
        std::sort(player.hand.begin(), player.hand.end(),
                  [](const HandCard& a, const HandCard& b) { return a.card < b.card; });
    std::sort(other.packet.begin(), other.packet.end());
    std::sort(other.school.cards.begin(), other.school.cards.end());
    std::vector<StripSide> below(other.strips.begin() + 1, other.strips.end());
    rng.shuffle(below);
    for (std::size_t i = 0; i < below.size(); ++i)
        other.strips[i + 1] = {below[i].strip, rng.below(2) == 1};
    return other;
}

// Every viewer of a game: a spectator, then each seat.
inline std::vector<std::optional<Seat>> viewers_of(int players) {
    std::vector<std::optional<Seat>> viewers{std::nullopt};
    for (int seat = 0; seat < players; ++seat)
        viewers.push_back(static_cast<Seat>(seat));
    return viewers;
}

// The leak tests' pairs: for every state of random games (`seeds` per variation) and each of its
// viewers, calls f(variation, seed, state, viewer, other), `other` differing from `state` only in
// what that viewer cannot see (hidden_differently).
template <class F>
void for_each_hidden_pair(std::uint64_t seeds, F&& f) {
    std::vector<Move> legal;
    for (const Variation& v : all_variations()) {
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            while (!state.over()) {
                for (const auto& viewer : viewers_of(v.players))
                    f(v, seed, state, viewer, hidden_differently(state, viewer, rng));
                state.legal_moves(legal);
                state.apply(state.to_act(),
                            legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
            }
        }
    }
}

}  // namespace gcor::engine::testing
