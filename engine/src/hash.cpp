#include "gcor/engine/state.hpp"

namespace gcor::engine {
namespace {

// FNV-1a over the state's fields in a fixed order (never over raw bytes: padding is undefined).
class Hasher {
  public:
    void add(std::uint64_t value) {
        for (int i = 0; i < 8; ++i) {
            hash_ = (hash_ ^ (value & 0xFF)) * 0x100000001b3ull;
            value >>= 8;
        }
    }
    template <class T, std::size_t N>
    void add(const StaticVector<T, N>& items) {
        add(items.size());
        for (const T& item : items)
            add(static_cast<std::uint64_t>(item));
    }
    std::uint64_t value() const { return hash_; }

  private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::uint64_t state_hash(const State& state) {
    Hasher h;
    h.add(static_cast<std::uint64_t>(state.options.players));
    h.add(static_cast<std::uint64_t>(state.options.variant));
    h.add(state.options.shrine);
    h.add(state.rng.raw_state());
    h.add(static_cast<std::uint64_t>(state.phase));
    h.add(static_cast<std::uint64_t>(state.step));
    h.add(state.round);
    h.add(state.first_player);
    for (const auto& deck : state.decks)
        h.add(deck);
    h.add(state.offer);
    h.add(state.influence_on_table);
    for (const StripSide& strip : state.strips)
        h.add(strip.strip * 2u + strip.reversed);
    for (Seat seat : state.spaces)
        h.add(seat);
    h.add(state.placement_order);
    h.add(state.placed);
    h.add(state.draft_order);
    h.add(state.drafted);
    h.add(state.packet);
    const Turn& turn = state.turn;
    for (std::uint64_t value :
         {std::uint64_t{turn.seat}, std::uint64_t{turn.space}, std::uint64_t{turn.bricks},
          std::uint64_t{turn.cogs}, std::uint64_t{turn.took}, std::uint64_t{turn.built},
          std::uint64_t{turn.produced}})
        h.add(value);
    h.add(state.school.size);
    h.add(state.school.deck);
    h.add(state.school.cards);
    for (const Player& player : state.players) {
        for (int y = City::kMin; y <= City::kMax; ++y)
            for (int x = City::kMin; x <= City::kMax; ++x) {
                const Cell& cell = player.city.at(x, y);
                h.add(static_cast<std::uint64_t>(cell.kind) | std::uint64_t{cell.card} << 8 |
                      std::uint64_t{cell.tokens} << 16);
            }
        h.add(player.hand.size());
        for (const HandCard& held : player.hand)
            h.add(held.card | held.known_to << 8);
        h.add(static_cast<std::uint64_t>(player.coins));
        h.add(static_cast<std::uint64_t>(player.influence));
        h.add(player.influence_cards);
    }
    if (state.forfeited) h.add(state.forfeited);  // only when set: older signatures stay valid
    return h.value();
}

}  // namespace gcor::engine
