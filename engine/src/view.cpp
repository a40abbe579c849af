#include "gcor/engine/view.hpp"

#include <cassert>

namespace gcor::engine {
namespace {

// Refills `view`'s players in place (their lists keep their storage from an earlier view) with
// what every viewer sees alike: all but the hands.
void fill_public_player_view(const State& state, Seat seat, PlayerView& view) {
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
}

// What every viewer of `state` sees alike, refilled in place.
void fill_public_view(const State& state, View& view) {
    view.options = state.options;
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
        fill_public_player_view(state, static_cast<Seat>(seat),
                                view.players[static_cast<std::size_t>(seat)]);
    view.draft_packet_size =
        state.phase == Phase::draft ? static_cast<int>(state.packet.size()) : 0;
    view.turn.reset();
    view.school_deck = -1;
    view.school_drawn = 0;
    if (state.phase == Phase::actions) {
        const Turn& turn = state.turn;
        view.turn = TurnView{turn.seat, turn.space, turn.bricks,  turn.cogs,
                             turn.took, turn.built, turn.produced};
        if (state.step == Step::school_keep) {
            view.school_deck = state.school.deck;
            view.school_drawn = static_cast<int>(state.school.cards.size());
        }
    }
    view.scores.clear();
    view.winners.clear();
    if (state.over()) {
        for (int seat = 0; seat < state.player_count(); ++seat)
            view.scores.push_back(state.final_score(static_cast<Seat>(seat)));
        view.winners = state.winners();
    }
}

// What depends on the viewer, refilled in place over a view whose public part is `state`'s: the
// hand cards it knows, the draft packet and the school's draw it may see, its moves.
void fill_viewer_view(const State& state, std::optional<Seat> viewer, View& view) {
    view.viewer = viewer;
    view.undo = false;  // a Game says when it is true
    for (int seat = 0; seat < state.player_count(); ++seat) {
        std::vector<CardId>& hand = view.players[static_cast<std::size_t>(seat)].hand;
        hand.clear();
        for (const HandCard& held : state.players[seat].hand)
            if (held.known_to == kEveryone || (viewer && ((held.known_to >> *viewer) & 1u)))
                hand.push_back(held.card);
    }
    const bool viewer_acts = viewer && *viewer == view.to_act;
    view.draft_packet.clear();
    if (state.phase == Phase::draft && viewer_acts)
        view.draft_packet.assign(state.packet.begin(), state.packet.end());
    view.school_cards.clear();
    if (state.phase == Phase::actions && state.step == Step::school_keep && viewer_acts)
        view.school_cards.assign(state.school.cards.begin(), state.school.cards.end());
    view.legal_moves.clear();
    if (viewer_acts) state.legal_moves(view.legal_moves);
}

}  // namespace

View view_for(const State& state, std::optional<Seat> viewer) {
    View view;
    view_for(state, viewer, view);
    return view;
}

void view_for(const State& state, std::optional<Seat> viewer, View& view) {
    fill_public_view(state, view);
    fill_viewer_view(state, viewer, view);
}

void view_for(const State& state, std::optional<Seat> viewer, const View& shared, View& view) {
    assert(shared.round == state.round && shared.to_act == state.to_act() &&
           shared.players.size() == static_cast<std::size_t>(state.player_count()));
    // A copy into lists that keep their storage: the public part, and the shared viewer's own
    // part, which fill_viewer_view then writes over entirely.
    view = shared;
    fill_viewer_view(state, viewer, view);
}

}  // namespace gcor::engine
