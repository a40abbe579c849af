#include "tournaments/pairing.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <numeric>
#include <optional>

namespace gcor::server {

namespace {

// Steps of the exhaustive search for a round with the fewest repeats before it gives up: far
// more than a feasible field of 200 needs (it seats one player per step there), and enough to
// settle every field of up to 12 either way.
constexpr long kSearchBudget = 200'000;
// In the local search, one repeat weighs more than any spread of ranks can.
constexpr long kRepeatWeight = 1'000'000;

// Tables of player indexes (0 = the best-ranked) for a Swiss round.
class SwissSearch {
  public:
    SwissSearch(const std::vector<std::uint64_t>& players, const Meetings& meetings,
                const std::vector<int>& sizes)
        : size_(static_cast<int>(players.size())),
          sizes_(sizes),
          met_(static_cast<std::size_t>(size_ * size_)),
          seated_(static_cast<std::size_t>(size_)) {
        for (int a = 0; a < size_; ++a)
            for (int b = 0; b < size_; ++b)
                if (a != b)
                    met(a, b) = times_met(meetings, players[static_cast<std::size_t>(a)],
                                          players[static_cast<std::size_t>(b)]);
        for (const int table : sizes)
            ++left_[table];
    }

    // The tables with the fewest repeat meetings, if the search settles that within its budget:
    // it looks for tables without a repeat, then with one, two, ... (one budget for all).
    std::optional<std::vector<std::vector<int>>> fewest_repeats_exactly() {
        for (allowed_ = 0;; ++allowed_) {
            if (next_table()) return tables_;
            if (budget_ < 0) return std::nullopt;
        }
    }

    // When the exact search ran out of steps: the tables sliced from the ranking, then improved
    // by swaps while the repeats, then the spread of ranks at the tables, fall.
    std::vector<std::vector<int>> fewer_repeats() const {
        std::vector<std::vector<int>> tables;
        int next = 0;
        for (const int table : sizes_) {
            tables.emplace_back();
            for (int seat = 0; seat < table; ++seat)
                tables.back().push_back(next++);
        }
        for (bool improved = true; improved;) {
            improved = false;
            for (std::size_t t = 0; t < tables.size(); ++t)
                for (std::size_t u = t + 1; u < tables.size(); ++u)
                    for (int& x : tables[t])
                        for (int& y : tables[u]) {
                            const long before = cost_with(tables[t], x) + cost_with(tables[u], y);
                            std::swap(x, y);
                            const long after = cost_with(tables[t], x) + cost_with(tables[u], y);
                            if (after < before)
                                improved = true;
                            else
                                std::swap(x, y);
                        }
        }
        return tables;
    }

  private:
    int& met(int a, int b) { return met_[static_cast<std::size_t>(a * size_ + b)]; }
    int met(int a, int b) const { return met_[static_cast<std::size_t>(a * size_ + b)]; }

    // What `player` adds to its table's cost.
    long cost_with(const std::vector<int>& table, int player) const {
        long cost = 0;
        for (const int other : table)
            if (other != player)
                cost += kRepeatWeight * met(player, other) + std::abs(player - other);
        return cost;
    }

    bool steps_left() { return --budget_ >= 0; }

    // The best-ranked player not seated yet opens a table of a size still to fill.
    bool next_table() {
        const auto first = std::find(seated_.begin(), seated_.end(), 0);
        if (first == seated_.end()) return true;
        const int opener = static_cast<int>(first - seated_.begin());
        for (auto it = left_.rbegin(); it != left_.rend(); ++it) {
            if (it->second == 0) continue;
            --it->second;
            seated_[static_cast<std::size_t>(opener)] = 1;
            std::vector<int> table{opener};
            if (fill(table, it->first, opener + 1)) return true;
            seated_[static_cast<std::size_t>(opener)] = 0;
            ++it->second;
            if (budget_ < 0) return false;
        }
        return false;
    }

    // Completes `table` to `seats` with players from `from` on, while the round's repeat
    // meetings stay within allowed_.
    bool fill(std::vector<int>& table, int seats, int from) {
        if (static_cast<int>(table.size()) == seats) {
            tables_.push_back(table);
            if (next_table()) return true;
            tables_.pop_back();
            return false;
        }
        for (int candidate = from; candidate < size_; ++candidate) {
            if (seated_[static_cast<std::size_t>(candidate)]) continue;
            int meetings = 0;
            for (const int at : table)
                meetings += met(at, candidate);
            if (repeats_ + meetings > allowed_) continue;
            if (!steps_left()) return false;
            seated_[static_cast<std::size_t>(candidate)] = 1;
            repeats_ += meetings;
            table.push_back(candidate);
            if (fill(table, seats, candidate + 1)) return true;
            table.pop_back();
            repeats_ -= meetings;
            seated_[static_cast<std::size_t>(candidate)] = 0;
            if (budget_ < 0) return false;
        }
        return false;
    }

