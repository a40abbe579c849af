#pragma once
// What a move caused, in order: the game log, which clients receive as data (protocol/events.hpp).
#include <cstdint>
#include <optional>

#include "gcor/engine/cards.hpp"
#include "gcor/engine/move.hpp"

namespace gcor::engine {

using Seat = std::uint8_t;
inline constexpr Seat kNoSeat = 255;
inline constexpr std::uint8_t kEveryone = 0xFF;

enum class EventType : std::uint8_t {
    game_started,             // seat: the first player
    drafted,                  // seat kept card (known_to says who may see it)
    round_started,            // count: the round
    offer_drawn,              // card from deck `index`
    influence_card_revealed,  // card: an influence card goes to the table
    emissary_placed,          // seat placed on space `index`
    turn_started,             // seat acts with the emissary on space `index`: bricks, cogs
    card_taken,               // seat took card from the offer
    built,                    // seat built card on (x, y), replacing `other`; see the fields
    produced,                 // seat produced; see the fields
    school_drew,              // seat drew `count` cards from deck `index`
    school_kept,              // seat kept card (known_to), put `count` under deck `index`
    turn_ended,               // seat
    first_player_passed,      // seat: the new first player
    influence_awarded,        // seat took `count` influence cards worth `points`, returned tokens
    influence_postponed,      // a tie: the influence cards stay on the table
    game_over,
    undone,     // seat took back its move of type `undone` (card, x, y as in the move)
    timed_out,  // seat ran out of time and its move was made for it: put by the table, not the
                // rules
};

struct Event {
    EventType type{};
    bool automatic = false;  // made by the engine because it was the only legal move (yucata)
    Seat seat = kNoSeat;
    std::uint8_t known_to = kEveryone;  // seats (bits) that may see `card`
    CardId card = kNoCard;
    CardId other = kNoCard;  // a building replaced by an aqueduct
    std::int8_t x = 0;
    std::int8_t y = 0;
    std::uint8_t index = 0;  // a strip space or a deck
    std::int16_t count = 0;
    std::int16_t points = 0;
    std::int16_t bricks = 0;              // strip bricks of a turn
    std::int16_t cogs = 0;                // strip cogs of a turn
    std::int16_t coins_paid = 0;          // for bricks or cogs
    std::int16_t coins_gained = 0;        // market, farms
    std::int16_t influence = 0;           // tokens gained (stars, arena, sheep) or returned
    std::int16_t brick_tokens = 0;        // spent by a build, made by a produce
    std::int16_t point_tokens = 0;        // put on thermal baths
    MoveType undone = MoveType::invalid;  // the type of a move taken back

    bool visible_to(std::optional<Seat> viewer) const {
        return known_to == kEveryone || (viewer && (known_to >> *viewer) & 1u);
    }
};

}  // namespace gcor::engine
