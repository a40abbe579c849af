#pragma once
// The game's own random generator: splitmix64, with Lemire's unbiased bounded integers. Written
// out (not <random>) so that a seed gives the same game on every compiler and standard library.
#include <cstdint>

namespace gcor::engine {

class Rng {
  public:
    constexpr explicit Rng(std::uint64_t seed = 0) : state_(seed) {}

    constexpr std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // A uniform integer in [0, bound), bound > 0.
    constexpr std::uint32_t below(std::uint32_t bound) {
        std::uint64_t product = (next() >> 32) * bound;
        auto low = static_cast<std::uint32_t>(product);
        if (low < bound) {
            const std::uint32_t threshold = (0u - bound) % bound;
            while (low < threshold) {
                product = (next() >> 32) * bound;
                low = static_cast<std::uint32_t>(product);
            }
        }
        return static_cast<std::uint32_t>(product >> 32);
    }

    template <class Container>
    constexpr void shuffle(Container& items) {
        for (auto i = static_cast<std::uint32_t>(items.size()); i > 1; --i) {
            const std::uint32_t j = below(i);
            auto tmp = items[i - 1];
            items[i - 1] = items[j];
            items[j] = tmp;
        }
    }

    constexpr std::uint64_t raw_state() const { return state_; }
    friend constexpr bool operator==(const Rng&, const Rng&) = default;

  private:
    std::uint64_t state_;
};

}  // namespace gcor::engine
