// A seat's bit in an 8-bit set of seats (who knows a card, who has passed): shared by the game's
// flow and the determinization, so that one build (unity batches) sees one definition.
#pragma once

#include "gcor/engine/event.hpp"

#include <cstdint>

namespace gcor::engine {

constexpr std::uint8_t bit(Seat seat) {
    return static_cast<std::uint8_t>(1u << seat);
}

}  // namespace gcor::engine
