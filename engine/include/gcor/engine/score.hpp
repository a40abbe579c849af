#pragma once
// Final scoring of one city, by category.
#include "gcor/engine/city.hpp"

namespace gcor::engine {

struct ScoreBreakdown {
    int residential_2 = 0;
    int residential_3 = 0;
    int residential_4 = 0;
    int aqueducts = 0;
    int temples = 0;  // every temple but the shrine
    int shrine = 0;
    int coins = 0;
    int influence_tokens = 0;
    int influence_cards = 0;
    int total = 0;

    friend bool operator==(const ScoreBreakdown&, const ScoreBreakdown&) = default;
};

// What a player holds besides the city, as far as scoring is concerned.
struct Holdings {
    int coins = 0;
    int influence_tokens = 0;
    int influence_card_points = 0;
};

ScoreBreakdown score(const City& city, const Holdings& holdings);

// Points of one temple (or the shrine) in this city.
int temple_points(const City& city, Kind temple, int x, int y, int coins);

// Star icons on the buildings of the city.
int stars(const City& city);

}  // namespace gcor::engine
