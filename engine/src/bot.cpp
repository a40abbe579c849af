#include "gcor/engine/bot.hpp"

#include <algorithm>
#include <cassert>

#include "greedy.hpp"

namespace gcor::engine {
namespace greedy {
namespace {

// What building `card` at its best place would add, ignoring what it costs.
double card_value(const Player& player, CardId card) {
    const Kind kind = kind_of(card);
    const double before = estimate(player);
    double best = -1.0;
    const City& city = player.city;
    for (int y = city.min_y() - 1; y <= city.max_y() + 1; ++y)
        for (int x = city.min_x() - 1; x <= city.max_x() + 1; ++x) {
            if (placement_error(city, kind, x, y) != MoveError::none) continue;
            Player after = player;
            after.add_to_hand(card, kEveryone);
            after.coins += 2 * info(kind).cost;  // ignore the cost here
            Event ignored;
            build_on(after, card, x, y, info(kind).cost, ignored);
            best = std::max(best, estimate(after) - 2.0 * info(kind).cost - before);
        }
    // Something to build later is worth a little even where it adds nothing yet.
    return best + 1.0;
}

}  // namespace

double estimate(const Player& player) {
    return score(player.city, player.holdings()).total + 2.0 * player.city.brick_tokens();
}

double move_value(const Table& table, const Player& me, const Move& move) {
    const double before = estimate(me);
    switch (move.type) {
        case MoveType::draft:
        case MoveType::take:
            return card_value(me, move.card);
        case MoveType::place: {
            // More symbols are better, an earlier choice from the offer too.
            int bricks = 0, cogs = 0;
            for (int space = 0; space <= move.index; ++space)
                (table.strip[static_cast<std::size_t>(space)] == Symbol::brick ? bricks : cogs) +=
                    1;
            return 2.0 * std::min(bricks, 3) + 1.5 * std::min(cogs, 2) - 0.8 * move.index;
        }
        case MoveType::build: {
            Player after = me;
            Event ignored;
            build_on(after, move.card, move.x, move.y, table.bricks, ignored);
            return estimate(after) - before + 1.0;
        }
        case MoveType::produce: {
            Player after = me;
            Event ignored;
            produce_on(after, table.cogs, ignored);
            return estimate(after) - before + 0.5 * (after.influence - me.influence);
        }
        case MoveType::end_turn:
            return 0.0;
        case MoveType::school_deck:
            return table.deck_sizes[move.index];
        case MoveType::school_keep:
            return card_value(me, move.card);
        case MoveType::invalid:
            break;
    }
    return 0.0;
}

Move choose(const Table& table, const Player& me, std::span<const Move> moves, Rng& rng) {
    double best = -1e9;
    std::vector<const Move*> best_moves;
    for (const Move& move : moves) {
        const double value = move_value(table, me, move);
        if (value > best + 1e-9) {
            best = value;
            best_moves.clear();
        }
        if (value > best - 1e-9) best_moves.push_back(&move);
    }
    return *best_moves[rng.below(static_cast<std::uint32_t>(best_moves.size()))];
}

}  // namespace greedy

std::string_view bot_id(BotKind kind) {
    switch (kind) {
        case BotKind::random:
            return "random";
        case BotKind::greedy:
            return "greedy";
        case BotKind::strong:
            return "strong";
    }
    return "random";
}

std::optional<BotKind> bot_from_id(std::string_view id) {
    for (BotKind kind : {BotKind::random, BotKind::greedy, BotKind::strong})
        if (id == bot_id(kind)) return kind;
    return std::nullopt;
}

Player own_player(const View& view) {
    const PlayerView& mine = view.players[*view.viewer];
    Player player;
    for (const CityCell& c : mine.city)
        player.city.place(c.x, c.y, c.cell.kind, c.cell.card, c.cell.tokens);
    for (CardId card : mine.hand)
        player.add_to_hand(card, kEveryone);
    player.coins = mine.coins;
    player.influence = mine.influence;
    for (CardId card : mine.influence_cards)
        player.influence_cards.push_back(card);
    return player;
}

greedy::Table greedy_table(const View& view) {
    greedy::Table table;
    table.strip = view.strip;
    if (view.turn) {
        table.bricks = view.turn->bricks;
        table.cogs = view.turn->cogs;
    }
    table.deck_sizes = view.deck_sizes;
    return table;
}

Move choose_move(BotKind kind, const View& view, Rng& rng, const BotBudget& budget) {
    assert(!view.legal_moves.empty() && view.viewer);
    switch (kind) {
        case BotKind::random:
            break;
        case BotKind::greedy:
            return greedy::choose(greedy_table(view), own_player(view), view.legal_moves, rng);
        case BotKind::strong:
            return choose_strong(view, rng.next(), budget);
    }
    return view.legal_moves[rng.below(static_cast<std::uint32_t>(view.legal_moves.size()))];
}

}  // namespace gcor::engine
