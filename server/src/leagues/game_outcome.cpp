#include "leagues/game_outcome.hpp"

#include "gcor/protocol/game_json.hpp"

namespace gcor::server {

using protocol::Json;

std::optional<GameOutcome> outcome_of(const StoredTable& table) {
    if (table.status != TableStatus::finished) return std::nullopt;
    const Json result = Json::parse(table.result, nullptr, false);
    if (!result.is_object() || !result.contains("places")) return std::nullopt;
    GameOutcome outcome;
    for (std::size_t seat = 0; seat < table.seats.size(); ++seat) {
        const Json& score = result.at("scores").at(seat);
        outcome.users.push_back(table.seats[seat].user);
        outcome.places.push_back(result.at("places").at(seat).get<int>());
        outcome.scores.push_back(score.at("total").get<int>());
        outcome.influence.push_back(result.at("influence").at(seat).get<int>());
        outcome.coins.push_back(score.at("coins").get<int>());
        outcome.forfeited.push_back(table.seats[seat].forfeited);
    }
    return outcome;
}

}  // namespace gcor::server
