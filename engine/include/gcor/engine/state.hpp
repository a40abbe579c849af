#pragma once
// The whole game as one copyable value: copying a State is a clone. `{options, seed, moves}`
// replays a game exactly because the state carries its own generator.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gcor/engine/cards.hpp"
#include "gcor/engine/city.hpp"
#include "gcor/engine/event.hpp"
#include "gcor/engine/move.hpp"
#include "gcor/engine/rng.hpp"
#include "gcor/engine/score.hpp"
#include "gcor/engine/static_vector.hpp"
#include "gcor/engine/strips.hpp"

namespace gcor::engine {

inline constexpr int kMaxPlayers = 4;

enum class Variant : std::uint8_t { yucata, publisher };
std::string_view variant_id(Variant variant);
std::optional<Variant> variant_from_id(std::string_view id);

struct Options {
    int players = 4;
    Variant variant = Variant::yucata;
    bool shrine = false;

    friend bool operator==(const Options&, const Options&) = default;
};

enum class Phase : std::uint8_t { draft, emissaries, actions, game_over };
// The steps of one action turn.
enum class Step : std::uint8_t { take_card, main, school_deck, school_keep };

// Why a move is refused. Each has a stable code (error_code) for the protocol.
enum class MoveError : std::uint8_t {
    none,
    malformed_move,
    game_over,
    not_your_turn,
    wrong_phase,
    card_not_available,
    bad_space,
    space_taken,
    unreasonable_space,
    already_built,
    already_produced,
    bad_cell,
    cell_occupied,
    not_adjacent,
    city_too_large,
    aqueduct_conflict,
    not_enough_coins,
    pointless_produce,
    bad_deck,
    bad_keep,
    bad_order,
};
std::string_view error_code(MoveError error);
std::string_view error_message(MoveError error);

struct HandCard {
    CardId card = kNoCard;
    std::uint8_t known_to = 0;  // bit per seat that knows this card (its owner always does)

    friend bool operator==(const HandCard&, const HandCard&) = default;
};

struct Player {
    City city;
    static constexpr std::size_t kHandCapacity = 24;
    StaticVector<HandCard, kHandCapacity> hand;  // sorted by card id
    int coins = 5;
    int influence = 0;  // tokens
    StaticVector<CardId, 6> influence_cards;

    int influence_points() const;
    Holdings holdings() const { return {coins, influence, influence_points()}; }
    bool holds(CardId card) const;
    void add_to_hand(CardId card, std::uint8_t known_to);
    void remove_from_hand(CardId card);

    friend bool operator==(const Player&, const Player&) = default;
};

// What a build costs beyond the strip's bricks.
struct BuildCost {
    int brick_tokens = 0;
    int coins = 0;
};
BuildCost build_cost(Kind kind, int strip_bricks, int brick_tokens);
inline BuildCost build_cost(const Player& player, Kind kind, int strip_bricks) {
    return build_cost(kind, strip_bricks, player.city.brick_tokens());
}
// Where `kind` may go in this city, ignoring cost; MoveError::none when it may.
MoveError placement_error(const City& city, Kind kind, int x, int y);
// Builds on one player's own data: pays, places, and takes the immediate effects. Shared by the
// engine and by bots that estimate their own moves. Fills the build fields of `event`; returns
// how many cards a school (or university) draws, 0 for other buildings.
int build_on(Player& player, CardId card, int x, int y, int strip_bricks, Event& event);
// Coins a produce costs (missing cogs) and whether the yucata restriction allows it.
int produce_cost(int strip_cogs);
bool produce_worthwhile(const Player& player, int strip_cogs);
void produce_on(Player& player, int strip_cogs, Event& event);

struct Turn {
    Seat seat = kNoSeat;
    std::uint8_t space = 0;
    std::uint8_t bricks = 0;
    std::uint8_t cogs = 0;
    bool took = false;
    bool built = false;
    bool produced = false;

    friend bool operator==(const Turn&, const Turn&) = default;
};

struct SchoolDraw {
    std::uint8_t size = 0;  // cards the school may draw
    std::uint8_t deck = 0;
    StaticVector<CardId, 5> cards;  // drawn, sorted by card id

