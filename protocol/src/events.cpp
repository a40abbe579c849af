#include "gcor/protocol/events.hpp"

#include "gcor/protocol/json_text.hpp"

namespace gcor::protocol {
namespace {

using engine::Event;
using engine::EventType;

// The members of one event object, written in order; numbers that are 0 are left out where the
// kind makes them optional.
class EventWriter {
public:
    EventWriter(std::string& out, std::string_view kind) : out_(out) {
        out_ += R"({"e":")";
        out_ += kind;
        out_ += '"';
    }
    EventWriter& number(std::string_view key, int value) {
        member(key);
        append_json_number(out_, value);
        return *this;
    }
    EventWriter& optional(std::string_view key, int value) {
        return value == 0 ? *this : number(key, value);
    }
    EventWriter& text(std::string_view key, std::string_view value) {
        member(key);
        out_ += '"';
        out_ += value;  // ids and cells: nothing to escape
        out_ += '"';
        return *this;
    }
    EventWriter& cell(int x, int y) {
        member("cell");
        out_ += '"';
        append_json_number(out_, x);
        out_ += ',';
        append_json_number(out_, y);
        out_ += '"';
        return *this;
    }
    void close(bool automatic) {
        if (automatic) out_ += R"(,"auto":1)";
        out_ += '}';
    }

private:
    void member(std::string_view key) {
        out_ += R"(,")";
        out_ += key;
        out_ += R"(":)";
    }
    std::string& out_;
};

std::string_view undone_id(engine::MoveType type) {
    switch (type) {
        case engine::MoveType::take:
            return "take";
        case engine::MoveType::build:
            return "build";
        case engine::MoveType::produce:
            return "produce";
        case engine::MoveType::school_keep:
            return "keep";
        default:
            return "move";
    }
}

std::string_view kind_id(EventType type) {
    switch (type) {
        case EventType::game_started:
            return "start";
        case EventType::drafted:
            return "draft";
        case EventType::round_started:
            return "round";
        case EventType::offer_drawn:
            return "offer";
        case EventType::influence_card_revealed:
            return "reveal";
        case EventType::emissary_placed:
            return "place";
        case EventType::turn_started:
            return "turn";
        case EventType::card_taken:
            return "take";
        case EventType::built:
            return "build";
        case EventType::produced:
            return "produce";
        case EventType::school_drew:
            return "school";
        case EventType::school_kept:
            return "keep";
        case EventType::turn_ended:
            return "end";
        case EventType::first_player_passed:
            return "first";
        case EventType::influence_awarded:
            return "influence";
        case EventType::influence_postponed:
            return "tie";
        case EventType::game_over:
            return "over";
        case EventType::undone:
            return "undo";
        case EventType::timed_out:
            return "timeout";
    }
    return "unknown";
}

}  // namespace

void append_event_json(std::string& out, const Event& event, std::optional<engine::Seat> viewer) {
    EventWriter writer(out, kind_id(event.type));
    const bool card_known = event.card != engine::kNoCard && event.visible_to(viewer);
    const auto card = [&] {
        if (card_known) writer.number("card", event.card);
    };
    switch (event.type) {
        case EventType::round_started:
            writer.number("round", event.count);
            break;
        case EventType::offer_drawn:
            card();
            writer.number("deck", event.index);
            break;
        case EventType::influence_card_revealed:
            card();
            break;
        case EventType::influence_postponed:
        case EventType::game_over:
            break;
        default:
            writer.number("seat", event.seat);
            break;
    }
    switch (event.type) {
        case EventType::drafted:
        case EventType::card_taken:
            card();
            break;
        case EventType::emissary_placed:
            writer.number("space", event.index);
            break;
        case EventType::turn_started:  // the view's `turn` says which emissary
            writer.number("bricks", event.bricks).number("cogs", event.cogs);
            break;
        case EventType::built:
            card();
            writer.cell(event.x, event.y);
            if (event.other != engine::kNoCard) writer.number("replaced", event.other);
            writer.optional("tokens", event.brick_tokens)
                .optional("bought", event.coins_paid / 2)
                .optional("paid", event.coins_paid)
                .optional("coins", event.coins_gained)
                .optional("influence", event.influence)
                .optional("points", event.point_tokens);
            break;
        case EventType::produced:
            writer.optional("bought", event.coins_paid)  // a cog a coin
                .optional("coins", event.coins_gained)
                .optional("influence", event.influence)
                .optional("tokens", event.brick_tokens);
            break;
        case EventType::school_drew:
            writer.number("deck", event.index).number("drew", event.count);
            break;
        case EventType::school_kept:
            card();
            writer.number("deck", event.index).number("under", event.count);
            break;
        case EventType::influence_awarded:
            writer.number("cards", event.count).number("points", event.points);
            writer.number("returned", event.influence);
            break;
        case EventType::undone:
            writer.text("move", undone_id(event.undone));
            card();
            if (event.undone == engine::MoveType::build) writer.cell(event.x, event.y);
            break;
        default:
            break;
    }
    writer.close(event.automatic);
}

void append_events_json(std::string& out, std::span<const Event> events,
                        std::optional<engine::Seat> viewer) {
    out += '[';
    for (const Event& event : events) {
        if (&event != events.data()) out += ',';
        append_event_json(out, event, viewer);
    }
    out += ']';
}

Json events_json(std::span<const Event> events, std::optional<engine::Seat> viewer) {
    std::string text;
    append_events_json(text, events, viewer);
    return Json::parse(text);
}

}  // namespace gcor::protocol
