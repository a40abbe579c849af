#include "gcor/protocol/game_json.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>

#include "gcor/protocol/json_text.hpp"

namespace gcor::protocol {
namespace {

using engine::Kind;

Error bad(std::string message) {
    return Error{ErrorCode::bad_field, std::move(message)};
}

// Refuses keys other than `allowed`, so that a misspelt key is not silently read as 0.
std::optional<Error> unknown_key(const Json& object,
                                 std::initializer_list<std::string_view> allowed,
                                 std::string_view where) {
    for (const auto& [key, value] : object.items())
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            return bad("unknown key \"" + key + "\" in " + std::string(where));
    return std::nullopt;
}

// How many buildings of a kind one city can hold: its copies in the decks, plus the player's own
// starting building or shrine.
int copies_per_city(Kind kind) {
    int copies = 0;
    for (int card = 0; card < engine::kFirstStartingCard; ++card)
        copies += engine::kCardKinds[static_cast<std::size_t>(card)] == kind;
    if (kind == Kind::vegetable_farm || kind == Kind::residential_2 || kind == Kind::shrine)
        ++copies;
    return copies;
}

struct CellInput {
    long long x, y;
    Kind kind;
    int tokens;
};

Expected<CellInput> parse_cell(const Json& json, std::size_t index) {
    const std::string where = "cell " + std::to_string(index);
    if (!json.is_object()) return bad(where + " must be an object");
    if (auto error = unknown_key(json, {"x", "y", "building", "tokens"}, where)) return *error;
    constexpr long long kFar = 1'000'000;
    const auto x = read_integer(json, "x", -kFar, kFar, std::nullopt, where);
    if (!x) return x.error();
    const auto y = read_integer(json, "y", -kFar, kFar, std::nullopt, where);
    if (!y) return y.error();
    const auto building = json.find("building");
    if (building == json.end() || !building->is_string())
        return bad(where + " needs \"building\", a building id such as \"market\"");
    const auto kind = engine::kind_from_id(building->get<std::string>());
    if (!kind) return bad(where + ": unknown building \"" + building->get<std::string>() + "\"");
    // A thermal baths holds one token per neighbour, one more for the imperial one.
    const int max_tokens = engine::is_thermal_baths(*kind) ? 4 + engine::info(*kind).special : 0;
    const auto tokens = read_integer(json, "tokens", 0, max_tokens, 0,
                                     where + " (" + building->get<std::string>() + ")");
    if (!tokens) return tokens.error();
    return CellInput{*x, *y, *kind, static_cast<int>(*tokens)};
}

}  // namespace

Expected<long long> read_integer(const Json& object, const char* key, long long min, long long max,
                                 std::optional<long long> fallback, std::string_view where) {
    const auto it = object.find(key);
    if (it == object.end()) {
        if (fallback) return *fallback;
        return bad(std::string(where) + " needs \"" + key + "\"");
    }
    if (!it->is_number_integer())
        return bad(std::string(where) + " \"" + key + "\" must be a whole number");
    const long long value = it->is_number_unsigned() && it->get<unsigned long long>() > 1ull << 62
                                ? max + 1
                                : it->get<long long>();
    if (value < min || value > max)
        return bad(std::string(where) + " \"" + key + "\" must be between " + std::to_string(min) +
                   " and " + std::to_string(max) + ", not " + it->dump());
    return value;
}

void append_options_json(std::string& out, const engine::Options& options) {
    out += R"({"players":)";
    append_json_number(out, options.players);
    out += R"(,"rules":)";
    append_json_string(out, engine::variant_id(options.variant));
    out += options.shrine ? R"(,"shrine":true})" : R"(,"shrine":false})";
}

Json options_to_json(const engine::Options& options) {
    std::string text;
    append_options_json(text, options);
    return Json::parse(text);
}

Expected<engine::Options> parse_options(const Json& json) {
    if (!json.is_object()) return bad("options must be an object");
    if (auto error = unknown_key(json, {"players", "rules", "shrine"}, "options")) return *error;
    engine::Options options;
    const auto players =
        read_integer(json, "players", 2, engine::kMaxPlayers, std::nullopt, "options");
    if (!players) return players.error();
    options.players = static_cast<int>(*players);
    if (const auto rules = json.find("rules"); rules != json.end()) {
        const auto variant =
            rules->is_string() ? engine::variant_from_id(rules->get<std::string>()) : std::nullopt;
        if (!variant) return bad("options \"rules\" must be \"yucata\" or \"publisher\"");
        options.variant = *variant;
    }
    if (const auto shrine = json.find("shrine"); shrine != json.end()) {
        if (!shrine->is_boolean()) return bad("options \"shrine\" must be true or false");
        options.shrine = shrine->get<bool>();
    }
    return options;
}

Json score_to_json(const engine::ScoreBreakdown& score) {
    Json json = Json::object();
    for (const auto& [key, member] : kScoreMembers)
        json[std::string(key)] = score.*member;
    return json;
}

Expected<CityInput> parse_city(const Json& json) {
    if (!json.is_object()) return bad("a city must be a JSON object");
    if (auto error =
            unknown_key(json, {"cells", "coins", "influence", "influence_cards"}, "the city"))
        return *error;
    const auto cells_json = json.find("cells");
    if (cells_json == json.end() || !cells_json->is_array())
        return bad("the city needs \"cells\", an array of buildings");
    if (cells_json->size() > engine::City::kMaxSpan * engine::City::kMaxSpan)
        return bad("a city has at most 16 buildings, not " + std::to_string(cells_json->size()));

    std::vector<CellInput> cells;
    for (std::size_t i = 0; i < cells_json->size(); ++i) {
        auto cell = parse_cell((*cells_json)[i], i);
        if (!cell) return cell.error();
        cells.push_back(*cell);
    }
    CityInput input;
    if (!cells.empty()) {
        long long min_x = cells[0].x, max_x = min_x, min_y = cells[0].y, max_y = min_y;
        for (const CellInput& cell : cells) {
            min_x = std::min(min_x, cell.x), max_x = std::max(max_x, cell.x);
            min_y = std::min(min_y, cell.y), max_y = std::max(max_y, cell.y);
        }
        if (max_x - min_x >= engine::City::kMaxSpan || max_y - min_y >= engine::City::kMaxSpan)
            return bad("the city spans " + std::to_string(max_x - min_x + 1) + "x" +
                       std::to_string(max_y - min_y + 1) + " cells; at most 4x4 is allowed");
        std::array<int, engine::kKindCount> per_kind{};
        for (const CellInput& cell : cells) {
            // Scoring does not depend on where the city lies: move it to start at (0, 0).
            const int x = static_cast<int>(cell.x - min_x), y = static_cast<int>(cell.y - min_y);
            if (input.city.occupied(x, y))
                return bad("two buildings on cell (" + std::to_string(cell.x) + "," +
                           std::to_string(cell.y) + ")");
            if (engine::is_aqueduct(cell.kind) && !input.city.aqueduct_allowed(x, y))
                return bad("two aqueducts in row " + std::to_string(cell.y) + " or column " +
                           std::to_string(cell.x));
            if (++per_kind[static_cast<std::size_t>(cell.kind)] > copies_per_city(cell.kind))
                return bad("more " + std::string(engine::info(cell.kind).id) +
                           " buildings than the game has");
            input.city.place(x, y, cell.kind, engine::kNoCard,
                             static_cast<std::uint8_t>(cell.tokens));
        }
        // Connected: a flood fill from the first building reaches them all.
        std::vector<std::pair<int, int>> stack{
            {static_cast<int>(cells[0].x - min_x), static_cast<int>(cells[0].y - min_y)}};
        std::array<bool, 16> reached{};
        int count = 0;
        reached[static_cast<std::size_t>(stack[0].second * 4 + stack[0].first)] = true;
        while (!stack.empty()) {
            const auto [x, y] = stack.back();
            stack.pop_back();
            ++count;
            for (const auto& [dx, dy] :
                 std::array<std::pair<int, int>, 4>{{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}}) {
                const int nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx > 3 || ny > 3 || !input.city.occupied(nx, ny)) continue;
                bool& seen = reached[static_cast<std::size_t>(ny * 4 + nx)];
                if (!seen) seen = true, stack.push_back({nx, ny});
            }
        }
        if (count != input.city.building_count()) return bad("the buildings are not all connected");
    }

