// Generic tests over many random games (OpenSpiel's style): whatever the rules, these must hold.
#include <algorithm>
#include <catch2/catch.hpp>

#include "gcor/engine/state.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

using testing::Variation;

constexpr int kSeedsPerVariation = 1000;

// A random move that may or may not be legal: mostly well-formed moves of every type with random
// arguments, sometimes with junk in fields its type does not use.
Move random_move(Rng& rng) {
    Move move;
    move.type = static_cast<MoveType>(1 + rng.below(8));
    const auto card = static_cast<CardId>(rng.below(kCardCount));
    switch (move.type) {
        case MoveType::draft:
            move = Move::draft(card);
            break;
        case MoveType::take:
            move = Move::take(card);
            break;
        case MoveType::place:
            move = Move::place(static_cast<int>(rng.below(7)));
            break;
        case MoveType::school_deck:
            move = Move::school_deck(static_cast<int>(rng.below(5)));
            break;
        case MoveType::build:
            move = Move::build(card, static_cast<int>(rng.below(11)) - 5,
                               static_cast<int>(rng.below(11)) - 5);
            break;
        case MoveType::school_keep:
            move = Move::school_keep(card, {kNoCard, kNoCard, kNoCard, kNoCard});
            for (std::size_t i = 0, n = rng.below(4); i < n; ++i)
                move.rest[i] = static_cast<CardId>(rng.below(kCardCount));
            break;
        default:
            break;
    }
    if (rng.below(8) == 0) move.index = static_cast<std::uint8_t>(move.index + 1 + rng.below(3));
    return move;
}

struct PlayoutReport {
    std::string failure;  // the first thing that went wrong, with where
    long long states = 0;
    long long moves_tried = 0;
};

// Plays one random game checking at every state: legal moves exist, are sorted and unique, each
// applies; random illegal moves and moves of other seats are refused and change nothing; the
// invariants hold. At the end, a replay of the players' moves gives the same state.
void random_playout(const Variation& v, std::uint64_t seed, PlayoutReport& report) {
    const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
    std::vector<Event> events;
    State state = rules.new_game(seed, &events);
    Rng rng(seed * 7919 + 1);
    std::vector<Move> legal, made;
    int replaced = 0;
    auto fail = [&](const std::string& what) {
        report.failure = testing::name(v) + ", seed " + std::to_string(seed) + ", move " +
                         std::to_string(made.size()) + ": " + what;
    };
    while (!state.over()) {
        ++report.states;
        const Seat seat = state.to_act();
        state.legal_moves(legal);
        if (legal.empty()) return fail("no legal move before the end");
        if (!std::is_sorted(legal.begin(), legal.end()) ||
            std::adjacent_find(legal.begin(), legal.end()) != legal.end())
            return fail("legal moves not sorted and unique");
        if (state.legal_moves(seat) != legal) return fail("legal_moves(seat) differs");
        for (const Move& move : legal) {
            State copy = state;
            ++report.moves_tried;
            if (const MoveError error = copy.apply(seat, move); error != MoveError::none)
                return fail("legal move " + move.to_string() +
                            " refused: " + std::string(error_code(error)));
        }
        for (int i = 0; i < 4; ++i) {
            const Move move = random_move(rng);
            if (std::find(legal.begin(), legal.end(), move) != legal.end()) continue;
            State copy = state;
            if (copy.apply(seat, move) == MoveError::none)
                return fail("illegal move applied: " + move.to_string());
            if (!(copy == state))
                return fail("refused move changed the state: " + move.to_string());
        }
        const Seat other = static_cast<Seat>((seat + 1) % v.players);
        if (other != seat && !state.legal_moves(other).empty())
            return fail("another seat has legal moves");
        {
            State copy = state;
            if (copy.apply(other, legal.front()) != MoveError::not_your_turn)
                return fail("a move out of turn applied");
        }
        const Move move = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        events.clear();
        if (state.apply(seat, move, &events) != MoveError::none) return fail("chosen move refused");
        made.push_back(move);
        for (const Event& event : events)
            if (event.type == EventType::built && event.other != kNoCard) ++replaced;
        if (std::string broken = testing::check_invariants(state, replaced); !broken.empty())
            return fail(broken);
    }
    if (state.round != state.rounds()) return fail("the game ended early");
    if (!state.legal_moves(0).empty() || state.apply(0, Move::end_turn()) != MoveError::game_over)
        return fail("moves after the end");
    // Replay: the same seed and the players' moves give exactly the same game.
    State replayed = rules.new_game(seed);
    for (const Move& move : made)
        if (replayed.apply(replayed.to_act(), move) != MoveError::none)
            return fail("replay refused " + move.to_string());
    if (!(replayed == state) || state_hash(replayed) != state_hash(state))
        return fail("replay differs");
    // Scores: the categories add up; the winners have the best (points, influence, coins).
    const auto winners = state.winners();
    if (winners.empty()) return fail("no winner");
    const auto places = state.places();
    for (int seat = 0; seat < v.players; ++seat) {
        const bool winner =
            std::find(winners.begin(), winners.end(), static_cast<Seat>(seat)) != winners.end();
        if (winner != (places[static_cast<std::size_t>(seat)] == 1))
            return fail("places and winners disagree");
    }
    for (int seat = 0; seat < v.players; ++seat) {
        const ScoreBreakdown s = state.final_score(static_cast<Seat>(seat));
        if (s.total != s.residential_2 + s.residential_3 + s.residential_4 + s.aqueducts +
                           s.temples + s.shrine + s.coins + s.influence_tokens + s.influence_cards)
            return fail("score categories do not add up");
        if (s.total > state.final_score(winners.front()).total)
            return fail("a loser outscored the winner");
    }
}

