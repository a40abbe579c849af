#include <array>

#include "gcor/engine/state.hpp"

namespace gcor::engine {
namespace {

struct ErrorText {
    std::string_view code;
    std::string_view message;
};

// Codes are part of the protocol: never renumber or rename one.
constexpr std::array<ErrorText, static_cast<std::size_t>(MoveError::bad_order) + 1> kErrors{{
    {"ok", "the move is legal"},
    {"malformed_move", "that is not a well-formed move"},
    {"game_over", "the game is over"},
    {"not_your_turn", "it is not your turn"},
    {"wrong_phase", "that kind of move is not possible now"},
    {"card_not_available", "that card is not available to you"},
    {"bad_space", "the action strip has spaces 0 to 4"},
    {"space_taken", "an emissary already stands on that space"},
    {"unreasonable_space", "the last emissary goes to the far end of a run of free spaces"},
    {"already_built", "you have already built this turn"},
    {"already_produced", "you have already produced this turn"},
    {"bad_cell", "that cell is outside any possible city"},
    {"cell_occupied", "a building already stands there (only an aqueduct may replace one)"},
    {"not_adjacent", "a building must be placed next to your city"},
    {"city_too_large", "your city may be at most 4 by 4"},
    {"aqueduct_conflict", "a row or column may hold only one aqueduct"},
    {"not_enough_coins", "you do not have enough coins"},
    {"pointless_produce", "producing would gain less than it costs"},
    {"bad_deck", "the school draws from a deck in play other than deck I that still has cards"},
    {"bad_keep", "keep one of the cards the school drew"},
    {"bad_order", "put every other drawn card back, each once"},
}};

}  // namespace

std::string_view error_code(MoveError error) {
    return kErrors[static_cast<std::size_t>(error)].code;
}
std::string_view error_message(MoveError error) {
    return kErrors[static_cast<std::size_t>(error)].message;
}

}  // namespace gcor::engine
