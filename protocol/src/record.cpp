#include <sodium.h>

#include <string>

#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

Json result_to_json(const engine::State& state) {
    Json scores = Json::array();
    for (int seat = 0; seat < state.player_count(); ++seat)
        scores.push_back(score_to_json(state.final_score(static_cast<engine::Seat>(seat))));
    Json influence = Json::array();
    for (int seat = 0; seat < state.player_count(); ++seat)
        influence.push_back(state.players[static_cast<std::size_t>(seat)].influence);
    Json result{{"finished", state.over()}, {"round", state.round}, {"scores", std::move(scores)}};
    result["winners"] = state.over() ? Json(state.winners()) : Json::array();
    // Leagues rank the seats by places, and standings add up the tie-breakers (influence tokens
    // here, coins in the scores).
    result["places"] = state.places();
    result["influence"] = std::move(influence);
    return result;
}

std::string sha256_hex(std::string_view data) {
    [[maybe_unused]] static const int sodium_ready = sodium_init();  // idempotent, thread-safe
    // libsodium declares its pointers non-null even for empty input; an empty view may hold one.
    const char* bytes = data.data() != nullptr ? data.data() : "";
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes), data.size());
    char hex[crypto_hash_sha256_BYTES * 2 + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return hex;
}

std::string seed_commitment(std::uint64_t seed, std::string_view nonce) {
    return sha256_hex("gcor-seed:" + std::to_string(seed) + ":" + std::string(nonce));
}

bool commitment_holds(const GameRecord& record) {
    if (!record.commitment) return true;
    return record.nonce && seed_commitment(record.seed, *record.nonce) == *record.commitment;
}

Json record_to_json(const GameRecord& record, const engine::State* final_state) {
    Json moves = Json::array();
    for (const engine::Move& move : record.moves)
        moves.push_back(move.to_string());
    Json json{{"options", options_to_json(record.options)},
              {"seed", record.seed},
              {"moves", std::move(moves)}};
    if (!record.waited.empty()) json["waited"] = record.waited;
    if (record.commitment) json["commitment"] = *record.commitment;
    if (record.nonce) json["nonce"] = *record.nonce;
    if (record.forfeited) {
        Json forfeited = Json::array();
        for (int seat = 0; seat < record.options.players; ++seat)
            if (record.forfeited >> seat & 1) forfeited.push_back(seat);
        json["forfeited"] = std::move(forfeited);
    }
    if (final_state && final_state->over()) {
        Json result = result_to_json(*final_state);
        json["scores"] = std::move(result["scores"]);
        json["winners"] = std::move(result["winners"]);
    }
    return json;
}

Expected<GameRecord> parse_record(const Json& json) {
    auto bad = [](std::string message) { return Error{ErrorCode::bad_field, std::move(message)}; };
    if (!json.is_object()) return bad("a game record must be a JSON object");
    for (const auto& [key, value] : json.items())
        if (key != "options" && key != "seed" && key != "moves" && key != "scores" &&
            key != "winners" && key != "commitment" && key != "nonce" && key != "forfeited" &&
            key != "waited" && key != "table" && key != "names")
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
    if (const auto waited = json.find("waited"); waited != json.end()) {
        const auto bad_waited = [&] {
            return bad("\"waited\" must be an array of increasing indexes into \"moves\"");
        };
        if (!waited->is_array()) return bad_waited();
        for (const Json& index : *waited) {
            if (!index.is_number_unsigned() || index.get<std::uint64_t>() >= record.moves.size() ||
                (!record.waited.empty() && index.get<std::uint64_t>() <= record.waited.back()))
                return bad_waited();
            record.waited.push_back(index.get<std::size_t>());
        }
    }
    for (const char* key : {"commitment", "nonce"}) {
        const auto text = json.find(key);
        if (text == json.end()) continue;
        if (!text->is_string() || text->get_ref<const std::string&>().size() > 128)
            return bad(std::string("\"") + key + "\" must be a string of at most 128 characters");
        (key[0] == 'c' ? record.commitment : record.nonce) = text->get<std::string>();
    }
    if (const auto forfeited = json.find("forfeited"); forfeited != json.end()) {
        if (!forfeited->is_array()) return bad("\"forfeited\" must be an array of seats");
        for (const Json& seat : *forfeited) {
            if (!seat.is_number_unsigned() ||
                seat.get<std::uint64_t>() >= static_cast<std::uint64_t>(record.options.players))
                return bad("\"forfeited\" must be an array of seats");
            record.forfeited |= static_cast<std::uint8_t>(1u << seat.get<unsigned>());
        }
    }
    if (const auto scores = json.find("scores"); scores != json.end())
        record.claimed_scores = *scores;
    if (const auto winners = json.find("winners"); winners != json.end())
        record.claimed_winners = *winners;
    return record;
}

Replay replay(const GameRecord& record) {
    const auto rules = engine::Rules::make(record.options);
    Replay result;
    result.state = rules->new_game(record.seed, &result.events);
    result.state.forfeited = record.forfeited;
    auto waited = record.waited.begin();
    for (std::size_t i = 0; i < record.moves.size(); ++i) {
        engine::State& state = result.state;
        const bool waits = waited != record.waited.end() && *waited == i;
        if (waits) ++waited;
        const engine::MoveError error =
            state.apply(state.to_act(), record.moves[i], &result.events, waits);
        if (error != engine::MoveError::none) {
            result.refused_index = i;
            result.refused_error = error;
            break;
        }
    }
    return result;
}

}  // namespace gcor::protocol
