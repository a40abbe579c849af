// Runs the real `cor` binary: output, errors and exit codes as a user sees them.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gcor/protocol/game_json.hpp"

namespace {

using gcor::protocol::Json;

struct Run {
    int code;
    std::string out, err;
};

std::string slurp(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Runs `cor ARGS` with `input` on standard input.
Run cor(const std::string& args, const std::string& input = "") {
    static const std::string dir = [] {
        char pattern[] = "/tmp/cor-test-XXXXXX";
        return std::string(mkdtemp(pattern));
    }();
    std::ofstream(dir + "/in") << input;
    const std::string command =
        std::string(COR_PATH) + " " + args + " <" + dir + "/in >" + dir + "/out 2>" + dir + "/err";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir + "/out"), slurp(dir + "/err")};
}

const std::string kData = GCOR_TEST_DATA;

TEST_CASE("cor: --help lists the commands", "[cli]") {
    const Run run = cor("--help");
    CHECK(run.code == 0);
    for (const char* command : {"score", "simulate", "replay", "analyse"})
        CHECK_THAT(run.out, Catch::Contains(command));
    CHECK(cor("simulate --help").code == 0);
    CHECK_THAT(cor("score --help").out, Catch::Contains("influence_cards"));
}

TEST_CASE("cor: usage errors exit 2", "[cli]") {
    for (const char* args :
         {"", "fly", "simulate --players 5", "simulate --players x", "simulate --bot clever",
          "simulate --rules house", "simulate --games 0", "score a b",
          "simulate --players 3 --bot greedy,random", "simulate --bot strong --bot-ms 0",
          "simulate --bot-ms -5", "simulate --bot-ms x", "simulate --bot-worlds 1000000000"}) {
        INFO(args);
        const Run run = cor(args);
        CHECK(run.code == 2);
        CHECK_FALSE(run.err.empty());
    }
}

TEST_CASE("cor score: the rulebook's example, from a file and from stdin", "[cli]") {
    const Json expected =
        Json::parse(R"({"residential_2":24,"residential_3":14,"residential_4":8,"aqueducts":12,
        "temples":4,"shrine":0,"coins":9,"influence_tokens":1,"influence_cards":3,"total":75})");
    const Run from_file = cor("score " + kData + "/rulebook_city.json");
    REQUIRE(from_file.code == 0);
    CHECK(Json::parse(from_file.out) == expected);
    const Run from_stdin = cor("score -", slurp(kData + "/rulebook_city.json"));
    REQUIRE(from_stdin.code == 0);
    CHECK(Json::parse(from_stdin.out) == expected);
    CHECK(cor("score", slurp(kData + "/rulebook_city.json")).out == from_file.out);
}

TEST_CASE("cor score: bad input is refused on stderr with exit code 2", "[cli]") {
    const std::pair<const char*, const char*> cases[] = {
        {"{", "not valid JSON"},
        {R"({"cells":[{"x":0,"y":0,"building":"castle"}]})", "unknown building"},
        {R"({"cells":[{"x":0,"y":0,"building":"market"},{"x":0,"y":0,"building":"arena"}]})",
         "two buildings"},
        {R"({"cells":[{"x":0,"y":0,"building":"market"},{"x":0,"y":2,"building":"arena"}]})",
         "connected"},
        {R"({"cells":[{"x":0,"y":0,"building":"aqueduct"},{"x":1,"y":0,"building":"aqueduct"}]})",
         "aqueducts"},
        {R"({"cells":[{"x":0,"y":0,"building":"market"}],"coins":-3})", "coins"},
        {R"({"cells":[{"x":0,"y":0,"building":"thermal_baths","tokens":-1}]})", "tokens"},
    };
    for (const auto& [input, says] : cases) {
        INFO(input);
        const Run run = cor("score", input);
        CHECK(run.code == 2);
        CHECK(run.out.empty());
        CHECK_THAT(run.err, Catch::Contains(says));
    }
    const Run missing = cor("score /nonexistent/city.json");
    CHECK(missing.code == 2);
    CHECK_THAT(missing.err, Catch::Contains("cannot read"));
}

