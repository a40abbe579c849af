// The events in words, English and German (the German rules' names and terms, as the web client
// says them: web/i18n/de.js). Clients word the events themselves (web/events.js); these are for
// what the server writes in a language.
#include <array>

#include "gcor/protocol/events.hpp"

namespace gcor::protocol {
namespace {

using engine::Event;
using engine::EventType;

constexpr std::array<std::string_view, engine::kKindCount> kGermanNames{
    "–",
    "Gemüsehof",
    "Getreidehof",
    "Schafhof",
    "Weinhof",
    "Wohnhaus (2)",
    "Wohnhaus (3)",
    "Wohnhaus (4)",
    "Luxus-Wohnhaus (2)",
    "Luxus-Wohnhaus (3)",
    "Luxus-Wohnhaus (4)",
    "Markt",
    "Arena",
    "Schule",
    "Therme",
    "Forum Romanum",
    "Kolosseum",
    "Universität",
    "Kaiser-Therme",
    "Aquädukt",
    "Großes Aquädukt",
    "Tempel der Luna",
    "Tempel des Mars",
    "Tempel der Venus",
    "Tempel des Jupiter",
    "Tempel des Merkur",
    "Tempel der Minerva",
    "Tempel der Fortuna",
    "Tempel des Amor",
    "Tempel der Juno",
    "Tempel des Saturnus",
    "Schrein",
};

// A count and its noun: "1 brick", "2 bricks"; German nouns give both forms.
struct Noun {
    std::string_view one;
    std::string_view many;
};
std::string count(int amount, Noun noun) {
    return std::to_string(amount) + ' ' + std::string(amount == 1 ? noun.one : noun.many);
}

struct Words {
    Noun brick, cog, coin, influence_token, brick_token, point_token, card, influence_card;
};
constexpr Words kEnglish{{"brick", "bricks"},
                         {"cog", "cogs"},
                         {"coin", "coins"},
                         {"influence token", "influence tokens"},
                         {"brick token", "brick tokens"},
                         {"point token", "point tokens"},
                         {"card", "cards"},
                         {"influence card", "influence cards"}};
constexpr Words kGerman{{"Baupunkt", "Baupunkte"},
                        {"Produktionspunkt", "Produktionspunkte"},
                        {"Geld", "Geld"},
                        {"Einflussmarker", "Einflussmarker"},
                        {"Baupunktmarker", "Baupunktmarker"},
                        {"Siegpunktmarker", "Siegpunktmarker"},
                        {"Karte", "Karten"},
                        {"Einflusswertungskarte", "Einflusswertungskarten"}};

std::string card_name(engine::CardId card, Language language) {
    if (engine::is_influence_card(card)) {
        const std::string value = std::to_string(engine::influence_value(card));
        return language == Language::de ? "eine Einflusswertungskarte mit Wert " + value
                                        : "an influence card worth " + value;
    }
    return std::string(building_name(engine::kind_of(card), language));
}

// ", gaining 2 coins, 1 influence token" / ", erhält 2 Münzen, 1 Einflussmarker"; "" for nothing.
std::string gains(const Event& event, bool brick_tokens, bool point_tokens, Language language) {
    const Words& words = language == Language::de ? kGerman : kEnglish;
    std::string text;
    const auto add = [&](int amount, Noun noun) {
        if (amount <= 0) return;
        text += !text.empty() ? ", " : language == Language::de ? ", erhält " : ", gaining ";
        text += count(amount, noun);
    };
    add(event.coins_gained, words.coin);
    add(event.influence, words.influence_token);
    if (brick_tokens) add(event.brick_tokens, words.brick_token);
    if (point_tokens) add(event.point_tokens, words.point_token);
    return text;
}

std::string cell(const Event& event) {
    return '(' + std::to_string(event.x) + ',' + std::to_string(event.y) + ')';
}

std::string english(const Event& event, const std::string& who, bool visible) {
    const Words& w = kEnglish;
    const std::string deck =
        event.index < engine::kDeckCount ? std::string(engine::deck_name(event.index)) : "?";
    const auto card = [&] { return card_name(event.card, Language::en); };
    switch (event.type) {
        case EventType::game_started:
            return "The game begins; " + who + " is the first player.";
        case EventType::drafted:
            return who + " keeps " + (visible ? card() : "a card") + " from the draft.";
        case EventType::round_started:
            return "Round " + std::to_string(event.count) + " begins.";
        case EventType::offer_drawn:
            return card() + " from deck " + deck + " joins the offer.";
        case EventType::influence_card_revealed:
            return "Influence: " + card() + " is on the table.";
        case EventType::emissary_placed:
            return who + " places an emissary on space " + std::to_string(event.index + 1) + '.';
        case EventType::turn_started:
            return who + "'s turn, with " + count(event.bricks, w.brick) + " and " +
                   count(event.cogs, w.cog) + '.';
        case EventType::card_taken:
            return who + " takes " + card() + " from the offer.";
        case EventType::built: {
            std::string text = who + " builds " + card() + " at " + cell(event);
            if (event.other != engine::kNoCard)
                text += ", replacing " + card_name(event.other, Language::en);
            if (event.brick_tokens > 0)
                text += ", spending " + count(event.brick_tokens, w.brick_token);
            if (event.coins_paid > 0)
                text += ", buying " + count(event.coins_paid / 2, w.brick) + " for " +
                        count(event.coins_paid, w.coin);
            return text + gains(event, false, true, Language::en) + '.';
        }
        case EventType::produced: {
            std::string text = who + " produces";
            if (event.coins_paid > 0) text += ", buying " + count(event.coins_paid, w.cog);
            return text + gains(event, true, false, Language::en) + '.';
        }
        case EventType::school_drew:
            return who + "'s school draws " + count(event.count, w.card) + " from deck " + deck +
                   '.';
        case EventType::school_kept:
            return who + " keeps " + (visible ? card() : "one card") + " and puts " +
                   count(event.count, w.card) + " under deck " + deck + '.';
        case EventType::turn_ended:
            return who + " ends the turn.";
        case EventType::first_player_passed:
            return who + " is now the first player.";
        case EventType::influence_awarded:
            return who + " has the most influence and takes " +
                   count(event.count, w.influence_card) + " worth " + std::to_string(event.points) +
                   ", returning " + count(event.influence, w.influence_token) + '.';
        case EventType::influence_postponed:
            return "Influence is tied: the influence cards stay on the table.";
        case EventType::game_over:
            return "The game is over.";
        case EventType::undone:
            switch (event.undone) {
                case engine::MoveType::take:
                    return who + " takes back taking " + card() + '.';
                case engine::MoveType::build:
                    return who + " takes back building " + card() + " at " + cell(event) + '.';
                case engine::MoveType::produce:
                    return who + " takes back producing.";
                case engine::MoveType::school_keep:
                    return who + " takes back keeping " + (visible ? card() : "a card") +
                           " from the school's draw.";
                default:
                    return who + " takes back a move.";
            }
        case EventType::timed_out:
            return who + " ran out of time: the next move was made for them.";
    }
    return {};
}

std::string german(const Event& event, const std::string& who, bool visible) {
    const Words& w = kGerman;
    const std::string deck =
        event.index < engine::kDeckCount ? std::string(engine::deck_name(event.index)) : "?";
    const auto card = [&] { return card_name(event.card, Language::de); };
    switch (event.type) {
        case EventType::game_started:
            return "Das Spiel beginnt; " + who + " ist Startspieler.";
        case EventType::drafted:
            return who + " behält " + (visible ? card() : "eine Karte") + " aus der Auswahl.";
        case EventType::round_started:
            return "Runde " + std::to_string(event.count) + " beginnt.";
        case EventType::offer_drawn:
            return card() + " von Stapel " + deck + " kommt ins Angebot.";
        case EventType::influence_card_revealed:
            return "Einfluss: " + card() + " liegt aus.";
        case EventType::emissary_placed:
            return who + " setzt einen Baumeister auf Feld " + std::to_string(event.index + 1) +
                   '.';
        case EventType::turn_started:
            return who + " ist am Zug, mit " + count(event.bricks, w.brick) + " und " +
                   count(event.cogs, w.cog) + '.';
        case EventType::card_taken:
            return who + " nimmt " + card() + " aus dem Angebot.";
        case EventType::built: {
            std::string text = who + " baut " + card() + " auf " + cell(event);
            if (event.other != engine::kNoCard)
                text += " und ersetzt " + card_name(event.other, Language::de);
            if (event.brick_tokens > 0)
                text += ", gibt " + count(event.brick_tokens, w.brick_token) + " aus";
            if (event.coins_paid > 0)
                text += ", kauft " + count(event.coins_paid / 2, w.brick) + " für " +
                        count(event.coins_paid, w.coin);
            return text + gains(event, false, true, Language::de) + '.';
        }
        case EventType::produced: {
            std::string text = who + " produziert";
            if (event.coins_paid > 0) text += ", kauft " + count(event.coins_paid, w.cog);
            return text + gains(event, true, false, Language::de) + '.';
        }
        case EventType::school_drew:
            return "Die Schule von " + who + " zieht " + count(event.count, w.card) +
                   " von Stapel " + deck + '.';
        case EventType::school_kept:
            return who + " behält " + (visible ? card() : "eine Karte") + " und legt " +
                   count(event.count, w.card) + " unter Stapel " + deck + '.';
        case EventType::turn_ended:
            return who + " beendet den Zug.";
        case EventType::first_player_passed:
            return who + " ist jetzt Startspieler.";
        case EventType::influence_awarded:
            return who + " hat den meisten Einfluss und nimmt " +
                   count(event.count, w.influence_card) + " mit Wert " +
                   std::to_string(event.points) + ", gibt " +
                   count(event.influence, w.influence_token) + " zurück.";
        case EventType::influence_postponed:
            return "Gleichstand beim Einfluss: die Einflusswertungskarten bleiben liegen.";
        case EventType::game_over:
            return "Das Spiel ist vorbei.";
        case EventType::undone:
            switch (event.undone) {
                case engine::MoveType::take:
                    return who + " nimmt zurück: " + card() + " genommen.";
                case engine::MoveType::build:
                    return who + " nimmt zurück: " + card() + " auf " + cell(event) + " gebaut.";
                case engine::MoveType::produce:
                    return who + " nimmt zurück: produziert.";
                case engine::MoveType::school_keep:
                    return who + " nimmt zurück: " + (visible ? card() : "eine Karte") +
                           " aus dem Zug der Schule behalten.";
                default:
                    return who + " nimmt einen Zug zurück.";
            }
        case EventType::timed_out:
            return who + " hat die Zeit überschritten: der nächste Zug wurde für " + who +
                   " gemacht.";
    }
    return {};
}

}  // namespace

std::string_view language_id(Language language) {
    return language == Language::de ? "de" : "en";
}

std::optional<Language> parse_language(std::string_view id) {
    for (Language language : kLanguages)
        if (language_id(language) == id) return language;
    return std::nullopt;
}

std::string_view building_name(engine::Kind kind, Language language) {
    return language == Language::de ? kGermanNames[static_cast<std::size_t>(kind)]
                                    : engine::info(kind).name;
}

std::string describe(const Event& event, std::optional<engine::Seat> viewer,
                     std::span<const std::string> names, Language language) {
    const std::string player = language == Language::de ? "Spieler " : "Player ";
    const std::string who = event.seat < names.size() ? names[event.seat]
                            : event.seat == engine::kNoSeat
                                ? std::string()
                                : player + std::to_string(event.seat + 1);
    const bool visible = event.visible_to(viewer);
    std::string text =
        language == Language::de ? german(event, who, visible) : english(event, who, visible);
    if (event.automatic) text += language == Language::de ? " (automatisch)" : " (automatic)";
    return text;
}

}  // namespace gcor::protocol
