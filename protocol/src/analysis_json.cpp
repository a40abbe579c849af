#include "gcor/protocol/analysis_json.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace gcor::protocol {
namespace {

constexpr std::size_t kTurningPoints = 5;

// Three decimals: the estimates are not finer than that, and the JSON stays short.
double rounded(double chance) {
    return std::round(chance * 1000.0) / 1000.0;
}

}  // namespace

Json analysis_json(const engine::GameAnalysis& analysis, double mistake_threshold) {
    assert(mistake_threshold >= 0.0 && mistake_threshold <= 1.0);
    struct SeatSummary {
        int decisions = 0;
        int mistakes = 0;
        double loss = 0.0;
    };
    std::vector<SeatSummary> seats(static_cast<std::size_t>(analysis.players));
    // (loss, move) of every decision that lost something, for the turning points.
    std::vector<std::pair<double, std::size_t>> drops;
    Json decisions = Json::array();
    for (const engine::DecisionReview& decision : analysis.decisions) {
        // From the rounded chances, so that every figure of the JSON agrees with the others.
        const double before = rounded(decision.before);
        const double after = rounded(decision.after);
        const double loss = std::max(0.0, rounded(before - after));
        const bool mistake = loss > mistake_threshold;
        SeatSummary& seat = seats.at(decision.seat);
        ++seat.decisions;
        seat.mistakes += mistake;
        seat.loss += loss;
        if (loss > 0.0) drops.emplace_back(loss, decision.move);
        decisions.push_back({{"move", decision.move},
                             {"seat", decision.seat},
                             {"played", decision.played.to_string()},
                             {"before", before},
                             {"after", after},
                             {"preferred", decision.preferred.to_string()},
                             {"preferred_chance", rounded(decision.preferred_chance)},
                             {"loss", loss},
                             {"mistake", mistake}});
    }
    Json players = Json::array();
    for (std::size_t i = 0; i < seats.size(); ++i)
        players.push_back(
            {{"seat", i},
             {"decisions", seats[i].decisions},
             {"mistakes", seats[i].mistakes},
             {"mean_loss",
              seats[i].decisions == 0 ? 0.0 : rounded(seats[i].loss / seats[i].decisions)}});
    // The largest first; of equal ones the earlier.
    std::sort(drops.begin(), drops.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    Json turning_points = Json::array();
    for (std::size_t i = 0; i < drops.size() && i < kTurningPoints; ++i)
        turning_points.push_back(drops[i].second);
    return {{"version", 1},
            {"worlds", analysis.worlds},
            {"threshold", mistake_threshold},
            {"decisions", std::move(decisions)},
            {"players", std::move(players)},
            {"turning_points", std::move(turning_points)}};
}

Json progress_json(std::size_t done, std::size_t total) {
    return {{"done", done}, {"total", total}};
}

}  // namespace gcor::protocol