TEST_CASE("cor simulate: one complete, replayable record per game, deterministic by seed",
          "[cli]") {
    const Run run = cor("simulate --players 3 --games 4 --seed 9 --bot greedy --shrine");
    REQUIRE(run.code == 0);
    CHECK_THAT(run.err, Catch::Contains("games/s"));
    std::istringstream lines(run.out);
    std::string line;
    int games = 0;
    while (std::getline(lines, line)) {
        const Json record = Json::parse(line);
        CHECK(record["seed"] == 9 + games);
        CHECK(record["options"] == Json::parse(R"({"players":3,"rules":"yucata","shrine":true})"));
        CHECK(record["scores"].size() == 3);
        CHECK_FALSE(record["winners"].empty());
        const Run replayed = cor("replay -", line);
        CHECK(replayed.code == 0);
        CHECK(Json::parse(replayed.out)["scores"] == record["scores"]);
        ++games;
    }
    CHECK(games == 4);
    CHECK(cor("simulate --players 3 --games 4 --seed 9 --bot greedy --shrine").out == run.out);
    CHECK(cor("simulate --players 3 --games 4 --seed 10 --bot greedy --shrine").out != run.out);
}

TEST_CASE("cor simulate: a bot per seat, the greedy bot beats random ones", "[cli]") {
    const Run run =
        cor("simulate --players 4 --games 40 --seed 1 --bot greedy,random,random,random");
    REQUIRE(run.code == 0);
    std::istringstream lines(run.out);
    std::string line;
    int greedy_wins = 0;
    while (std::getline(lines, line)) {
        const Json record = Json::parse(line);  // the loop below must not outlive it
        for (const Json& winner : record["winners"])
            greedy_wins += winner == 0;
    }
    CHECK(greedy_wins >= 30);
}

TEST_CASE("cor simulate: the strong bot, reproducible with --bot-worlds, seats rotated", "[cli]") {
    const std::string args =
        "simulate --players 2 --games 2 --seed 5 --rotate --bot strong,greedy --bot-worlds 2";
    const Run run = cor(args);
    REQUIRE(run.code == 0);
    CHECK_THAT(run.err, Catch::Contains("seats rotated") && Catch::Contains("bot 0 (strong)") &&
                            Catch::Contains("ms per move") && Catch::Contains("mean margin"));
    std::istringstream lines(run.out);
    std::string line;
    int games = 0;
    while (std::getline(lines, line)) {
        const Json record = Json::parse(line);
        CHECK(cor("replay -", line).code == 0);
        CHECK(record["seed"] == 5 + games);
        ++games;
    }
    CHECK(games == 2);
    CHECK(cor(args).out == run.out);
    CHECK_THAT(cor("simulate --help").out, Catch::Contains("--bot-ms") &&
                                               Catch::Contains("--bot-worlds") &&
                                               Catch::Contains("strong"));
    const Run unknown = cor("simulate --bot clever");
    CHECK_THAT(unknown.err, Catch::Contains("random, greedy or strong"));
}

TEST_CASE("cor replay: an illegal move stops with its index and exit code 1", "[cli]") {
    const Run run = cor("simulate --players 2 --games 1 --seed 4 --rules publisher");
    REQUIRE(run.code == 0);
    Json record = Json::parse(run.out);
    record["moves"][5] = "build 0 3,3";
    const Run bad = cor("replay -", record.dump());
    CHECK(bad.code == 1);
    CHECK_THAT(bad.err, Catch::Contains("move 5") && Catch::Contains("build 0 3,3"));

    Json wrong_score = Json::parse(run.out);
    wrong_score["scores"][0]["total"] = 999;
    CHECK(cor("replay -", wrong_score.dump()).code == 1);
}

TEST_CASE("cor replay --log: the game's log in English or German, a line per event", "[cli]") {
    const Run run = cor("simulate --players 3 --games 1 --seed 7");
    REQUIRE(run.code == 0);
    const Run english = cor("replay --log -", run.out);
    const Run german = cor("replay --log --lang de -", run.out);
    REQUIRE(english.code == 0);
    REQUIRE(german.code == 0);
    CHECK_THAT(english.out, Catch::StartsWith("The game begins; Player ") &&
                                Catch::Contains("Round 1 begins.") &&
                                Catch::EndsWith("The game is over.\n"));
    CHECK_THAT(german.out, Catch::StartsWith("Das Spiel beginnt; Spieler ") &&
                               Catch::Contains("Runde 1 beginnt.") &&
                               Catch::EndsWith("Das Spiel ist vorbei.\n"));
    CHECK(std::count(english.out.begin(), english.out.end(), '\n') ==
          std::count(german.out.begin(), german.out.end(), '\n'));
    CHECK(english.out.find('{') == std::string::npos);  // the log instead of the scores
    // A spectator's log: the draft's cards are not named.
    CHECK_THAT(english.out, Catch::Contains("keeps a card from the draft."));
    const Run unknown = cor("replay --log --lang fr -", run.out);
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.err, Catch::Contains("fr"));
}

