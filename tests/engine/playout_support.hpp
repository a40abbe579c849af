#pragma once
// Shared by the generic engine tests: random playouts and checks of the state's invariants.
#include <string>
#include <vector>

#include "gcor/engine/state.hpp"

namespace gcor::engine::testing {

struct Variation {
    int players;
    Variant variant;
    bool shrine;
};

// The variations the generic tests cover: every player count, both rule sets, with and without
// the Shrine.
inline std::vector<Variation> all_variations() {
    std::vector<Variation> out;
    for (int players = 2; players <= 4; ++players)
        for (Variant variant : {Variant::yucata, Variant::publisher})
            out.push_back({players, variant, players % 2 == (variant == Variant::yucata ? 0 : 1)});
    return out;
}

inline std::string name(const Variation& v) {
    return std::to_string(v.players) + " players, " + std::string(variant_id(v.variant)) +
           (v.shrine ? ", shrine" : "");
}

// Everything that must hold in every state of every game; "" when it does, else what broke.
std::string check_invariants(const State& state, int replaced_cards);

}  // namespace gcor::engine::testing
