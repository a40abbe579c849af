#include "gcor/engine/score.hpp"

#include <algorithm>
#include <array>
#include <bit>

namespace gcor::engine {
namespace {

constexpr std::array<int, 5> kAqueductPoints{0, 4, 12, 24, 40};
using Mask = City::Mask;

// What scoring needs of a city, gathered in one pass: counts for the temples, and masks of cells
// (City::bit) in which a residential area grows by a few bit operations. Every view scores every
// city (the running score, view.hpp), so this is on the server's path of each move.
struct Counts {
    int residential_2 = 0;  // value-2 residences, luxury included
    bool residential_4 = false;
    int temples = 0;  // the shrine included
    int production = 0;
    int aqueducts = 0;
    int stars = 0;
    unsigned colours = 0;                // bit per public colour
    std::array<Mask, 5> residences{};    // by residential value (0: not a residence)
    std::array<Mask, 5> public_cells{};  // by colour
    Mask thermal_baths = 0;              // either kind
};

Counts count(const City& city) {
    Counts counts;
    city.for_each_building([&](int x, int y, const Cell& cell) {
        const KindInfo& kind = info(cell.kind);
        counts.stars += kind.stars;
        counts.residences[kind.value] |= City::bit(x, y);
        if (kind.value == 2) ++counts.residential_2;
        if (kind.value == 4) counts.residential_4 = true;
        if (kind.category == Category::temple) ++counts.temples;
        if (kind.category == Category::production) ++counts.production;
        if (kind.category == Category::aqueduct) ++counts.aqueducts;
        if (kind.category == Category::public_building) {
            counts.colours |= 1u << static_cast<unsigned>(kind.colour);
            counts.public_cells[static_cast<std::size_t>(kind.colour)] |= City::bit(x, y);
        }
        if (is_thermal_baths(cell.kind)) counts.thermal_baths |= City::bit(x, y);
    });
    return counts;
}

// Scores every residential area: the sum of its values times its adjacent public colours, plus
// the point tokens of its best adjacent thermal baths.
void score_residential_areas(const City& city, const Counts& counts, ScoreBreakdown& out) {
    for (int value = 2; value <= 4; ++value) {
        Mask rest = counts.residences[static_cast<std::size_t>(value)];
        while (rest != 0) {
            // The area of the lowest cell left: grown by its neighbours of equal value.
            Mask area = rest & (~rest + 1);
            for (Mask grown = area | (City::neighbours(area) & rest); grown != area;
                 grown = area | (City::neighbours(area) & rest))
                area = grown;
            rest &= ~area;
            const Mask around = City::neighbours(area);
            int colours = 0;
            for (const Mask cells : counts.public_cells)
                colours += (cells & around) != 0 ? 1 : 0;
            if (colours == 0) continue;
            int best_baths = 0;
            for (Mask baths = counts.thermal_baths & around; baths != 0; baths &= baths - 1) {
                const int i = std::countr_zero(baths);
                best_baths =
                    std::max<int>(best_baths, city.at(City::x_of(i), City::y_of(i)).tokens);
            }
            const int points = std::popcount(area) * value * colours + best_baths;
            (value == 2   ? out.residential_2
             : value == 3 ? out.residential_3
                          : out.residential_4) += points;
        }
    }
}

// Points of one temple, from the city's counts (made once for all its temples).
int temple_points(const City& city, const Counts& counts, Kind temple, int x, int y, int coins) {
    switch (temple) {
        case Kind::temple_luna:
            return counts.stars;
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

}  // namespace

int stars(const City& city) {
    return count(city).stars;
}

int temple_points(const City& city, Kind temple, int x, int y, int coins) {
    return temple_points(city, count(city), temple, x, y, coins);
}

ScoreBreakdown score(const City& city, const Holdings& holdings) {
    ScoreBreakdown out;
    const Counts counts = count(city);
    score_residential_areas(city, counts, out);
    out.aqueducts = kAqueductPoints[static_cast<std::size_t>(std::min(counts.aqueducts, 4))];
    city.for_each_building([&](int x, int y, const Cell& cell) {
        if (!is_temple(cell.kind)) return;
        const int points = temple_points(city, counts, cell.kind, x, y, holdings.coins);
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
