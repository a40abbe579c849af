// The game's flow: setup, the draft, rounds, emissaries, action turns, influence and the end.
// One function per phase, in the order of the rulebook. Whether a move may be made, and which
// may, is in legal_moves.cpp.
#include "gcor/engine/state.hpp"

#include "seat_bit.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>

namespace gcor::engine {
namespace {

void emit(std::vector<Event>* events, Event event, bool automatic) {
    if (!events) return;
    event.automatic = automatic;
    events->push_back(event);
}

template <std::size_t N>
void insert_sorted(StaticVector<CardId, N>& cards, CardId card) {
    std::size_t at = 0;
    while (at < cards.size() && cards[at] < card)
        ++at;
    cards.insert_at(at, card);
}

template <std::size_t N>
void erase_value(StaticVector<CardId, N>& cards, CardId card) {
    cards.erase_at(cards.index_of(card));
}

}  // namespace

std::string_view variant_id(Variant variant) {
    return variant == Variant::yucata ? "yucata" : "publisher";
}

std::optional<Variant> variant_from_id(std::string_view id) {
    if (id == "yucata") return Variant::yucata;
    if (id == "publisher") return Variant::publisher;
    return std::nullopt;
}

Seat State::to_act() const {
    switch (phase) {
        case Phase::draft:
            return draft_order[drafted];
        case Phase::emissaries:
            return placement_order[placed];
        case Phase::actions:
            return turn.seat;
        case Phase::game_over:
            break;
    }
    return kNoSeat;
}

// --- Setup --------------------------------------------------------------------------------------

void State::setup(std::uint64_t seed, std::vector<Event>* events) {
    rng = Rng(seed);
    const int n = player_count();
    first_player = options.variant == Variant::yucata
                       ? static_cast<Seat>(rng.below(static_cast<std::uint32_t>(n)))
                       : 0;
    for (int seat = 0; seat < n; ++seat) {
        Player& player = players[static_cast<std::size_t>(seat)];
        const auto start = static_cast<CardId>(kFirstStartingCard + 2 * seat);
        player.city.place(0, 0, Kind::vegetable_farm, start);
        player.city.place(1, 0, Kind::residential_2, static_cast<CardId>(start + 1));
        if (options.shrine) player.add_to_hand(static_cast<CardId>(kFirstShrine + seat), kEveryone);
    }
    for (int deck = 0; deck < decks_in_play(); ++deck) {
        auto& cards = decks[static_cast<std::size_t>(deck)];
        for (int card = kDeckStart[deck]; card < kDeckStart[deck + 1]; ++card)
            cards.push_back(static_cast<CardId>(card));
        rng.shuffle(cards);
    }
    // Influence cards go into deck I after a fixed number of its cards, counted from the top.
    {
        auto& deck = decks[0];
        const std::array<int, 4> after = influence_schedule(n);
        for (std::size_t i = 0; i < after.size() && after[i] > 0; ++i) {
            // Inserted cards shift the deck: after[i] cards plus the i influence cards above.
            const auto from_top = static_cast<std::size_t>(after[i]) + i;
            deck.insert_at(deck.size() - from_top, influence_card_with_value(after[i]));
        }
    }
    for (std::size_t i = 0; i < strips.size(); ++i)
        strips[i] = StripSide{static_cast<std::uint8_t>(i), rng.below(2) == 1};
    rng.shuffle(strips);

    // The draft runs counter-clockwise from the first player's right; the first player is last.
    for (int i = 1; i <= n; ++i)
        draft_order.push_back(static_cast<Seat>((first_player + n - i) % n));
    for (int i = 0; i < n; ++i)
        insert_sorted(packet, decks[1].pop_back());
    phase = Phase::draft;
    Event started{EventType::game_started};
    started.seat = first_player;
    emit(events, started, false);
}

std::optional<Rules> Rules::make(const Options& options, std::string* error) {
    if (options.players < 2 || options.players > kMaxPlayers) {
        if (error) *error = "a table has 2, 3 or 4 players";
        return std::nullopt;
    }
    return Rules(options);
}

State Rules::new_game(std::uint64_t seed, std::vector<Event>* events) const {
    State state;
    state.options = options_;
    state.setup(seed, events);
    state.make_automatic_moves(events);
    assert(state.ok());
    return state;
}

// --- Applying moves -----------------------------------------------------------------------------

MoveError State::apply(Seat seat, const Move& move, std::vector<Event>* events,
                       bool waits_for_end) {
    if (const MoveError error = check(seat, move); error != MoveError::none) return error;
    // Only the end of the turn the move was made in waits: the automatic moves before it (a
    // school's draw) are all in that turn, and a move that ends the turn has nothing to hold.
    const bool hold_end =
        waits_for_end && phase == Phase::actions && move.type != MoveType::end_turn;
    apply_legal(move, events, false);
    make_automatic_moves(events, hold_end);
    assert(ok());
    return MoveError::none;
}

bool State::turn_waits_for_end() const {
    if (options.variant != Variant::yucata || phase != Phase::actions || step != Step::main)
        return false;
    const std::optional<Move> only = only_legal_move();
    return only && only->type == MoveType::end_turn;
}

void State::make_automatic_moves(std::vector<Event>* events, bool hold_end) {
    if (options.variant != Variant::yucata) return;
    while (!over()) {
        const std::optional<Move> only = only_legal_move();
        if (!only || (hold_end && only->type == MoveType::end_turn)) return;
        assert(check(to_act(), *only) == MoveError::none);
        apply_legal(*only, events, true);
    }
}

void State::apply_legal(const Move& move, std::vector<Event>* events, bool automatic) {
    switch (phase) {
        case Phase::draft:
            return apply_draft(move, events, automatic);
        case Phase::emissaries:
            return apply_emissary(move, events, automatic);
        case Phase::actions:
            return apply_action(move, events, automatic);
        case Phase::game_over:
            break;
    }
    assert(false && "no move after the game");
}

void State::apply_draft(const Move& move, std::vector<Event>* events, bool automatic) {
    const Seat seat = to_act();
    erase_value(packet, move.card);
    // Whoever passed the last card knows who holds it.
    std::uint8_t known = bit(seat);
    if (packet.empty() && drafted > 0) known |= bit(draft_order[drafted - 1u]);
    players[seat].add_to_hand(move.card, known);
    Event event{EventType::drafted};
    event.seat = seat;
    event.card = move.card;
    event.known_to = known;
    emit(events, event, automatic);
    if (++drafted == draft_order.size()) start_round(events);
}

void State::apply_emissary(const Move& move, std::vector<Event>* events, bool automatic) {
    const Seat seat = to_act();
    spaces[move.index] = seat;
    Event event{EventType::emissary_placed};
    event.seat = seat;
    event.index = move.index;
    emit(events, event, automatic);
    if (++placed == placement_order.size()) {
        phase = Phase::actions;
        start_next_turn(events);
    }
}

void State::apply_action(const Move& move, std::vector<Event>* events, bool automatic) {
    const Seat seat = turn.seat;
    Player& player = players[seat];
    Event event{};
    event.seat = seat;
    switch (move.type) {
        case MoveType::take:
            erase_value(offer, move.card);
            player.add_to_hand(move.card, kEveryone);
            turn.took = true;
            step = Step::main;
            event.type = EventType::card_taken;
            event.card = move.card;
            break;
        case MoveType::build: {
            event.type = EventType::built;
            const int draw = build_on(player, move.card, move.x, move.y, turn.bricks, event);
            turn.built = true;
            emit(events, event, automatic);
            bool any_deck = false;
            for (int deck = 1; deck < decks_in_play(); ++deck)
                any_deck |= school_deck_eligible(deck);
            if (draw > 0 && any_deck) {
                school = SchoolDraw{static_cast<std::uint8_t>(draw), 0, {}};
                step = Step::school_deck;
            }
            return;
        }
        case MoveType::produce:
            event.type = EventType::produced;
            produce_on(player, turn.cogs, event);
            turn.produced = true;
            break;
        case MoveType::school_deck: {
            auto& deck = decks[move.index];
            school.deck = move.index;
            while (school.cards.size() < school.size && !deck.empty())
                insert_sorted(school.cards, deck.pop_back());
            step = Step::school_keep;
            event.type = EventType::school_drew;
            event.index = move.index;
            event.count = static_cast<std::int16_t>(school.cards.size());
            break;
        }
        case MoveType::school_keep: {
            auto& deck = decks[school.deck];
            player.add_to_hand(move.card, bit(seat));
            // The deck's bottom is its front: each card goes beneath the ones put back before it.
            for (int i = 0; i < move.rest_count(); ++i)
                deck.insert_at(0, move.rest[static_cast<std::size_t>(i)]);
            event.type = EventType::school_kept;
            event.card = move.card;
            event.known_to = bit(seat);
            event.index = school.deck;
            event.count = static_cast<std::int16_t>(move.rest_count());
            school = SchoolDraw{};
            step = Step::main;
            break;
        }
        case MoveType::end_turn:
            spaces[turn.space] = kNoSeat;
            event.type = EventType::turn_ended;
            emit(events, event, automatic);
            turn = Turn{};
            start_next_turn(events);
            return;
        default:
            assert(false && "checked move of another phase");
            return;
    }
    emit(events, event, automatic);
}

// --- Rounds -------------------------------------------------------------------------------------

void State::start_round(std::vector<Event>* events) {
    ++round;
    phase = Phase::emissaries;
    // The top strip is turned over and goes under the stack; the next one is in play.
    StripSide top = strips[0];
    std::rotate(strips.begin(), strips.begin() + 1, strips.end());
    top.reversed = !top.reversed;
    strips.back() = top;
    spaces.fill(kNoSeat);
    Event started{EventType::round_started};
    started.count = round;
    emit(events, started, false);
    draw_offer(events);

    const int n = player_count();
    placement_order.clear();
    placed = 0;
    const int emissaries = n == 2 ? 4 : n;
    for (int i = 0; i < emissaries; ++i)
        placement_order.push_back(static_cast<Seat>((first_player + i) % n));
}

void State::draw_offer(std::vector<Event>* events) {
    auto reveal_influence = [&] {
        auto& deck = decks[0];
        while (!deck.empty() && is_influence_card(deck.back())) {
            const CardId card = deck.pop_back();
            influence_on_table.push_back(card);
            Event event{EventType::influence_card_revealed};
            event.card = card;
            emit(events, event, false);
        }
    };
    const int per_deck = player_count() == 2 ? 2 : 1;
    for (int d = 0; d < decks_in_play(); ++d) {
        auto& deck = decks[static_cast<std::size_t>(d)];
        for (int i = 0; i < per_deck; ++i) {
            if (d == 0) reveal_influence();
            if (deck.empty()) break;
            const CardId card = deck.pop_back();
            insert_sorted(offer, card);
            Event event{EventType::offer_drawn};
            event.card = card;
            event.index = static_cast<std::uint8_t>(d);
            emit(events, event, false);
        }
    }
    reveal_influence();
}

void State::start_next_turn(std::vector<Event>* events) {
    int space = 0;
    while (space < kStripSpaces && spaces[static_cast<std::size_t>(space)] == kNoSeat)
        ++space;
    if (space == kStripSpaces) return end_round(events);
    const StripSide strip = strips[0];
    turn = Turn{spaces[static_cast<std::size_t>(space)], static_cast<std::uint8_t>(space),
                static_cast<std::uint8_t>(strip.bricks_up_to(space)),
                static_cast<std::uint8_t>(strip.cogs_up_to(space))};
    step = offer.empty() ? Step::main : Step::take_card;
    Event event{EventType::turn_started};
    event.seat = turn.seat;
    event.index = turn.space;
    event.bricks = turn.bricks;
    event.cogs = turn.cogs;
    emit(events, event, false);
}

void State::end_round(std::vector<Event>* events) {
    first_player = static_cast<Seat>((first_player + 1) % player_count());
    Event passed{EventType::first_player_passed};
    passed.seat = first_player;
    emit(events, passed, false);
    score_influence(events);
    if (round == rounds()) {
        phase = Phase::game_over;
        emit(events, Event{EventType::game_over}, false);
        return;
    }
    start_round(events);
}

// The one player with strictly the most influence tokens takes every influence card on the table
// and returns all their tokens; a tie leaves the cards for a later round.
void State::score_influence(std::vector<Event>* events) {
    if (influence_on_table.empty()) return;
    int best = -1;
    Seat leader = kNoSeat;
    bool tie = false;
    for (int seat = 0; seat < player_count(); ++seat) {
        const int influence = players[static_cast<std::size_t>(seat)].influence;
        if (influence > best) {
            best = influence;
            leader = static_cast<Seat>(seat);
            tie = false;
        } else if (influence == best) {
            tie = true;
        }
    }
    if (tie) {
        emit(events, Event{EventType::influence_postponed}, false);
        return;
    }
    Player& winner = players[leader];
    Event event{EventType::influence_awarded};
    event.seat = leader;
    event.count = static_cast<std::int16_t>(influence_on_table.size());
    for (CardId card : influence_on_table) {
        winner.influence_cards.push_back(card);
        event.points = static_cast<std::int16_t>(event.points + influence_value(card));
    }
    event.influence = static_cast<std::int16_t>(winner.influence);
    winner.influence = 0;
    influence_on_table.clear();
    emit(events, event, false);
}

namespace {

// What ranks the players at the end: points, then influence tokens, then coins.
std::array<int, 3> ranking_key(const State& state, int seat) {
    const Player& player = state.players[static_cast<std::size_t>(seat)];
    return {state.final_score(static_cast<Seat>(seat)).total, player.influence, player.coins};
}

}  // namespace

std::vector<Seat> State::winners() const {
    auto key = [&](int seat) { return ranking_key(*this, seat); };
    auto playing = [&](int seat) { return (forfeited >> seat & 1) == 0; };
    std::array<int, 3> best{-1, -1, -1};
    for (int seat = 0; seat < player_count(); ++seat)
        if (playing(seat)) best = std::max(best, key(seat));
    std::vector<Seat> result;
    for (int seat = 0; seat < player_count(); ++seat)
        if (playing(seat) && key(seat) == best) result.push_back(static_cast<Seat>(seat));
    return result;
}

std::vector<int> State::places() const {
    auto playing = [&](int seat) { return (forfeited >> seat & 1) == 0; };
    int players_left = 0;
    for (int seat = 0; seat < player_count(); ++seat)
        players_left += playing(seat) ? 1 : 0;
    std::vector<int> result;
    for (int seat = 0; seat < player_count(); ++seat) {
        if (!playing(seat)) {
            result.push_back(players_left + 1);
            continue;
        }
        int better = 0;
        for (int other = 0; other < player_count(); ++other)
            if (playing(other) && ranking_key(*this, other) > ranking_key(*this, seat)) ++better;
        result.push_back(better + 1);
    }
    return result;
}

}  // namespace gcor::engine
