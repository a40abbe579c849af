#include "gcor/engine/view.hpp"

namespace gcor::engine {
namespace {

PlayerView player_view(const State& state, Seat seat, std::optional<Seat> viewer) {
    const Player& player = state.players[seat];
    PlayerView view;
    view.seat = seat;
    view.coins = player.coins;
    view.influence = player.influence;
    view.influence_cards.assign(player.influence_cards.begin(), player.influence_cards.end());
    player.city.for_each_building([&](int x, int y, const Cell& cell) {
        view.city.push_back({static_cast<std::int8_t>(x), static_cast<std::int8_t>(y), cell});
    });
    view.hand_size = static_cast<int>(player.hand.size());
    for (const HandCard& held : player.hand)
        if (held.known_to == kEveryone || (viewer && ((held.known_to >> *viewer) & 1u)))
            view.hand.push_back(held.card);
    return view;
}

}  // namespace

View view_for(const State& state, std::optional<Seat> viewer) {
    View view;
    view.options = state.options;
    view.viewer = viewer;
    view.phase = state.phase;
    view.step = state.step;
    view.round = state.round;
    view.rounds = state.rounds();
    view.first_player = state.first_player;
    view.to_act = state.to_act();
    for (int space = 0; space < kStripSpaces; ++space)
        view.strip[static_cast<std::size_t>(space)] = state.strips[0].at(space);
    view.emissaries = state.spaces;
    view.offer.assign(state.offer.begin(), state.offer.end());
    for (int deck = 0; deck < kDeckCount; ++deck) {
        auto& size = view.deck_sizes[static_cast<std::size_t>(deck)];
        if (deck >= state.decks_in_play()) {
            size = -1;
            continue;
        }
        for (CardId card : state.decks[static_cast<std::size_t>(deck)])
            is_influence_card(card) ? ++view.influence_cards_in_deck : ++size;
    }
    view.influence_on_table.assign(state.influence_on_table.begin(),
                                   state.influence_on_table.end());
    for (int seat = 0; seat < state.player_count(); ++seat)
        view.players.push_back(player_view(state, static_cast<Seat>(seat), viewer));

    const bool viewer_acts = viewer && *viewer == view.to_act;
    if (state.phase == Phase::draft) {
        view.draft_packet_size = static_cast<int>(state.packet.size());
        if (viewer_acts) view.draft_packet.assign(state.packet.begin(), state.packet.end());
    }
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
    if (viewer_acts) state.legal_moves(view.legal_moves);
    if (state.over()) {
        for (int seat = 0; seat < state.player_count(); ++seat)
            view.scores.push_back(state.final_score(static_cast<Seat>(seat)));
        view.winners = state.winners();
    }
    return view;
}

}  // namespace gcor::engine
