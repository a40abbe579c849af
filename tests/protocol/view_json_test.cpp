// The view as JSON, and patches from one view to the next: checked against nlohmann's own
// JSON Patch implementation over many random games.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gcor/engine/view.hpp"
#include "gcor/protocol/view_json.hpp"

namespace gcor::protocol {
namespace {

using engine::CardId;
using engine::Kind;
using engine::Phase;
using engine::Rules;
using engine::Seat;
using engine::State;
using engine::Variant;
using engine::View;

// Applies the patch to `document` one operation at a time, each checked first to be a well-formed
// add, replace or remove of the document as the operations before it left it: an "add" inserts
// into a list or adds a member that does not exist yet, and the others address a value that
// exists. Returns what was wrong, or "".
std::string apply_checked(Json& document, const Json& patch) {
    if (!patch.is_array()) return "the patch is not an array";
    for (const Json& op : patch) {
        if (!op.is_object() || !op.contains("op") || !op.contains("path") ||
            !op["path"].is_string())
            return "malformed operation " + op.dump();
        const std::string kind = op["op"].get<std::string>();
        const std::string path = op["path"].get<std::string>();
        if (path.empty()) return "an operation on the whole view: " + op.dump().substr(0, 80);
        const Json::json_pointer pointer(path);
        const bool exists = document.contains(pointer);
        if (kind == "add") {
            const Json* parent = document.contains(pointer.parent_pointer())
                                     ? &document.at(pointer.parent_pointer())
                                     : nullptr;
            const bool inserts =
                parent && parent->is_array() &&
                (pointer.back() == "-" || std::stoul(pointer.back()) <= parent->size());
            if ((exists && !inserts) || !op.contains("value") || op.size() != 3)
                return "bad add " + op.dump();
        } else if (kind == "replace") {
            if (!exists || !op.contains("value") || op.size() != 3)
                return "bad replace " + op.dump();
        } else if (kind == "remove") {
            if (!exists || op.size() != 2) return "bad remove " + op.dump();
        } else {
            return "unexpected operation " + op.dump();
        }
        document.patch_inplace(Json::array({op}));
    }
    return "";
}

// The member of the view an operation changes: "/offer", "/players/1/hand", …
std::string member_of(const std::string& path) {
    const std::size_t depth = path.rfind("/players/", 0) == 0 ? 3 : 1;
    std::size_t end = 0;
    for (std::size_t i = 0; i < depth && end != std::string::npos; ++i)
        end = path.find('/', end + 1);
    return path.substr(0, end);
}

// A member whose operations take more bytes than one replace of its whole value, or "".
std::string longer_than_whole(const Json& patch, const Json& after) {
    std::map<std::string, std::size_t> bytes;
    for (const Json& op : patch)
        bytes[member_of(op["path"].get<std::string>())] += op.dump().size() + 1;
    for (const auto& [member, size] : bytes) {
        const Json::json_pointer pointer(member);
        if (!after.contains(pointer)) continue;  // removed: a city cell
        const Json whole = {{"op", "replace"}, {"path", member}, {"value", after.at(pointer)}};
        if (size > whole.dump().size() + 1) return member + ": " + patch.dump();
    }
    return "";
}

struct Variation {
    int players;
    Variant variant;
    bool shrine;
};

std::vector<Variation> all_variations() {
    std::vector<Variation> out;
    for (int players = 2; players <= 4; ++players)
        for (Variant variant : {Variant::yucata, Variant::publisher})
            for (bool shrine : {false, true})
                out.push_back({players, variant, shrine});
    return out;
}

std::string name(const Variation& v) {
    return std::to_string(v.players) + " players, " + std::string(engine::variant_id(v.variant)) +
           (v.shrine ? ", shrine" : "");
}

std::vector<std::optional<Seat>> viewers_of(int players) {
    std::vector<std::optional<Seat>> viewers{std::nullopt};
    for (int seat = 0; seat < players; ++seat)
        viewers.push_back(static_cast<Seat>(seat));
    return viewers;
}

// The view's members, in the order they are written (docs/protocol.md, "The view", shows them).
const std::vector<std::string> kViewMembers{"viewer",
                                            "options",
                                            "round",
                                            "rounds",
                                            "phase",
                                            "step",
                                            "first_player",
                                            "to_act",
                                            "strip",
                                            "emissaries",
                                            "offer",
                                            "decks",
                                            "influence_in_deck",
                                            "influence_on_table",
                                            "players",
                                            "draft",
                                            "school",
                                            "turn",
                                            "moves",
                                            "undo",
                                            "result"};

std::vector<std::string> keys_of(const Json& object) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : object.items())
        keys.push_back(key);
    return keys;
}

