#include "gcor/engine/score.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace gcor::engine {
namespace {

constexpr std::array<int, 5> kAqueductPoints{0, 4, 12, 24, 40};
constexpr std::array<std::pair<int, int>, 4> kNeighbours{{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}};

struct Counts {
    int residential_2 = 0;  // value-2 residences, luxury included
    bool residential_4 = false;
    int temples = 0;  // the shrine included
    int production = 0;
    int aqueducts = 0;
    unsigned colours = 0;  // bit per public colour
};

Counts count(const City& city) {
    Counts counts;
    city.for_each_building([&](int, int, const Cell& cell) {
        const KindInfo& kind = info(cell.kind);
        if (kind.value == 2) ++counts.residential_2;
        if (kind.value == 4) counts.residential_4 = true;
        if (kind.category == Category::temple) ++counts.temples;
        if (kind.category == Category::production) ++counts.production;
        if (kind.category == Category::aqueduct) ++counts.aqueducts;
        if (kind.category == Category::public_building)
            counts.colours |= 1u << static_cast<unsigned>(kind.colour);
    });
    return counts;
}

// Scores every residential area: the sum of its values times its adjacent public colours, plus
// the point tokens of its best adjacent thermal baths.
void score_residential_areas(const City& city, ScoreBreakdown& out) {
    std::array<bool, City::kSize * City::kSize> seen{};
    auto seen_at = [&](int x, int y) -> bool& {
        return seen[static_cast<std::size_t>((y - City::kMin) * City::kSize + (x - City::kMin))];
    };
    city.for_each_building([&](int start_x, int start_y, const Cell& start) {
        const int value = info(start.kind).value;
        if (value == 0 || seen_at(start_x, start_y)) return;
        std::array<std::pair<int, int>, City::kSize * City::kSize> stack{};
        std::size_t top = 0;
        stack[top++] = {start_x, start_y};
        seen_at(start_x, start_y) = true;
        int sum = 0;
        unsigned colours = 0;
        int best_baths = 0;
        while (top > 0) {
            const auto [x, y] = stack[--top];
            sum += value;
            for (const auto& [dx, dy] : kNeighbours) {
                const int nx = x + dx, ny = y + dy;
                if (!city.occupied(nx, ny)) continue;
                const Cell& next = city.at(nx, ny);
                const KindInfo& kind = info(next.kind);
                if (kind.category == Category::public_building) {
                    colours |= 1u << static_cast<unsigned>(kind.colour);
                    if (is_thermal_baths(next.kind))
                        best_baths = std::max<int>(best_baths, next.tokens);
                } else if (kind.value == value && !seen_at(nx, ny)) {
                    seen_at(nx, ny) = true;
                    stack[top++] = {nx, ny};
                }
            }
        }
        const int colour_count = std::popcount(colours);
        const int points = colour_count == 0 ? 0 : sum * colour_count + best_baths;
        (value == 2   ? out.residential_2
         : value == 3 ? out.residential_3
                      : out.residential_4) += points;
    });
}

}  // namespace

int stars(const City& city) {
    int total = 0;
    city.for_each_building([&](int, int, const Cell& cell) { total += info(cell.kind).stars; });
    return total;
}

int temple_points(const City& city, Kind temple, int x, int y, int coins) {
    const Counts counts = count(city);
    switch (temple) {
        case Kind::temple_luna:
            return stars(city);
        case Kind::temple_mars:
            return counts.residential_4 ? 5 : 0;
        case Kind::temple_venus:
            return 2 * counts.residential_2;
        case Kind::temple_jupiter:
            return 2 * counts.temples;
        case Kind::temple_mercury:
            return coins / 3;
        case Kind::temple_minerva:
            return city.building_count() == City::kMaxSpan * City::kMaxSpan ? 10 : 0;
        case Kind::temple_fortuna:
            return std::popcount(counts.colours) == 4 ? 15 : 0;
        case Kind::temple_cupid:
            return counts.residential_2 >= 4 ? 10 : 0;
        case Kind::temple_juno:
            return counts.temples >= 4 ? 10 : 0;
        case Kind::temple_saturn:
            return counts.production >= 4 ? 15 : 0;
        case Kind::shrine:
            return 2 * city.adjacent_buildings(x, y);
        default:
            return 0;
    }
}

ScoreBreakdown score(const City& city, const Holdings& holdings) {
    ScoreBreakdown out;
    score_residential_areas(city, out);
    out.aqueducts = kAqueductPoints[static_cast<std::size_t>(std::min(count(city).aqueducts, 4))];
    city.for_each_building([&](int x, int y, const Cell& cell) {
        if (!is_temple(cell.kind)) return;
        const int points = temple_points(city, cell.kind, x, y, holdings.coins);
        (cell.kind == Kind::shrine ? out.shrine : out.temples) += points;
    });
    out.coins = holdings.coins;
    out.influence_tokens = holdings.influence_tokens / 2;
    out.influence_cards = holdings.influence_card_points;
    out.total = out.residential_2 + out.residential_3 + out.residential_4 + out.aqueducts +
                out.temples + out.shrine + out.coins + out.influence_tokens + out.influence_cards;
    return out;
}

}  // namespace gcor::engine
