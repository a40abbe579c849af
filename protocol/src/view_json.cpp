#include "gcor/protocol/view_json.hpp"

#include <string>
#include <string_view>

#include "view_values.hpp"

// The whole view as JSON text, and the catalogue that its card ids refer to. The patches from one
// view to the next are in view_patch.cpp.
namespace gcor::protocol {

using namespace view_text;

namespace {

std::string_view category_id(engine::Category category) {
    switch (category) {
        case engine::Category::none:
            return "none";
        case engine::Category::production:
            return "production";
        case engine::Category::residential:
            return "residential";
        case engine::Category::public_building:
            return "public";
        case engine::Category::aqueduct:
            return "aqueduct";
        case engine::Category::temple:
            return "temple";
    }
    return "unknown";
}

Scalar colour_json(engine::Colour colour) {
    switch (colour) {
        case engine::Colour::none:
            return nullptr;
        case engine::Colour::yellow:
            return "yellow";
        case engine::Colour::red:
            return "red";
        case engine::Colour::green:
            return "green";
        case engine::Colour::blue:
            return "blue";
    }
    return nullptr;
}

}  // namespace

void append_view_json(std::string& out, const View& view) {
    ObjectText object(out);
    viewer_json(view.viewer).write(object.member("viewer"));
    append_options_json(object.member("options"), view.options);
    Scalar(view.round).write(object.member("round"));
    Scalar(view.rounds).write(object.member("rounds"));
    Scalar(phase_id(view.phase)).write(object.member("phase"));
    step_json(view).write(object.member("step"));
    seat_json(view.first_player).write(object.member("first_player"));
    seat_json(view.to_act).write(object.member("to_act"));
    strip_json(view.strip).write(object.member("strip"));
    ListValue{view.emissaries, seat_json}.write(object.member("emissaries"));
    write_cards(object.member("offer"), view.offer);
    ListValue{view.deck_sizes, deck_json}.write(object.member("decks"));
    Scalar(view.influence_cards_in_deck).write(object.member("influence_in_deck"));
    write_cards(object.member("influence_on_table"), view.influence_on_table);
    write_list(object.member("players"), view.players, write_player);
    write_draft(object.member("draft"), view);
    write_school(object.member("school"), view);
    write_turn(object.member("turn"), view.turn);
    ListValue{view.legal_moves, move_json}.write(object.member("moves"));
    Scalar(view.undo).write(object.member("undo"));
    write_result(object.member("result"), view);
}

Json view_to_json(const View& view) {
    std::string text;
    append_view_json(text, view);
    return Json::parse(text);
}

Json catalogue_json() {
    Json cards = Json::array();
    cards.get_ref<Json::array_t&>().reserve(engine::kCardCount);
    for (int id = 0; id < engine::kCardCount; ++id) {
        const auto card = static_cast<CardId>(id);
        Json entry = Json::object();
        entry["id"] = id;
        if (engine::is_influence_card(card)) {
            entry["influence"] = engine::influence_value(card);
        } else {
            entry["building"] = engine::info(engine::kind_of(card)).id;
            const int deck = engine::deck_of(card);
            entry["deck"] = deck >= 0                     ? engine::deck_name(deck)
                            : card < engine::kFirstShrine ? std::string_view("start")
                                                          : std::string_view("shrine");
        }
        cards.get_ref<Json::array_t&>().push_back(std::move(entry));
    }
    Json buildings = Json::object();
    for (int k = 1; k < engine::kKindCount; ++k) {
        const engine::KindInfo& kind = engine::info(static_cast<Kind>(k));
        Json entry = Json::object();
        entry["name"] = kind.name;
        entry["cost"] = static_cast<int>(kind.cost);
        entry["stars"] = static_cast<int>(kind.stars);
        entry["category"] = category_id(kind.category);
        entry["value"] = static_cast<int>(kind.value);
        entry["colour"] = colour_json(kind.colour);
        entry["special"] = kind.special;
        buildings[std::string(kind.id)] = std::move(entry);
    }
    Json catalogue = Json::object();
    catalogue["cards"] = std::move(cards);
    catalogue["buildings"] = std::move(buildings);
    return catalogue;
}

bool same_json(const Json& a, const Json& b) {
    if (a.is_object() && b.is_object()) {
        if (a.size() != b.size()) return false;
        for (const auto& [key, value] : a.items()) {
            const auto it = b.find(key);
            if (it == b.end() || !same_json(value, *it)) return false;
        }
        return true;
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same_json(a[i], b[i])) return false;
        return true;
    }
    return a == b;
}

}  // namespace gcor::protocol