engine::Move random_move(const State& state, engine::Rng& rng) {
    const auto legal = state.legal_moves(state.to_act());
    return legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
}

template <class Predicate>
std::optional<State> first_state(const Rules& rules, std::uint64_t seeds, Predicate&& wanted) {
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        State state = rules.new_game(seed);
        engine::Rng rng(seed);
        while (!state.over()) {
            if (wanted(state)) return state;
            state.apply(state.to_act(), random_move(state, rng));
        }
        if (wanted(state)) return state;
    }
    return std::nullopt;
}

std::size_t percentile(std::vector<std::size_t> values, double p) {
    REQUIRE(!values.empty());
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1))];
}

TEST_CASE("view patch: applying the patch gives the next view, for every viewer and move",
          "[protocol][view]") {
    // Every move of 60 games per variation (> 100,000 patches); 10 under ASan, where a patch
    // checked costs ten times as much (200 s for 60: the sanitizer looks for memory errors, and
    // 10 games per variation reach every kind of operation as well).
#if defined(__SANITIZE_ADDRESS__)
    constexpr std::uint64_t kSeeds = 10;
#else
    constexpr std::uint64_t kSeeds = 60;
#endif
    long long checked = 0, empty = 0, cell_adds = 0, cell_replaces = 0;
    // Finer operations: on one element of a list, and on members of an object that is kept.
    std::map<std::string, long long> element_ops;
    long long turn_members = 0, cell_members = 0, score_members = 0;
    std::vector<std::size_t> patch_bytes, view_bytes;
    for (const Variation& v : all_variations()) {
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        const auto viewers = viewers_of(v.players);
        for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
            State state = rules.new_game(seed);
            engine::Rng rng(seed * 7919);
            std::vector<View> views;
            std::vector<Json> jsons;
            for (const auto& viewer : viewers) {
                views.push_back(engine::view_for(state, viewer));
                jsons.push_back(view_to_json(views.back()));
            }
            // Samples of sizes: the first seeds of each variation (dumping every view is slow).
            const bool sample = seed <= 10;
            int move_number = 0;
            while (!state.over()) {
                const engine::Move move = random_move(state, rng);
                REQUIRE(state.apply(state.to_act(), move) == engine::MoveError::none);
                ++move_number;
                std::string first_public_ops;  // the first viewer's: every viewer's must match
                for (std::size_t i = 0; i < viewers.size(); ++i) {
                    View after = engine::view_for(state, viewers[i]);
                    Json after_json = view_to_json(after);
                    std::string text;
                    append_view_patch(text, views[i], after);
                    const Json patch = Json::parse(text);
                    // What the server sends: the public operations written once, for all viewers.
                    std::string public_ops;
                    append_public_ops(public_ops, views[i], after);
                    if (i == 0) first_public_ops = public_ops;
                    REQUIRE(public_ops == first_public_ops);
                    std::string shared;
                    append_view_patch(shared, first_public_ops, views[i], after);
                    REQUIRE(shared == text);
                    INFO(name(v) << ", seed " << seed << ", move " << move_number << " ("
                                 << move.to_string() << "), viewer "
                                 << (viewers[i] ? std::to_string(*viewers[i]) : "spectator")
                                 << "\npatch: " << patch.dump());
                    const bool unchanged = same_json(jsons[i], after_json);
                    REQUIRE(apply_checked(jsons[i], patch).empty());
                    REQUIRE(same_json(jsons[i], after_json));
                    REQUIRE(patch.empty() == unchanged);
                    empty += unchanged;
                    for (const Json& op : patch) {
                        const Json::json_pointer path(op["path"].get<std::string>());
                        const std::string& last = path.back();
                        if (path.to_string().find("/city/") != std::string::npos)
                            ++(op["op"] == "add" ? cell_adds : cell_replaces);
                        if (std::isdigit(static_cast<unsigned char>(last[0])) &&
                            last.find(',') == std::string::npos)
                            ++element_ops[path.parent_pointer().back() + " " +
                                          op["op"].get<std::string>()];
                        turn_members += path.parent_pointer().to_string() == "/turn";
                        cell_members += last == "tokens" || last == "card";
                        score_members += path.to_string().find("/score/") != std::string::npos;
                    }
                    if (sample) {
                        patch_bytes.push_back(patch.dump().size());
                        view_bytes.push_back(after_json.dump().size());
                        CHECK(longer_than_whole(patch, after_json).empty());
                    }
                    ++checked;
                    views[i] = std::move(after);
                    jsons[i] = std::move(after_json);
                }
            }
        }
    }
    const std::size_t patch_median = percentile(patch_bytes, 0.5);
    const std::size_t patch_p99 = percentile(patch_bytes, 0.99);
    const std::size_t view_median = percentile(view_bytes, 0.5);
    WARN("view patches: " << checked << " checked (" << empty << " empty); over "
                          << patch_bytes.size() << " sampled, patch bytes per viewer per move: "
                          << "median " << patch_median << ", p99 " << patch_p99 << ", max "
                          << percentile(patch_bytes, 1.0) << "; full view median " << view_median
                          << " bytes");
    // `empty` (viewers who saw nothing change) is reported, not checked: every move changes
    // something public (whose turn it is, the turn's progress), so in practice it stays 0.
    CHECK(checked > static_cast<long long>(kSeeds) *
                        6'000);  // about 8,100 a seed: 12 variations, 3 to 5 viewers each
    CHECK(cell_adds > 1000);     // cities grew
    CHECK(cell_replaces > 0);    // aqueducts replaced buildings, or tokens changed
    CHECK(cell_members > 0);     // tokens changed on a building
    CHECK(turn_members > 0);
    CHECK(score_members > 0);  // a running score's categories changed, not the whole score
    for (const char* op : {"emissaries replace", "decks replace", "offer remove", "hand add",
                           "hand remove", "moves remove"})
        CHECK(element_ops[op] > 0);
    // A patch is a few operations: the typical one a small fraction of the view it replaces, and
    // even the largest (a new round, a school's draw, the end) smaller than the view.
    CHECK(patch_median * 5 < view_median);
    CHECK(patch_p99 < view_median);
}

