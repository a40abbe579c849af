#pragma once
// A seat's view as JSON, and the RFC 6902 patch from one view to the next.
//
// Layout (docs/protocol.md, "The view"): cards are ids (GET /api/catalogue maps them to kinds);
// city cells are keyed "x,y" so that a build adds one member and nothing else moves.
//   {"viewer": 2|null, "options": {...}, "round": 3, "rounds": 14,
//    "phase": "draft"|"emissaries"|"actions"|"game_over",
//    "step": "take_card"|"main"|"school_deck"|"school_keep"|null, "first_player": 1,
//    "to_act": 2|null, "strip": "BCBCB", "emissaries": [null, 0, 2, null, 1],
//    "offer": [12, 40], "decks": [10, 15, 14, null], "influence_in_deck": 2,
//    "influence_on_table": [84],
//    "players": [{"coins": 5, "influence": 0, "influence_cards": [84], "hand_size": 3,
//                 "hand": [12, 80], "city": {"0,0": {"card": 72, "building": "vegetable_farm",
//                 "tokens": 0}, ...}, "score": {"residential_2": 0, ..., "total": 5}}, ...],
//    "draft": {"size": 3, "cards": [...]}|null, "school": {"deck": 1, "drawn": 3, "cards":
//    [...]}|null, "turn": {"seat": 2, "space": 1, "bricks": 1, "cogs": 1, "took": true, "built":
//    false,
//             "produced": false}|null,
//    "moves": ["build 17 1,0", ...], "result": {"scores": [...], "winners": [0]}|null}
#include <string>
#include <string_view>

#include "gcor/engine/view.hpp"
#include "gcor/protocol/game_json.hpp"

namespace gcor::protocol {

// The view as JSON text, appended to `out` (written directly: a snapshot is the largest message a
// table writes, and every join or reconnection asks for one).
void append_view_json(std::string& out, const engine::View& view);
// The same text parsed, for tests and tools.
Json view_to_json(const engine::View& view);

// RFC 6902 operations that turn view_to_json(before) into view_to_json(after), appended to `out`
// as JSON text (an array), computed from the two views' fields (no JSON diff) and written without
// building JSON values: unchanged parts produce no operation, and a changed member gets whichever
// is shorter as text, one replace of its whole value or finer operations (list elements replaced,
// removed or inserted; members of an object replaced).
void append_view_patch(std::string& out, const engine::View& before, const engine::View& after);

// The same operations as JSON values (the text parsed), for tests and tools that apply them.
Json view_patch(const engine::View& before, const engine::View& after);

// append_view_patch's operations in its two parts, each appended as operations separated by
// commas, without brackets (nothing when there is none): first those on what every viewer of a
// state sees alike, which views of one state by any two viewers give to the letter, so that a
// server writes them once for all its viewers; then those on what the viewer's own view holds
// (the hand cards it knows, the draft, a school's draw, its moves).
void append_public_ops(std::string& out, const engine::View& before, const engine::View& after);
void append_viewer_ops(std::string& out, const engine::View& before, const engine::View& after);
// append_view_patch with the public operations written already, by append_public_ops from the
// views of any viewer of the same two states.
void append_view_patch(std::string& out, std::string_view public_ops, const engine::View& before,
                       const engine::View& after);

// The catalogue of card ids and kinds that views refer to.
Json catalogue_json();

// JSON equality that ignores the order of object members (Json keeps the order, and its ==
// compares in order): a patch adds a new city cell at the end of its object, while a fresh view
// lists the cells row by row. For checking a patched view against a fresh one.
bool same_json(const Json& a, const Json& b);

}  // namespace gcor::protocol
