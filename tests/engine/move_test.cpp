#include <catch2/catch.hpp>

#include <string>

#include "gcor/engine/move.hpp"

namespace gcor::engine {
namespace {

TEST_CASE("move: text form round-trips", "[move]") {
    const Move moves[] = {
        Move::draft(17),
        Move::place(4),
        Move::take(0),
        Move::build(23, -2, 3),
        Move::produce(),
        Move::end_turn(),
        Move::school_deck(3),
        Move::school_keep(40, {41, 39, kNoCard, kNoCard}),
        Move::school_keep(40, {kNoCard, kNoCard, kNoCard, kNoCard}),
    };
    for (const Move& move : moves) {
        INFO(move.to_string());
        const auto parsed = Move::parse(move.to_string());
        REQUIRE(parsed);
        CHECK(*parsed == move);
    }
    CHECK(Move::build(23, -2, 3).to_string() == "build 23 -2,3");
    CHECK(Move::school_deck(1).to_string() == "school II");
    CHECK(Move::school_keep(40, {41, 39, kNoCard, kNoCard}).to_string() == "keep 40 41,39");
}

// Patches write the legal moves' texts straight into the message.
TEST_CASE("move: append_text appends what to_string makes, up to the widest numbers", "[move]") {
    const Move moves[] = {Move::place(255),
                          Move::build(kCardCount - 1, -128, 127),
                          Move::build(0, 0, -1),
                          Move::school_keep(40, {41, 39, 38, 37}),
                          Move::school_deck(kDeckCount),
                          Move{}};
    for (const Move& move : moves) {
        std::string out = "before|";
        move.append_text(out);
        CHECK(out == "before|" + move.to_string());
    }
    CHECK(Move::place(255).to_string() == "place 255");
    CHECK(Move::build(kCardCount - 1, -128, 127).to_string() ==
          "build " + std::to_string(kCardCount - 1) + " -128,127");
    CHECK(Move::school_keep(40, {41, 39, 38, 37}).to_string() == "keep 40 41,39,38,37");
    CHECK(Move::school_deck(kDeckCount).to_string() == "school ?");
    CHECK(Move{}.to_string() == "invalid");
}

TEST_CASE("move: malformed text is refused", "[move]") {
    const char* bad[] = {"",
                         "build",
                         "build 1",
                         "build 1 1",
                         "build 1 1,2,3",
                         "build 90 1,1",
                         "build 1 1,",
                         "draft -1",
                         "draft",
                         "place 1 2",
                         "keep 1 2,,3",
                         "keep 1 2,3,4,5,6",
                         "keep 1 2 3",
                         "end end end end",
                         "keep 1 2,3,4,5,6,7,8,9,10,11,12",
                         "produce now",
                         " end",
                         "end ",
                         "school V",
                         "school 2",
                         "take 1.0",
                         "take +1",
                         "take 1x",
                         "Build 1 0,0",
                         "end\n",
                         "place 256",
                         "build 1 200,0"};
    for (const char* text : bad) {
        INFO('"' << text << '"');
        CHECK_FALSE(Move::parse(text));
    }
}

// A move's text is the one to_string makes: views list the legal moves as text, and a move must
// equal one of them, so another spelling of the same move is refused.
TEST_CASE("move: only the canonical text parses (no leading zeros, no minus zero)", "[move]") {
    const char* spellings[] = {"place 01",      "place 00",      "draft 017",     "take 00",
                               "build 31 0,01", "build 31 00,1", "build 31 -0,1", "build 31 -01,1",
                               "build 017 1,0", "keep 040",      "keep 40 041",   "keep 40 41,039"};
    for (const char* text : spellings) {
        INFO('"' << text << '"');
        CHECK_FALSE(Move::parse(text));
    }
    for (const char* text :
         {"place 0", "take 0", "build 31 0,-1", "build 0 -10,10", "keep 40 41,39"}) {
        INFO('"' << text << '"');
        const auto parsed = Move::parse(text);
        REQUIRE(parsed);
        CHECK(parsed->to_string() == text);
    }
}

TEST_CASE("move: order sorts by type, then card, then row and column", "[move]") {
    CHECK(Move::draft(5) < Move::place(0));
    CHECK(Move::build(3, 5, 0) < Move::build(4, 0, 0));
    CHECK(Move::build(3, 5, 0) < Move::build(3, 0, 1));
    CHECK(Move::build(3, 0, 1) < Move::produce());
    CHECK(Move::produce() < Move::end_turn());
    CHECK(MoveHash{}(Move::build(3, 0, 1)) != MoveHash{}(Move::build(3, 1, 0)));
}

}  // namespace
}  // namespace gcor::engine
