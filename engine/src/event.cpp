#include "gcor/engine/event.hpp"

namespace gcor::engine {
namespace {

std::string card_name(CardId card) {
    if (is_influence_card(card))
        return "an influence card worth " + std::to_string(influence_value(card));
    return std::string(info(kind_of(card)).name);
}

std::string plural(int count, const char* word) {
    return std::to_string(count) + ' ' + word + (count == 1 ? "" : "s");
}

// "gaining 2 coins, 1 influence" or "" when nothing was gained.
std::string gains(int coins, int influence, int brick_tokens, int point_tokens) {
    std::string text;
    auto add = [&](int amount, const char* what) {
        if (amount <= 0) return;
        text += text.empty() ? ", gaining " : ", ";
        text += plural(amount, what);
    };
    add(coins, "coin");
    add(influence, "influence token");
    add(brick_tokens, "brick token");
    add(point_tokens, "point token");
    return text;
}

// What a player took back, as its own line described it.
std::string taken_back(const Event& event, bool visible) {
    switch (event.undone) {
        case MoveType::take:
            return "taking " + card_name(event.card);
        case MoveType::build:
            return "building " + card_name(event.card) + " at (" + std::to_string(event.x) + ',' +
                   std::to_string(event.y) + ')';
        case MoveType::produce:
            return "producing";
        case MoveType::school_keep:
            return "keeping " + (visible ? card_name(event.card) : std::string("a card")) +
                   " from the school's draw";
        default:
            return "a move";
    }
}

}  // namespace

std::string describe(const Event& event, std::optional<Seat> viewer,
                     std::span<const std::string> names) {
    const std::string who = event.seat < names.size() ? names[event.seat]
                            : event.seat == kNoSeat   ? std::string()
                                                      : "Player " + std::to_string(event.seat + 1);
    const bool visible = event.visible_to(viewer);
    const std::string deck = event.index < kDeckCount ? std::string(deck_name(event.index)) : "?";
    std::string text;
    switch (event.type) {
        case EventType::game_started:
            text = "The game begins; " + who + " is the first player.";
            break;
        case EventType::drafted:
            text =
                who + " keeps " + (visible ? card_name(event.card) : "a card") + " from the draft.";
            break;
        case EventType::round_started:
            text = "Round " + std::to_string(event.count) + " begins.";
            break;
        case EventType::offer_drawn:
            text = card_name(event.card) + " from deck " + deck + " joins the offer.";
            break;
        case EventType::influence_card_revealed:
            text = "Influence: " + card_name(event.card) + " is on the table.";
            break;
        case EventType::emissary_placed:
            text = who + " places an emissary on space " + std::to_string(event.index + 1) + '.';
            break;
        case EventType::turn_started:
            text = who + "'s turn, with " + plural(event.bricks, "brick") + " and " +
                   plural(event.cogs, "cog") + '.';
            break;
        case EventType::card_taken:
            text = who + " takes " + card_name(event.card) + " from the offer.";
            break;
        case EventType::built: {
            text = who + " builds " + card_name(event.card) + " at (" + std::to_string(event.x) +
                   ',' + std::to_string(event.y) + ')';
            if (event.other != kNoCard) text += ", replacing " + card_name(event.other);
            if (event.brick_tokens > 0)
                text += ", spending " + plural(event.brick_tokens, "brick token");
            if (event.coins_paid > 0)
                text += ", buying " + plural(event.coins_paid / 2, "brick") + " for " +
                        plural(event.coins_paid, "coin");
            text += gains(event.coins_gained, event.influence, 0, event.point_tokens) + '.';
            break;
        }
        case EventType::produced:
            text = who + " produces";
            if (event.coins_paid > 0) text += ", buying " + plural(event.coins_paid, "cog");
            text += gains(event.coins_gained, event.influence, event.brick_tokens, 0) + '.';
            break;
        case EventType::school_drew:
            text =
                who + "'s school draws " + plural(event.count, "card") + " from deck " + deck + '.';
            break;
        case EventType::school_kept:
            text = who + " keeps " + (visible ? card_name(event.card) : "one card") + " and puts " +
                   plural(event.count, "card") + " under deck " + deck + '.';
            break;
        case EventType::turn_ended:
            text = who + " ends the turn.";
            break;
        case EventType::first_player_passed:
            text = who + " is now the first player.";
            break;
        case EventType::influence_awarded:
            text = who + " has the most influence and takes " +
                   plural(event.count, "influence card") + " worth " +
                   std::to_string(event.points) + ", returning " +
                   plural(event.influence, "influence token") + '.';
            break;
        case EventType::influence_postponed:
            text = "Influence is tied: the influence cards stay on the table.";
            break;
        case EventType::game_over:
            text = "The game is over.";
            break;
        case EventType::undone:
            text = who + " takes back " + taken_back(event, visible) + '.';
            break;
    }
    if (event.automatic) text += " (automatic)";
    return text;
}

}  // namespace gcor::engine
