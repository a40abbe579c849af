#pragma once
// JSON forms of the engine's values that leave the engine: options, cities, scores, records.
#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/expected.hpp"

namespace gcor::protocol {

using Json = nlohmann::ordered_json;

// {"players":…,"rules":…,"shrine":…} appended as text (every snapshot's view holds it);
// options_to_json parses it, so that the two cannot differ.
void append_options_json(std::string& out, const engine::Options& options);
Json options_to_json(const engine::Options& options);
// {"players": 2-4, "rules": "yucata"|"publisher" (default yucata), "shrine": bool (default false)}
Expected<engine::Options> parse_options(const Json& json);

// A score breakdown's members by their JSON names, in the order a score is written: the one list
// of names for the results, the running scores of views and their patches.
inline constexpr std::array<std::pair<std::string_view, int engine::ScoreBreakdown::*>, 10>
    kScoreMembers{{{"residential_2", &engine::ScoreBreakdown::residential_2},
                   {"residential_3", &engine::ScoreBreakdown::residential_3},
                   {"residential_4", &engine::ScoreBreakdown::residential_4},
                   {"aqueducts", &engine::ScoreBreakdown::aqueducts},
                   {"temples", &engine::ScoreBreakdown::temples},
                   {"shrine", &engine::ScoreBreakdown::shrine},
                   {"coins", &engine::ScoreBreakdown::coins},
                   {"influence_tokens", &engine::ScoreBreakdown::influence_tokens},
                   {"influence_cards", &engine::ScoreBreakdown::influence_cards},
                   {"total", &engine::ScoreBreakdown::total}}};

Json score_to_json(const engine::ScoreBreakdown& score);

// One city as `cor score` reads it, checked to be a city that a game could have produced.
struct CityInput {
    engine::City city;
    engine::Holdings holdings;
};
// {"cells":[{"x":0,"y":0,"building":"market","tokens":0}, ...], "coins":9, "influence":3,
//  "influence_cards":[3]}; missing numbers are 0.
Expected<CityInput> parse_city(const Json& json);

// Everything needed to replay a game: the moves are the ones players made (the engine makes the
// automatic ones again).
struct GameRecord {
    engine::Options options;
    std::uint64_t seed = 0;
    std::vector<engine::Move> moves;
    // Indexes into `moves`, increasing: the moves after which the turn waited for its player's
    // end move (State::apply's `waits_for_end`).
    std::vector<std::size_t> waited;
    // What the record claims about the end, checked by a replay when present.
    std::optional<Json> claimed_scores;
    std::optional<Json> claimed_winners;
    std::uint8_t forfeited = 0;  // a bit per seat that forfeited (see State::forfeited)
    // The commitment published when the table started, and the nonce that makes it unguessable;
    // a replay checks that they match the seed.
    std::optional<std::string> commitment;
    std::optional<std::string> nonce;
};

// A whole-number member of `object` in [min, max], or `fallback` when it is missing (required
// when there is none); errors are bad_field and name the member as `<where> "<key>"`.
Expected<long long> read_integer(const Json& object, const char* key, long long min, long long max,
                                 std::optional<long long> fallback, std::string_view where);

// SHA-256 as 64 lower-case hex digits (libsodium's): the seed commitment's, and the server's
// hashes of session tokens.
std::string sha256_hex(std::string_view data);

// The commitment to a table's deal, published when it starts: the SHA-256 (lower-case hex) of
// "gcor-seed:<seed in decimal>:<nonce>".
std::string seed_commitment(std::uint64_t seed, std::string_view nonce);

// The record of a game; with the final scores and winners when `final_state` is over.
Json record_to_json(const GameRecord& record, const engine::State* final_state);
Expected<GameRecord> parse_record(const Json& json);
// Whether the record's seed matches its commitment (true when it has none).
bool commitment_holds(const GameRecord& record);

// The end of a game (or how far it got): {"finished", "round", "scores", "winners", "places",
// "influence"}.
Json result_to_json(const engine::State& state);

// The replay of a record: the state after its moves, or the first move the engine refused.
struct Replay {
    engine::State state;
    std::vector<engine::Event> events;  // the game's log up to the end or the refused move
    std::optional<std::size_t> refused_index;
    engine::MoveError refused_error = engine::MoveError::none;
};
Replay replay(const GameRecord& record);

}  // namespace gcor::protocol
