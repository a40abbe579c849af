// What a seat may do: the checks of a move against the rules, and the list of legal moves made
// with the same predicates (a test checks that check() accepts exactly the listed moves). What a
// move does is in state.cpp.
#include <algorithm>
#include <bit>

#include "gcor/engine/state.hpp"

namespace gcor::engine {
namespace {

// Calls `f(move)` for each legal build, in sorted order (cards, then cells row by row, which is
// the order of the city's bits), until it returns true.
template <class F>
bool for_each_legal_build(const Player& player, int strip_bricks, F&& f) {
    const City& city = player.city;
    const City::Mask empty_cells = city.placeable_mask();
    const City::Mask any_cells = empty_cells | city.occupied_mask();
    const int brick_tokens = city.brick_tokens();
    for (const HandCard& held : player.hand) {
        const Kind kind = kind_of(held.card);
        if (build_cost(kind, strip_bricks, brick_tokens).coins > player.coins) continue;
        const bool aqueduct = is_aqueduct(kind);
        for (City::Mask cells = aqueduct ? any_cells : empty_cells; cells != 0;
             cells &= cells - 1) {
            const int i = std::countr_zero(cells);
            const int x = City::x_of(i), y = City::y_of(i);
            if (aqueduct && !city.aqueduct_allowed(x, y)) continue;
            if (f(Move::build(held.card, x, y))) return true;
        }
    }
    return false;
}

}  // namespace

// --- Checking moves -----------------------------------------------------------------------------

MoveError State::check(Seat seat, const Move& move) const {
    if (!move.well_formed()) return MoveError::malformed_move;
    if (over()) return MoveError::game_over;
    if (seat != to_act()) return MoveError::not_your_turn;
    switch (phase) {
        case Phase::draft:
            return check_draft(move);
        case Phase::emissaries:
            return check_emissary(move);
        case Phase::actions:
            return check_action(move);
        case Phase::game_over:
            break;
    }
    return MoveError::game_over;
}

MoveError State::check_draft(const Move& move) const {
    if (move.type != MoveType::draft) return MoveError::wrong_phase;
    return packet.contains(move.card) ? MoveError::none : MoveError::card_not_available;
}

MoveError State::check_emissary(const Move& move) const {
    if (move.type != MoveType::place) return MoveError::wrong_phase;
    if (move.index >= kStripSpaces) return MoveError::bad_space;
    if (spaces[move.index] != kNoSeat) return MoveError::space_taken;
    return space_reasonable(move.index) ? MoveError::none : MoveError::unreasonable_space;
}

// Yucata: the last emissary of a round goes only to the far end of a run of free spaces (in two
// players a run may pass over one's own emissary); a nearer space gives fewer symbols and the
// same turn order.
bool State::space_reasonable(int space) const {
    if (options.variant != Variant::yucata || placed + 1u != placement_order.size()) return true;
    const Seat seat = to_act();
    int next = space + 1;
    while (next < kStripSpaces && player_count() == 2 &&
           spaces[static_cast<std::size_t>(next)] == seat)
        ++next;
    return next >= kStripSpaces || spaces[static_cast<std::size_t>(next)] != kNoSeat;
}

MoveError State::check_action(const Move& move) const {
    switch (step) {
        case Step::take_card:
            if (move.type != MoveType::take) return MoveError::wrong_phase;
            return offer.contains(move.card) ? MoveError::none : MoveError::card_not_available;
        case Step::main:
            switch (move.type) {
                case MoveType::build:
                    return check_build(move);
                case MoveType::produce:
                    return check_produce();
                case MoveType::end_turn:
                    return MoveError::none;
                default:
                    return MoveError::wrong_phase;
            }
        case Step::school_deck:
            if (move.type != MoveType::school_deck) return MoveError::wrong_phase;
            return school_deck_eligible(move.index) ? MoveError::none : MoveError::bad_deck;
        case Step::school_keep:
            return check_school_keep(move);
    }
    return MoveError::wrong_phase;
}

MoveError State::check_build(const Move& move) const {
    if (turn.built) return MoveError::already_built;
    const Player& player = players[turn.seat];
    if (!player.holds(move.card)) return MoveError::card_not_available;
    const Kind kind = kind_of(move.card);
    if (const MoveError error = placement_error(player.city, kind, move.x, move.y);
        error != MoveError::none)
        return error;
    if (build_cost(player, kind, turn.bricks).coins > player.coins)
        return MoveError::not_enough_coins;
    return MoveError::none;
}

MoveError State::check_produce() const {
    if (turn.produced) return MoveError::already_produced;
    const Player& player = players[turn.seat];
    if (produce_cost(turn.cogs) > player.coins) return MoveError::not_enough_coins;
    if (options.variant == Variant::yucata && !produce_worthwhile(player, turn.cogs))
        return MoveError::pointless_produce;
    return MoveError::none;
}

bool State::school_deck_eligible(int deck) const {
    return deck >= 1 && deck < decks_in_play() && !decks[static_cast<std::size_t>(deck)].empty();
}

MoveError State::check_school_keep(const Move& move) const {
    if (move.type != MoveType::school_keep) return MoveError::wrong_phase;
    if (!school.cards.contains(move.card)) return MoveError::bad_keep;
    const int rest = move.rest_count();
    if (rest != static_cast<int>(school.cards.size()) - 1) return MoveError::bad_order;
    for (int i = 0; i < rest; ++i) {
        const CardId card = move.rest[static_cast<std::size_t>(i)];
        if (card == move.card || !school.cards.contains(card)) return MoveError::bad_order;
        for (int j = 0; j < i; ++j)
            if (move.rest[static_cast<std::size_t>(j)] == card) return MoveError::bad_order;
    }
    return MoveError::none;
}

// --- Legal moves --------------------------------------------------------------------------------

std::vector<Move> State::legal_moves(Seat seat) const {
    std::vector<Move> moves;
    if (!over() && seat == to_act()) legal_moves(moves);
    return moves;
}

void State::legal_moves(std::vector<Move>& out) const {
    out.clear();
    switch (phase) {
        case Phase::draft:
            for (CardId card : packet)
                out.push_back(Move::draft(card));
            return;
        case Phase::emissaries:
            for (int space = 0; space < kStripSpaces; ++space)
                if (spaces[static_cast<std::size_t>(space)] == kNoSeat && space_reasonable(space))
                    out.push_back(Move::place(space));
            return;
        case Phase::actions:
            break;
        case Phase::game_over:
            return;
    }
    switch (step) {
        case Step::take_card:
            for (CardId card : offer)
                out.push_back(Move::take(card));
            return;
        case Step::main:
            if (!turn.built)
                for_each_legal_build(players[turn.seat], turn.bricks, [&](const Move& move) {
                    out.push_back(move);
                    return false;
                });
            if (check_produce() == MoveError::none) out.push_back(Move::produce());
            out.push_back(Move::end_turn());
            return;
        case Step::school_deck:
            for (int deck = 1; deck < decks_in_play(); ++deck)
                if (school_deck_eligible(deck)) out.push_back(Move::school_deck(deck));
            return;
        case Step::school_keep:
            for (CardId keep : school.cards) {
                std::array<CardId, 4> rest{kNoCard, kNoCard, kNoCard, kNoCard};
                std::size_t count = 0;
                for (CardId card : school.cards)
                    if (card != keep) rest[count++] = card;
                do {
                    out.push_back(Move::school_keep(keep, rest));
                } while (std::next_permutation(rest.begin(),
                                               rest.begin() + static_cast<std::ptrdiff_t>(count)));
            }
            return;
    }
}

// The only legal move, found without listing every move (this runs after every move).
std::optional<Move> State::only_legal_move() const {
    switch (phase) {
        case Phase::draft:
            if (packet.size() == 1) return Move::draft(packet[0]);
            return std::nullopt;
        case Phase::emissaries: {
            std::optional<Move> only;
            for (int space = 0; space < kStripSpaces; ++space)
                if (spaces[static_cast<std::size_t>(space)] == kNoSeat && space_reasonable(space)) {
                    if (only) return std::nullopt;
                    only = Move::place(space);
                }
            return only;
        }
        case Phase::actions:
            break;
        case Phase::game_over:
            return std::nullopt;
    }
    switch (step) {
        case Step::take_card:
            if (offer.size() == 1) return Move::take(offer[0]);
            return std::nullopt;
        case Step::main: {
            const bool can_build =
                !turn.built && for_each_legal_build(players[turn.seat], turn.bricks,
                                                    [](const Move&) { return true; });
            if (can_build || check_produce() == MoveError::none) return std::nullopt;
            return Move::end_turn();
        }
        case Step::school_deck: {
            std::optional<Move> only;
            for (int deck = 1; deck < decks_in_play(); ++deck)
                if (school_deck_eligible(deck)) {
                    if (only) return std::nullopt;
                    only = Move::school_deck(deck);
                }
            return only;
        }
        case Step::school_keep:
            if (school.cards.size() == 1)
                return Move::school_keep(school.cards[0], {kNoCard, kNoCard, kNoCard, kNoCard});
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace gcor::engine
