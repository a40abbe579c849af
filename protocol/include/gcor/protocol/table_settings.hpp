#pragma once
// A table's settings: chosen when it is created (a create_table request, or a league's season),
// stored with it, and shown in its summary. One type with one JSON form, read by one parser.
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gcor/engine/bot.hpp"
#include "gcor/protocol/expected.hpp"
#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

// The longest clocks a table may have, per move.
constexpr int kMaxRealtimeSeconds = 24 * 3600;
constexpr int kMaxCorrespondenceDays = 60;
// A table's given name: 1 to 60 characters by the chat's rules, spaces at its ends trimmed.
constexpr int kMaxTableNameCharacters = 60;

// How long a seat has for each move, chosen when the table is created.
struct TimeControl {
    enum class Kind : std::uint8_t { none, realtime, correspondence } kind = Kind::none;
    int seconds = 0;  // realtime: per move
    int days = 0;     // correspondence: per move
    // What happens when a seat's time runs out: a bot makes that one move for it, or the seat
    // forfeits (a bot plays its moves until the end, and it ranks last).
    enum class OnTimeout : std::uint8_t { bot, forfeit } on_timeout = OnTimeout::bot;

    std::chrono::milliseconds per_move() const;
    bool operator==(const TimeControl&) const = default;
};
Json time_control_to_json(const TimeControl& clock);

// The league season and division a league's table belongs to.
struct TableLeague {
    std::uint64_t id = 0;
    std::string name;
    int season = 0;
    int division = 0;

    bool operator==(const TableLeague&) const = default;
};

// The tournament and round a tournament's table belongs to (docs/tournaments.md).
struct TableTournament {
    std::uint64_t id = 0;
    std::string name;
    int round = 0;
    // The round's deadline (unix ms), if it has one: no turn's time runs past it.
    std::optional<std::int64_t> deadline;

    bool operator==(const TableTournament&) const = default;
};

// Who may write in a table's chat: everybody who may watch, only the seated players, or nobody.
// Everybody who follows the table reads it.
enum class ChatSetting : std::uint8_t { all, players, off };
std::string_view chat_setting_id(ChatSetting chat);
std::optional<ChatSetting> chat_setting_from_id(std::string_view id);

struct TableSettings {
    engine::Options options;
    // Per seat, at the creation: the seats bots take (the table's seats keep them afterwards).
    std::array<std::optional<engine::BotKind>, engine::kMaxPlayers> bots{};
    bool is_public = true;   // listed in the lobby
    bool spectators = true;  // people without a seat may watch
    bool rated = false;      // the result changes the players' ratings: registered players only
    bool undo = true;        // players may take back moves of their turn (docs/rules.md, "Undo")
    ChatSetting chat = ChatSetting::all;
    // The game starts by itself once every seat is taken (on by default for a table with
    // invitations: it starts when the last invited player accepts).
    bool start_when_full = false;
    // The name its creator gave it; empty: none, and readers name it by its players in their own
    // language ("Ann, Ben and Bot 3").
    std::string name;
    TimeControl clock;
    std::optional<TableLeague>
        league;  // set by the server for a league's tables, never by a client
    std::optional<TableTournament> tournament;  // the same, for a tournament's tables

    bool operator==(const TableSettings&) const = default;
};

// {"options":…,"public":…,"spectators":…,"time_control":…,"undo":…,"chat":…} with "rated",
// "start_when_full", "bots", "name", "league" and "tournament" when they say something: the stored
// form, and the settings part of a table's summary.
Json table_settings_json(const TableSettings& settings);

// The stored form back, by the rules of a create_table request (errors "bad_json", "bad_field"),
// with the "league" and "tournament" that only the server sets.
Expected<TableSettings> parse_table_settings(std::string_view text);

}  // namespace gcor::protocol
