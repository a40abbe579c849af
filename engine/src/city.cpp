#include "gcor/engine/city.hpp"

#include <algorithm>

namespace gcor::engine {

bool City::fits(int x, int y) const {
    if (count_ == 0) return in_grid(x, y);
    const int width = std::max<int>(max_x_, x) - std::min<int>(min_x_, x) + 1;
    const int height = std::max<int>(max_y_, y) - std::min<int>(min_y_, y) + 1;
    return width <= kMaxSpan && height <= kMaxSpan;
}

bool City::aqueduct_allowed(int x, int y) const {
    for (int i = kMin; i <= kMax; ++i) {
        if (i != x && is_aqueduct(at(i, y).kind)) return false;
        if (i != y && is_aqueduct(at(x, i).kind)) return false;
    }
    return true;
}

void City::place(int x, int y, Kind kind, CardId card, std::uint8_t tokens) {
    assert(kind != Kind::none);
    Cell& cell = cells_[index(x, y)];
    if (cell.empty()) {
        ++count_;
        min_x_ = static_cast<std::int8_t>(std::min<int>(min_x_, x));
        max_x_ = static_cast<std::int8_t>(std::max<int>(max_x_, x));
        min_y_ = static_cast<std::int8_t>(std::min<int>(min_y_, y));
        max_y_ = static_cast<std::int8_t>(std::max<int>(max_y_, y));
    }
    cell = Cell{kind, card, tokens};
}

int City::brick_tokens() const {
    int tokens = 0;
    for_each_building([&](int, int, const Cell& cell) {
        if (makes_bricks(cell.kind)) tokens += cell.tokens;
    });
    return tokens;
}

}  // namespace gcor::engine