    constexpr long long kMuch = 1'000'000;
    const auto coins = read_integer(json, "coins", 0, kMuch, 0, "the city");
    if (!coins) return coins.error();
    const auto influence = read_integer(json, "influence", 0, kMuch, 0, "the city");
    if (!influence) return influence.error();
    input.holdings.coins = static_cast<int>(*coins);
    input.holdings.influence_tokens = static_cast<int>(*influence);
    if (const auto cards = json.find("influence_cards"); cards != json.end()) {
        if (!cards->is_array()) return bad("\"influence_cards\" must be an array of card values");
        std::vector<long long> seen;
        for (const Json& card : *cards) {
            const long long value = card.is_number_integer() ? card.get<long long>() : -1;
            const bool exists =
                std::find(engine::kInfluenceValues.begin(), engine::kInfluenceValues.end(),
                          value) != engine::kInfluenceValues.end();
            if (!exists)
                return bad("influence cards are worth 3, 4, 6, 8, 10 or 14, not " + card.dump());
            if (std::find(seen.begin(), seen.end(), value) != seen.end())
                return bad("there is one influence card worth " + std::to_string(value));
            seen.push_back(value);
            input.holdings.influence_card_points += static_cast<int>(value);
        }
    }
    return input;
}

}  // namespace gcor::protocol
