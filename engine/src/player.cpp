// The rules that touch one player's own data: hand, build costs and effects, production.
#include <algorithm>

#include "gcor/engine/state.hpp"

namespace gcor::engine {

int Player::influence_points() const {
    int points = 0;
    for (CardId card : influence_cards)
        points += influence_value(card);
    return points;
}

bool Player::holds(CardId card) const {
    return std::any_of(hand.begin(), hand.end(),
                       [card](const HandCard& h) { return h.card == card; });
}

void Player::add_to_hand(CardId card, std::uint8_t known_to) {
    std::size_t at = 0;
    while (at < hand.size() && hand[at].card < card)
        ++at;
    hand.insert_at(at, HandCard{card, known_to});
}

void Player::remove_from_hand(CardId card) {
    for (std::size_t i = 0; i < hand.size(); ++i)
        if (hand[i].card == card) return hand.erase_at(i);
    assert(false && "card not in hand");
}

BuildCost build_cost(Kind kind, int strip_bricks, int brick_tokens) {
    const int missing = std::max(0, info(kind).cost - strip_bricks);
    const int tokens = std::min(missing, brick_tokens);
    return {tokens, 2 * (missing - tokens)};
}

MoveError placement_error(const City& city, Kind kind, int x, int y) {
    if (!City::in_grid(x, y)) return MoveError::bad_cell;
    if (city.occupied(x, y)) {
        if (!is_aqueduct(kind)) return MoveError::cell_occupied;
    } else {
        if (city.adjacent_buildings(x, y) == 0) return MoveError::not_adjacent;
        if (!city.fits(x, y)) return MoveError::city_too_large;
    }
    if (is_aqueduct(kind) && !city.aqueduct_allowed(x, y)) return MoveError::aqueduct_conflict;
    return MoveError::none;
}

int build_on(Player& player, CardId card, int x, int y, int strip_bricks, Event& event) {
    City& city = player.city;
    const Kind kind = kind_of(card);
    const KindInfo& kind_info = info(kind);
    const BuildCost cost = build_cost(player, kind, strip_bricks);

    // Brick tokens: a building about to be replaced gives its token first (it would be lost).
    int tokens = cost.brick_tokens;
    if (tokens > 0 && makes_bricks(city.at(x, y).kind) && city.at(x, y).tokens > 0) {
        city.set_tokens(x, y, 0);
        --tokens;
    }
    for (int row = city.min_y(); row <= city.max_y() && tokens > 0; ++row)
        for (int column = city.min_x(); column <= city.max_x() && tokens > 0; ++column)
            if (makes_bricks(city.at(column, row).kind) && city.at(column, row).tokens > 0) {
                city.set_tokens(column, row, 0);
                --tokens;
            }
    player.coins -= cost.coins;
    event.card = card;
    event.x = static_cast<std::int8_t>(x);
    event.y = static_cast<std::int8_t>(y);
    event.other = city.at(x, y).card;
    event.coins_paid = static_cast<std::int16_t>(cost.coins);
    event.brick_tokens = static_cast<std::int16_t>(cost.brick_tokens);

    player.remove_from_hand(card);
    city.place(x, y, kind, card);
    const int effect = city.adjacent_buildings(x, y) + (kind_info.special ? 1 : 0);
    int influence = kind_info.stars;
    int draw = 0;
    if (is_public(kind)) {
        switch (kind_info.colour) {
            case Colour::yellow:
                event.coins_gained = static_cast<std::int16_t>(effect);
                break;
            case Colour::red:
                influence += effect;
                break;
            case Colour::blue:
                city.set_tokens(x, y, static_cast<std::uint8_t>(effect));
                event.point_tokens = static_cast<std::int16_t>(effect);
                break;
            case Colour::green:
                draw = effect;
                break;
            case Colour::none:
                break;
        }
    }
    player.coins += event.coins_gained;
    player.influence += influence;
    event.influence = static_cast<std::int16_t>(influence);
    return draw;
}

int produce_cost(int strip_cogs) {
    return std::max(0, 2 - strip_cogs);
}

namespace {
struct Production {
    int coins = 0, brick_tokens = 0, influence = 0;
};
Production production_of(const City& city) {
    Production gain;
    city.for_each_building([&](int, int, const Cell& cell) {
        if (makes_coins(cell.kind)) ++gain.coins;
        if (makes_bricks(cell.kind) && cell.tokens == 0) ++gain.brick_tokens;
        if (cell.kind == Kind::sheep_farm) ++gain.influence;
    });
    return gain;
}
}  // namespace

bool produce_worthwhile(const Player& player, int strip_cogs) {
    const int cost = produce_cost(strip_cogs);
    const Production gain = production_of(player.city);
    return cost == 0 || gain.influence > 0 || gain.coins + 2 * gain.brick_tokens > cost;
}

void produce_on(Player& player, int strip_cogs, Event& event) {
    City& city = player.city;
    const Production gain = production_of(city);
    const int cost = produce_cost(strip_cogs);
    for (int y = city.min_y(); y <= city.max_y(); ++y)
        for (int x = city.min_x(); x <= city.max_x(); ++x)
            if (makes_bricks(city.at(x, y).kind)) city.set_tokens(x, y, 1);
    player.coins += gain.coins - cost;
    player.influence += gain.influence;
    event.coins_paid = static_cast<std::int16_t>(cost);
    event.coins_gained = static_cast<std::int16_t>(gain.coins);
    event.brick_tokens = static_cast<std::int16_t>(gain.brick_tokens);
    event.influence = static_cast<std::int16_t>(gain.influence);
}

}  // namespace gcor::engine