TEST_CASE("view patch: equal views give an empty patch", "[protocol][view]") {
    const Rules rules = *Rules::make({3, Variant::yucata, true});
    const State state = rules.new_game(4);
    for (const auto& viewer : viewers_of(3)) {
        const View view = engine::view_for(state, viewer);
        CHECK(view_patch(view, view) == Json::array());
    }
}

TEST_CASE("view json: the layout in the draft", "[protocol][view]") {
    const Rules rules = *Rules::make({2, Variant::yucata, false});
    const State state = rules.new_game(11);
    REQUIRE(state.phase == Phase::draft);
    const Seat drafter = state.to_act();
    const Seat other = static_cast<Seat>(1 - drafter);
    const Json json = view_to_json(engine::view_for(state, drafter));

    CHECK(keys_of(json) == kViewMembers);
    CHECK(json["viewer"] == drafter);
    CHECK(json["options"] == Json::parse(R"({"players":2,"rules":"yucata","shrine":false})"));
    CHECK(json["round"] == state.round);
    CHECK(json["rounds"] == 7);
    CHECK(json["phase"] == "draft");
    CHECK(json["step"].is_null());
    CHECK(json["first_player"] == state.first_player);
    CHECK(json["to_act"] == drafter);
    std::string strip;
    for (int space = 0; space < engine::kStripSpaces; ++space)
        strip += state.strips[0].at(space) == engine::Symbol::brick ? 'B' : 'C';
    CHECK(json["strip"] == strip);
    CHECK(json["emissaries"] == Json::parse("[null,null,null,null,null]"));
    CHECK(json["offer"] == Json::array());
    // Two players: decks I and II; deck II gave the draft's cards, deck I holds 3 influence cards.
    CHECK(json["decks"] == Json::parse("[14,20,null,null]"));
    CHECK(json["influence_in_deck"] == 3);
    CHECK(json["influence_on_table"] == Json::array());

    REQUIRE(json["players"].size() == 2);
    for (int seat = 0; seat < 2; ++seat) {
        const Json& player = json["players"][static_cast<std::size_t>(seat)];
        CHECK(player["coins"] == 5);
        CHECK(player["influence"] == 0);
        CHECK(player["influence_cards"] == Json::array());
        CHECK(player["hand"] == Json::array());
        CHECK(player["city"] ==
              Json{{"0,0", {{"card", 72 + 2 * seat}}}, {"1,0", {{"card", 73 + 2 * seat}}}});
        // The running score, last: the start's coins, and nothing yet for a city without a
        // public building.
        CHECK(keys_of(player) == std::vector<std::string>{"coins", "influence", "influence_cards",
                                                          "hand", "city", "score"});
        CHECK(player["score"] == score_to_json(state.final_score(static_cast<Seat>(seat))));
        CHECK(player["score"]["coins"] == 5);
        CHECK(player["score"]["total"] == 5);
    }

    Json packet = Json::array();
    Json moves = Json::array();
    for (CardId card : state.packet) {
        packet.push_back(card);
        moves.push_back("draft " + std::to_string(card));
    }
    CHECK(json["draft"] == Json{{"size", 2}, {"cards", packet}});
    CHECK(json["moves"] == moves);
    CHECK(json["school"].is_null());
    CHECK(json["turn"].is_null());
    CHECK(json["result"].is_null());

    // Others see the size of the packet, not its cards, and have no moves.
    const Json theirs = view_to_json(engine::view_for(state, other));
    CHECK(theirs["viewer"] == other);
    CHECK(theirs["draft"] == Json{{"size", 2}, {"cards", Json::array()}});
    CHECK(theirs["moves"] == Json::array());
    const Json spectator = view_to_json(engine::view_for(state, std::nullopt));
    CHECK(spectator["viewer"].is_null());
    CHECK(spectator["draft"] == theirs["draft"]);
}

