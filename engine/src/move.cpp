#include "gcor/engine/move.hpp"

#include <charconv>
#include <iterator>

#include "gcor/engine/static_vector.hpp"

namespace gcor::engine {
namespace {

// The parts of `text` between `separator`s, or nullopt when there are more than N: no move's
// text has more, and none is read without a bound (a move arrives from the network).
template <std::size_t N>
std::optional<StaticVector<std::string_view, N>> split(std::string_view text, char separator) {
    StaticVector<std::string_view, N> parts;
    std::size_t start = 0;
    while (true) {
        if (parts.full()) return std::nullopt;
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) return parts;
        start = end + 1;
    }
}

void append_number(std::string& out, int value) {
    char digits[12];  // room for any int: to_chars cannot fail
    out.append(std::begin(digits), std::to_chars(std::begin(digits), std::end(digits), value).ptr);
}

// A number as to_string writes it: from_chars takes no sign but "-" and no spaces, so "+1" and
// " 1" are refused; leading zeros ("01") and "-0" are refused here, so that a move has one text.
template <class Int>
std::optional<Int> parse_int(std::string_view text, int min, int max) {
    const std::string_view digits = text.starts_with('-') ? text.substr(1) : text;
    if (digits.starts_with('0') && (digits.size() > 1 || digits.size() < text.size()))
        return std::nullopt;
    int value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc{} || ptr != end || value < min || value > max)
        return std::nullopt;
    return static_cast<Int>(value);
}

std::optional<CardId> parse_card(std::string_view text) {
    return parse_int<CardId>(text, 0, kCardCount - 1);
}

}  // namespace

int Move::rest_count() const {
    int count = 0;
    while (count < static_cast<int>(rest.size()) &&
           rest[static_cast<std::size_t>(count)] != kNoCard)
        ++count;
    return count;
}

bool Move::well_formed() const {
    const bool uses_card = type == MoveType::draft || type == MoveType::take ||
                           type == MoveType::build || type == MoveType::school_keep;
    const bool uses_cell = type == MoveType::build;
    const bool uses_index = type == MoveType::place || type == MoveType::school_deck;
    if (!uses_card && card != kNoCard) return false;
    if (!uses_cell && (x != 0 || y != 0)) return false;
    if (!uses_index && index != 0) return false;
    if (type != MoveType::school_keep) return rest == Move{}.rest;
    // The rest: cards first, then only padding.
    for (int i = rest_count(); i < static_cast<int>(rest.size()); ++i)
        if (rest[static_cast<std::size_t>(i)] != kNoCard) return false;
    return true;
}

std::string Move::to_string() const {
    std::string text;
    append_text(text);
    return text;
}

void Move::append_text(std::string& out) const {
    switch (type) {
        case MoveType::draft:
            out += "draft ";
            return append_number(out, card);
        case MoveType::place:
            out += "place ";
            return append_number(out, index);
        case MoveType::take:
            out += "take ";
            return append_number(out, card);
        case MoveType::build:
            out += "build ";
            append_number(out, card);
            out += ' ';
            append_number(out, x);
            out += ',';
            return append_number(out, y);
        case MoveType::produce:
            out += "produce";
            return;
        case MoveType::end_turn:
            out += "end";
            return;
        case MoveType::school_deck:
            out += "school ";
            out += index < kDeckCount ? deck_name(index) : std::string_view("?");
            return;
        case MoveType::school_keep:
            out += "keep ";
            append_number(out, card);
            for (int i = 0; i < rest_count(); ++i) {
                out += i == 0 ? ' ' : ',';
                append_number(out, rest[static_cast<std::size_t>(i)]);
            }
            return;
        case MoveType::invalid:
            break;
    }
    out += "invalid";
}

std::optional<Move> Move::parse(std::string_view text) {
    const auto split_words = split<3>(text, ' ');
    if (!split_words) return std::nullopt;
    const auto& words = *split_words;
    const std::string_view verb = words[0];
    const std::size_t args = words.size() - 1;
    if (verb == "produce" && args == 0) return produce();
    if (verb == "end" && args == 0) return end_turn();
    if ((verb == "draft" || verb == "take") && args == 1) {
        const auto card = parse_card(words[1]);
        if (!card) return std::nullopt;
        return verb == "draft" ? draft(*card) : take(*card);
    }
    if (verb == "place" && args == 1) {
        const auto space = parse_int<std::uint8_t>(words[1], 0, 255);
        if (!space) return std::nullopt;
        return place(*space);
    }
    if (verb == "build" && args == 2) {
        const auto card = parse_card(words[1]);
        const auto xy = split<2>(words[2], ',');
        if (!card || !xy || xy->size() != 2) return std::nullopt;
        const auto x = parse_int<std::int8_t>((*xy)[0], -128, 127);
        const auto y = parse_int<std::int8_t>((*xy)[1], -128, 127);
        if (!x || !y) return std::nullopt;
        return build(*card, *x, *y);
    }
    if (verb == "school" && args == 1) {
        for (int deck = 0; deck < kDeckCount; ++deck)
            if (words[1] == deck_name(deck)) return school_deck(deck);
        return std::nullopt;
    }
    if (verb == "keep" && (args == 1 || args == 2)) {
        const auto card = parse_card(words[1]);
        if (!card) return std::nullopt;
        std::array<CardId, 4> rest{kNoCard, kNoCard, kNoCard, kNoCard};
        if (args == 2) {
            const auto items = split<std::tuple_size_v<decltype(rest)>>(words[2], ',');
            if (!items) return std::nullopt;
            for (std::size_t i = 0; i < items->size(); ++i) {
                const auto item = parse_card((*items)[i]);
                if (!item) return std::nullopt;
                rest[i] = *item;
            }
        }
        return school_keep(*card, rest);
    }
    return std::nullopt;
}

std::size_t MoveHash::operator()(const Move& move) const {
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&h](std::uint64_t byte) { h = (h ^ byte) * 0x100000001b3ull; };
    mix(static_cast<std::uint64_t>(move.type));
    mix(move.card);
    mix(static_cast<std::uint8_t>(move.x));
    mix(static_cast<std::uint8_t>(move.y));
    mix(move.index);
    for (CardId card : move.rest)
        mix(card);
    return static_cast<std::size_t>(h);
}

}  // namespace gcor::engine
