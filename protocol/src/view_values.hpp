#pragma once
// The values of a seat's view as JSON text, internal to the protocol library: each member is
// written by one function, shared by the whole view (view_json.cpp) and its patches
// (view_patch.cpp), so that a patch always carries exactly what the full view would hold.
#include <array>
#include <cassert>
#include <charconv>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "gcor/engine/view.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/protocol/json_text.hpp"

namespace gcor::protocol::view_text {

using engine::CardId;
using engine::CityCell;
using engine::Kind;
using engine::Phase;
using engine::PlayerView;
using engine::Seat;
using engine::Step;
using engine::TurnView;
using engine::View;

inline std::string_view phase_id(Phase phase) {
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

inline std::string_view step_id(Step step) {
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

inline Scalar seat_json(Seat seat) {
    return seat == engine::kNoSeat ? Scalar(nullptr) : Scalar(static_cast<int>(seat));
}

inline Scalar viewer_json(const std::optional<Seat>& viewer) {
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

inline Scalar card_json(CardId card) {
    return static_cast<int>(card);
}
inline void write_cards(std::string& out, const std::vector<CardId>& cards) {
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
inline bool shows_step(const View& view) {
    return view.phase == Phase::actions;
}
inline Scalar step_json(const View& view) {
    return shows_step(view) ? Scalar(step_id(view.step)) : Scalar(nullptr);
}

inline Scalar strip_json(const std::array<engine::Symbol, engine::kStripSpaces>& strip) {
    std::string text(strip.size(), 'B');
    for (std::size_t i = 0; i < strip.size(); ++i)
        if (strip[i] == engine::Symbol::cog) text[i] = 'C';
    return text;
}

// A deck's size, null for a deck not in play.
inline Scalar deck_json(int size) {
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
inline Members<2> cell_members(const CityCell& cell) {
    Members<2> members;
    members.add("card", static_cast<int>(cell.cell.card));
    if (cell.cell.tokens > 0) members.add("tokens", static_cast<int>(cell.cell.tokens));
    return members;
}
inline void write_city(std::string& out, const std::vector<CityCell>& city) {
    ObjectText object(out);
    for (const CityCell& cell : city)
        MembersValue<2>{cell_members(cell)}.write(object.member(CellKey(cell.x, cell.y).view()));
}

// A hand as the viewer knows it: the cards it knows, then a null for each card it does not (its
// length is the hand's size).
using HandList = engine::StaticVector<CardId, engine::Player::kHandCapacity>;
inline HandList hand_list(const PlayerView& player) {
    HandList hand;
    for (CardId card : player.hand)
        hand.push_back(card);
    while (hand.size() < static_cast<std::size_t>(player.hand_size))
        hand.push_back(engine::kNoCard);
    return hand;
}
inline Scalar hand_card_json(CardId card) {
    return card == engine::kNoCard ? Scalar(nullptr) : card_json(card);
}

// A score breakdown: every category, zeros included, as in the result (game_json.hpp).
inline Members<kScoreMembers.size()> score_members(const engine::ScoreBreakdown& score) {
    Members<kScoreMembers.size()> members;
    for (const auto& [key, member] : kScoreMembers)
        members.add(key, score.*member);
    return members;
}
using ScoreValue = MembersValue<kScoreMembers.size()>;

inline void write_player(std::string& out, const PlayerView& player) {
    ObjectText object(out);
    Scalar(player.coins).write(object.member("coins"));
    Scalar(player.influence).write(object.member("influence"));
    write_cards(object.member("influence_cards"), player.influence_cards);
    ListValue{hand_list(player), hand_card_json}.write(object.member("hand"));
    write_city(object.member("city"), player.city);
    ScoreValue{score_members(player.score)}.write(object.member("score"));
}

inline bool shows_draft(const View& view) {
    return view.phase == Phase::draft;
}
inline void write_draft(std::string& out, const View& view) {
    if (!shows_draft(view)) return Scalar().write(out);
    ObjectText object(out);
    Scalar(view.draft_packet_size).write(object.member("size"));
    write_cards(object.member("cards"), view.draft_packet);
}

inline bool shows_school(const View& view) {
    return view.school_deck >= 0;
}
inline void write_school(std::string& out, const View& view) {
    if (!shows_school(view)) return Scalar().write(out);
    ObjectText object(out);
    Scalar(view.school_deck).write(object.member("deck"));
    Scalar(view.school_drawn).write(object.member("drawn"));
    write_cards(object.member("cards"), view.school_cards);
}

// The turn; what the emissary did so far (took, built, produced) only once done.
inline Members<7> turn_members(const TurnView& turn) {
    Members<7> members;
    members.add("seat", seat_json(turn.seat));
    members.add("space", turn.space).add("bricks", turn.bricks).add("cogs", turn.cogs);
    if (turn.took) members.add("took", true);
    if (turn.built) members.add("built", true);
    if (turn.produced) members.add("produced", true);
    return members;
}
inline void write_turn(std::string& out, const std::optional<TurnView>& turn) {
    if (!turn) return Scalar().write(out);
    MembersValue<7>{turn_members(*turn)}.write(out);
}

inline Scalar move_json(const engine::Move& move) {
    return move;
}

inline bool shows_result(const View& view) {
    return view.phase == Phase::game_over;
}
inline void write_result(std::string& out, const View& view) {
    if (!shows_result(view)) return Scalar().write(out);
    ObjectText object(out);
    write_list(object.member("scores"), view.scores,
               [](std::string& to, const engine::ScoreBreakdown& score) {
                   ScoreValue{score_members(score)}.write(to);
               });
    ListValue{view.winners, seat_json}.write(object.member("winners"));
}

}  // namespace gcor::protocol::view_text
