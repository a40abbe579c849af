#pragma once
// JSON forms of the engine's values that leave the engine: options, cities, scores, records.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/expected.hpp"

namespace gcor::protocol {

using Json = nlohmann::ordered_json;

Json options_to_json(const engine::Options& options);
// {"players": 2-4, "rules": "yucata"|"publisher" (default yucata), "shrine": bool (default false)}
Expected<engine::Options> parse_options(const Json& json);

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
    // What the record claims about the end, checked by a replay when present.
    std::optional<Json> claimed_scores;
    std::optional<Json> claimed_winners;
};

// The record of a game; with the final scores and winners when `final_state` is over.
Json record_to_json(const GameRecord& record, const engine::State* final_state);
Expected<GameRecord> parse_record(const Json& json);

// The end of a game (or how far it got): {"finished", "round", "scores", "winners"}.
Json result_to_json(const engine::State& state);

// The replay of a record: the state after its moves, or the first move the engine refused.
struct Replay {
    engine::State state;
    std::optional<std::size_t> refused_index;
    engine::MoveError refused_error = engine::MoveError::none;
};
Replay replay(const GameRecord& record);

}  // namespace gcor::protocol
