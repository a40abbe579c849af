#include "playout_support.hpp"

#include <array>

namespace gcor::engine::testing {
namespace {

std::string check_city(const City& city) {
    if (city.max_x() - city.min_x() >= City::kMaxSpan ||
        city.max_y() - city.min_y() >= City::kMaxSpan)
        return "city larger than 4x4";
    int aqueducts_in_row[City::kSize] = {}, aqueducts_in_column[City::kSize] = {};
    int reached = 0, first_x = 0, first_y = 0;
    city.for_each_building([&](int x, int y, const Cell& cell) {
        if (is_aqueduct(cell.kind))
            ++aqueducts_in_row[y - City::kMin], ++aqueducts_in_column[x - City::kMin];
        if (reached++ == 0) first_x = x, first_y = y;
    });
    for (int i = 0; i < City::kSize; ++i)
        if (aqueducts_in_row[i] > 1 || aqueducts_in_column[i] > 1)
            return "two aqueducts in a row or column";
    // Connected: a flood fill reaches every building.
    std::array<bool, City::kSize * City::kSize> seen{};
    std::vector<std::pair<int, int>> stack{{first_x, first_y}};
    int count = 0;
    seen[static_cast<std::size_t>((first_y - City::kMin) * City::kSize + first_x - City::kMin)] =
        true;
    while (!stack.empty()) {
        auto [x, y] = stack.back();
        stack.pop_back();
        ++count;
        for (auto [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
            const int nx = x + dx, ny = y + dy;
            if (!city.occupied(nx, ny)) continue;
            auto& s =
                seen[static_cast<std::size_t>((ny - City::kMin) * City::kSize + nx - City::kMin)];
            if (!s) s = true, stack.push_back({nx, ny});
        }
    }
    if (count != city.building_count()) return "city not connected";
    return {};
}

}  // namespace

std::string check_invariants(const State& state, int replaced_cards) {
    if (!state.ok()) return "State::ok() is false";
    // Every card of the game is in exactly one place, or left the game replaced by an aqueduct.
    std::array<int, kCardCount> seen{};
    auto count = [&](CardId card) { ++seen[card]; };
    for (const auto& deck : state.decks)
        for (CardId card : deck)
            count(card);
    for (CardId card : state.offer)
        count(card);
    for (CardId card : state.influence_on_table)
        count(card);
    for (CardId card : state.packet)
        count(card);
    for (CardId card : state.school.cards)
        count(card);
    for (int seat = 0; seat < state.player_count(); ++seat) {
        const Player& player = state.players[static_cast<std::size_t>(seat)];
        if (player.coins < 0) return "negative coins";
        if (player.influence < 0) return "negative influence";
        for (const HandCard& held : player.hand) {
            count(held.card);
            if (!((held.known_to >> seat) & 1u)) return "a hand card its owner does not know";
        }
        for (CardId card : player.influence_cards)
            count(card);
        player.city.for_each_building([&](int, int, const Cell& cell) { count(cell.card); });
        if (std::string error = check_city(player.city); !error.empty()) return error;
    }
    int present = 0, expected = 0;
    for (int card = 0; card < kCardCount; ++card) {
        if (seen[static_cast<std::size_t>(card)] > 1)
            return "card " + std::to_string(card) + " in two places";
        present += seen[static_cast<std::size_t>(card)];
    }
    // Cards in play: the decks in play, starting buildings, shrines, the player count's influence
    // cards.
    const int n = state.player_count();
    expected = kDeckStart[static_cast<std::size_t>(state.decks_in_play())] + 2 * n +
               (state.options.shrine ? n : 0) + (n == 2 ? 3 : 4);
    if (present + replaced_cards != expected)
        return "cards: " + std::to_string(present) + " present + " +
               std::to_string(replaced_cards) + " replaced, expected " + std::to_string(expected);
    return {};
}

}  // namespace gcor::engine::testing
