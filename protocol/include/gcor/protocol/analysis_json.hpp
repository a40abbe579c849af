#pragma once
// The game review's JSON form (docs/protocol.md, "Game review"; protocol/schema/analysis.json).
#include <cstddef>

#include "gcor/engine/analysis.hpp"
#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

inline constexpr double kDefaultMistakeThreshold = 0.10;

// {"version":1, "worlds", "threshold", "decisions":[{"move", "seat", "played", "before", "after",
// "preferred", "preferred_chance", "loss", "mistake"}], "players":[{"seat", "decisions",
// "mistakes", "mean_loss"}], "turning_points":[move indexes]}. Chances are fractions from 0 to 1
// rounded to 3 decimals; a decision's loss is before - after, and it is a mistake when the loss is
// more than `mistake_threshold` (in [0, 1]). The turning points are the decisions with the largest
// losses, at most 5, the largest first.
Json analysis_json(const engine::GameAnalysis& analysis,
                   double mistake_threshold = kDefaultMistakeThreshold);

// An analysis under way: {"done", "total"} decisions.
Json progress_json(std::size_t done, std::size_t total);

}  // namespace gcor::protocol
