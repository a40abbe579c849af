// Move texts (engine::Move::parse): a text that parses is the move's one text, and the move,
// made by any seat in states from every phase of several games, is applied exactly when it is
// one of that seat's legal moves; a refused move changes nothing.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "gcor/engine/state.hpp"

using namespace gcor;

namespace {

// States from the start to the end of a few games (every player count, both rule sets, with
// and without the Shrine), played by always making the legal move at a position that varies.
std::vector<engine::State> sample_states() {
    struct Game {
        int players;
        engine::Variant variant;
        bool shrine;
    };
    constexpr Game kGames[] = {{2, engine::Variant::yucata, false},
                               {3, engine::Variant::publisher, true},
                               {4, engine::Variant::yucata, true},
                               {4, engine::Variant::publisher, false}};
    std::vector<engine::State> states;
    std::uint64_t seed = 1;
    for (const Game& game : kGames) {
        const auto rules = engine::Rules::make({game.players, game.variant, game.shrine});
        engine::State state = rules->new_game(seed);
        engine::Rng rng(seed++);
        for (int made = 0; !state.over(); ++made) {
            if (made % 7 == 0) states.push_back(state);
            const auto legal = state.legal_moves(state.to_act());
            state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
        }
        states.push_back(state);
    }
    return states;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<engine::State> states = sample_states();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto move = engine::Move::parse(text);
    if (!move) return 0;
    fuzz::require(move->well_formed(), "a parsed move that is not well formed");
    fuzz::require(move->to_string() == text, "a move whose text is not the text it was read from");
    const auto again = engine::Move::parse(move->to_string());
    fuzz::require(again && *again == *move, "a move that does not round-trip");

    for (const engine::State& state : states) {
        for (int seat = 0; seat < state.player_count(); ++seat) {
            const auto s = static_cast<engine::Seat>(seat);
            const auto legal = state.legal_moves(s);
            const bool is_legal = std::binary_search(legal.begin(), legal.end(), *move);
            engine::State after = state;
            const engine::MoveError error = after.apply(s, *move);
            fuzz::require(error == state.check(s, *move), "apply and check disagree");
            if (error == engine::MoveError::none) {
                fuzz::require(is_legal, "a move applied that legal_moves does not list");
            } else {
                fuzz::require(!is_legal, "a move refused that legal_moves lists");
                fuzz::require(after == state, "a refused move changed the state");
            }
        }
    }
    return 0;
}
