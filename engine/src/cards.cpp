#include "gcor/engine/cards.hpp"

namespace gcor::engine {
namespace {

constexpr std::array<Kind, kCardCount> make_card_kinds() {
    std::array<Kind, kCardCount> kinds{};
    std::size_t next = 0;
    auto add = [&](Kind kind, int copies) {
        for (int i = 0; i < copies; ++i)
            kinds[next++] = kind;
    };
    // Deck I: the fourteen special buildings.
    for (Kind kind :
         {Kind::vineyard, Kind::luxury_residential_2, Kind::luxury_residential_3,
          Kind::luxury_residential_4, Kind::forum_romanum, Kind::colosseum, Kind::university,
          Kind::imperial_thermal_baths, Kind::grand_aqueduct, Kind::temple_luna, Kind::temple_mars,
          Kind::temple_venus, Kind::temple_jupiter, Kind::temple_mercury})
        add(kind, 1);
    // Decks II, III and IV differ in residences, aqueducts and temples.
    struct DeckMix {
        int residential_2, residential_3, residential_4, aqueducts;
        Kind temples[2];
        int temple_count;
    };
    constexpr DeckMix kMixes[3]{
        {5, 3, 2, 4, {Kind::temple_minerva, Kind::none}, 1},
        {3, 3, 1, 2, {Kind::temple_fortuna, Kind::temple_cupid}, 2},
        {3, 3, 1, 2, {Kind::temple_juno, Kind::temple_saturn}, 2},
    };
    for (const DeckMix& mix : kMixes) {
        add(Kind::vegetable_farm, 1);
        add(Kind::grain_farm, 1);
        add(Kind::sheep_farm, 1);
        add(Kind::residential_2, mix.residential_2);
        add(Kind::residential_3, mix.residential_3);
        add(Kind::residential_4, mix.residential_4);
        add(Kind::market, 1);
        add(Kind::arena, 1);
        add(Kind::school, 1);
        add(Kind::thermal_baths, 1);
        add(Kind::aqueduct, mix.aqueducts);
        for (int i = 0; i < mix.temple_count; ++i)
            add(mix.temples[i], 1);
    }
    for (int seat = 0; seat < 4; ++seat) {
        add(Kind::vegetable_farm, 1);
        add(Kind::residential_2, 1);
    }
    add(Kind::shrine, 4);
    add(Kind::none, 6);  // influence cards
    return kinds;
}

}  // namespace

const std::array<Kind, kCardCount> kCardKinds = make_card_kinds();

std::optional<Kind> kind_from_id(std::string_view id) {
    for (int k = 1; k < kKindCount; ++k)
        if (kKinds[static_cast<std::size_t>(k)].id == id) return static_cast<Kind>(k);
    return std::nullopt;
}

}  // namespace gcor::engine