TEST_CASE("view json: cells keyed x,y, hands, turns and the school", "[protocol][view]") {
    const Rules rules = *Rules::make({4, Variant::publisher, true});
    // A school's draw being resolved, with a city written directly to have negative coordinates.
    auto found = first_state(rules, 200, [](const State& s) {
        return s.phase == Phase::actions && s.step == engine::Step::school_keep;
    });
    REQUIRE(found);
    State state = *found;
    const Seat builder = state.to_act();
    const Seat other = static_cast<Seat>((builder + 1) % 4);
    state.players[other].city.place(-1, 0, Kind::temple_luna, 9, 0);
    state.players[other].city.place(0, -2, Kind::thermal_baths, 17, 3);
    const Json json = view_to_json(engine::view_for(state, builder));

    CHECK(json["phase"] == "actions");
    CHECK(json["step"] == "school_keep");
    const Json& city = json["players"][other]["city"];
    // The building is the catalogue's; tokens only when there are some.
    CHECK(city["-1,0"] == Json{{"card", 9}});
    CHECK(city["0,-2"] == Json{{"card", 17}, {"tokens", 3}});
    CHECK(city.begin().key() == "0,-2");  // row by row from the top

    Json drawn = Json::array();
    for (CardId card : state.school.cards)
        drawn.push_back(card);
    CHECK(json["school"] == Json{{"deck", state.school.deck},
                                 {"drawn", static_cast<int>(state.school.cards.size())},
                                 {"cards", drawn}});
    const Json theirs = view_to_json(engine::view_for(state, other));
    CHECK(theirs["school"]["cards"] == Json::array());
    CHECK(theirs["school"]["drawn"] == json["school"]["drawn"]);
    CHECK(theirs["moves"] == Json::array());
    CHECK(json["moves"].size() == state.legal_moves(builder).size());
    CHECK(json["moves"][0].get<std::string>().rfind("keep ", 0) == 0);

    const engine::Turn& turn = state.turn;
    // What the emissary did so far: only what it did.
    Json expected_turn{
        {"seat", builder}, {"space", turn.space}, {"bricks", turn.bricks}, {"cogs", turn.cogs}};
    if (turn.took) expected_turn["took"] = true;
    expected_turn["built"] = true;
    if (turn.produced) expected_turn["produced"] = true;
    CHECK(json["turn"] == expected_turn);
    CHECK(json["draft"].is_null());
    CHECK(json["result"].is_null());
    CHECK(json["emissaries"][turn.space] == builder);

    // Hands: the viewer's own cards all show; of others' only the ones known to everyone (here
    // every shrine is public), then a null for each other card.
    for (int seat = 0; seat < 4; ++seat) {
        const Json& player = json["players"][static_cast<std::size_t>(seat)];
        const auto& hand = state.players[static_cast<std::size_t>(seat)].hand;
        CHECK(player["hand"].size() == hand.size());
        const auto unknown = std::count(player["hand"].begin(), player["hand"].end(), nullptr);
        if (seat == builder) CHECK(unknown == 0);
        // The known cards come first.
        CHECK(std::find(player["hand"].begin(), player["hand"].end(), nullptr) ==
              player["hand"].end() - unknown);
        for (const auto& held : hand)
            if (held.known_to == engine::kEveryone)
                CHECK(std::count(player["hand"].begin(), player["hand"].end(), held.card) == 1);
    }
}

