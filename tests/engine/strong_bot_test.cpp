// The strong bot: it never peeks, it is reproducible with a world budget, and it plays well.
#include <algorithm>
#include <catch2/catch.hpp>

#include "gcor/engine/bot.hpp"
#include "playout_support.hpp"

namespace gcor::engine {
namespace {

constexpr BotBudget worlds(int count) {
    return BotBudget{count, std::chrono::milliseconds(0)};
}

// A state that `viewer` cannot tell from `state`: other players' cards it does not know, the
// decks' contents and order (influence cards keep their public places), the strips below the one
// in play (order and sides) and the generator are all changed at random.
State hidden_differently(const State& state, Seat viewer, Rng& rng) {
    State other = state;
    other.rng = Rng(rng.next());
    std::vector<CardId*> slots;
    for (auto& deck : other.decks)
        for (CardId& card : deck)
            if (!is_influence_card(card)) slots.push_back(&card);
    for (int seat = 0; seat < other.player_count(); ++seat)
        for (HandCard& held : other.players[static_cast<std::size_t>(seat)].hand)
            if (held.known_to != kEveryone && ((held.known_to >> viewer) & 1u) == 0)
                slots.push_back(&held.card);
    if (viewer != state.to_act()) {
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

TEST_CASE("strong bot: never peeks: what its seat cannot see does not change its move", "[bot]") {
    int positions = 0, changed = 0;
    for (int players = 2; players <= 4; ++players) {
        const Rules rules = *Rules::make({players, Variant::yucata, players == 3});
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            State state = rules.new_game(seed);
            Rng rng(seed);
            int move_number = 0;
            while (!state.over()) {
                const Seat seat = state.to_act();
                const View view = view_for(state, seat);
                // Five positions a game with a real choice, spread over the game.
                if (move_number++ % 23 == 7 && view.legal_moves.size() > 2) {
                    INFO(players << " players, seed " << seed << ", move " << move_number);
                    const State other = hidden_differently(state, seat, rng);
                    REQUIRE(other.ok());
                    REQUIRE(view_for(other, seat) == view);
                    State same_generator = other;
                    same_generator.rng = state.rng;
                    changed += !(same_generator == state);
                    const std::uint64_t bot_seed = rng.next();
                    CHECK(choose_strong(view_for(other, seat), bot_seed, worlds(3)) ==
                          choose_strong(view, bot_seed, worlds(3)));
                    ++positions;
                }
                const Move move = choose_move(BotKind::greedy, view, rng);
                REQUIRE(state.apply(seat, move) == MoveError::none);
            }
        }
    }
    CHECK(positions >= 30);
    CHECK(changed >= positions - 1);  // the hidden cards and strips, not just the generator
}

TEST_CASE("strong bot: a world budget and a seed give the same move on any machine", "[bot]") {
    const Rules rules = *Rules::make({4, Variant::yucata, false});
    State state = rules.new_game(8);
    Rng rng(8);
    int compared = 0;
    for (int i = 0; i < 120 && !state.over(); ++i) {
        const Seat seat = state.to_act();
        const View view = view_for(state, seat);
        if (i % 20 == 5) {
            const Move move = choose_strong(view, 99, worlds(4));
            CHECK(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
                  view.legal_moves.end());
            for (int again = 0; again < 2; ++again)
                CHECK(choose_strong(view, 99, worlds(4)) == move);
            ++compared;
        }
        REQUIRE(state.apply(seat, choose_move(BotKind::greedy, view, rng)) == MoveError::none);
    }
    CHECK(compared == 6);
}

// Plays a game with a bot per seat; returns the final state.
State bot_game(const Options& options, std::uint64_t seed, const std::vector<BotKind>& bots,
               const BotBudget& budget) {
    State state = Rules::make(options)->new_game(seed);
    Rng rng(seed);
    while (!state.over()) {
        const Seat seat = state.to_act();
        const View view = view_for(state, seat);
        const Move move = choose_move(bots[seat], view, rng, budget);
        REQUIRE(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
                view.legal_moves.end());
        REQUIRE(state.apply(seat, move) == MoveError::none);
    }
    return state;
}

TEST_CASE("strong bot: plays whole games in every variation", "[bot]") {
    for (const auto& v : testing::all_variations()) {
        INFO(testing::name(v));
        std::vector<BotKind> bots(4, BotKind::greedy);
        bots[1] = BotKind::strong;
        CHECK(bot_game({v.players, v.variant, v.shrine}, 4, bots, worlds(1)).over());
    }
}

// Not the benchmark (docs/benchmarks.md): a few seeded games that show it is no worse than the
// bot it builds on. With a world budget the result is the same on every machine.
TEST_CASE("strong bot: out-scores greedy bots", "[bot]") {
    int margin = 0, wins = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        std::vector<BotKind> bots(4, BotKind::greedy);
        const auto strong = static_cast<Seat>(seed % 4);
        bots[strong] = BotKind::strong;
        const State end = bot_game({4, Variant::yucata, false}, seed, bots, worlds(3));
        int best_other = 0;
        for (Seat seat = 0; seat < 4; ++seat)
            if (seat != strong) best_other = std::max(best_other, end.final_score(seat).total);
        margin += end.final_score(strong).total - best_other;
        const auto winners = end.winners();
        wins += std::find(winners.begin(), winners.end(), strong) != winners.end();
    }
    CHECK(margin > 0);
    CHECK(wins >= 3);
}

TEST_CASE("strong bot: a time budget alone still gives a legal move", "[bot]") {
    const State state = Rules::make({2, Variant::yucata, false})->new_game(2);
    const View view = view_for(state, state.to_act());
    const Move move = choose_strong(view, 1, BotBudget{0, std::chrono::milliseconds(20)});
    CHECK(std::find(view.legal_moves.begin(), view.legal_moves.end(), move) !=
          view.legal_moves.end());
}

}  // namespace
}  // namespace gcor::engine
