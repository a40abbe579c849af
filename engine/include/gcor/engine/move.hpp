#pragma once
// A move: a small value type. Its text form ("build 17 1,-1") is what game records store.
#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

#include "gcor/engine/cards.hpp"

namespace gcor::engine {

// The order is the order of legal move lists.
enum class MoveType : std::uint8_t {
    invalid,
    draft,        // keep `card` from the draft packet
    place,        // put an emissary on strip space `index`
    take,         // take `card` from the offer
    build,        // build `card` from the hand on (x, y); on an occupied cell an aqueduct replaces
    produce,      // use every production building once
    end_turn,     // end the action turn
    school_deck,  // the school draws from deck `index` (1..3 for II..IV)
    school_keep,  // keep `card` of the school draw; `rest` goes under the deck in this order
};

struct Move {
    MoveType type = MoveType::invalid;
    CardId card = kNoCard;
    std::int8_t x = 0;
    std::int8_t y = 0;
    std::uint8_t index = 0;
    // School: the cards not kept, in the order they are put under the deck (the last ends at the
    // very bottom); kNoCard after the last.
    std::array<CardId, 4> rest{kNoCard, kNoCard, kNoCard, kNoCard};

    static constexpr Move draft(CardId card) { return {MoveType::draft, card}; }
    static constexpr Move place(int space) {
        return {MoveType::place, kNoCard, 0, 0, static_cast<std::uint8_t>(space)};
    }
    static constexpr Move take(CardId card) { return {MoveType::take, card}; }
    static constexpr Move build(CardId card, int x, int y) {
        return {MoveType::build, card, static_cast<std::int8_t>(x), static_cast<std::int8_t>(y)};
    }
    static constexpr Move produce() { return {MoveType::produce}; }
    static constexpr Move end_turn() { return {MoveType::end_turn}; }
    static constexpr Move school_deck(int deck) {
        return {MoveType::school_deck, kNoCard, 0, 0, static_cast<std::uint8_t>(deck)};
    }
    static constexpr Move school_keep(CardId card, std::array<CardId, 4> rest) {
        return {MoveType::school_keep, card, 0, 0, 0, rest};
    }

    int rest_count() const;
    // Whether the fields this type does not use hold their defaults (every parsed move does).
    bool well_formed() const;

    std::string to_string() const;
    // Appends the text form to `out`: to_string without a string of its own. The text holds
    // only letters, digits, spaces, commas, '-' and '?', so it is JSON as it stands.
    void append_text(std::string& out) const;
    // Parses the text form; nullopt for anything that is not exactly the text to_string makes
    // of a move (so "place 01" is refused: a move has one text).
    static std::optional<Move> parse(std::string_view text);

    friend constexpr bool operator==(const Move&, const Move&) = default;
    friend constexpr auto operator<=>(const Move& a, const Move& b) {
        return std::tie(a.type, a.card, a.y, a.x, a.index, a.rest) <=>
               std::tie(b.type, b.card, b.y, b.x, b.index, b.rest);
    }
};

struct MoveHash {
    std::size_t operator()(const Move& move) const;
};

}  // namespace gcor::engine
