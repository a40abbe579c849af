#pragma once
// One player's city: a grid of cells addressed by integer coordinates (x to the right, y down).
// A legal city fits a 4x4 box that contains the starting cells (0,0) and (1,0), so every legal
// cell lies within [-3, 4] on both axes: an 8x8 array holds any city.
#include <array>
#include <bit>
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

// Cells are also tracked as bits of 64-bit masks (the grid is 8x8, bit = row * 8 + column), so
// that adjacency, the 4x4 limit and the aqueduct rule are a few bit operations: legal moves are
// listed after every move.
class City {
  public:
    static constexpr int kMin = -3;
    static constexpr int kMax = 4;
    static constexpr int kSize = kMax - kMin + 1;
    static constexpr int kMaxSpan = 4;
    using Mask = std::uint64_t;

    static constexpr bool in_grid(int x, int y) {
        return x >= kMin && x <= kMax && y >= kMin && y <= kMax;
    }
    static constexpr int bit_index(int x, int y) { return (y - kMin) * kSize + (x - kMin); }
    static constexpr Mask bit(int x, int y) { return Mask{1} << bit_index(x, y); }
    static constexpr int x_of(int index) { return index % kSize + kMin; }
    static constexpr int y_of(int index) { return index / kSize + kMin; }

    const Cell& at(int x, int y) const { return cells_[index(x, y)]; }
    bool occupied(int x, int y) const { return in_grid(x, y) && (occupied_ & bit(x, y)); }
    int building_count() const { return std::popcount(occupied_); }
    Mask occupied_mask() const { return occupied_; }

    // Buildings orthogonally next to (x, y).
    int adjacent_buildings(int x, int y) const {
        return std::popcount(neighbours(bit(x, y)) & occupied_);
    }
    // Whether the city's bounding box stays within 4x4 with (x, y) added.
    bool fits(int x, int y) const { return (allowed_region() & bit(x, y)) != 0; }
    // An empty cell next to the city that keeps it within 4x4.
    bool can_place(int x, int y) const {
        return in_grid(x, y) && (placeable_mask() & bit(x, y)) != 0;
    }
    // Every cell where can_place holds.
    Mask placeable_mask() const { return neighbours(occupied_) & ~occupied_ & allowed_region(); }
    // No aqueduct in row y or column x other than one at (x, y) itself.
    bool aqueduct_allowed(int x, int y) const {
        const Mask lines = (kRow << ((y - kMin) * kSize)) | (kColumn << (x - kMin));
        return (aqueducts_ & lines & ~bit(x, y)) == 0;
    }

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
        for (Mask rest = occupied_; rest != 0; rest &= rest - 1) {
            const int i = std::countr_zero(rest);
            f(x_of(i), y_of(i), cells_[static_cast<std::size_t>(i)]);
        }
    }

    // The cells orthogonally next to any cell of `cells`.
    static constexpr Mask neighbours(Mask cells) {
        return ((cells >> 1) & ~kColumnLast) | ((cells << 1) & ~kColumnFirst) | (cells >> kSize) |
               (cells << kSize);
    }

    friend bool operator==(const City&, const City&) = default;

  private:
    static constexpr Mask kRow = 0xFF;
    static constexpr Mask kColumn = 0x0101010101010101ull;
    static constexpr Mask kColumnFirst = kColumn;
    static constexpr Mask kColumnLast = kColumn << (kSize - 1);

    static constexpr std::size_t index(int x, int y) {
        assert(in_grid(x, y));
        return static_cast<std::size_t>(bit_index(x, y));
    }
    // Cells that keep the bounding box within 4x4 (the whole grid while the city is empty).
    Mask allowed_region() const;

    std::array<Cell, kSize * kSize> cells_{};
    Mask occupied_ = 0;
    Mask aqueducts_ = 0;
    std::int8_t min_x_ = kMax, max_x_ = kMin, min_y_ = kMax, max_y_ = kMin;
};

}  // namespace gcor::engine
