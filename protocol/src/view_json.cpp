#include "gcor/protocol/view_json.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "gcor/protocol/json_text.hpp"

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

// --- Values: each JSON member is written by one function, shared by the whole view and its
// patches, so that a patch always carries exactly what the full view would hold. --------------

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

// One scalar of a view (null, a boolean, a whole number or a string), written as text without
// making a Json value (whose strings are allocated); json() makes one for the catalogue.
class Scalar {
  public:
    Scalar() = default;  // null
    Scalar(std::nullptr_t) {}
    Scalar(bool value) : value_(value) {}
    Scalar(int value) : value_(value) {}
    Scalar(const char* text) : value_(std::string_view(text)) {}
    Scalar(std::string_view text) : value_(text) {}  // text that outlives the value
    Scalar(std::string text) : value_(std::move(text)) {}
    Scalar(const engine::Move& move) : value_(move) {}  // its text, written without a string

    void write(std::string& out) const {
        std::visit(
            [&out](const auto& value) {
                using T = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<T, std::monostate>) {
                    out += "null";
                } else if constexpr (std::is_same_v<T, bool>) {
                    out += value ? "true" : "false";
                } else if constexpr (std::is_same_v<T, int>) {
                    append_json_number(out, value);
                } else if constexpr (std::is_same_v<T, engine::Move>) {
                    out += '"';
                    value.append_text(out);  // nothing in a move's text needs escaping
                    out += '"';
                } else {
                    append_json_string(out, value);
                }
            },
            value_);
    }
    Json json() const {
        return std::visit(
            [](const auto& value) -> Json {
                using T = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<T, std::monostate>)
                    return nullptr;
                else if constexpr (std::is_same_v<T, engine::Move>)
                    return value.to_string();
                else
                    return value;
            },
            value_);
    }
    friend void to_json(Json& json, const Scalar& scalar) { json = scalar.json(); }

  private:
    std::variant<std::monostate, bool, int, std::string_view, std::string, engine::Move> value_;
};

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

Scalar seat_json(Seat seat) {
    return seat == engine::kNoSeat ? Scalar(nullptr) : Scalar(static_cast<int>(seat));
}

Scalar viewer_json(const std::optional<Seat>& viewer) {
    return viewer ? Scalar(static_cast<int>(*viewer)) : Scalar(nullptr);
}

// `list` as a JSON array: `write_item(out, item)` writes each item.
template <class List, class WriteItem>
void write_list(std::string& out, const List& list, WriteItem write_item) {
    out.push_back('[');
    for (const auto& item : list) {
        if (&item != &list[0]) out.push_back(',');
        write_item(out, item);
    }
    out.push_back(']');
}

// A list member, written as text: `element` makes each item (view and patches alike).
template <class List, class Element>
struct ListValue {
    const List& list;
    Element element;

    void write(std::string& out) const {
        write_list(out, list,
                   [this](std::string& to, const auto& item) { element(item).write(to); });
    }
};
// Deduction guides: clang before 17 does not deduce an aggregate's template arguments.
template <class List, class Element>
ListValue(const List&, Element) -> ListValue<List, Element>;

Scalar card_json(CardId card) {
    return static_cast<int>(card);
}
void write_cards(std::string& out, const std::vector<CardId>& cards) {
    ListValue{cards, card_json}.write(out);
}

// Writes an object's members in the order given: member(key) before each value.
class ObjectText {
  public:
    explicit ObjectText(std::string& out) : out_(out) {}
    ObjectText(const ObjectText&) = delete;
    ObjectText& operator=(const ObjectText&) = delete;
    ~ObjectText() { out_ += first_ ? "{}" : "}"; }

    // `key`: a member name or a cell's "x,y", nothing to escape.
    std::string& member(std::string_view key) {
        assert(key.find_first_of("\"\\") == std::string_view::npos);
        out_ += first_ ? "{\"" : ",\"";
        first_ = false;
        out_ += key;
        out_ += "\":";
        return out_;
    }

  private:
    std::string& out_;
    bool first_ = true;
};

// Whether step is shown: only while emissaries act.
bool shows_step(const View& view) {
    return view.phase == Phase::actions;
}
Scalar step_json(const View& view) {
    return shows_step(view) ? Scalar(step_id(view.step)) : Scalar(nullptr);
}

