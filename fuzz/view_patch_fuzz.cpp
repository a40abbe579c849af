// The patch writer (protocol::view_patch, append_view_patch): games played by moves the input
// chooses among the legal ones; between two of their states, for the viewer the input chooses,
// nlohmann's Json::patch of the written patch onto the old view gives the new view, and the
// patch written as text (whole, or with the public part from another viewer) is the same patch.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_support.hpp"
#include "gcor/engine/view.hpp"
#include "gcor/protocol/view_json.hpp"

using namespace gcor;
using protocol::Json;

namespace {

// Reads the input a byte at a time; zeros once it is used up.
class Bytes {
  public:
    Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    bool empty() const { return at_ == size_; }
    std::uint8_t next() { return at_ < size_ ? data_[at_++] : 0; }

  private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t at_ = 0;
};

void check_patch(const engine::State& before, const engine::State& after,
                 std::optional<engine::Seat> viewer) {
    const engine::View old_view = engine::view_for(before, viewer);
    const engine::View new_view = engine::view_for(after, viewer);
    const Json old_json = protocol::view_to_json(old_view);
    const Json new_json = protocol::view_to_json(new_view);
    const Json patch = protocol::view_patch(old_view, new_view);
    fuzz::require(patch.is_array(), "a patch that is not an array");
    Json patched;
    try {
        patched = old_json.patch(patch);
    } catch (const Json::exception& e) {
        fuzz::fail(std::string("a patch that does not apply: ") + e.what() + "\n" + patch.dump());
    }
    if (!protocol::same_json(patched, new_json))
        fuzz::fail("a patch that does not give the new view\npatch: " + patch.dump() +
                   "\ngot: " + patched.dump() + "\nwant: " + new_json.dump());

    std::string text;
    protocol::append_view_patch(text, old_view, new_view);
    fuzz::require(Json::parse(text, nullptr, false) == patch,
                  "append_view_patch writes another patch than view_patch");

    // The public part, written once from the spectator's views, shared with this viewer.
    std::string public_ops;
    protocol::append_public_ops(public_ops, engine::view_for(before, std::nullopt),
                                engine::view_for(after, std::nullopt));
    std::string shared;
    protocol::append_view_patch(shared, public_ops, old_view, new_view);
    fuzz::require(Json::parse(shared, nullptr, false) == patch,
                  "the shared public operations give another patch");
}

}  // namespace

// A check costs about a millisecond under the sanitizers: a few per input keep the fuzzer fast
// while the moves between them still reach every phase of a game.
constexpr int kMaxChecks = 16;

// Input: options (players, rules, Shrine), seed, viewer, then one byte per move: the move is
// legal_moves()[(byte & 0x7F) % count]; a byte with its high bit set ends a step, and the patch
// from the step's first state to the current one is checked (the first kMaxChecks steps, then
// the last).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Bytes bytes(data, size);
    const std::uint8_t options = bytes.next();
    const auto rules = engine::Rules::make(
        {2 + options % 3, (options >> 2 & 1) ? engine::Variant::publisher : engine::Variant::yucata,
         (options >> 3 & 1) != 0});
    const std::uint64_t seed = bytes.next() | std::uint64_t{bytes.next()} << 8;
    const std::uint8_t viewer_byte = bytes.next();
    const int viewers = rules->options().players + 1;
    const std::optional<engine::Seat> viewer =
        viewer_byte % viewers == 0 ? std::nullopt
                                   : std::optional<engine::Seat>(viewer_byte % viewers - 1);

    engine::State state = rules->new_game(seed);
    engine::State step_start = state;
    std::vector<engine::Move> legal;
    int checks = 0;
    while (!bytes.empty() && !state.over()) {
        const std::uint8_t choice = bytes.next();
        state.legal_moves(legal);
        fuzz::require(!legal.empty(), "no legal move before the end");
        const engine::Move move = legal[(choice & 0x7F) % legal.size()];
        fuzz::require(state.apply(state.to_act(), move) == engine::MoveError::none,
                      "a legal move refused");
        if ((choice & 0x80) && checks < kMaxChecks) {
            ++checks;
            check_patch(step_start, state, viewer);
            step_start = state;
        }
    }
    check_patch(step_start, state, viewer);
    return 0;
}
