// Tournaments at the full size through the real server (docs/tournaments.md): an 8-player
// Swiss of 3 rounds at tables of 4 and a 9-player knockout at tables of 3, played over WebSocket
// by registered users and guests who registered, the server killed (kill -9) between rounds 1
// and 2, the round mails read from an SMTP relay; and two servers on one PostgreSQL database whose
// sweeps race to start a tournament and to pair its rounds.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "mail_support.hpp"
#include "postgres_support.hpp"
#include "tournament_support.hpp"

namespace gcor::testing {
namespace {

constexpr const char* kTourneySite = "http://games.example.org";

// A server's arguments: its store's, then `extra`.
using TourneyArgs = std::function<std::vector<std::string>(const std::vector<std::string>& extra)>;

std::vector<std::string> tourney_mail_args(const SmtpRelay& relay,
                                           std::vector<std::string> extra = {}) {
    std::vector<std::string> args{
        "--smtp-url",   relay.url(),  "--smtp-from",  "Rome <noreply@games.example.org>",
        "--public-url", kTourneySite, "--mail-delay", "0",
        "--mail-retry", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::string tourney_address(const TourneyPlayer& player) {
    std::string local = player.name;
    std::transform(local.begin(), local.end(), local.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return local + "@example.org";
}

// Registered users, every other one a guest first; all connected.
std::vector<TourneyPlayer> tourney_field(const ServerProcess& server,
                                         const std::vector<std::string>& names) {
    std::vector<TourneyPlayer> players;
    for (std::size_t i = 0; i < names.size(); ++i)
        players.push_back(tourney_player(server, names[i], i % 2 == 1));
    return players;
}

// Gives each player a confirmed address, by the link mailed to it.
void tourney_confirm_addresses(const ServerProcess& server, const SmtpRelay& relay,
                               std::vector<TourneyPlayer>& players) {
    const std::size_t before = relay.mails().size();
    for (const TourneyPlayer& player : players)
        REQUIRE(
            server.post("/api/email", Json{{"email", tourney_address(player)}}.dump(), player.token)
                .first == 200);
    const std::vector<Mail> mails = relay.wait_for(before + players.size());
    REQUIRE(mails.size() == before + players.size());
    const std::string confirm = std::string(kTourneySite) + "/api/email/confirm?token=";
    for (std::size_t i = before; i < mails.size(); ++i)
        REQUIRE(
            server.get(link_in(mails[i].text, confirm).substr(std::strlen(kTourneySite))).first ==
            200);
}

// A round mail of the tournament: its round, its addressee and its text (lines joined).
struct TourneyRoundMail {
    int round = 0;
    std::string to;
    std::string text;
};

std::vector<TourneyRoundMail> tourney_round_mails(const SmtpRelay& relay,
                                                  const std::string& tournament) {
    std::vector<TourneyRoundMail> found;
    for (const Mail& mail : relay.mails()) {
        std::string text;
        for (const char c : mail.text)
            if (c == '\n' || c == '\r') {
                if (!text.empty() && text.back() != ' ') text += ' ';
            } else {
                text += c;
            }
        const auto at = text.find(" of the tournament " + tournament + " has been paired.");
        const auto round_at = text.rfind("Round ", at);
        if (at == std::string::npos || round_at == std::string::npos) continue;
        found.push_back(
            TourneyRoundMail{std::stoi(text.substr(round_at + 6)), mail.header("To"), text});
    }
    return found;
}

// Each seated player of each round got exactly one round mail, naming its table; nobody else
// got one (a player knocked out hears of no later round).
void tourney_check_round_mails(const SmtpRelay& relay, const std::string& tournament,
                               const Json& detail,
                               const std::map<std::uint64_t, TourneyPlayer*>& by_id) {
    std::size_t seated = 0;
    for (const Json& round : detail["rounds"])
        for (const Json& table : round["tables"])
            seated += table["seats"].size();
    for (int tries = 0; tries < 500 && tourney_round_mails(relay, tournament).size() < seated;
         ++tries)
        std::this_thread::sleep_for(20ms);
    const std::vector<TourneyRoundMail> mails = tourney_round_mails(relay, tournament);
    CHECK(mails.size() == seated);
    for (const Json& round : detail["rounds"])
        for (const Json& table : round["tables"])
            for (const Json& seat : table["seats"]) {
                const std::string to = tourney_address(*by_id.at(seat["user"]));
                INFO("round " << round["number"] << ", " << to);
                const auto mail = std::find_if(mails.begin(), mails.end(), [&](const auto& m) {
                    return m.round == round["number"] && m.to == to;
                });
                REQUIRE(mail != mails.end());
                CHECK(std::count_if(mails.begin(), mails.end(), [&](const auto& m) {
                          return m.round == round["number"] && m.to == to;
                      }) == 1);
                CHECK(mail->text.find("/#/table/" + table["table"].get<std::string>()) !=
                      std::string::npos);
            }
}

// Each seated player of `round` is told of its table on its connection.
void tourney_check_told(const Json& round, const std::map<std::uint64_t, TourneyPlayer*>& by_id) {
    for (const Json& table : round["tables"])
        for (const Json& seat : table["seats"]) {
            const auto told = by_id.at(seat["user"])
                                  ->client->wait_for(
                                      [&](const Json& m) {
                                          return type_of(m) == "tournament_table" &&
                                                 m["table"]["id"] == table["table"];
                                      },
                                      10s);
            INFO(seat["name"] << " is told of table " << table["table"]);
            REQUIRE(told);
            CHECK((*told)["table"]["tournament"]["round"] == round["number"]);
        }
}

// A finished table's result as its players saw it at the end: per user, its place and score.
using TourneyResult = std::map<std::uint64_t, std::pair<int, int>>;

TourneyResult tourney_result(const std::map<std::uint64_t, TourneyPlayer*>& by_id,
                             const Json& table) {
    const Json& first = table["seats"][0];
    const Json last = table_snapshot(*by_id.at(first["user"])->client, table["table"]);
    REQUIRE(last["summary"]["status"] == "finished");
    const Json& result = last["summary"]["result"];
    TourneyResult places;
    for (std::size_t seat = 0; seat < table["seats"].size(); ++seat)
        places[table["seats"][seat]["user"]] = {result["places"][seat].get<int>(),
                                                result["scores"][seat]["total"].get<int>()};
    return places;
}

// What a tournament of the story is.
struct TourneyPlan {
    std::string name;
    std::string format;
    int per_table = 0;
    int rounds = 0;  // a Swiss tournament's
    std::vector<std::string> players;
};

// What the story saw: the finished tournament's detail and each table's result by its id.
struct TourneyPlayed {
    Json detail;
    std::map<std::string, TourneyResult> results;
};

// The plan's players sign up (all with confirmed addresses) and its creator starts it; the tables
// of each round are played out. The first server's sweep is held back for an hour, so that once
// round 1 has finished the server is killed before it pairs round 2; the restarted server, whose
// sweep comes every 2 s (time for the players to reconnect), pairs the rest.
TourneyPlayed tourney_full_story(const TourneyArgs& args, const SmtpRelay& relay,
                                 const TourneyPlan& plan) {
    auto server = std::make_unique<ServerProcess>(
        args(tourney_mail_args(relay, {"--tournament-sweep-ms", "3600000"})));
    std::vector<TourneyPlayer> players = tourney_field(*server, plan.players);
    std::map<std::uint64_t, TourneyPlayer*> by_id;
    for (TourneyPlayer& player : players)
        by_id[player.id] = &player;
    tourney_confirm_addresses(*server, relay, players);

    Json create{{"name", plan.name},
                {"format", plan.format},
                {"players_per_table", plan.per_table},
                {"time_control", {{"kind", "correspondence"}, {"days", 3}}}};
    if (plan.rounds > 0) create["rounds"] = plan.rounds;
    const auto made = server->post("/api/tournaments", create.dump(), players[0].token);
    REQUIRE(made.first == 201);
    const std::string path = "/api/tournaments/" + std::to_string(api_body(made)["id"].get<int>());
    for (const TourneyPlayer& player : players)
        REQUIRE(server->post(path + "/join", "{}", player.token).first == 200);
    const auto start = server->post(path + "/start", "{}", players[0].token);
    REQUIRE(start.first == 200);

    TourneyPlayed played{api_body(start), {}};
    engine::Rng rng(45);
    for (std::size_t round = 1;; ++round) {
        REQUIRE(played.detail["rounds"].size() == round);
        const Json paired = played.detail["rounds"][round - 1];
        CHECK(paired["number"] == round);
        tourney_check_told(paired, by_id);
        for (const Json& table : paired["tables"]) {
            tourney_play(by_id, table, rng);
            played.results[table["table"]] = tourney_result(by_id, table);
        }
        if (round == 1) {
            // Round 1 is over and round 2 not paired: the server dies here.
            const Json held = api_body(server->get(path));
            REQUIRE(held["rounds"].size() == 1);
            CHECK(held["status"] == "running");
            server->kill_hard();
            server = std::make_unique<ServerProcess>(
                args(tourney_mail_args(relay, {"--tournament-sweep-ms", "2000"})));
            for (TourneyPlayer& player : players)
                tourney_connect(*server, player);
        }
        played.detail = tourney_detail_when(*server, path, [&](const Json& detail) {
            return detail["status"] == "finished" || detail["rounds"].size() > round;
        });
        if (played.detail["status"] == "finished") break;
    }
    // Every seat's place and score in the detail are what its table showed its players.
    for (const Json& round : played.detail["rounds"])
        for (const Json& table : round["tables"]) {
            CHECK(table["status"] == "finished");
            const TourneyResult& result = played.results.at(table["table"]);
            for (const Json& seat : table["seats"]) {
                const auto [place, score] = result.at(seat["user"]);
                CHECK(seat["place"] == place);
                CHECK(seat["score"] == score);
                CHECK(seat["forfeited"] == false);
                // Points by place, as the tournament lists them (a tie shares the better place).
                CHECK(seat["points"] ==
                      played.detail["points"][static_cast<std::size_t>(place - 1)]);
            }
        }
    tourney_check_round_mails(relay, plan.name, played.detail, by_id);
    // Nobody was told of a round twice: the round's tables were paired once.
    for (TourneyPlayer& player : players)
        CHECK_FALSE(player.client->wait_for(
            [](const Json& m) { return type_of(m) == "tournament_table"; }, 1ms));
    return played;
}

const TourneyPlan kTourneySwiss{
    "Saturnalia Swiss",
    "swiss",
    4,
    3,
    {"Aelia", "Brutus", "Cassia", "Decimus", "Eppia", "Flavius", "Gaia", "Horatius"}};

// The Swiss's own promises, on the tournament the story played.
void tourney_check_swiss(const TourneyPlayed& played) {
    const Json& detail = played.detail;
    REQUIRE(detail["rounds"].size() == 3);
    CHECK(detail["rounds_planned"] == 3);
    // Meetings: none repeat in round 1. Eight players at two tables of 4 cannot avoid repeats
    // after that; the pairing seats the fewest repeat meetings (docs/tournaments.md): in round 2
    // two of each first-round table at each table (4), and in round 3 the only grouping with
    // fewer is none: each pair that sits together again counts its earlier meetings (8).
    std::map<std::pair<std::uint64_t, std::uint64_t>, int> met;
    const int fewest[] = {0, 4, 8};
    for (std::size_t r = 0; r < 3; ++r) {
        const Json& round = detail["rounds"][r];
        CHECK(round["byes"].empty());
        REQUIRE(round["tables"].size() == 2);
        std::set<std::uint64_t> seated;
        int repeats = 0;
        std::vector<std::vector<std::uint64_t>> tables;
        for (const Json& table : round["tables"]) {
            CHECK(table["seats"].size() == 4);
            tables.emplace_back();
            for (const Json& seat : table["seats"]) {
                seated.insert(seat["user"].get<std::uint64_t>());
                tables.back().push_back(seat["user"]);
            }
            for (std::size_t i = 0; i < tables.back().size(); ++i)
                for (std::size_t j = i + 1; j < tables.back().size(); ++j) {
                    const auto pair = std::minmax(tables.back()[i], tables.back()[j]);
                    repeats += met.contains(pair) ? met.at(pair) : 0;
                }
        }
        CHECK(seated.size() == 8);
        CHECK(repeats == fewest[r]);
        for (const auto& table : tables)
            for (std::size_t i = 0; i < table.size(); ++i)
                for (std::size_t j = i + 1; j < table.size(); ++j)
                    ++met[std::minmax(table[i], table[j])];
    }
    // So over the three rounds everybody met everybody.
    CHECK(met.size() == 28);

    // The standings, worked out here: points by place, Buchholz the opponents' points (once per
    // meeting), the sum of game scores; ranked by these three.
    std::map<std::uint64_t, int> points;
    std::map<std::uint64_t, int> scores;
    std::map<std::uint64_t, std::vector<std::uint64_t>> opponents;
    for (const auto& [table, result] : played.results)
        for (const auto& [user, place_score] : result) {
            points[user] +=
                detail["points"][static_cast<std::size_t>(place_score.first - 1)].get<int>();
            scores[user] += place_score.second;
            for (const auto& [other, unused] : result)
                if (other != user) opponents[user].push_back(other);
        }
    REQUIRE(detail["standings"].size() == 8);
    std::tuple<int, int, int> previous{1'000'000, 0, 0};
    for (const Json& row : detail["standings"]) {
        const std::uint64_t user = row["user"];
        int buchholz = 0;
        for (const std::uint64_t opponent : opponents[user])
            buchholz += points[opponent];
        INFO(row.dump());
        CHECK(row["points"] == points[user]);
        CHECK(row["buchholz"] == buchholz);
        CHECK(row["score_sum"] == scores[user]);
        CHECK(row["games"] == 3);
        const std::tuple<int, int, int> merit{points[user], buchholz, scores[user]};
        CHECK(merit <= previous);
        previous = merit;
    }
    CHECK(detail["standings"][0]["rank"] == 1);
}

}  // namespace

TEST_CASE("tournaments at full size: an 8-player Swiss of 3 rounds, killed between rounds",
          "[tournament][server]") {
    const Database db;
    const SmtpRelay relay;
    tourney_check_swiss(
        tourney_full_story([&](const std::vector<std::string>& extra) { return db.args(extra); },
                           relay, kTourneySwiss));
}

TEST_CASE(
    "tournaments at full size on PostgreSQL: an 8-player Swiss of 3 rounds, killed "
    "between rounds",
    "[tournament][server][postgres]") {
    const std::string url = PostgresServer::shared().create_database();
    const SmtpRelay relay;
    tourney_check_swiss(tourney_full_story(
        [&](const std::vector<std::string>& extra) {
            std::vector<std::string> args = kFast;
            args.insert(args.end(), {"--database", url});
            args.insert(args.end(), extra.begin(), extra.end());
            return args;
        },
        relay, kTourneySwiss));
}

TEST_CASE("tournaments at full size: a 9-player knockout at tables of 3, killed between rounds",
          "[tournament][server]") {
    const Database db;
    const SmtpRelay relay;
    const TourneyPlan plan{"Ludi Knockout",
                           "knockout",
                           3,
                           0,
                           {"Appius", "Blandina", "Crispus", "Domitia", "Ennius", "Fausta",
                            "Gallus", "Hortensia", "Iulius"}};
    const TourneyPlayed played = tourney_full_story(
        [&](const std::vector<std::string>& extra) { return db.args(extra); }, relay, plan);
    const Json& detail = played.detail;
    REQUIRE(detail["rounds"].size() == 2);
    CHECK(detail["rounds_planned"] == 2);
    std::map<std::uint64_t, int> seed;
    for (const Json& player : detail["players"])
        seed[player["user"]] = player["seed"];
    // The winner of a table: its first place; of two tied, the better seed.
    auto winner_of = [&](const Json& table) {
        const TourneyResult& result = played.results.at(table["table"]);
        const auto best = std::min_element(result.begin(), result.end(), [&](auto& a, auto& b) {
            return std::pair(a.second.first, seed.at(a.first)) <
                   std::pair(b.second.first, seed.at(b.first));
        });
        return best->first;
    };
    // Round 1: everybody at three tables of 3; the final: their winners.
    const Json& first = detail["rounds"][0];
    REQUIRE(first["tables"].size() == 3);
    CHECK(first["byes"].empty());
    std::set<std::uint64_t> seated;
    std::set<std::uint64_t> winners;
    for (const Json& table : first["tables"]) {
        CHECK(table["seats"].size() == 3);
        for (const Json& seat : table["seats"])
            seated.insert(seat["user"].get<std::uint64_t>());
        winners.insert(winner_of(table));
    }
    CHECK(seated.size() == 9);
    const Json& final_round = detail["rounds"][1];
    REQUIRE(final_round["tables"].size() == 1);
    CHECK(final_round["byes"].empty());
    std::set<std::uint64_t> finalists;
    for (const Json& seat : final_round["tables"][0]["seats"])
        finalists.insert(seat["user"].get<std::uint64_t>());
    CHECK(finalists == winners);
    // Finished: the final's winner first, everybody else eliminated.
    CHECK(detail["status"] == "finished");
    const std::uint64_t champion = winner_of(final_round["tables"][0]);
    REQUIRE(detail["standings"].size() == 9);
    CHECK(detail["standings"][0]["user"] == champion);
    for (const Json& row : detail["standings"])
        CHECK(row["eliminated"] == (row["user"] != champion));
}

TEST_CASE(
    "tournaments on two servers: their sweeps race to start a tournament and to pair each "
    "round, which happens once",
    "[tournament][cluster][postgres]") {
    const std::string url = PostgresServer::shared().create_database();
    const SmtpRelay relay;
    // Both sweeps run every 10 ms: both find the tournament due at its start time, and its next
    // round due as soon as the last table of a round ends.
    auto node = [&] {
        std::vector<std::string> args = kFast;
        args.insert(args.end(), {"--database", url, "--tournament-sweep-ms", "10"});
        return std::make_unique<ServerProcess>(tourney_mail_args(relay, args));
    };
    const auto one = node();
    const auto two = node();
    // Aulus and Cloelia on the first node, Barbatus and Drusilla (guests first) on the second.
    std::vector<TourneyPlayer> players;
    players.push_back(tourney_player(*one, "Aulus", false));
    players.push_back(tourney_player(*two, "Barbatus", true));
    players.push_back(tourney_player(*one, "Cloelia", false));
    players.push_back(tourney_player(*two, "Drusilla", true));
    std::map<std::uint64_t, TourneyPlayer*> by_id;
    for (TourneyPlayer& player : players)
        by_id[player.id] = &player;
    tourney_confirm_addresses(*one, relay, players);

    engine::Rng rng(46);
    for (int race = 1; race <= 3; ++race) {
        const std::string name = "Ides Race " + std::to_string(race);
        const auto made =
            one->post("/api/tournaments",
                      Json{{"name", name},
                           {"format", "swiss"},
                           {"players_per_table", 2},
                           {"rounds", 2},
                           {"starts_at", tourney_now_ms() + 1'000},
                           {"time_control", {{"kind", "correspondence"}, {"days", 3}}}}
                          .dump(),
                      players[0].token);
        REQUIRE(made.first == 201);
        const std::string path =
            "/api/tournaments/" + std::to_string(api_body(made)["id"].get<int>());
        for (std::size_t i = 0; i < players.size(); ++i)
            REQUIRE((i % 2 == 0 ? *one : *two).post(path + "/join", "{}", players[i].token).first ==
                    200);
        for (std::size_t round = 1; round <= 2; ++round) {
            const Json detail = tourney_detail_when(
                *two, path, [&](const Json& d) { return d["rounds"].size() >= round; });
            REQUIRE(detail["rounds"].size() == round);
            const Json paired = detail["rounds"][round - 1];
            INFO(name << ", round " << round);
            CHECK(paired["number"] == round);
            REQUIRE(paired["tables"].size() == 2);
            std::set<std::uint64_t> seated;
            for (const Json& table : paired["tables"])
                for (const Json& seat : table["seats"])
                    seated.insert(seat["user"].get<std::uint64_t>());
            CHECK(seated.size() == 4);
            tourney_check_told(paired, by_id);
            for (const Json& table : paired["tables"])
                tourney_play(by_id, table, rng);
        }
        const Json detail = tourney_detail_when(
            *one, path, [](const Json& d) { return d["status"] == "finished"; });
        // One set of tables per round in the store, one round mail per player and round, one
        // tournament_table per player's connection, whichever node paired the round.
        REQUIRE(detail["rounds"].size() == 2);
        for (const Json& round : detail["rounds"])
            CHECK(round["tables"].size() == 2);
        tourney_check_round_mails(relay, name, detail, by_id);
        for (TourneyPlayer& player : players)
            CHECK_FALSE(player.client->wait_for(
                [](const Json& m) { return type_of(m) == "tournament_table"; }, 1ms));
    }
}

}  // namespace gcor::testing
