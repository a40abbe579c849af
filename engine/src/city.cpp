#include "gcor/engine/city.hpp"

#include <algorithm>

namespace gcor::engine {

City::Mask City::allowed_region() const {
    if (occupied_ == 0) return ~Mask{0};
    // Columns max_x-3 .. min_x+3 and rows max_y-3 .. min_y+3, clipped to the grid.
    const int x_from = std::max(kMin, max_x_ - (kMaxSpan - 1)),
              x_to = std::min(kMax, min_x_ + (kMaxSpan - 1));
    const int y_from = std::max(kMin, max_y_ - (kMaxSpan - 1)),
              y_to = std::min(kMax, min_y_ + (kMaxSpan - 1));
    const Mask row = ((Mask{1} << (x_to - x_from + 1)) - 1) << (x_from - kMin);
    Mask region = 0;
    for (int y = y_from; y <= y_to; ++y)
        region |= row << ((y - kMin) * kSize);
    return region;
}

void City::place(int x, int y, Kind kind, CardId card, std::uint8_t tokens) {
    assert(kind != Kind::none);
    const Mask cell_bit = bit(x, y);
    if (!(occupied_ & cell_bit)) {
        occupied_ |= cell_bit;
        min_x_ = static_cast<std::int8_t>(std::min<int>(min_x_, x));
        max_x_ = static_cast<std::int8_t>(std::max<int>(max_x_, x));
        min_y_ = static_cast<std::int8_t>(std::min<int>(min_y_, y));
        max_y_ = static_cast<std::int8_t>(std::max<int>(max_y_, y));
    }
    aqueducts_ = is_aqueduct(kind) ? aqueducts_ | cell_bit : aqueducts_ & ~cell_bit;
    cells_[index(x, y)] = Cell{kind, card, tokens};
}

int City::brick_tokens() const {
    int tokens = 0;
    for_each_building([&](int, int, const Cell& cell) {
        if (makes_bricks(cell.kind)) tokens += cell.tokens;
    });
    return tokens;
}

}  // namespace gcor::engine
