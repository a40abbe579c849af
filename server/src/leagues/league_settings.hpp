#pragma once
// A league's settings (docs/leagues.md): read from the body of a request that creates a league,
// stored with the league as JSON. Pure computation (no store, no I/O), so that the reading of
// untrusted bodies can be tested and fuzzed on its own (fuzz/league_body_fuzz.cpp).
#include <string>
#include <variant>
#include <vector>

#include "gcor/protocol/messages.hpp"

namespace gcor::server {

struct LeagueSettings {
    engine::Options options;
    int days = 3;  // per move
    int division_size = 0;
    int games_per_pairing = 1;
    std::vector<int> points;  // per place
    int promote = 1;
    int relegate = 1;
    bool undo = true;  // the league's tables let players take back moves of their turn
    protocol::ChatSetting chat = protocol::ChatSetting::all;  // the league's tables' chat

    friend bool operator==(const LeagueSettings&, const LeagueSettings&) = default;
};

// The settings of a create request's body (its "name" is the caller's to check), or why not.
protocol::Expected<LeagueSettings> parse_settings(const protocol::Json& body);

// The time control of a league's tables.
protocol::TimeControl clock_of(const LeagueSettings& settings);

// The stored form, and back (from what settings_json wrote: not checked again).
protocol::Json settings_json(const LeagueSettings& settings);
LeagueSettings settings_from_json(const protocol::Json& json);

}  // namespace gcor::server
