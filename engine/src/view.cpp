#include "gcor/engine/view.hpp"

namespace gcor::engine {
namespace {

// Refills `view` in place: its lists keep their storage from an earlier view.
void fill_player_view(const State& state, Seat seat, std::optional<Seat> viewer, PlayerView& view) {
    const Player& player = state.players[seat];
    view.seat = seat;
    view.coins = player.coins;
    view.influence = player.influence;
    view.influence_cards.assign(player.influence_cards.begin(), player.influence_cards.end());
    view.city.clear();
    player.city.for_each_building([&](int x, int y, const Cell& cell) {
        view.city.push_back({static_cast<std::int8_t>(x), static_cast<std::int8_t>(y), cell});
    });
    view.score = state.final_score(seat);
    view.hand_size = static_cast<int>(player.hand.size());
    view.hand.clear();
    for (const HandCard& held : player.hand)
        if (held.known_to == kEveryone || (viewer && ((held.known_to >> *viewer) & 1u)))
            view.hand.push_back(held.card);
}

}  // namespace

View view_for(const State& state, std::optional<Seat> viewer) {
    View view;
    view_for(state, viewer, view);
    return view;
}

void view_for(const State& state, std::optional<Seat> viewer, View& view) {
    view.options = state.options;
    view.viewer = viewer;
    view.phase = state.phase;
    view.step = state.step;
    view.round = state.round;
    view.rounds = state.rounds();
    view.first_player = state.first_player;
    view.to_act = state.to_act();
    view.undo = false;  // a Game says when it is true
    for (int space = 0; space < kStripSpaces; ++space)
        view.strip[static_cast<std::size_t>(space)] = state.strips[0].at(space);
    view.emissaries = state.spaces;
    view.offer.assign(state.offer.begin(), state.offer.end());
    view.influence_cards_in_deck = 0;
    for (int deck = 0; deck < kDeckCount; ++deck) {
        auto& size = view.deck_sizes[static_cast<std::size_t>(deck)];
        size = 0;
        if (deck >= state.decks_in_play()) {
            size = -1;
            continue;
        }
        for (CardId card : state.decks[static_cast<std::size_t>(deck)])
            is_influence_card(card) ? ++view.influence_cards_in_deck : ++size;
    }
    view.influence_on_table.assign(state.influence_on_table.begin(),
                                   state.influence_on_table.end());
    view.players.resize(static_cast<std::size_t>(state.player_count()));
    for (int seat = 0; seat < state.player_count(); ++seat)
        fill_player_view(state, static_cast<Seat>(seat), viewer,
                         view.players[static_cast<std::size_t>(seat)]);

    const bool viewer_acts = viewer && *viewer == view.to_act;
    view.draft_packet_size = 0;
    view.draft_packet.clear();
    if (state.phase == Phase::draft) {
        view.draft_packet_size = static_cast<int>(state.packet.size());
        if (viewer_acts) view.draft_packet.assign(state.packet.begin(), state.packet.end());
    }
    view.turn.reset();
    view.school_deck = -1;
    view.school_drawn = 0;
    view.school_cards.clear();
    if (state.phase == Phase::actions) {
        const Turn& turn = state.turn;
        view.turn = TurnView{turn.seat, turn.space, turn.bricks,  turn.cogs,
                             turn.took, turn.built, turn.produced};
        if (state.step == Step::school_keep) {
            view.school_deck = state.school.deck;
            view.school_drawn = static_cast<int>(state.school.cards.size());
            if (viewer_acts)
                view.school_cards.assign(state.school.cards.begin(), state.school.cards.end());
        }
    }
    view.legal_moves.clear();
    if (viewer_acts) state.legal_moves(view.legal_moves);
    view.scores.clear();
    view.winners.clear();
    if (state.over()) {
        for (int seat = 0; seat < state.player_count(); ++seat)
            view.scores.push_back(state.final_score(static_cast<Seat>(seat)));
        view.winners = state.winners();
    }
}

}  // namespace gcor::engine
