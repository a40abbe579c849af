#pragma once
// The words both stores keep for statuses, seat kinds, movers and mail's enums: the same text in
// SQLite and PostgreSQL, so that a database copied from one to the other reads the same.
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "gcor/store/store.hpp"

namespace gcor::server::store_texts {

constexpr std::array<std::string_view, 3> kStatuses{"waiting", "playing", "finished"};
constexpr std::array<std::string_view, 4> kSeatKinds{"open", "human", "bot", "reserved"};
constexpr std::array<std::string_view, 4> kMovers{"player", "bot", "timeout", "player_waiting"};
constexpr std::array<std::string_view, 3> kFrequencies{"each_turn", "daily", "off"};
constexpr std::array<std::string_view, 8> kMailKinds{
    "confirm", "turn",           "digest",     "reminder",
    "season",  "password_reset", "invitation", "tournament_round"};
constexpr std::array<std::string_view, 3> kOutcomes{"sent", "dropped", "failed"};

template <typename Enum, std::size_t N>
std::string text_of(Enum value, const std::array<std::string_view, N>& texts) {
    return std::string(texts.at(static_cast<std::size_t>(value)));
}

// A row with a text this server never wrote fails to read, as a broken disk would.
template <typename Enum, std::size_t N>
Enum from_text(const std::string& text, const std::array<std::string_view, N>& texts,
               const char* what) {
    for (std::size_t i = 0; i < N; ++i)
        if (texts[i] == text) return static_cast<Enum>(i);
    throw StorageFailure(std::string("the database holds an unknown ") + what + " \"" + text +
                         "\"");
}

// The mail's enums read leniently: `fallback` for a text this code does not know.
template <typename Enum, std::size_t N>
Enum from_text_or(const std::string& text, const std::array<std::string_view, N>& texts,
                  Enum fallback) {
    for (std::size_t i = 0; i < N; ++i)
        if (texts[i] == text) return static_cast<Enum>(i);
    return fallback;
}

}  // namespace gcor::server::store_texts
