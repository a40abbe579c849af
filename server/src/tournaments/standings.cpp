#include "tournaments/standings.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gcor::server {

namespace {

template <class T>
T tournament_seat_value(const std::vector<T>& values, std::size_t seat) {
    return seat < values.size() ? values[seat] : T{};
}

// Points, games, byes, drops and score sums per entrant; Buchholz once every point is known.
// Rows in seed order.
std::vector<TournamentRow> tally(const std::vector<TournamentEntrant>& seeded,
                                 const std::vector<TournamentGame>& games,
                                 const std::vector<TournamentBye>& byes,
                                 const std::vector<int>& points_by_place) {
    std::vector<TournamentRow> rows;
    std::map<std::uint64_t, std::size_t> row_of;
    for (const TournamentEntrant& entrant : seeded)
        if (row_of.emplace(entrant.user, rows.size()).second)
            rows.push_back(TournamentRow{.user = entrant.user, .withdrawn = entrant.withdrawn});
    auto row = [&](std::uint64_t user) -> TournamentRow* {
        const auto found = row_of.find(user);
        return found == row_of.end() ? nullptr : &rows[found->second];
    };
    for (const TournamentGame& game : games)
        for (std::size_t seat = 0; seat < game.users.size(); ++seat) {
            TournamentRow* player = row(game.users[seat]);
            if (!player) continue;
            const bool forfeited = tournament_seat_value(game.forfeited, seat);
            ++player->games;
            player->points += tournament_points(
                points_by_place, tournament_seat_value(game.places, seat), forfeited);
            player->score_sum += tournament_seat_value(game.scores, seat);
            player->dropped = player->dropped || forfeited;
            player->reached = std::max(player->reached, game.round);
        }
    for (const TournamentBye& bye : byes)
        if (TournamentRow* player = row(bye.user)) {
            ++player->byes;
            player->points += tournament_points(points_by_place, 1, false);
            player->reached = std::max(player->reached, bye.round);
        }
    for (const TournamentGame& game : games)
        for (std::size_t seat = 0; seat < game.users.size(); ++seat)
            if (TournamentRow* player = row(game.users[seat]))
                for (std::size_t other = 0; other < game.users.size(); ++other)
                    if (const TournamentRow* opponent = row(game.users[other]);
                        opponent && other != seat)
                        player->buchholz += opponent->points;
    return rows;
}

// Sorts `rows` (in seed order) by `merit`, higher first, keeping the seed order among equals,
// and gives equal merits one rank.
template <class Merit>
void rank_by(std::vector<TournamentRow>& rows, Merit merit) {
    std::stable_sort(rows.begin(), rows.end(), [&](const TournamentRow& a, const TournamentRow& b) {
        return merit(a) > merit(b);
    });
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i].rank = i > 0 && merit(rows[i]) == merit(rows[i - 1]) ? rows[i - 1].rank
                                                                     : static_cast<int>(i) + 1;
}

}  // namespace

int tournament_points(const std::vector<int>& points_by_place, int place, bool forfeited) {
    if (forfeited || place < 1 || place > static_cast<int>(points_by_place.size())) return 0;
    return points_by_place[static_cast<std::size_t>(place - 1)];
}

std::vector<TournamentRow> swiss_standings(const std::vector<TournamentEntrant>& seeded,
                                           const std::vector<TournamentGame>& games,
                                           const std::vector<TournamentBye>& byes,
                                           const std::vector<int>& points_by_place) {
    std::vector<TournamentRow> rows = tally(seeded, games, byes, points_by_place);
    rank_by(rows, [](const TournamentRow& row) {
        return std::tuple(row.points, row.buchholz, row.score_sum);
    });
    return rows;
}

std::vector<TournamentRow> knockout_standings(const std::vector<TournamentEntrant>& seeded,
                                              const std::vector<TournamentGame>& games,
                                              const std::vector<TournamentBye>& byes,
                                              const std::vector<TournamentBye>& seated,
                                              const std::vector<int>& points_by_place, int latest,
                                              bool finished) {
    std::vector<TournamentRow> rows = tally(seeded, games, byes, points_by_place);
    for (const TournamentBye& seat : seated)
        for (TournamentRow& row : rows)
            if (row.user == seat.user) row.reached = std::max(row.reached, seat.round);
    // The place at the table of the player's last round; 0 for a bye or a game not finished.
    std::map<std::uint64_t, int> last_place;
    for (const TournamentGame& game : games)
        for (std::size_t seat = 0; seat < game.users.size(); ++seat)
            if (const auto it = std::find_if(
                    rows.begin(), rows.end(),
                    [&](const TournamentRow& row) { return row.user == game.users[seat]; });
                it != rows.end() && game.round == it->reached)
                last_place[it->user] = tournament_seat_value(game.places, seat);
    for (TournamentRow& row : rows) {
        const int place = last_place.contains(row.user) ? last_place[row.user] : 0;
        row.eliminated = row.reached < latest || (finished && place != 1);
    }
    rank_by(rows, [&](const TournamentRow& row) {
        const int place = last_place.contains(row.user) ? last_place.at(row.user) : 0;
        return std::tuple(row.reached, -place, row.points, row.buchholz, row.score_sum);
    });
    return rows;
}

}  // namespace gcor::server