    friend bool operator==(const SchoolDraw&, const SchoolDraw&) = default;
};

struct State {
    Options options;
    Rng rng;
    Phase phase = Phase::draft;
    Step step = Step::take_card;
    std::uint8_t round = 0;
    Seat first_player = 0;
    std::array<StaticVector<CardId, 24>, kDeckCount> decks;  // back() is the top card
    StaticVector<CardId, 4> offer;                           // sorted by card id
    StaticVector<CardId, 6> influence_on_table;
    std::array<StripSide, kStripCount> strips;  // strips[0] is the strip in play
    std::array<Seat, kStripSpaces> spaces{kNoSeat, kNoSeat, kNoSeat, kNoSeat,
                                          kNoSeat};  // emissaries on the strip in play
    StaticVector<Seat, 4> placement_order;
    std::uint8_t placed = 0;
    StaticVector<Seat, 4> draft_order;
    std::uint8_t drafted = 0;
    StaticVector<CardId, 4> packet;  // the draft cards in the drafter's hands, sorted
    Turn turn;
    SchoolDraw school;
    std::array<Player, kMaxPlayers> players;
    // A bit per seat that forfeited (its time ran out): it plays on by bot and never wins.
    std::uint8_t forfeited = 0;

    int player_count() const { return options.players; }
    int rounds() const { return options.players == 2 ? 7 : 14; }
    int decks_in_play() const { return options.players == 2 ? 2 : options.players; }
    bool over() const { return phase == Phase::game_over; }
    // The seat that must move now, kNoSeat when the game is over.
    Seat to_act() const;

    // Every legal move of `seat`, sorted; empty when it is not that seat's turn.
    std::vector<Move> legal_moves(Seat seat) const;
    // The same into a reused buffer, for the seat to act.
    void legal_moves(std::vector<Move>& out) const;
    MoveError check(Seat seat, const Move& move) const;
    // Applies a legal move and appends what it caused to `events` (if given); a refused move
    // changes nothing. In the yucata rules, forced moves that follow are made too, but for the
    // end of the mover's action turn when `waits_for_end`: its player ends it (docs/rules.md,
    // "Taking moves back"), so the move stays undoable until then.
    MoveError apply(Seat seat, const Move& move, std::vector<Event>* events = nullptr,
                    bool waits_for_end = false);
    // Whether the seat to act has nothing left but to end its action turn, which the yucata
    // rules would have ended but a move made with `waits_for_end` held.
    bool turn_waits_for_end() const;

    // The final scoring of the seat's city and holdings. During play it is the running score,
    // the points as if the game ended now: it reads only what every seat sees (docs/rules.md,
    // "Running score"), never the hand, whose cards score nothing until they are built.
    ScoreBreakdown final_score(Seat seat) const {
        return score(players[seat].city, players[seat].holdings());
    }
    // The winners by points, then influence tokens, then coins, among the seats that did not
    // forfeit; several when still tied.
    std::vector<Seat> winners() const;
    // Each seat's place (1 = first) by the same order as winners(); tied seats share the better
    // place (1, 2, 2, 4), and forfeited seats share the place after everyone else.
    std::vector<int> places() const;

    // Whether the state is internally consistent: no card in two places, each card where its
    // kind may be, seats and counters in range, the phase and step matching whose turn
    // it is, no negative resources. Asserted after every change (as Stockfish's pos_is_ok), so a
    // rule that breaks the state fails where it breaks it; tests that edit fields can call it.
    bool ok() const;

    friend bool operator==(const State&, const State&) = default;

  private:
    friend class Rules;
    void setup(std::uint64_t seed, std::vector<Event>* events);
    MoveError check_draft(const Move& move) const;
    MoveError check_emissary(const Move& move) const;
    MoveError check_action(const Move& move) const;
    MoveError check_build(const Move& move) const;
    MoveError check_produce() const;
    MoveError check_school_keep(const Move& move) const;
    bool space_reasonable(int space) const;
    bool school_deck_eligible(int deck) const;
    std::optional<Move> only_legal_move() const;

    void apply_legal(const Move& move, std::vector<Event>* events, bool automatic);
    void apply_draft(const Move& move, std::vector<Event>* events, bool automatic);
    void apply_emissary(const Move& move, std::vector<Event>* events, bool automatic);
    void apply_action(const Move& move, std::vector<Event>* events, bool automatic);
    void start_round(std::vector<Event>* events);
    void draw_offer(std::vector<Event>* events);
    void start_next_turn(std::vector<Event>* events);
    void end_round(std::vector<Event>* events);
    void score_influence(std::vector<Event>* events);
    // `hold_end`: stop before ending the action turn under way.
    void make_automatic_moves(std::vector<Event>* events, bool hold_end = false);
};

// Immutable table options that make new games.
class Rules {
  public:
    // nullopt with a reason in `error` when the options are not a game we can play.
    static std::optional<Rules> make(const Options& options, std::string* error = nullptr);
    const Options& options() const { return options_; }
    State new_game(std::uint64_t seed, std::vector<Event>* events = nullptr) const;

  private:
    explicit Rules(const Options& options) : options_(options) {}
    Options options_;
};

// A hash of everything in the state, stable across platforms: for golden signatures.
std::uint64_t state_hash(const State& state);

}  // namespace gcor::engine
