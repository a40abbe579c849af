#include "gcor/protocol/view_json.hpp"

#include <array>
#include <cassert>
#include <charconv>
#include <cstddef>
#include <string>
#include <string_view>

namespace gcor::protocol {
namespace {

using engine::CardId;
using engine::CityCell;
using engine::Kind;
using engine::Phase;
using engine::PlayerView;
using engine::Seat;
using engine::Step;
using engine::TurnView;
using engine::View;

// --- Values: each JSON member is made by one function, shared by view_to_json and view_patch,
// so that a patch always carries exactly what the full view would hold. ----------------------

std::string_view phase_id(Phase phase) {
    switch (phase) {
        case Phase::draft:
            return "draft";
        case Phase::emissaries:
            return "emissaries";
        case Phase::actions:
            return "actions";
        case Phase::game_over:
            return "game_over";
    }
    return "unknown";
}

std::string_view step_id(Step step) {
    switch (step) {
        case Step::take_card:
            return "take_card";
        case Step::main:
            return "main";
        case Step::school_deck:
            return "school_deck";
        case Step::school_keep:
            return "school_keep";
    }
    return "unknown";
}

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

Json colour_json(engine::Colour colour) {
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

Json seat_json(Seat seat) {
    return seat == engine::kNoSeat ? Json(nullptr) : Json(static_cast<int>(seat));
}

Json viewer_json(const std::optional<Seat>& viewer) {
    return viewer ? Json(static_cast<int>(*viewer)) : Json(nullptr);
}

// An empty array with room for `size` items.
Json array_of_size(std::size_t size) {
    Json array = Json::array();
    array.get_ref<Json::array_t&>().reserve(size);
    return array;
}

// An empty object with room for `size` members.
Json object_of_size(std::size_t size) {
    Json object = Json::object();
    object.get_ref<Json::object_t&>().reserve(size);
    return object;
}

Json cards_json(const std::vector<CardId>& cards) {
    Json array = array_of_size(cards.size());
    auto& items = array.get_ref<Json::array_t&>();
    for (CardId card : cards)
        items.emplace_back(static_cast<int>(card));
    return array;
}

// Whether step is shown: only while emissaries act.
bool shows_step(const View& view) {
    return view.phase == Phase::actions;
}
Json step_json(const View& view) {
    return shows_step(view) ? Json(step_id(view.step)) : Json(nullptr);
}

Json strip_json(const std::array<engine::Symbol, engine::kStripSpaces>& strip) {
    std::string text(strip.size(), 'B');
    for (std::size_t i = 0; i < strip.size(); ++i)
        if (strip[i] == engine::Symbol::cog) text[i] = 'C';
    return text;
}

Json emissaries_json(const std::array<Seat, engine::kStripSpaces>& emissaries) {
    Json array = array_of_size(emissaries.size());
    for (Seat seat : emissaries)
        array.get_ref<Json::array_t&>().push_back(seat_json(seat));
    return array;
}

Json decks_json(const std::array<int, engine::kDeckCount>& sizes) {
    Json array = array_of_size(sizes.size());
    for (int size : sizes)
        array.get_ref<Json::array_t&>().push_back(size < 0 ? Json(nullptr) : Json(size));
    return array;
}

// Cell keys "x,y": at most "-3,-3".
struct CellKey {
    std::array<char, 16> text{};
    std::size_t size = 0;

    CellKey(int x, int y) {
        char* const first = text.data();
        char* const last = first + text.size();
        char* p = std::to_chars(first, last, x).ptr;
        *p++ = ',';
        p = std::to_chars(p, last, y).ptr;
        size = static_cast<std::size_t>(p - first);
    }
    std::string_view view() const { return {text.data(), size}; }
};

Json cell_json(const CityCell& cell) {
    Json object = object_of_size(3);
    object["card"] = static_cast<int>(cell.cell.card);
    object["building"] = engine::info(cell.cell.kind).id;
    object["tokens"] = static_cast<int>(cell.cell.tokens);
    return object;
}

Json city_json(const std::vector<CityCell>& city) {
    Json object = object_of_size(city.size());
    for (const CityCell& cell : city)
        object.get_ref<Json::object_t&>().emplace(std::string(CellKey(cell.x, cell.y).view()),
                                                  cell_json(cell));
    return object;
}

Json player_json(const PlayerView& player) {
    Json object = object_of_size(6);
    object["coins"] = player.coins;
    object["influence"] = player.influence;
    object["influence_cards"] = cards_json(player.influence_cards);
    object["hand_size"] = player.hand_size;
    object["hand"] = cards_json(player.hand);
    object["city"] = city_json(player.city);
    return object;
}

bool shows_draft(const View& view) {
    return view.phase == Phase::draft;
}
Json draft_json(const View& view) {
    if (!shows_draft(view)) return nullptr;
    Json object = object_of_size(2);
    object["size"] = view.draft_packet_size;
    object["cards"] = cards_json(view.draft_packet);
    return object;
}

bool shows_school(const View& view) {
    return view.school_deck >= 0;
}
Json school_json(const View& view) {
    if (!shows_school(view)) return nullptr;
    Json object = object_of_size(3);
    object["deck"] = view.school_deck;
    object["drawn"] = view.school_drawn;
    object["cards"] = cards_json(view.school_cards);
    return object;
}

Json turn_json(const std::optional<TurnView>& turn) {
    if (!turn) return nullptr;
    Json object = object_of_size(7);
    object["seat"] = seat_json(turn->seat);
    object["space"] = turn->space;
    object["bricks"] = turn->bricks;
    object["cogs"] = turn->cogs;
    object["took"] = turn->took;
    object["built"] = turn->built;
    object["produced"] = turn->produced;
    return object;
}

Json moves_json(const std::vector<engine::Move>& moves) {
    Json array = array_of_size(moves.size());
    for (const engine::Move& move : moves)
        array.get_ref<Json::array_t&>().emplace_back(move.to_string());
    return array;
}

bool shows_result(const View& view) {
    return view.phase == Phase::game_over;
}
Json result_json(const View& view) {
    if (!shows_result(view)) return nullptr;
    Json scores = array_of_size(view.scores.size());
    for (const engine::ScoreBreakdown& score : view.scores)
        scores.get_ref<Json::array_t&>().push_back(score_to_json(score));
    Json winners = array_of_size(view.winners.size());
    for (Seat seat : view.winners)
        winners.get_ref<Json::array_t&>().emplace_back(static_cast<int>(seat));
    Json object = object_of_size(2);
    object["scores"] = std::move(scores);
    object["winners"] = std::move(winners);
    return object;
}

// --- Patches -----------------------------------------------------------------------------------

// Collects the operations as a JSON array, or (given a string) writes them straight as JSON text:
// what the server sends, without building the operations' objects and serializing them again.
class PatchWriter {
  public:
    PatchWriter() { ops_.get_ref<Json::array_t&>().reserve(16); }
    explicit PatchWriter(std::string& text) : text_(&text) { text_->push_back('['); }

    void replace(std::string_view path, Json value) { write("replace", path, &value); }
    void add(std::string_view path, Json value) { write("add", path, &value); }
    void remove(std::string_view path) { write("remove", path, nullptr); }
    Json take() { return std::move(ops_); }
    void finish() { text_->push_back(']'); }

  private:
    void write(std::string_view kind, std::string_view path, Json* value) {
        if (text_) return write_text(kind, path, value);
        Json op = Json::object();
        auto& members = op.get_ref<Json::object_t&>();
        members.reserve(3);
        members.emplace("op", kind);
        members.emplace("path", path);
        if (value) members.emplace("value", std::move(*value));
        ops_.get_ref<Json::array_t&>().push_back(std::move(op));
    }

    // Paths are made of member names, numbers, ',' and '-': nothing to escape.
    void write_text(std::string_view kind, std::string_view path, const Json* value) {
        assert(path.find_first_of("\"\\") == std::string_view::npos);
        std::string& out = *text_;
        if (!first_) out.push_back(',');
        first_ = false;
        out += R"({"op":")";
        out += kind;
        out += R"(","path":")";
        out += path;
        out.push_back('"');
        if (value) {
            out += R"(,"value":)";
            out += value->dump();
        }
        out.push_back('}');
    }

    Json ops_ = Json::array();
    std::string* text_ = nullptr;
    bool first_ = true;
};

// "/players/<index>/" followed by `member`.
class PlayerPath {
  public:
    explicit PlayerPath(std::size_t index) {
        constexpr std::string_view kPrefix = "/players/";
        kPrefix.copy(text_.data(), kPrefix.size());
        char* p = text_.data() + kPrefix.size();
        p = std::to_chars(p, text_.data() + text_.size(), index).ptr;
        *p++ = '/';
        base_ = static_cast<std::size_t>(p - text_.data());
    }
    std::string_view operator()(std::string_view member) {
        assert(base_ + member.size() <= text_.size());
        member.copy(text_.data() + base_, member.size());
        return {text_.data(), base_ + member.size()};
    }
    // "/players/<index>/city/x,y"
    std::string_view cell(int x, int y) {
        const CellKey key(x, y);
        std::string_view city = (*this)("city/");
        key.view().copy(text_.data() + city.size(), key.size);
        return {text_.data(), city.size() + key.size};
    }

