#pragma once
// A tournament's settings (docs/tournaments.md): read from the body of a request that creates a
// tournament, stored with it as JSON. Pure computation (no store, no I/O), so that the reading of
// untrusted bodies is tested on its own.
#include <optional>
#include <string>
#include <vector>

#include "gcor/protocol/table_settings.hpp"

namespace gcor::server {

enum class TournamentFormat : std::uint8_t { swiss, knockout };

struct TournamentSettings {
    std::string name;
    TournamentFormat format = TournamentFormat::swiss;
    int per_table = 4;
    int rounds = 3;                         // Swiss; a knockout's follow from its players
    int advance = 1;                        // knockout: the best `advance` of each table go on
    engine::Options options;                // the rules and the shrine (players: per_table)
    protocol::TimeControl clock;            // its tables' clock; a timeout forfeits
    std::optional<std::int64_t> starts_at;  // unix ms; none: started by hand only
    int max_players = 64;
    bool rated = true;
    std::optional<int> round_deadline_hours;
    std::vector<int> points;  // per place at a full table: the leagues' by default

    friend bool operator==(const TournamentSettings&, const TournamentSettings&) = default;
};

constexpr int kMaxTournamentPlayers = 256;
constexpr int kMaxSwissRounds = 20;

// The settings of a create request's body, or why not (bad_field).
protocol::Expected<TournamentSettings> parse_tournament_settings(const protocol::Json& body);

std::string_view format_id(TournamentFormat format);

// The stored form (the summary's settings members), and back (from what it wrote).
protocol::Json tournament_settings_json(const TournamentSettings& settings);
TournamentSettings tournament_settings_from_json(const protocol::Json& json);

// The settings of a tournament's table of `players` seats, for `round` and its `deadline`.
protocol::TableSettings table_settings_of(const TournamentSettings& settings, std::uint64_t id,
                                          int round, std::optional<std::int64_t> deadline,
                                          int players);

}  // namespace gcor::server
