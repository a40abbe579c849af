#pragma once
// The game's events as data and as words. Every log a client receives (a patch's, a snapshot's, a
// `log` page) is a list of events, each a small object such as
// {"e":"build","seat":0,"card":17,"cell":"1,0","bought":1,"paid":2} (docs/protocol.md, "Events");
// clients put them into words in their reader's language. The server words them itself only for
// what it writes in a language: `cor replay --log`, mails.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gcor/engine/event.hpp"
#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

// Appends `event` as `viewer` may see it (nullopt: a spectator): a card it may not know is left out.
void append_event_json(std::string& out, const engine::Event& event,
                       std::optional<engine::Seat> viewer);
// The events as a JSON array, each as append_event_json writes it.
void append_events_json(std::string& out, std::span<const engine::Event> events,
                        std::optional<engine::Seat> viewer);
Json events_json(std::span<const engine::Event> events, std::optional<engine::Seat> viewer);

enum class Language : std::uint8_t { en, de };
inline constexpr Language kLanguages[] = {Language::en, Language::de};
std::string_view language_id(Language language);  // "en", "de"
std::optional<Language> parse_language(std::string_view id);

// A building's name as the rules of that language call it.
std::string_view building_name(engine::Kind kind, Language language);

// One line of the game log in plain words, as `viewer` may read it; `names` by seat (a seat
// without one is "Player N").
std::string describe(const engine::Event& event, std::optional<engine::Seat> viewer,
                     std::span<const std::string> names, Language language);

}  // namespace gcor::protocol
