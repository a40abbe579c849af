#pragma once
// One player's city: a grid of cells addressed by integer coordinates (x to the right, y down).
// A legal city fits a 4x4 box that contains the starting cells (0,0) and (1,0), so every legal
// cell lies within [-3, 4] on both axes: an 8x8 array holds any city without reallocation.
#include <array>
#include <cassert>
#include <cstdint>

#include "gcor/engine/cards.hpp"

namespace gcor::engine {

struct Cell {
    Kind kind = Kind::none;
    CardId card = kNoCard;
    // A brick token (0/1) on a grain farm or the vineyard; point tokens on thermal baths.
    std::uint8_t tokens = 0;

    constexpr bool empty() const { return kind == Kind::none; }
    friend constexpr bool operator==(const Cell&, const Cell&) = default;
};

class City {
  public:
    static constexpr int kMin = -3;
    static constexpr int kMax = 4;
    static constexpr int kSize = kMax - kMin + 1;
    static constexpr int kMaxSpan = 4;

    static constexpr bool in_grid(int x, int y) {
        return x >= kMin && x <= kMax && y >= kMin && y <= kMax;
    }

    const Cell& at(int x, int y) const { return cells_[index(x, y)]; }
    bool occupied(int x, int y) const { return in_grid(x, y) && !at(x, y).empty(); }
    int building_count() const { return count_; }

    // Buildings orthogonally next to (x, y).
    int adjacent_buildings(int x, int y) const {
        return occupied(x - 1, y) + occupied(x + 1, y) + occupied(x, y - 1) + occupied(x, y + 1);
    }
    // Whether the city's bounding box stays within 4x4 with (x, y) added.
    bool fits(int x, int y) const;
    // An empty cell next to the city that keeps it within 4x4.
    bool can_place(int x, int y) const {
        return in_grid(x, y) && at(x, y).empty() && adjacent_buildings(x, y) > 0 && fits(x, y);
    }
    // No aqueduct in row y or column x other than one at (x, y) itself.
    bool aqueduct_allowed(int x, int y) const;

    // Puts a building on (x, y), replacing what stood there (with its tokens).
    void place(int x, int y, Kind kind, CardId card, std::uint8_t tokens = 0);
    void set_tokens(int x, int y, std::uint8_t tokens) { cells_[index(x, y)].tokens = tokens; }

    int brick_tokens() const;
    int min_x() const { return min_x_; }
    int max_x() const { return max_x_; }
    int min_y() const { return min_y_; }
    int max_y() const { return max_y_; }

    // Calls f(x, y, cell) for every building, row by row from the top.
    template <class F>
    void for_each_building(F&& f) const {
        if (count_ == 0) return;
        for (int y = min_y_; y <= max_y_; ++y)
            for (int x = min_x_; x <= max_x_; ++x)
                if (const Cell& cell = at(x, y); !cell.empty()) f(x, y, cell);
    }

    friend bool operator==(const City&, const City&) = default;

  private:
    static constexpr std::size_t index(int x, int y) {
        assert(in_grid(x, y));
        return static_cast<std::size_t>((y - kMin) * kSize + (x - kMin));
    }

    std::array<Cell, kSize * kSize> cells_{};
    std::int8_t count_ = 0;
    std::int8_t min_x_ = kMax, max_x_ = kMin, min_y_ = kMax, max_y_ = kMin;
};

}  // namespace gcor::engine
