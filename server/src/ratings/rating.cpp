#include "ratings/rating.hpp"

#include <cmath>
#include <stdexcept>

namespace gcor::server {

bool provisional(const Rating& rating) {
    return rating.games < kProvisionalGames;
}

std::vector<Rating> rate_game(const std::vector<Rating>& before, const std::vector<int>& places) {
    const std::size_t n = before.size();
    if (n < 2 || places.size() != n)
        throw std::invalid_argument("rate_game: needs two players or more, with a place each");
    std::vector<Rating> after = before;
    for (std::size_t i = 0; i < n; ++i) {
        double surprise = 0.0;  // actual minus expected, summed over the opponents
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i) continue;
            const double actual = places[i] < places[j] ? 1.0 : places[i] == places[j] ? 0.5 : 0.0;
            const double expected =
                1.0 / (1.0 + std::pow(10.0, (before[j].value - before[i].value) / 400.0));
            surprise += actual - expected;
        }
        const double k = provisional(before[i]) ? kProvisionalK : kK;
        after[i].value += k / static_cast<double>(n - 1) * surprise;
        after[i].games += 1;
    }
    return after;
}

}  // namespace gcor::server
