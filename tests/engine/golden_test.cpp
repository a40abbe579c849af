// Golden signatures: fixed seeds give fixed final scores and a fixed state hash. A change here
// means the rules or the generator changed: make sure that was meant, then update the table.
#include <catch2/catch.hpp>

#include "gcor/engine/state.hpp"

namespace gcor::engine {
namespace {

struct Golden {
    int players;
    Variant variant;
    bool shrine;
    std::uint64_t seed;
    std::vector<int> totals;
    std::uint64_t hash;
};

// Plays the game whose every move is the legal move at index (seed * 31 + move number) mod count.
State scripted_game(const Golden& g) {
    State state = Rules::make({g.players, g.variant, g.shrine})->new_game(g.seed);
    std::uint64_t step = 0;
    while (!state.over()) {
        const auto legal = state.legal_moves(state.to_act());
        state.apply(state.to_act(), legal[(g.seed * 31 + step++) % legal.size()]);
    }
    return state;
}

TEST_CASE("golden signature: fixed seeds give fixed scores and state hashes", "[golden]") {
    const std::vector<Golden> goldens = {
        {2, Variant::yucata, false, 1, {59, 31}, 0x5228f7b8c5f7f1feull},
        {2, Variant::publisher, true, 2, {68, 50}, 0x23f5f009bbe8d799ull},
        {3, Variant::yucata, true, 3, {36, 38, 62}, 0x18a2aa9f2ac67477ull},
        {3, Variant::publisher, false, 4, {22, 19, 47}, 0xb7545a10d89a5888ull},
        {4, Variant::yucata, false, 5, {22, 23, 46, 24}, 0xc6d8c121038873b1ull},
        {4, Variant::yucata, true, 6, {45, 36, 59, 42}, 0x2d2f6af1e0a15293ull},
        {4, Variant::publisher, false, 7, {9, 64, 42, 47}, 0xe9feefe2c54d3bc2ull},
    };
    for (const Golden& g : goldens) {
        const State state = scripted_game(g);
        std::vector<int> totals;
        for (int seat = 0; seat < g.players; ++seat)
            totals.push_back(state.final_score(static_cast<Seat>(seat)).total);
        INFO(g.players << " players, seed " << g.seed);
        CHECK(totals == g.totals);
        CHECK(state_hash(state) == g.hash);
    }
}

}  // namespace
}  // namespace gcor::engine