TEST_CASE(
    "random playouts: legal moves exist and apply, illegal ones change nothing, replays agree",
    "[playout]") {
    for (const Variation& v : testing::all_variations()) {
        PlayoutReport report;
        for (std::uint64_t seed = 1; seed <= kSeedsPerVariation && report.failure.empty(); ++seed)
            random_playout(v, seed, report);
        INFO(testing::name(v) << ": " << report.states << " states, " << report.moves_tried
                              << " moves tried");
        REQUIRE(report.failure == "");
        CHECK(report.states > kSeedsPerVariation * 50);
    }
}

// Every move `check` accepts is listed by legal_moves, and nothing else: over a broad space of
// candidate moves, not only the listed ones.
TEST_CASE("legal_moves lists exactly the moves that check accepts", "[playout]") {
    for (const Variation& v : testing::all_variations()) {
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            std::vector<Move> legal, candidates;
            while (!state.over()) {
                const Seat seat = state.to_act();
                state.legal_moves(legal);
                candidates.clear();
                for (int card = 0; card < kCardCount; ++card) {
                    const auto id = static_cast<CardId>(card);
                    candidates.push_back(Move::draft(id));
                    candidates.push_back(Move::take(id));
                    if (state.players[seat].holds(id))
                        for (int y = -4; y <= 5; ++y)
                            for (int x = -4; x <= 5; ++x)
                                candidates.push_back(Move::build(id, x, y));
                }
                for (int i = 0; i <= kStripSpaces; ++i)
                    candidates.push_back(Move::place(i));
                for (int deck = 0; deck <= kDeckCount; ++deck)
                    candidates.push_back(Move::school_deck(deck));
                candidates.push_back(Move::produce());
                candidates.push_back(Move::end_turn());
                // School: every keep with every ordering of the rest, and some malformed ones.
                for (CardId keep : state.school.cards) {
                    std::vector<CardId> rest;
                    for (CardId card : state.school.cards)
                        if (card != keep) rest.push_back(card);
                    do {
                        std::array<CardId, 4> order{kNoCard, kNoCard, kNoCard, kNoCard};
                        std::copy(rest.begin(), rest.end(), order.begin());
                        candidates.push_back(Move::school_keep(keep, order));
                        if (!rest.empty()) {
                            order[rest.size() - 1] = keep;
                            candidates.push_back(Move::school_keep(keep, order));
                            order[rest.size() - 1] = kNoCard;
                            candidates.push_back(Move::school_keep(keep, order));
                        }
                    } while (std::next_permutation(rest.begin(), rest.end()));
                }
                std::vector<Move> accepted;
                for (const Move& move : candidates)
                    if (state.check(seat, move) == MoveError::none) accepted.push_back(move);
                std::sort(accepted.begin(), accepted.end());
                accepted.erase(std::unique(accepted.begin(), accepted.end()), accepted.end());
                INFO(testing::name(v) << ", seed " << seed << ", round " << int(state.round));
                REQUIRE(accepted == legal);
                state.apply(seat, legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
            }
        }
    }
}

}  // namespace
}  // namespace gcor::engine