TEST_CASE("cor replay: a record's seed must match its commitment", "[cli]") {
    const Run run = cor("simulate --players 2 --games 1 --seed 77");
    REQUIRE(run.code == 0);
    Json record = Json::parse(run.out);
    record["nonce"] = "5f3a9c0e1d2b4a6f8e7d6c5b4a392817";
    record["commitment"] = gcor::protocol::seed_commitment(77, record["nonce"].get<std::string>());
    CHECK(record["commitment"].get<std::string>().size() == 64);
    const Run honest = cor("replay -", record.dump());
    CHECK(honest.code == 0);
    CHECK(Json::parse(honest.out)["scores"] == record["scores"]);

    // Another deal than the one committed to (or a nonce that does not fit) is refused.
    Json other_seed = record;
    other_seed["seed"] = 78;
    const Run forged = cor("replay -", other_seed.dump());
    CHECK(forged.code == 1);
    CHECK_THAT(forged.err, Catch::Contains("commitment"));
    Json other_nonce = record;
    other_nonce["nonce"] = "00";
    CHECK(cor("replay -", other_nonce.dump()).code == 1);
    Json no_nonce = record;
    no_nonce.erase("nonce");
    CHECK(cor("replay -", no_nonce.dump()).code == 1);
    // A known commitment of this text, computed independently (printf ... | sha256sum).
    CHECK(gcor::protocol::seed_commitment(1, "ab") ==
          "c79459bef18a4fa5fc535d4557b03271b5ed475aab11204b6903ca2e31948fe3");
}

TEST_CASE("cor replay: a malformed record exits 2", "[cli]") {
    for (const char* input : {"", "[1,2]", R"({"options":{"players":9},"seed":1,"moves":[]})",
                              R"({"options":{"players":2},"seed":1,"moves":["jump"]})",
                              R"({"options":{"players":2},"seed":1,"moves":[],"waited":[0]})",
                              R"({"options":{"players":2},"seed":1,"moves":["draft 3","draft 4"],)"
                              R"("waited":[1,1]})"}) {
        INFO(input);
        const Run run = cor("replay -", input);
        CHECK(run.code == 2);
        CHECK_FALSE(run.err.empty());
    }
}

TEST_CASE("cor analyse: a review of every decision, deterministic by seed and worlds", "[cli]") {
    const Run game = cor("simulate --players 2 --games 1 --seed 12 --bot greedy");
    REQUIRE(game.code == 0);
    const Run run = cor("analyse --worlds 3 --seed 5 -", game.out);
    REQUIRE(run.code == 0);
    const Json review = Json::parse(run.out);
    CHECK(review["version"] == 1);
    CHECK(review["worlds"] == 3);
    CHECK(review["threshold"] == 0.1);
    const Json record = Json::parse(game.out);
    // The yucata rules make the forced moves themselves: every move of the record had a choice.
    REQUIRE(review["decisions"].size() == record["moves"].size());
    for (std::size_t i = 0; i < review["decisions"].size(); ++i) {
        const Json& decision = review["decisions"][i];
        CHECK(decision["move"] == i);
        CHECK(decision["played"] == record["moves"][i]);
        CHECK(decision["seat"].get<int>() < 2);
    }
    REQUIRE(review["players"].size() == 2);
    CHECK(review["players"][0]["decisions"].get<int>() +
              review["players"][1]["decisions"].get<int>() ==
          static_cast<int>(record["moves"].size()));

    const std::string file =
        std::filesystem::temp_directory_path() / ("cor-analyse-" + std::to_string(getpid()));
    std::ofstream(file) << game.out;
    CHECK(cor("analyse --worlds 3 --seed 5 " + file).out == run.out);
    std::filesystem::remove(file);
    CHECK(cor("analyse --worlds 3 --seed 5 -", game.out).out == run.out);
    CHECK(cor("analyse --worlds 3 --seed 6 -", game.out).out != run.out);
    CHECK(cor("analyse --worlds 4 --seed 5 -", game.out).out != run.out);

    // A higher threshold makes fewer mistakes of the same losses.
    const Json lenient =
        Json::parse(cor("analyse --worlds 3 --seed 5 --threshold 0.5 -", game.out).out);
    CHECK(lenient["threshold"] == 0.5);
    int mistakes = 0, lenient_mistakes = 0;
    for (std::size_t i = 0; i < review["decisions"].size(); ++i) {
        CHECK(lenient["decisions"][i]["loss"] == review["decisions"][i]["loss"]);
        mistakes += review["decisions"][i]["mistake"].get<bool>();
        lenient_mistakes += lenient["decisions"][i]["mistake"].get<bool>();
    }
    CHECK(lenient_mistakes < mistakes);
}

