#pragma once
// The card catalogue: every kind of building, and every card of a game with its stable id.
// This is the one place that holds card data; rules code only reads it.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gcor::engine {

enum class Kind : std::uint8_t {
    none,
    vegetable_farm,
    grain_farm,
    sheep_farm,
    vineyard,
    residential_2,
    residential_3,
    residential_4,
    luxury_residential_2,
    luxury_residential_3,
    luxury_residential_4,
    market,
    arena,
    school,
    thermal_baths,
    forum_romanum,
    colosseum,
    university,
    imperial_thermal_baths,
    aqueduct,
    grand_aqueduct,
    temple_luna,
    temple_mars,
    temple_venus,
    temple_jupiter,
    temple_mercury,
    temple_minerva,
    temple_fortuna,
    temple_cupid,
    temple_juno,
    temple_saturn,
    shrine,
};
inline constexpr int kKindCount = static_cast<int>(Kind::shrine) + 1;

enum class Category : std::uint8_t {
    none,
    production,
    residential,
    public_building,
    aqueduct,
    temple
};

// The four colours of public buildings; a special public building shares its basic one's colour.
enum class Colour : std::uint8_t { none, yellow, red, green, blue };

struct KindInfo {
    std::string_view id;    // the stable id used by the protocol and `cor score`
    std::string_view name;  // for people
    std::uint8_t cost;      // bricks
    std::uint8_t stars;
    Category category;
    std::uint8_t value;  // residential value, 0 for others
    Colour colour;       // public buildings only
    bool special;        // deck I version with the improved effect
};

inline constexpr std::array<KindInfo, kKindCount> kKinds{{
    {"none", "none", 0, 0, Category::none, 0, Colour::none, false},
    {"vegetable_farm", "Vegetable Farm", 2, 0, Category::production, 0, Colour::none, false},
    {"grain_farm", "Grain Farm", 2, 0, Category::production, 0, Colour::none, false},
    {"sheep_farm", "Sheep Farm", 2, 0, Category::production, 0, Colour::none, false},
    {"vineyard", "Vineyard", 2, 0, Category::production, 0, Colour::none, true},
    {"residential_2", "Residence (2)", 1, 0, Category::residential, 2, Colour::none, false},
    {"residential_3", "Residence (3)", 2, 0, Category::residential, 3, Colour::none, false},
    {"residential_4", "Residence (4)", 3, 0, Category::residential, 4, Colour::none, false},
    {"luxury_residential_2", "Luxury Residence (2)", 1, 1, Category::residential, 2, Colour::none,
     true},
    {"luxury_residential_3", "Luxury Residence (3)", 2, 1, Category::residential, 3, Colour::none,
     true},
    {"luxury_residential_4", "Luxury Residence (4)", 3, 1, Category::residential, 4, Colour::none,
     true},
    {"market", "Market", 3, 0, Category::public_building, 0, Colour::yellow, false},
    {"arena", "Arena", 3, 0, Category::public_building, 0, Colour::red, false},
    {"school", "School", 3, 0, Category::public_building, 0, Colour::green, false},
    {"thermal_baths", "Thermal Baths", 3, 0, Category::public_building, 0, Colour::blue, false},
    {"forum_romanum", "Forum Romanum", 3, 0, Category::public_building, 0, Colour::yellow, true},
    {"colosseum", "Colosseum", 3, 0, Category::public_building, 0, Colour::red, true},
    {"university", "University", 3, 0, Category::public_building, 0, Colour::green, true},
    {"imperial_thermal_baths", "Imperial Thermal Baths", 3, 0, Category::public_building, 0,
     Colour::blue, true},
    {"aqueduct", "Aqueduct", 1, 0, Category::aqueduct, 0, Colour::none, false},
    {"grand_aqueduct", "Grand Aqueduct", 1, 1, Category::aqueduct, 0, Colour::none, true},
    {"temple_luna", "Temple of Luna", 2, 1, Category::temple, 0, Colour::none, true},
    {"temple_mars", "Temple of Mars", 2, 3, Category::temple, 0, Colour::none, true},
    {"temple_venus", "Temple of Venus", 2, 1, Category::temple, 0, Colour::none, true},
    {"temple_jupiter", "Temple of Jupiter", 2, 2, Category::temple, 0, Colour::none, true},
    {"temple_mercury", "Temple of Mercury", 2, 2, Category::temple, 0, Colour::none, true},
    {"temple_minerva", "Temple of Minerva", 3, 0, Category::temple, 0, Colour::none, false},
    {"temple_fortuna", "Temple of Fortuna", 3, 0, Category::temple, 0, Colour::none, false},
    {"temple_cupid", "Temple of Cupid", 3, 0, Category::temple, 0, Colour::none, false},
    {"temple_juno", "Temple of Juno", 3, 0, Category::temple, 0, Colour::none, false},
    {"temple_saturn", "Temple of Saturn", 3, 0, Category::temple, 0, Colour::none, false},
    {"shrine", "Shrine", 0, 0, Category::temple, 0, Colour::none, false},
}};