  private:
    std::array<char, 64> text_{};
    std::size_t base_ = 0;
};

void patch_city(PatchWriter& patch, PlayerPath& path, const std::vector<CityCell>& before,
                const std::vector<CityCell>& after) {
    if (before == after) return;
    // Cells by grid position: a city lies within [kMin, kMax] on both axes.
    using engine::City;
    const auto in_grid = [](const CityCell& c) { return City::in_grid(c.x, c.y); };
    for (const CityCell& c : before)
        if (!in_grid(c)) return patch.replace(path("city"), city_json(after));
    for (const CityCell& c : after)
        if (!in_grid(c)) return patch.replace(path("city"), city_json(after));

    std::array<const CityCell*, City::kSize * City::kSize> old{};
    for (const CityCell& c : before)
        old[static_cast<std::size_t>(City::bit_index(c.x, c.y))] = &c;
    for (const CityCell& c : after) {
        const CityCell*& was = old[static_cast<std::size_t>(City::bit_index(c.x, c.y))];
        if (was == nullptr)
            patch.add(path.cell(c.x, c.y), cell_json(c));
        else if (was->cell != c.cell)
            patch.replace(path.cell(c.x, c.y), cell_json(c));
        was = nullptr;
    }
    for (const CityCell* c : old)
        if (c != nullptr) patch.remove(path.cell(c->x, c->y));
}

void patch_player(PatchWriter& patch, std::size_t index, const PlayerView& before,
                  const PlayerView& after) {
    PlayerPath path(index);
    if (before.coins != after.coins) patch.replace(path("coins"), after.coins);
    if (before.influence != after.influence) patch.replace(path("influence"), after.influence);
    if (before.influence_cards != after.influence_cards)
        patch.replace(path("influence_cards"), cards_json(after.influence_cards));
    if (before.hand_size != after.hand_size) patch.replace(path("hand_size"), after.hand_size);
    if (before.hand != after.hand) patch.replace(path("hand"), cards_json(after.hand));
    patch_city(patch, path, before.city, after.city);
}

void patch_turn(PatchWriter& patch, const std::optional<TurnView>& before,
                const std::optional<TurnView>& after) {
    if (before == after) return;
    if (!before || !after || before->seat != after->seat || before->space != after->space)
        return patch.replace("/turn", turn_json(after));
    if (before->bricks != after->bricks) patch.replace("/turn/bricks", after->bricks);
    if (before->cogs != after->cogs) patch.replace("/turn/cogs", after->cogs);
    if (before->took != after->took) patch.replace("/turn/took", after->took);
    if (before->built != after->built) patch.replace("/turn/built", after->built);
    if (before->produced != after->produced) patch.replace("/turn/produced", after->produced);
}

void patch_draft(PatchWriter& patch, const View& before, const View& after) {
    if (shows_draft(before) != shows_draft(after))
        return patch.replace("/draft", draft_json(after));
    if (!shows_draft(after)) return;
    if (before.draft_packet_size != after.draft_packet_size)
        patch.replace("/draft/size", after.draft_packet_size);
    if (before.draft_packet != after.draft_packet)
        patch.replace("/draft/cards", cards_json(after.draft_packet));
}

bool same_school(const View& a, const View& b) {
    if (shows_school(a) != shows_school(b)) return false;
    return !shows_school(a) ||
           (a.school_deck == b.school_deck && a.school_drawn == b.school_drawn &&
            a.school_cards == b.school_cards);
}

bool same_result(const View& a, const View& b) {
    if (shows_result(a) != shows_result(b)) return false;
    return !shows_result(a) || (a.scores == b.scores && a.winners == b.winners);
}

bool same_step(const View& a, const View& b) {
    if (shows_step(a) != shows_step(b)) return false;
    return !shows_step(a) || a.step == b.step;
}

}  // namespace

Json view_to_json(const View& view) {
    Json json = object_of_size(20);
    json["viewer"] = viewer_json(view.viewer);
    json["options"] = options_to_json(view.options);
    json["round"] = view.round;
    json["rounds"] = view.rounds;
    json["phase"] = phase_id(view.phase);
    json["step"] = step_json(view);
    json["first_player"] = seat_json(view.first_player);
    json["to_act"] = seat_json(view.to_act);
    json["strip"] = strip_json(view.strip);
    json["emissaries"] = emissaries_json(view.emissaries);
    json["offer"] = cards_json(view.offer);
    json["decks"] = decks_json(view.deck_sizes);
    json["influence_in_deck"] = view.influence_cards_in_deck;
    json["influence_on_table"] = cards_json(view.influence_on_table);
    Json players = array_of_size(view.players.size());
    for (const PlayerView& player : view.players)
        players.get_ref<Json::array_t&>().push_back(player_json(player));
    json["players"] = std::move(players);
    json["draft"] = draft_json(view);
    json["school"] = school_json(view);
    json["turn"] = turn_json(view.turn);
    json["moves"] = moves_json(view.legal_moves);
    json["result"] = result_json(view);
    return json;
}

namespace {

void write_patch(PatchWriter& patch, const View& before, const View& after) {
    const bool same_table = before.viewer == after.viewer && before.options == after.options &&
                            before.rounds == after.rounds &&
                            before.players.size() == after.players.size();
    assert(same_table && "view_patch: views of different viewers or games");
    if (!same_table) {
        // Not supported; without assertions, still a correct patch: the whole view.
        patch.replace("", view_to_json(after));
        return;
    }

    if (before.round != after.round) patch.replace("/round", after.round);
    if (before.phase != after.phase) patch.replace("/phase", phase_id(after.phase));
    if (!same_step(before, after)) patch.replace("/step", step_json(after));
    if (before.first_player != after.first_player)
        patch.replace("/first_player", seat_json(after.first_player));
    if (before.to_act != after.to_act) patch.replace("/to_act", seat_json(after.to_act));
    if (before.strip != after.strip) patch.replace("/strip", strip_json(after.strip));
    if (before.emissaries != after.emissaries)
        patch.replace("/emissaries", emissaries_json(after.emissaries));
    if (before.offer != after.offer) patch.replace("/offer", cards_json(after.offer));
    if (before.deck_sizes != after.deck_sizes)
        patch.replace("/decks", decks_json(after.deck_sizes));
    if (before.influence_cards_in_deck != after.influence_cards_in_deck)
        patch.replace("/influence_in_deck", after.influence_cards_in_deck);
    if (before.influence_on_table != after.influence_on_table)
        patch.replace("/influence_on_table", cards_json(after.influence_on_table));
    for (std::size_t i = 0; i < after.players.size(); ++i)
        if (before.players[i] != after.players[i])
            patch_player(patch, i, before.players[i], after.players[i]);
    patch_draft(patch, before, after);
    if (!same_school(before, after)) patch.replace("/school", school_json(after));
    patch_turn(patch, before.turn, after.turn);
    if (before.legal_moves != after.legal_moves)
        patch.replace("/moves", moves_json(after.legal_moves));
    if (!same_result(before, after)) patch.replace("/result", result_json(after));
}

}  // namespace

Json view_patch(const View& before, const View& after) {
    PatchWriter patch;
    write_patch(patch, before, after);
    return patch.take();
}

void append_view_patch(std::string& out, const View& before, const View& after) {
    PatchWriter patch(out);
    write_patch(patch, before, after);
    patch.finish();
}

Json catalogue_json() {
    Json cards = array_of_size(engine::kCardCount);
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

}  // namespace gcor::protocol
