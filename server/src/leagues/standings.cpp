#include "leagues/standings.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gcor::server {

namespace {

template <class T>
T seat_value(const std::vector<T>& values, std::size_t seat) {
    return seat < values.size() ? values[seat] : T{};
}

// What the order compares before the user id: rows equal in it share a rank.
auto merit(const StandingRow& row) {
    return std::tuple(row.points, row.score, row.influence, row.coins);
}

}  // namespace

std::vector<StandingRow> standings(const std::vector<std::uint64_t>& members,
                                   const std::vector<GameOutcome>& games,
                                   const std::vector<int>& points_by_place) {
    std::vector<StandingRow> rows;
    std::map<std::uint64_t, std::size_t> row_of;
    for (const std::uint64_t user : members)
        if (row_of.emplace(user, rows.size()).second) rows.push_back(StandingRow{.user = user});

    for (const GameOutcome& game : games)
        for (std::size_t seat = 0; seat < game.users.size(); ++seat) {
            const auto found = row_of.find(game.users[seat]);
            if (found == row_of.end()) continue;
            StandingRow& row = rows[found->second];
            const int place = seat_value(game.places, seat);
            ++row.played;
            row.score += seat_value(game.scores, seat);
            row.influence += seat_value(game.influence, seat);
            row.coins += seat_value(game.coins, seat);
            if (seat_value(game.forfeited, seat)) {
                ++row.forfeits;
                continue;
            }
            if (place == 1) ++row.wins;
            if (place >= 1 && place <= static_cast<int>(points_by_place.size()))
                row.points += points_by_place[static_cast<std::size_t>(place - 1)];
        }

    std::sort(rows.begin(), rows.end(), [](const StandingRow& a, const StandingRow& b) {
        if (merit(a) != merit(b)) return merit(a) > merit(b);
        return a.user < b.user;
    });
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i].rank = i > 0 && merit(rows[i]) == merit(rows[i - 1]) ? rows[i - 1].rank
                                                                     : static_cast<int>(i) + 1;
    return rows;
}

std::vector<int> default_league_points(int per_table) {
    std::vector<int> points;
    for (int place = 1; place <= per_table; ++place)
        points.push_back(per_table - place);
    return points;
}

std::vector<NextTier> promotion_and_relegation(const std::vector<FinishedDivision>& divisions,
                                               int promote, int relegate) {
    if (divisions.empty()) return {};
    const auto [top, bottom] = std::minmax_element(
        divisions.begin(), divisions.end(),
        [](const FinishedDivision& a, const FinishedDivision& b) { return a.tier < b.tier; });
    const int top_tier = top->tier;
    const int bottom_tier = bottom->tier;
    std::vector<NextTier> moves;
    for (const FinishedDivision& division : divisions) {
        const int size = static_cast<int>(division.order.size());
        const int up = division.tier == top_tier ? 0 : std::clamp(promote, 0, size);
        const int down = division.tier == bottom_tier ? 0 : std::clamp(relegate, 0, size - up);
        for (int i = 0; i < size; ++i) {
            int to_tier = division.tier;
            if (i < up) to_tier -= 1;
            if (i >= size - down) to_tier += 1;
            moves.push_back(
                {division.order[static_cast<std::size_t>(i)], division.tier, i + 1, to_tier});
        }
    }
    return moves;
}

std::vector<std::vector<std::uint64_t>> assign_divisions(
    const std::vector<NextTier>& returning, const std::vector<std::uint64_t>& newcomers,
    int division_size, int per_table) {
    std::vector<NextTier> sorted = returning;
    std::stable_sort(sorted.begin(), sorted.end(), [](const NextTier& a, const NextTier& b) {
        return std::tie(a.to_tier, a.from_tier, a.position) <
               std::tie(b.to_tier, b.from_tier, b.position);
    });
    // The line, cut into divisions as it forms.
    std::vector<std::vector<std::uint64_t>> divisions;
    std::set<std::uint64_t> placed;
    const auto size = static_cast<std::size_t>(std::max(division_size, 1));
    auto place = [&](std::uint64_t user) {
        if (!placed.insert(user).second) return;
        if (divisions.empty() || divisions.back().size() == size) divisions.emplace_back();
        divisions.back().push_back(user);
    };
    for (const NextTier& player : sorted)
        place(player.user);
    for (const std::uint64_t user : newcomers)
        place(user);
    if (divisions.size() >= 2 && static_cast<int>(divisions.back().size()) < per_table) {
        std::vector<std::uint64_t> last = std::move(divisions.back());
        divisions.pop_back();
        divisions.back().insert(divisions.back().end(), last.begin(), last.end());
    }
    return divisions;
}

}  // namespace gcor::server