constexpr const KindInfo& info(Kind kind) {
    return kKinds[static_cast<std::size_t>(kind)];
}
constexpr bool is_aqueduct(Kind kind) {
    return info(kind).category == Category::aqueduct;
}
constexpr bool is_public(Kind kind) {
    return info(kind).category == Category::public_building;
}
constexpr bool is_residential(Kind kind) {
    return info(kind).category == Category::residential;
}
constexpr bool is_temple(Kind kind) {
    return info(kind).category == Category::temple;
}
constexpr bool is_production(Kind kind) {
    return info(kind).category == Category::production;
}
// Buildings that hold a brick token when producing.
constexpr bool makes_bricks(Kind kind) {
    return kind == Kind::grain_farm || kind == Kind::vineyard;
}
constexpr bool makes_coins(Kind kind) {
    return kind == Kind::vegetable_farm || kind == Kind::vineyard;
}
constexpr bool is_thermal_baths(Kind kind) {
    return info(kind).colour == Colour::blue;
}

// Looks a kind up by its stable id ("market"); `none` is not a building and is not found.
std::optional<Kind> kind_from_id(std::string_view id);

// --- Cards of a game ---------------------------------------------------------------------------
// Card ids are fixed for every game (see docs/rules.md): 0-13 deck I, 14-35 deck II, 36-53 deck
// III, 54-71 deck IV, 72-79 starting buildings (72 + 2*seat: vegetable farm, 73 + 2*seat:
// residence), 80-83 shrines (80 + seat), 84-89 influence cards worth 3, 4, 6, 8, 10, 14.
using CardId = std::uint8_t;
inline constexpr CardId kNoCard = 255;
inline constexpr int kDeckCount = 4;
inline constexpr CardId kFirstStartingCard = 72;
inline constexpr CardId kFirstShrine = 80;
inline constexpr CardId kFirstInfluenceCard = 84;
inline constexpr int kCardCount = 90;
inline constexpr std::array<std::uint8_t, 6> kInfluenceValues{3, 4, 6, 8, 10, 14};
inline constexpr std::array<CardId, kDeckCount + 1> kDeckStart{0, 14, 36, 54, 72};

// The building kind of each card id (influence cards: Kind::none).
extern const std::array<Kind, kCardCount> kCardKinds;

constexpr bool is_influence_card(CardId card) {
    return card >= kFirstInfluenceCard && card < kCardCount;
}
constexpr int influence_value(CardId card) {
    return kInfluenceValues[card - kFirstInfluenceCard];
}
// The influence cards of a game, in deck I from the top: each lies below as many of deck I's
// buildings as it is worth (a 0 ends the list). Two players play without the one worth 3.
constexpr std::array<int, 4> influence_schedule(int players) {
    return players == 2 ? std::array<int, 4>{4, 8, 14, 0} : std::array<int, 4>{3, 6, 10, 14};
}
constexpr CardId influence_card_with_value(int value) {
    for (std::size_t i = 0; i < kInfluenceValues.size(); ++i)
        if (kInfluenceValues[i] == value) return static_cast<CardId>(kFirstInfluenceCard + i);
    return kNoCard;
}
inline Kind kind_of(CardId card) {
    return card < kCardCount ? kCardKinds[card] : Kind::none;
}
// Deck 0..3 (I..IV) a card was dealt from, or -1 for starting buildings, shrines and influence.
constexpr int deck_of(CardId card) {
    for (int deck = 0; deck < kDeckCount; ++deck)
        if (card >= kDeckStart[deck] && card < kDeckStart[deck + 1]) return deck;
    return -1;
}
constexpr std::string_view deck_name(int deck) {
    constexpr std::array<std::string_view, kDeckCount> kNames{"I", "II", "III", "IV"};
    return kNames[static_cast<std::size_t>(deck)];
}

}  // namespace gcor::engine
