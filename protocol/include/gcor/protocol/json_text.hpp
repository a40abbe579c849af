#pragma once
// JSON written as text, without building Json values first: the messages of the move path (patches,
// their log lines, listings) are written this way, as nlohmann's dump() would write them.
#include <array>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>

#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

// Appends `text` (valid UTF-8) as a JSON string, exactly as Json(text).dump() writes it.
void append_json_string(std::string& out, std::string_view text);

// Appends a whole number.
template <std::integral Number>
void append_json_number(std::string& out, Number number) {
    std::array<char, 24> digits{};
    const char* end = std::to_chars(digits.data(), digits.data() + digits.size(), number).ptr;
    out.append(digits.data(), static_cast<std::size_t>(end - digits.data()));
}

// Appends `value` as dump() writes it, without dump()'s set-up for every value: patches hold many
// small values. Views hold no floating point numbers; those are written by dump().
void append_json(std::string& out, const Json& value);

}  // namespace gcor::protocol