Scalar strip_json(const std::array<engine::Symbol, engine::kStripSpaces>& strip) {
    std::string text(strip.size(), 'B');
    for (std::size_t i = 0; i < strip.size(); ++i)
        if (strip[i] == engine::Symbol::cog) text[i] = 'C';
    return text;
}

// A deck's size, null for a deck not in play.
Scalar deck_json(int size) {
    return size < 0 ? Scalar(nullptr) : Scalar(size);
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

// An object's members as values, for objects that patches write as text without making them.
// At most N; a member whose absence says its value (no tokens, a step not done) is not added.
template <std::size_t N>
class Members {
  public:
    Members& add(std::string_view key, Scalar value) {
        assert(size_ < N);
        items_[size_++] = {key, std::move(value)};
        return *this;
    }
    const std::pair<std::string_view, Scalar>* begin() const { return items_.data(); }
    const std::pair<std::string_view, Scalar>* end() const { return items_.data() + size_; }
    std::size_t size() const { return size_; }

  private:
    std::array<std::pair<std::string_view, Scalar>, N> items_{};
    std::size_t size_ = 0;
};

template <std::size_t N>
struct MembersValue {
    Members<N> members;

    void write(std::string& out) const {
        ObjectText object(out);
        for (const auto& [key, value] : members)
            value.write(object.member(key));
    }
};

// A city's cell: its card (the catalogue names the building) and its tokens when it has some.
Members<2> cell_members(const CityCell& cell) {
    Members<2> members;
    members.add("card", static_cast<int>(cell.cell.card));
    if (cell.cell.tokens > 0) members.add("tokens", static_cast<int>(cell.cell.tokens));
    return members;
}
void write_city(std::string& out, const std::vector<CityCell>& city) {
    ObjectText object(out);
    for (const CityCell& cell : city)
        MembersValue<2>{cell_members(cell)}.write(object.member(CellKey(cell.x, cell.y).view()));
}

// A hand as the viewer knows it: the cards it knows, then a null for each card it does not (its
// length is the hand's size).
using HandList = engine::StaticVector<CardId, engine::Player::kHandCapacity>;
HandList hand_list(const PlayerView& player) {
    HandList hand;
    for (CardId card : player.hand)
        hand.push_back(card);
    while (hand.size() < static_cast<std::size_t>(player.hand_size))
        hand.push_back(engine::kNoCard);
    return hand;
}
Scalar hand_card_json(CardId card) {
    return card == engine::kNoCard ? Scalar(nullptr) : card_json(card);
}

void write_player(std::string& out, const PlayerView& player) {
    ObjectText object(out);
    Scalar(player.coins).write(object.member("coins"));
    Scalar(player.influence).write(object.member("influence"));
    write_cards(object.member("influence_cards"), player.influence_cards);
    ListValue{hand_list(player), hand_card_json}.write(object.member("hand"));
    write_city(object.member("city"), player.city);
}

bool shows_draft(const View& view) {
    return view.phase == Phase::draft;
}
void write_draft(std::string& out, const View& view) {
    if (!shows_draft(view)) return Scalar().write(out);
    ObjectText object(out);
    Scalar(view.draft_packet_size).write(object.member("size"));
    write_cards(object.member("cards"), view.draft_packet);
}

bool shows_school(const View& view) {
    return view.school_deck >= 0;
}
void write_school(std::string& out, const View& view) {
    if (!shows_school(view)) return Scalar().write(out);
    ObjectText object(out);
    Scalar(view.school_deck).write(object.member("deck"));
    Scalar(view.school_drawn).write(object.member("drawn"));
    write_cards(object.member("cards"), view.school_cards);
}

// The turn; what the emissary did so far (took, built, produced) only once done.
Members<7> turn_members(const TurnView& turn) {
    Members<7> members;
    members.add("seat", seat_json(turn.seat));
    members.add("space", turn.space).add("bricks", turn.bricks).add("cogs", turn.cogs);
    if (turn.took) members.add("took", true);
    if (turn.built) members.add("built", true);
    if (turn.produced) members.add("produced", true);
    return members;
}
void write_turn(std::string& out, const std::optional<TurnView>& turn) {
    if (!turn) return Scalar().write(out);
    MembersValue<7>{turn_members(*turn)}.write(out);
}

Scalar move_json(const engine::Move& move) {
    return move;
}

bool shows_result(const View& view) {
    return view.phase == Phase::game_over;
}
void write_result(std::string& out, const View& view) {
    if (!shows_result(view)) return Scalar().write(out);
    ObjectText object(out);
    write_list(object.member("scores"), view.scores,
               [](std::string& to, const engine::ScoreBreakdown& score) {
                   append_json(to, score_to_json(score));
               });
    ListValue{view.winners, seat_json}.write(object.member("winners"));
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

namespace {

// A value written by one of the functions above, for a patch's operation.
template <class Write>
struct WrittenValue {
    Write write_to;

    void write(std::string& out) const { write_to(out); }
};
template <class Write>
WrittenValue(Write) -> WrittenValue<Write>;

// --- Patches -----------------------------------------------------------------------------------

// A JSON pointer into the view, at most "/players/3/influence_cards/12" or
// "/players/3/city/-3,-3/building": no allocation, and nothing to escape (member names, numbers,
// ',' and '-').
class Path {
  public:
    explicit Path(std::string_view text) { append(text); }
    Path operator/(std::string_view member) const {
        Path path = *this;
        path.append("/");
        path.append(member);
        return path;
    }
    Path operator/(std::size_t index) const {
        std::array<char, 20> digits{};
        const char* end = std::to_chars(digits.data(), digits.data() + digits.size(), index).ptr;
        return *this /
               std::string_view(digits.data(), static_cast<std::size_t>(end - digits.data()));
    }
    std::string_view view() const { return {text_.data(), size_}; }

  private:
    void append(std::string_view text) {
        assert(size_ + text.size() <= text_.size());
        assert(text.find_first_of("\"\\~") == std::string_view::npos);
        text.copy(text_.data() + size_, text.size());
        size_ += text.size();
    }

    std::array<char, 48> text_{};
    std::size_t size_ = 0;
};

template <class Value>
concept WritableValue = requires(const Value& value, std::string& out) {
    value.write(out);
};

// The operations of a patch, kept until all are known: for each member that changed, the patch
// carries whichever is shorter as text, one replace of the whole value or finer operations
// (elements of a list, members of an object). So each value is written as text when it is added,
// which gives its size; the chosen ones are copied out (append_text).
class Ops {
  public:
    Ops() {
        ops_.reserve(16);
        values_.reserve(512);
    }

    void replace(const Path& path, const WritableValue auto& value) {
        push("replace", path, value);
    }
    void add(const Path& path, const WritableValue auto& value) { push("add", path, value); }
    void remove(const Path& path) {
        bytes_ += op_bytes("remove", path, 0);
        ops_.push_back({"remove", path, values_.size(), values_.size()});
    }

    // The bytes the operations take as text, with a separator each.
    std::size_t bytes() const { return bytes_; }

    // Empty again, keeping the storage (each thread reuses one Ops: see this_threads_ops).
    void clear() {
        ops_.clear();
        values_.clear();
        bytes_ = 0;
    }

    // Replaces the value at `path` by `whole`, or by the finer operations `fine(limit)` adds if
    // they are shorter; `fine` may stop adding once bytes() passes `limit`, as they lost then.
    template <class Fine>
    void shorter(const Path& path, const WritableValue auto& whole, Fine&& fine) {
        const std::size_t mark = ops_.size();
        const std::size_t start = bytes_;
        const std::size_t begin = values_.size();
        whole.write(values_);
        const std::size_t end = values_.size();
        const std::size_t whole_bytes = op_bytes("replace", path, end - begin);
        fine(start + whole_bytes);
        if (bytes_ - start < whole_bytes) return;  // the whole's text stays in values_, unused
        ops_.erase(ops_.begin() + static_cast<std::ptrdiff_t>(mark), ops_.end());
        values_.resize(end);
        bytes_ = start + whole_bytes;
        ops_.push_back({"replace", path, begin, end});
    }

    // The operations, comma-separated, without the array's brackets.
    void append_text(std::string& out) const {
        [[maybe_unused]] const std::size_t start = out.size();
        out.reserve(out.size() + bytes_);
        for (const Op& op : ops_) {
            if (&op != ops_.data()) out.push_back(',');
            out += R"({"op":")";
            out += op.kind;
            out += R"(","path":")";
            out += op.path.view();
            out.push_back('"');
            if (op.end > op.begin) {
                out += R"(,"value":)";
                out.append(values_, op.begin, op.end - op.begin);
            }
            out.push_back('}');
        }
        assert(out.size() - start == (ops_.empty() ? 0 : bytes_ - 1));
    }

  private:
    struct Op {
        std::string_view kind;
        Path path;
        std::size_t begin, end;  // the value's text in values_; empty for a remove
    };

    static std::size_t op_bytes(std::string_view kind, const Path& path, std::size_t value_size) {
        // {"op":"<kind>","path":"<path>"[,"value":<value>]} and a separator
        return 20 + kind.size() + path.view().size() + (value_size > 0 ? 9 + value_size : 0);
    }

    void push(std::string_view kind, const Path& path, const WritableValue auto& value) {
        const std::size_t begin = values_.size();
        value.write(values_);
        bytes_ += op_bytes(kind, path, values_.size() - begin);
        ops_.push_back({kind, path, begin, values_.size()});
    }

    std::vector<Op> ops_;
    std::string values_;  // the values' text
    std::size_t bytes_ = 0;
};

// Finer operations for a list: a replace for each element changed in place, then removes or
// adds where the lengths differ, between the common head and tail (one card taken from the offer
// is one remove, one card into a hand one add). Stops once past `limit` bytes.
template <class List, class Element>
void list_ops(Ops& ops, const Path& path, const List& before, const List& after, Element element,
              std::size_t limit) {
    const std::size_t both = std::min(before.size(), after.size());
    std::size_t head = 0;
    while (head < both && before[head] == after[head])
        ++head;
    std::size_t tail = 0;
    while (tail < both - head && before[before.size() - 1 - tail] == after[after.size() - 1 - tail])
        ++tail;
    const std::size_t in_place = both - head - tail;
    for (std::size_t i = head; i < head + in_place && ops.bytes() <= limit; ++i)
        if (before[i] != after[i]) ops.replace(path / i, element(after[i]));
    // Each remove takes the next element to the same index.
    for (std::size_t i = head + in_place; i < before.size() - tail && ops.bytes() <= limit; ++i)
        ops.remove(path / (head + in_place));
    for (std::size_t i = head + in_place; i < after.size() - tail && ops.bytes() <= limit; ++i)
        ops.add(path / i, element(after[i]));
}

template <class List, class Element>
void patch_list(Ops& ops, const Path& path, const List& before, const List& after,
                Element element) {
    if (before == after) return;
    ops.shorter(path, ListValue<List, Element>{after, element},
                [&](std::size_t limit) { list_ops(ops, path, before, after, element, limit); });
}

template <class T>
void patch_member(Ops& ops, const Path& path, const T& before, const T& after) {
    if (before != after) ops.replace(path, Scalar(after));
}

// A member present only when its value is not the default (0, false): added, changed or removed.
template <class T>
void patch_optional(Ops& ops, const Path& path, const T& before, const T& after) {
    if (before == after) return;
    if (after == T{}) return ops.remove(path);
    if (before == T{}) return ops.add(path, Scalar(after));
    ops.replace(path, Scalar(after));
}

void patch_city(Ops& ops, const Path& path, const std::vector<CityCell>& before,
                const std::vector<CityCell>& after) {
    if (before == after) return;
    // Cells by grid position: a city lies within [kMin, kMax] on both axes.
    using engine::City;
    const auto in_grid = [](const CityCell& c) { return City::in_grid(c.x, c.y); };
    if (!std::all_of(before.begin(), before.end(), in_grid) ||
        !std::all_of(after.begin(), after.end(), in_grid))
        return ops.replace(path, WrittenValue{[&](std::string& out) { write_city(out, after); }});

    std::array<const CityCell*, City::kSize * City::kSize> old{};
    for (const CityCell& c : before)
        old[static_cast<std::size_t>(City::bit_index(c.x, c.y))] = &c;
    for (const CityCell& c : after) {
        const CityCell*& was = old[static_cast<std::size_t>(City::bit_index(c.x, c.y))];
        const Path cell = path / CellKey(c.x, c.y).view();
        if (was == nullptr) {
            ops.add(cell, MembersValue<2>{cell_members(c)});
        } else if (was->cell != c.cell) {
            ops.shorter(cell, MembersValue<2>{cell_members(c)}, [&](std::size_t) {
                const engine::Cell &from = was->cell, &to = c.cell;
                patch_member(ops, cell / "card", static_cast<int>(from.card),
                             static_cast<int>(to.card));
                patch_optional(ops, cell / "tokens", static_cast<int>(from.tokens),
                               static_cast<int>(to.tokens));
            });
        }
        was = nullptr;
    }
    for (const CityCell* c : old)
        if (c != nullptr) ops.remove(path / CellKey(c->x, c->y).view());
}

// A player's members but the hand, which depends on the viewer.
void patch_public_player(Ops& ops, const Path& path, const PlayerView& before,
                         const PlayerView& after) {
    patch_member(ops, path / "coins", before.coins, after.coins);
    patch_member(ops, path / "influence", before.influence, after.influence);
    patch_list(ops, path / "influence_cards", before.influence_cards, after.influence_cards,
               card_json);
    patch_city(ops, path / "city", before.city, after.city);
}

void patch_turn(Ops& ops, const std::optional<TurnView>& before,
                const std::optional<TurnView>& after) {
    if (before == after) return;
    const Path path("/turn");
    if (!before || !after)
        return ops.replace(path, WrittenValue{[&](std::string& out) { write_turn(out, after); }});
    ops.shorter(path, MembersValue<7>{turn_members(*after)}, [&](std::size_t) {
        if (before->seat != after->seat) ops.replace(path / "seat", seat_json(after->seat));
        patch_member(ops, path / "space", before->space, after->space);
        patch_member(ops, path / "bricks", before->bricks, after->bricks);
        patch_member(ops, path / "cogs", before->cogs, after->cogs);
        patch_optional(ops, path / "took", before->took, after->took);
        patch_optional(ops, path / "built", before->built, after->built);
        patch_optional(ops, path / "produced", before->produced, after->produced);
    });
}

void patch_draft(Ops& ops, const View& before, const View& after) {
    const Path path("/draft");
    const WrittenValue draft{[&](std::string& out) { write_draft(out, after); }};
    if (shows_draft(before) != shows_draft(after)) return ops.replace(path, draft);
    if (!shows_draft(after) || (before.draft_packet_size == after.draft_packet_size &&
                                before.draft_packet == after.draft_packet))
        return;
    ops.shorter(path, draft, [&](std::size_t) {
        patch_member(ops, path / "size", before.draft_packet_size, after.draft_packet_size);
        patch_list(ops, path / "cards", before.draft_packet, after.draft_packet, card_json);
    });
}

void patch_school(Ops& ops, const View& before, const View& after) {
    const Path path("/school");
    const WrittenValue school{[&](std::string& out) { write_school(out, after); }};
    if (shows_school(before) != shows_school(after)) return ops.replace(path, school);
    if (!shows_school(after) ||
        (before.school_deck == after.school_deck && before.school_drawn == after.school_drawn &&
         before.school_cards == after.school_cards))
        return;
    ops.shorter(path, school, [&](std::size_t) {
        patch_member(ops, path / "deck", before.school_deck, after.school_deck);
        patch_member(ops, path / "drawn", before.school_drawn, after.school_drawn);
        patch_list(ops, path / "cards", before.school_cards, after.school_cards, card_json);
    });
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
    std::string text;
    append_view_json(text, view);
    return Json::parse(text);
}

namespace {

bool same_table(const View& before, const View& after) {
    const bool same = before.viewer == after.viewer && before.options == after.options &&
                      before.rounds == after.rounds &&
                      before.players.size() == after.players.size();
    assert(same && "view_patch: views of different viewers or games");
    return same;
}

// What every viewer of a state sees alike: all but the hands, the draft, a school's draw and the
// moves. Views of one state by different viewers give the same operations.
void write_public_ops(Ops& ops, const View& before, const View& after) {
    if (!same_table(before, after)) return;  // the viewer's operations replace the whole view
    patch_member(ops, Path("/round"), before.round, after.round);
    if (before.phase != after.phase) ops.replace(Path("/phase"), Scalar(phase_id(after.phase)));
    if (!same_step(before, after)) ops.replace(Path("/step"), step_json(after));
    if (before.first_player != after.first_player)
        ops.replace(Path("/first_player"), seat_json(after.first_player));
    if (before.to_act != after.to_act) ops.replace(Path("/to_act"), seat_json(after.to_act));
    if (before.strip != after.strip) ops.replace(Path("/strip"), strip_json(after.strip));
    patch_list(ops, Path("/emissaries"), before.emissaries, after.emissaries, seat_json);
    patch_list(ops, Path("/offer"), before.offer, after.offer, card_json);
    patch_list(ops, Path("/decks"), before.deck_sizes, after.deck_sizes, deck_json);
    patch_member(ops, Path("/influence_in_deck"), before.influence_cards_in_deck,
                 after.influence_cards_in_deck);
    patch_list(ops, Path("/influence_on_table"), before.influence_on_table,
               after.influence_on_table, card_json);
    const Path players("/players");
    for (std::size_t i = 0; i < after.players.size(); ++i)
        if (before.players[i] != after.players[i])
            patch_public_player(ops, players / i, before.players[i], after.players[i]);
    patch_turn(ops, before.turn, after.turn);
    if (!same_result(before, after))
        ops.replace(Path("/result"),
                    WrittenValue{[&](std::string& out) { write_result(out, after); }});
}

// What depends on the viewer: the cards of each hand it knows, the draft packet and the school's
// draw it may see, its moves.
void write_viewer_ops(Ops& ops, const View& before, const View& after) {
    if (!same_table(before, after)) {
        // Not supported; without assertions, still a correct patch: the whole view. It is this
        // viewer's, so it goes here and never into the operations shared by every viewer.
        ops.replace(Path(""),
                    WrittenValue{[&](std::string& out) { append_view_json(out, after); }});
        return;
    }
    const Path players("/players");
    for (std::size_t i = 0; i < after.players.size(); ++i) {
        const PlayerView &was = before.players[i], &is = after.players[i];
        if (was.hand_size == is.hand_size && was.hand == is.hand) continue;  // most players
        patch_list(ops, players / i / "hand", hand_list(was), hand_list(is), hand_card_json);
    }
    patch_draft(ops, before, after);
    patch_school(ops, before, after);
    patch_list(ops, Path("/moves"), before.legal_moves, after.legal_moves, move_json);
    patch_member(ops, Path("/undo"), before.undo, after.undo);
}

}  // namespace

Json view_patch(const View& before, const View& after) {
    std::string text;
    append_view_patch(text, before, after);
    return Json::parse(text);
}

void append_view_patch(std::string& out, const View& before, const View& after) {
    std::string public_ops;
    append_public_ops(public_ops, before, after);
    append_view_patch(out, public_ops, before, after);
}

void append_view_patch(std::string& out, std::string_view public_ops, const View& before,
                       const View& after) {
    out.push_back('[');
    out += public_ops;
    if (!public_ops.empty()) out.push_back(',');
    const std::size_t viewer_start = out.size();
    append_viewer_ops(out, before, after);
    if (out.size() == viewer_start && !public_ops.empty()) out.pop_back();  // no viewer operation
    out.push_back(']');
}

namespace {

// Five patches are written a move (the shared operations, then each viewer's): one Ops per
// thread, emptied each time, allocates only when a patch outgrows every earlier one.
Ops& this_threads_ops() {
    thread_local Ops ops;
    ops.clear();
    return ops;
}

}  // namespace

void append_public_ops(std::string& out, const View& before, const View& after) {
    Ops& ops = this_threads_ops();
    write_public_ops(ops, before, after);
    ops.append_text(out);
}

void append_viewer_ops(std::string& out, const View& before, const View& after) {
    Ops& ops = this_threads_ops();
    write_viewer_ops(ops, before, after);
    ops.append_text(out);
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
