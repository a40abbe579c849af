#include "gcor/protocol/view_json.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "view_values.hpp"

// The RFC 6902 patch from one view to the next, written from the two views' fields with the
// values of the whole view (view_values.hpp).
namespace gcor::protocol {

using namespace view_text;

namespace {

// A value written by one of the view's functions (view_values.hpp), for a patch's operation.
template <class Write>
struct WrittenValue {
    Write write_to;

    void write(std::string& out) const { write_to(out); }
};
template <class Write>
WrittenValue(Write) -> WrittenValue<Write>;

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

void patch_score(Ops& ops, const Path& path, const engine::ScoreBreakdown& before,
                 const engine::ScoreBreakdown& after) {
    if (before == after) return;
    ops.shorter(path, ScoreValue{score_members(after)}, [&](std::size_t) {
        for (const auto& [key, member] : kScoreMembers)
            patch_member(ops, path / key, before.*member, after.*member);
    });
}

// A player's members but the hand, which depends on the viewer.
void patch_public_player(Ops& ops, const Path& path, const PlayerView& before,
                         const PlayerView& after) {
    patch_member(ops, path / "coins", before.coins, after.coins);
    patch_member(ops, path / "influence", before.influence, after.influence);
    patch_list(ops, path / "influence_cards", before.influence_cards, after.influence_cards,
               card_json);
    patch_city(ops, path / "city", before.city, after.city);
    patch_score(ops, path / "score", before.score, after.score);
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

}  // namespace gcor::protocol
