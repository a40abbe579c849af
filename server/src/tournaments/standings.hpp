#pragma once
// A tournament's standings (docs/tournaments.md) from its finished games and byes. Pure
// computation: the caller reads the games from the store.
#include <cstdint>
#include <vector>

namespace gcor::server {

// One finished game of a tournament, from its stored result.
struct TournamentGame {
    int round = 0;
    std::vector<std::uint64_t> users;  // per seat
    std::vector<int> places;           // per seat, 1 = first; forfeited seats after all others
    std::vector<int> scores;           // final points per seat
    std::vector<bool> forfeited;       // per seat
};

struct TournamentBye {
    int round = 0;
    std::uint64_t user = 0;
};

// A player, in seed order (the ranking's last tie-break).
struct TournamentEntrant {
    std::uint64_t user = 0;
    bool withdrawn = false;
};

struct TournamentRow {
    std::uint64_t user = 0;
    int rank = 0;       // 1-based; rows equal in everything the order compares share it
    int points = 0;     // tournament points: by place at each game, and for each bye
    int buchholz = 0;   // the sum of the tournament points of every opponent of every game
    int score_sum = 0;  // the sum of the player's game scores
    int games = 0;      // finished games (byes not counted)
    int byes = 0;
    bool withdrawn = false;
    bool dropped = false;     // forfeited a game: not paired again
    bool eliminated = false;  // knockout: out of the tournament
    int reached = 0;          // the last round the player took part in (a game or a bye)
};

// Tournament points of a place at a table: `points_by_place[place - 1]` (the leagues' points for
// a full table: 3, 2, 1, 0 at tables of 4), also at a table one seat smaller, whose players take
// the top places' points; a forfeited seat gets 0. A bye gets the points of first place.
int tournament_points(const std::vector<int>& points_by_place, int place, bool forfeited);

// Swiss: points, then Buchholz, then the score sum (all higher first); equal rows share a rank
// and are listed by seed. Every entrant appears once; seats of others are not counted.
std::vector<TournamentRow> swiss_standings(const std::vector<TournamentEntrant>& seeded,
                                           const std::vector<TournamentGame>& games,
                                           const std::vector<TournamentBye>& byes,
                                           const std::vector<int>& points_by_place);

// Knockout: the players of the latest round `latest` first, then those out in the round before,
// and so on; within a round by place at their table (a bye or a game not finished first), then
// as in a Swiss. A player is eliminated once the round after their last was paired without them,
// and, once the tournament is `finished`, everybody not first at the final table. `seated`: every
// seat of every table paired, finished or not (a round in play counts as reached).
std::vector<TournamentRow> knockout_standings(const std::vector<TournamentEntrant>& seeded,
                                              const std::vector<TournamentGame>& games,
                                              const std::vector<TournamentBye>& byes,
                                              const std::vector<TournamentBye>& seated,
                                              const std::vector<int>& points_by_place, int latest,
                                              bool finished);

}  // namespace gcor::server
