#include <string>

#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

Json result_to_json(const engine::State& state) {
    Json scores = Json::array();
    for (int seat = 0; seat < state.player_count(); ++seat)
        scores.push_back(score_to_json(state.final_score(static_cast<engine::Seat>(seat))));
    Json result{{"finished", state.over()}, {"round", state.round}, {"scores", std::move(scores)}};
    result["winners"] = state.over() ? Json(state.winners()) : Json::array();
    return result;
}

Json record_to_json(const GameRecord& record, const engine::State* final_state) {
    Json moves = Json::array();
    for (const engine::Move& move : record.moves)
        moves.push_back(move.to_string());
    Json json{{"options", options_to_json(record.options)},
              {"seed", record.seed},
              {"moves", std::move(moves)}};
    if (final_state && final_state->over()) {
        Json result = result_to_json(*final_state);
        json["scores"] = std::move(result["scores"]);
        json["winners"] = std::move(result["winners"]);
    }
    return json;
}

Expected<GameRecord> parse_record(const Json& json) {
    auto bad = [](std::string message) { return Error{"bad_record", std::move(message)}; };
    if (!json.is_object()) return bad("a game record must be a JSON object");
    for (const auto& [key, value] : json.items())
        if (key != "options" && key != "seed" && key != "moves" && key != "scores" &&
            key != "winners")
            return bad("unknown key \"" + key + "\" in the game record");
    GameRecord record;
    const auto options = json.find("options");
    if (options == json.end()) return bad("the game record needs \"options\"");
    auto parsed = parse_options(*options);
    if (!parsed) return bad(parsed.error().message);
    record.options = *parsed;

    const auto seed = json.find("seed");
    if (seed == json.end() || !seed->is_number_unsigned())
        return bad("the game record needs \"seed\", a whole number from 0 to 2^64-1");
    record.seed = seed->get<std::uint64_t>();

    const auto moves = json.find("moves");
    if (moves == json.end() || !moves->is_array())
        return bad("the game record needs \"moves\", an array");
    record.moves.reserve(moves->size());
    for (std::size_t i = 0; i < moves->size(); ++i) {
        const Json& text = (*moves)[i];
        const auto move =
            text.is_string() ? engine::Move::parse(text.get<std::string>()) : std::nullopt;
        if (!move) return bad("move " + std::to_string(i) + " is not a move: " + text.dump());
        record.moves.push_back(*move);
    }
    if (const auto scores = json.find("scores"); scores != json.end())
        record.claimed_scores = *scores;
    if (const auto winners = json.find("winners"); winners != json.end())
        record.claimed_winners = *winners;
    return record;
}

Replay replay(const GameRecord& record) {
    const auto rules = engine::Rules::make(record.options);
    Replay result{rules->new_game(record.seed), std::nullopt, engine::MoveError::none};
    for (std::size_t i = 0; i < record.moves.size(); ++i) {
        engine::State& state = result.state;
        const engine::MoveError error = state.apply(state.to_act(), record.moves[i]);
        if (error != engine::MoveError::none) {
            result.refused_index = i;
            result.refused_error = error;
            break;
        }
    }
    return result;
}

}  // namespace gcor::protocol
