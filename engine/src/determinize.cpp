// One sample of the game a seat cannot see all of, consistent with what it sees.
#include "gcor/engine/determinize.hpp"

#include "seat_bit.hpp"

#include <algorithm>
#include <bitset>
#include <cassert>

namespace gcor::engine {
namespace {

using Pool = StaticVector<CardId, 24>;

// The strip in play, from its symbols; each palindrome shows the same symbols on both sides, so
// its side is drawn.
std::optional<StripSide> strip_showing(const std::array<Symbol, kStripSpaces>& symbols, Rng& rng) {
    StaticVector<StripSide, 2 * kStripCount> matches;
    for (std::uint8_t strip = 0; strip < kStripCount; ++strip)
        for (bool reversed : {false, true}) {
            const StripSide side{strip, reversed};
            bool same = true;
            for (int space = 0; space < kStripSpaces; ++space)
                same = same && side.at(space) == symbols[static_cast<std::size_t>(space)];
            if (same) matches.push_back(side);
        }
    if (matches.empty()) return std::nullopt;
    return matches[rng.below(static_cast<std::uint32_t>(matches.size()))];
}

// How many cards the school built this turn draws: its neighbours, one more for the university.
// The view does not say which school was built now when the city has two, so the larger.
int school_draw_size(const City& city) {
    int size = 1;
    city.for_each_building([&](int x, int y, const Cell& cell) {
        if (info(cell.kind).colour == Colour::green)
            size =
                std::max(size, city.adjacent_buildings(x, y) + (info(cell.kind).special ? 1 : 0));
    });
    return size;
}

template <std::size_t N>
bool take(Pool& pool, int count, StaticVector<CardId, N>& out) {
    if (count < 0 || static_cast<std::size_t>(count) > pool.size() ||
        out.size() + static_cast<std::size_t>(count) > N)
        return false;
    for (int i = 0; i < count; ++i)
        out.push_back(pool.pop_back());
    return true;
}

template <class Cards>
bool fits(const Cards& cards, std::size_t capacity) {
    return cards.size() <= capacity &&
           std::all_of(cards.begin(), cards.end(), [](CardId card) { return card < kCardCount; });
}

// Deck I from its buildings (in drawing order) and the influence cards still under them.
bool fill_deck_one(const View& view, Pool& buildings, StaticVector<CardId, 24>& deck) {
    const int dealt = kDeckStart[1] - kDeckStart[0] - view.deck_sizes[0];
    // From the top: the influence card worth v lies below the v-th building of the deck.
    StaticVector<CardId, 24> top_down;
    int influence = 0;
    const std::array<int, 4> schedule = influence_schedule(view.options.players);
    for (int position = dealt; position <= kDeckStart[1] - kDeckStart[0]; ++position) {
        for (int value : schedule)
            if (value == position && value > dealt) {
                top_down.push_back(influence_card_with_value(value));
                ++influence;
            }
        if (position < kDeckStart[1] - kDeckStart[0]) {
            if (buildings.empty()) return false;
            top_down.push_back(buildings.pop_back());
        }
    }
    if (influence != view.influence_cards_in_deck) return false;
    for (std::size_t i = top_down.size(); i > 0; --i)
        deck.push_back(top_down[i - 1]);
    return true;
}

}  // namespace

std::optional<State> determinize(const View& view, Rng& rng) {
    if (!view.viewer || view.phase == Phase::game_over || !Rules::make(view.options))
        return std::nullopt;
    const Seat viewer = *view.viewer;
    const int n = view.options.players;
    if (viewer >= n || view.players.size() != static_cast<std::size_t>(n) || view.first_player >= n)
        return std::nullopt;

    State state;
    state.options = view.options;
    if (view.round < 0 || view.round > state.rounds()) return std::nullopt;
    state.rng = Rng(rng.next());  // used only by the setup, which is over
    state.phase = view.phase;
    state.step = view.step;
    state.round = static_cast<std::uint8_t>(view.round);
    state.first_player = view.first_player;

    // What the view shows, wherever it is; the rest of each deck's cards are hidden somewhere.
    std::bitset<kCardCount> shown;
    auto show = [&](const auto& cards) {
        for (CardId card : cards)
            shown.set(card);
    };
    if (!fits(view.offer, 4) || !fits(view.influence_on_table, 6) || !fits(view.draft_packet, 4) ||
        !fits(view.school_cards, 5))
        return std::nullopt;
    show(view.offer);
    show(view.influence_on_table);
    show(view.draft_packet);
    show(view.school_cards);
    for (int seat = 0; seat < n; ++seat) {
        const PlayerView& shown_player = view.players[static_cast<std::size_t>(seat)];
        Player& player = state.players[static_cast<std::size_t>(seat)];
        if (!fits(shown_player.influence_cards, 6) || !fits(shown_player.hand, 24) ||
            shown_player.hand_size > 24 ||
            static_cast<int>(shown_player.hand.size()) > shown_player.hand_size ||
            (seat == viewer &&
             static_cast<int>(shown_player.hand.size()) != shown_player.hand_size))
            return std::nullopt;
        player.coins = shown_player.coins;
        player.influence = shown_player.influence;
        for (CardId card : shown_player.influence_cards)
            player.influence_cards.push_back(card);
        for (const CityCell& cell : shown_player.city) {
            if (!City::in_grid(cell.x, cell.y) || cell.cell.card >= kCardCount ||
                kind_of(cell.cell.card) != cell.cell.kind || cell.cell.kind == Kind::none)
                return std::nullopt;
            player.city.place(cell.x, cell.y, cell.cell.kind, cell.cell.card, cell.cell.tokens);
            shown.set(cell.cell.card);
        }
        const auto seat_bit = bit(static_cast<Seat>(seat));
        for (CardId card : shown_player.hand)
            player.add_to_hand(card, seat == viewer ? seat_bit : seat_bit | bit(viewer));
        show(shown_player.hand);
        show(shown_player.influence_cards);
    }

    // Each deck's hidden cards, in a random order.
    std::array<Pool, kDeckCount> pools;
    for (int deck = 0; deck < state.decks_in_play(); ++deck) {
        Pool& pool = pools[static_cast<std::size_t>(deck)];
        for (int card = kDeckStart[deck]; card < kDeckStart[deck + 1]; ++card)
            if (!shown.test(static_cast<std::size_t>(card)))
                pool.push_back(static_cast<CardId>(card));
        rng.shuffle(pool);
    }

    // The strip in play as shown; the others in any order, on either side.
    const std::optional<StripSide> in_play = strip_showing(view.strip, rng);
    if (!in_play) return std::nullopt;
    state.strips[0] = *in_play;
    StaticVector<StripSide, kStripCount> below;
    for (std::uint8_t strip = 0; strip < kStripCount; ++strip)
        if (strip != in_play->strip) below.push_back(StripSide{strip, rng.below(2) == 1});
    rng.shuffle(below);
    for (std::size_t i = 0; i < below.size(); ++i)
        state.strips[i + 1] = below[i];

    state.spaces = view.emissaries;
    for (CardId card : view.offer)
        state.offer.push_back(card);
    for (CardId card : view.influence_on_table)
        state.influence_on_table.push_back(card);

    // Turn order. The draft ran from the first player of the game, who passes it on each round.
    const auto first_of_game =
        static_cast<Seat>((view.first_player + n - std::max(0, view.round - 1) % n) % n);
    for (int i = 1; i <= n; ++i)
        state.draft_order.push_back(static_cast<Seat>((first_of_game + n - i) % n));
    if (view.phase == Phase::draft) {
        if (view.draft_packet_size < 1 || view.draft_packet_size > n) return std::nullopt;
        state.drafted = static_cast<std::uint8_t>(n - view.draft_packet_size);
        if (!view.draft_packet.empty()) {
            for (CardId card : view.draft_packet)
                state.packet.push_back(card);
        } else if (!take(pools[1], view.draft_packet_size, state.packet)) {
            return std::nullopt;
        }
        std::sort(state.packet.begin(), state.packet.end());
    } else {
        state.drafted = static_cast<std::uint8_t>(n);
        for (int i = 0; i < (n == 2 ? 4 : n); ++i)
            state.placement_order.push_back(static_cast<Seat>((view.first_player + i) % n));
        state.placed = static_cast<std::uint8_t>(
            view.phase == Phase::emissaries
                ? std::count_if(view.emissaries.begin(), view.emissaries.end(),
                                [](Seat seat) { return seat != kNoSeat; })
                : static_cast<std::ptrdiff_t>(state.placement_order.size()));
    }

    if (view.phase == Phase::actions) {
        if (!view.turn || view.turn->seat >= n) return std::nullopt;
        const TurnView& turn = *view.turn;
        state.turn = Turn{turn.seat,
                          static_cast<std::uint8_t>(turn.space),
                          static_cast<std::uint8_t>(turn.bricks),
                          static_cast<std::uint8_t>(turn.cogs),
                          turn.took,
                          turn.built,
                          turn.produced};
        if (view.step == Step::school_deck) {
            state.school.size = static_cast<std::uint8_t>(
                school_draw_size(state.players[static_cast<std::size_t>(turn.seat)].city));
        } else if (view.step == Step::school_keep) {
            if (view.school_deck < 1 || view.school_deck >= state.decks_in_play() ||
                view.school_drawn < 1 || view.school_drawn > 5)
                return std::nullopt;
            state.school.deck = static_cast<std::uint8_t>(view.school_deck);
            state.school.size = static_cast<std::uint8_t>(view.school_drawn);
            if (!view.school_cards.empty()) {
                for (CardId card : view.school_cards)
                    state.school.cards.push_back(card);
            } else {
                Pool drawn;
                if (!take(pools[static_cast<std::size_t>(view.school_deck)], view.school_drawn,
                          drawn))
                    return std::nullopt;
                for (CardId card : drawn)
                    state.school.cards.push_back(card);
            }
            std::sort(state.school.cards.begin(), state.school.cards.end());
        }
    }

    // The decks: as many hidden cards of their own as they hold.
    for (int deck = 0; deck < state.decks_in_play(); ++deck) {
        const int size = view.deck_sizes[static_cast<std::size_t>(deck)];
        auto& cards = state.decks[static_cast<std::size_t>(deck)];
        if (size < 0) return std::nullopt;
        if (deck == 0 ? !fill_deck_one(view, pools[0], cards)
                      : !take(pools[static_cast<std::size_t>(deck)], size, cards))
            return std::nullopt;
    }

    // The hand cards this seat does not know came from decks II-IV (drafts and schools); what is
    // left of those cards is either in such hands or out of the game (replaced by an aqueduct).
    StaticVector<CardId, kCardCount> rest;
    for (int deck = 1; deck < state.decks_in_play(); ++deck)
        for (CardId card : pools[static_cast<std::size_t>(deck)])
            rest.push_back(card);
    rng.shuffle(rest);
    for (int seat = 0; seat < n; ++seat) {
        const PlayerView& shown_player = view.players[static_cast<std::size_t>(seat)];
        const int hidden = shown_player.hand_size - static_cast<int>(shown_player.hand.size());
        if (hidden > static_cast<int>(rest.size())) return std::nullopt;
        for (int i = 0; i < hidden; ++i)
            state.players[static_cast<std::size_t>(seat)].add_to_hand(rest.pop_back(),
                                                                      bit(static_cast<Seat>(seat)));
    }
    assert(state.ok());
    return state;
}

}  // namespace gcor::engine