TEST_CASE("view json: the result at the end", "[protocol][view]") {
    const Rules rules = *Rules::make({3, Variant::yucata, false});
    auto over = first_state(rules, 1, [](const State& s) { return s.over(); });
    REQUIRE(over);
    const State& state = *over;
    for (const auto& viewer : viewers_of(3)) {
        const Json json = view_to_json(engine::view_for(state, viewer));
        CHECK(json["phase"] == "game_over");
        CHECK(json["to_act"].is_null());
        CHECK(json["step"].is_null());
        CHECK(json["turn"].is_null());
        CHECK(json["draft"].is_null());
        CHECK(json["school"].is_null());
        CHECK(json["moves"] == Json::array());
        CHECK(json["round"] == 14);
        Json scores = Json::array();
        for (Seat seat = 0; seat < 3; ++seat)
            scores.push_back(score_to_json(state.final_score(seat)));
        Json winners = Json::array();
        for (Seat seat : state.winners())
            winners.push_back(seat);
        CHECK(json["result"] == Json{{"scores", scores}, {"winners", winners}});
        // At the end each player's running score is its final score.
        for (std::size_t seat = 0; seat < 3; ++seat)
            CHECK(json["players"][seat]["score"] == scores[seat]);
    }
}

TEST_CASE("view json: written as compact JSON text, its members in the documented order",
          "[protocol][view]") {
    // The text is what snapshots carry; view_to_json only parses it. Parsed and written again by
    // nlohmann (which keeps the members' order) it must come out the same to the byte: no space,
    // no member twice, numbers and strings as dump() writes them.
    long long views = 0;
    bool saw_result = false, saw_school = false, saw_draft = false;
    for (const Variation& v : all_variations()) {
        const Rules rules = *Rules::make({v.players, v.variant, v.shrine});
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            State state = rules.new_game(seed);
            engine::Rng rng(seed * 31);
            while (true) {
                for (const auto& viewer : viewers_of(v.players)) {
                    std::string text = "[";  // appended: what was there stays
                    append_view_json(text, engine::view_for(state, viewer));
                    INFO(name(v) << ", seed " << seed << "\n" << text);
                    REQUIRE(text.front() == '[');
                    const Json json = Json::parse(text.substr(1));
                    REQUIRE(json.dump() == text.substr(1));
                    REQUIRE(keys_of(json) == kViewMembers);
                    REQUIRE(json["options"] == options_to_json({v.players, v.variant, v.shrine}));
                    saw_result |= !json["result"].is_null();
                    saw_school |= !json["school"].is_null();
                    saw_draft |= !json["draft"].is_null();
                    ++views;
                }
                if (state.over()) break;
                state.apply(state.to_act(), random_move(state, rng));
            }
        }
    }
    CHECK(views > 10000);
    CHECK((saw_result && saw_school && saw_draft));
}