TEST_CASE("cor analyse: bad input exits 2, an illegal game 1, with a message", "[cli]") {
    const Run game = cor("simulate --players 2 --games 1 --seed 13 --bot greedy");
    REQUIRE(game.code == 0);
    const std::pair<std::string, std::string> bad[] = {
        {"analyse -", ""},
        {"analyse -", "{"},
        {"analyse -", "[1]"},
        {"analyse -", R"({"options":{"players":2},"seed":1,"moves":["jump"]})"},
        {"analyse /nonexistent/record.json", ""},
        {"analyse", game.out},
        {"analyse --worlds 0 -", game.out},
        {"analyse --worlds 100000 -", game.out},
        {"analyse --worlds x -", game.out},
        {"analyse --threshold 1.5 -", game.out},
        {"analyse --threshold -0.1 -", game.out},
        {"analyse --seed -1 -", game.out},
        {"analyse --depth 3 -", game.out},
    };
    for (const auto& [args, input] : bad) {
        INFO(args << " < " << input.substr(0, 40));
        const Run run = cor(args, input);
        CHECK(run.code == 2);
        CHECK_FALSE(run.err.empty());
        CHECK(run.out.empty());
    }
    Json illegal = Json::parse(game.out);
    illegal["moves"][7] = "build 0 3,3";
    const Run refused = cor("analyse -", illegal.dump());
    CHECK(refused.code == 1);
    CHECK_THAT(refused.err, Catch::Contains("move 7") && Catch::Contains("build 0 3,3"));
    CHECK(refused.out.empty());

    const Run help = cor("analyse --help");
    CHECK(help.code == 0);
    CHECK_THAT(help.out, Catch::Contains("--worlds") && Catch::Contains("--seed") &&
                             Catch::Contains("--threshold") && Catch::Contains("Exit codes"));
}

TEST_CASE("cor analyse: a record with waited turns and a forfeit is reviewed", "[cli]") {
    // A record as the server writes it: every move waited for its player's end move when its
    // turn had nothing else left, and a seat forfeited (the review does not read forfeits).
    gcor::engine::State state =
        gcor::engine::Rules::make({3, gcor::engine::Variant::yucata, false})->new_game(21);
    gcor::protocol::GameRecord record;
    record.options = state.options;
    record.seed = 21;
    record.forfeited = state.forfeited = 0b010;
    gcor::engine::Rng rng(21);
    while (!state.over()) {
        const auto seat = state.to_act();
        const auto legal = state.legal_moves(seat);
        record.moves.push_back(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
        REQUIRE(state.apply(seat, record.moves.back(), nullptr, true) ==
                gcor::engine::MoveError::none);
        if (state.turn_waits_for_end()) record.waited.push_back(record.moves.size() - 1);
    }
    REQUIRE_FALSE(record.waited.empty());
    const Run run =
        cor("analyse --worlds 1 -", gcor::protocol::record_to_json(record, &state).dump());
    REQUIRE(run.code == 0);
    const Json review = Json::parse(run.out);
    // The end moves of waiting turns had no choice.
    CHECK(review["decisions"].size() == record.moves.size() - record.waited.size());
    CHECK(review["players"].size() == 3);
}

}  // namespace
