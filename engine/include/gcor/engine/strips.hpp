#pragma once
// The six action strips as data. Each reads from the emperor's end; the back of a strip is its
// front reversed. DECISIONS.md: the physical layouts are unconfirmed, so this table is the one
// place to change them.
#include <array>
#include <cstdint>
#include <string_view>

namespace gcor::engine {

enum class Symbol : std::uint8_t { brick, cog };

inline constexpr int kStripCount = 6;
inline constexpr int kStripSpaces = 5;
inline constexpr std::array<std::string_view, kStripCount> kStripLayouts{"CBBBC", "BCBCB", "CCBBB",
                                                                         "CBCBB", "CBBCB", "BCCBB"};

// One strip of the stack, turned to one of its sides.
struct StripSide {
    std::uint8_t strip = 0;
    bool reversed = false;

    constexpr Symbol at(int space) const {
        const std::string_view layout = kStripLayouts[strip];
        const char c =
            layout[static_cast<std::size_t>(reversed ? kStripSpaces - 1 - space : space)];
        return c == 'B' ? Symbol::brick : Symbol::cog;
    }
    // Bricks and cogs of an emissary on `space`: the symbols of spaces 0..space.
    constexpr int bricks_up_to(int space) const { return count_up_to(space, Symbol::brick); }
    constexpr int cogs_up_to(int space) const { return count_up_to(space, Symbol::cog); }

    friend constexpr bool operator==(const StripSide&, const StripSide&) = default;

  private:
    constexpr int count_up_to(int space, Symbol symbol) const {
        int count = 0;
        for (int i = 0; i <= space; ++i)
            count += at(i) == symbol;
        return count;
    }
};

}  // namespace gcor::engine