    int size_;
    std::vector<int> sizes_;
    std::vector<int> met_;      // size_ × size_
    std::vector<char> seated_;  // per player, during the search
    std::map<int, int> left_;   // table size -> tables of that size still to open
    std::vector<std::vector<int>> tables_;
    int allowed_ = 0;  // repeat meetings the search may seat (each earlier meeting counts)
    int repeats_ = 0;  // seated so far
    long budget_ = kSearchBudget;
};

}  // namespace

int times_met(const Meetings& meetings, std::uint64_t a, std::uint64_t b) {
    const auto found = meetings.find(std::minmax(a, b));
    return found == meetings.end() ? 0 : found->second;
}

void add_table(Meetings& meetings, const std::vector<std::uint64_t>& table) {
    for (std::size_t i = 0; i < table.size(); ++i)
        for (std::size_t j = i + 1; j < table.size(); ++j)
            ++meetings[std::minmax(table[i], table[j])];
}

SwissShape swiss_shape(int players, int per_table) {
    assert(players >= 2 && per_table >= 2 && per_table <= 4);
    if (players <= per_table) return SwissShape{{players}, 0};
    if (per_table == 2) return SwissShape{std::vector<int>(players / 2, 2), players % 2};
    const int tables = (players + per_table - 1) / per_table;
    const int smaller = tables * per_table - players;
    if (smaller > tables) {
        SwissShape shape = swiss_shape(players - 1, per_table);
        ++shape.byes;
        return shape;
    }
    SwissShape shape;
    shape.sizes.assign(static_cast<std::size_t>(tables - smaller), per_table);
    shape.sizes.insert(shape.sizes.end(), static_cast<std::size_t>(smaller), per_table - 1);
    return shape;
}

PairedRound pair_swiss(const std::vector<SwissEntrant>& ranked, int per_table,
                       const Meetings& meetings) {
    PairedRound round;
    if (ranked.size() < 2) {
        for (const SwissEntrant& entrant : ranked)
            round.byes.push_back(entrant.user);
        return round;
    }
    const SwissShape shape = swiss_shape(static_cast<int>(ranked.size()), per_table);
    std::vector<SwissEntrant> field = ranked;
    for (int bye = 0; bye < shape.byes; ++bye) {
        auto out = std::find_if(field.rbegin(), field.rend(),
                                [](const SwissEntrant& entrant) { return !entrant.had_bye; });
        if (out == field.rend()) out = field.rbegin();
        round.byes.push_back(out->user);
        field.erase(std::next(out).base());
    }
    std::vector<std::uint64_t> players;
    for (const SwissEntrant& entrant : field)
        players.push_back(entrant.user);
    SwissSearch search(players, meetings, shape.sizes);
    auto tables = search.fewest_repeats_exactly();
    if (!tables) tables = search.fewer_repeats();
    for (const std::vector<int>& table : *tables) {
        round.tables.emplace_back();
        for (const int player : table)
            round.tables.back().push_back(players[static_cast<std::size_t>(player)]);
    }
    return round;
}

PairedRound pair_knockout(const std::vector<std::uint64_t>& seeded, int per_table, int advance) {
    assert(advance >= 1 && advance < per_table && per_table <= 4 && seeded.size() >= 2);
    const int players = static_cast<int>(seeded.size());
    PairedRound round;
    if (players <= per_table) {
        round.tables.push_back(seeded);
        return round;
    }
    int tables = (players + per_table - 1) / per_table;
    while (tables > 1 && players < tables * (advance + 1))
        --tables;
    const int seated = std::min(players, tables * per_table);
    const auto byes = static_cast<std::ptrdiff_t>(players - seated);
    round.byes.assign(seeded.begin(), seeded.begin() + byes);
    round.tables.resize(static_cast<std::size_t>(tables));
    for (int i = 0; i < seated; ++i) {
        const int row = i / tables;
        const int column = i % tables;
        const int table = row % 2 == 0 ? column : tables - 1 - column;
        round.tables[static_cast<std::size_t>(table)].push_back(
            seeded[static_cast<std::size_t>(byes + i)]);
    }
    return round;
}

std::vector<std::uint64_t> knockout_advancing(const std::vector<std::uint64_t>& table,
                                              const std::vector<int>& places, int advance,
                                              const std::vector<std::uint64_t>& seed_order) {
    auto seed_of = [&](std::uint64_t user) {
        return std::find(seed_order.begin(), seed_order.end(), user) - seed_order.begin();
    };
    std::vector<std::size_t> seats(table.size());
    std::iota(seats.begin(), seats.end(), 0);
    std::sort(seats.begin(), seats.end(), [&](std::size_t a, std::size_t b) {
        const int place_a = a < places.size() ? places[a] : 0;
        const int place_b = b < places.size() ? places[b] : 0;
        if (place_a != place_b) return place_a < place_b;
        return seed_of(table[a]) < seed_of(table[b]);
    });
    std::vector<std::uint64_t> advancing;
    for (std::size_t i = 0; i < seats.size() && static_cast<int>(i) < advance; ++i)
        advancing.push_back(table[seats[i]]);
    return advancing;
}

int knockout_rounds(int players, int per_table, int advance) {
    int rounds = 0;
    while (players >= 2) {
        ++rounds;
        if (players <= per_table) break;
        int tables = (players + per_table - 1) / per_table;
        while (tables > 1 && players < tables * (advance + 1))
            --tables;
        players = tables * advance + (players - std::min(players, tables * per_table));
    }
    return rounds;
}

}  // namespace gcor::server