TEST_CASE("catalogue: every card id with its kind, every building kind", "[protocol][view]") {
    const Json catalogue = catalogue_json();
    const Json& cards = catalogue["cards"];
    REQUIRE(cards.size() == engine::kCardCount);
    std::set<std::string> kinds_of_cards;
    for (int id = 0; id < engine::kCardCount; ++id) {
        const Json& card = cards[static_cast<std::size_t>(id)];
        INFO(card.dump());
        CHECK(card["id"] == id);
        const auto card_id = static_cast<CardId>(id);
        if (id >= engine::kFirstInfluenceCard) {
            CHECK(card.size() == 2);
            CHECK(card["influence"] == engine::influence_value(card_id));
            continue;
        }
        CHECK(card.size() == 3);
        CHECK(card["building"] == engine::info(engine::kind_of(card_id)).id);
        const char* deck = id < 14   ? "I"
                           : id < 36 ? "II"
                           : id < 54 ? "III"
                           : id < 72 ? "IV"
                           : id < 80 ? "start"
                                     : "shrine";
        CHECK(card["deck"] == deck);
        kinds_of_cards.insert(card["building"].get<std::string>());
    }
    CHECK(cards[84]["influence"] == 3);
    CHECK(cards[89]["influence"] == 14);

    const Json& buildings = catalogue["buildings"];
    CHECK(buildings.size() == engine::kKindCount - 1);
    for (int k = 1; k < engine::kKindCount; ++k) {
        const engine::KindInfo& kind = engine::info(static_cast<Kind>(k));
        INFO(kind.id);
        REQUIRE(buildings.contains(std::string(kind.id)));
        CHECK(kinds_of_cards.count(std::string(kind.id)) == 1);
    }
    CHECK(buildings["market"] == Json::parse(R"({"name":"Market","cost":3,"stars":0,
        "category":"public","value":0,"colour":"yellow","special":false})"));
    CHECK(buildings["luxury_residential_3"] ==
          Json::parse(R"j({"name":"Luxury Residence (3)","cost":2,"stars":1,
        "category":"residential","value":3,"colour":null,"special":true})j"));
    CHECK(buildings["grain_farm"]["category"] == "production");
    CHECK(buildings["grand_aqueduct"]["category"] == "aqueduct");
    CHECK(buildings["shrine"]["category"] == "temple");
    CHECK(buildings["imperial_thermal_baths"]["colour"] == "blue");
}

}  // namespace
}  // namespace gcor::protocol
