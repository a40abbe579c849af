#include "leagues/league_schedule.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "gcor/engine/rng.hpp"

namespace gcor::server {

namespace {

using engine::Rng;
using Seating = std::vector<int>;

// The search's own seeds: the table count then depends on the division's shape only, so the
// guarantee the test checks over every shape holds for every season's seed.
constexpr std::uint64_t kSearchSeed = 0x6C65616775655F31ull;
constexpr int kAttemptsPerCount = 4;
constexpr int kStepsPerAttempt = 3000;
// Per mille of the search's steps that take a random candidate instead of the best, to leave
// local minima.
constexpr std::uint32_t kNoisePerMille = 100;

int pairs_of(int people) {
    return people * (people - 1) / 2;
}

// Every pair once: the circle method, a bye when `members` is odd.
std::vector<Seating> round_robin(int members) {
    const int slots = members + members % 2;
    std::vector<int> ring(static_cast<std::size_t>(slots));
    std::iota(ring.begin(), ring.end(), 0);
    std::vector<Seating> tables;
    for (int round = 0; round < slots - 1; ++round) {
        for (int i = 0; i < slots / 2; ++i) {
            const int x = ring[static_cast<std::size_t>(i)];
            const int y = ring[static_cast<std::size_t>(slots - 1 - i)];
            if (x < members && y < members) tables.push_back({x, y});
        }
        std::rotate(ring.begin() + 1, ring.end() - 1, ring.end());
    }
    return tables;
}

// Whether some graph has these degrees (Erdős–Gallai).
bool graphical(std::vector<int> degrees) {
    std::sort(degrees.begin(), degrees.end(), std::greater<>());
    long long sum = 0;
    for (const int d : degrees)
        sum += d;
    if (sum % 2 != 0) return false;
    long long head = 0;
    for (std::size_t r = 1; r <= degrees.size(); ++r) {
        head += degrees[r - 1];
        long long tail = 0;
        for (std::size_t i = r; i < degrees.size(); ++i)
            tail += std::min<long long>(degrees[i], static_cast<long long>(r));
        if (head > static_cast<long long>(r * (r - 1)) + tail) return false;
    }
    return true;
}

// A necessary condition for `tables` tables with pair counts q or q + 1 and games r or r + 1: a
// member's games fix how many partners it meets q + 1 times, and those counts must be the degrees
// of a graph. Skipping the counts that fail it saves searching where nothing can be found.
bool balance_possible(int members, int per_table, int tables) {
    const int pair_slots = tables * pairs_of(per_table);
    const int q = pair_slots / pairs_of(members);
    const int seats = tables * per_table;
    const int fewer = seats / members;
    const int busier = seats % members;
    std::vector<int> degrees;
    for (int m = 0; m < members; ++m) {
        const int games = fewer + (m < busier ? 1 : 0);
        const int more = games * (per_table - 1) - q * (members - 1);
        if (more < 0 || more > members - 1) return false;
        degrees.push_back(more);
    }
    return graphical(degrees);
}

// A local search for `count` tables whose pair counts and games per member are each as even as
// they can be (equivalently, whose sums of squares are the least they can be for their totals).
// Each step picks a pair met too rarely (or too often, or a member with too many games) and makes
// the change to one seat that fixes it and best improves the rest.
class BalancedSearch {
  public:
    BalancedSearch(int members, int per_table, int count, std::uint64_t seed)
        : members_(members),
          per_table_(per_table),
          met_(static_cast<std::size_t>(members * members)),
          games_(static_cast<std::size_t>(members)),
          rng_(seed) {
        deal(count);
        const long long pair_slots = static_cast<long long>(count) * pairs_of(per_table);
        const long long pairs = pairs_of(members);
        rare_ = static_cast<int>(pair_slots / pairs);
        best_cost_ = least_squares(pair_slots, pairs) +
                     least_squares(static_cast<long long>(count) * per_table, members);
        for (int x = 0; x < members_; ++x) {
            cost_ += static_cast<long long>(games(x)) * games(x);
            for (int y = x + 1; y < members_; ++y)
                cost_ += static_cast<long long>(met(x, y)) * met(x, y);
        }
    }

    bool solve(int steps) {
        for (int step = 0; step < steps && cost_ > best_cost_; ++step)
            this->step();
        return cost_ == best_cost_;
    }

    const std::vector<Seating>& tables() const { return tables_; }

  private:
    struct Change {
        std::size_t table;
        std::size_t seat;
        int member;
        long long delta;
    };

    static long long least_squares(long long total, long long parts) {
        const long long q = total / parts;
        const long long more = total % parts;
        return (parts - more) * q * q + more * (q + 1) * (q + 1);
    }

    int& met(int x, int y) { return met_[static_cast<std::size_t>(x * members_ + y)]; }
    int met(int x, int y) const { return met_[static_cast<std::size_t>(x * members_ + y)]; }
    int& games(int x) { return games_[static_cast<std::size_t>(x)]; }
    int games(int x) const { return games_[static_cast<std::size_t>(x)]; }
    static bool seated(const Seating& table, int member) {
        return std::find(table.begin(), table.end(), member) != table.end();
    }

    // Members dealt from shuffled decks of all of them, so the games start even.
    void deal(int count) {
        std::vector<int> deck(static_cast<std::size_t>(members_));
        std::iota(deck.begin(), deck.end(), 0);
        std::size_t next = deck.size();
        for (int t = 0; t < count; ++t) {
            Seating table;
            while (static_cast<int>(table.size()) < per_table_) {
                if (next == deck.size()) {
                    rng_.shuffle(deck);
                    next = 0;
                }
                // A member already seated here swaps with a later card of the deck.
                std::size_t card = next;
                while (card < deck.size() && seated(table, deck[card]))
                    ++card;
                if (card == deck.size()) {
                    next = deck.size();
                    continue;
                }
                std::swap(deck[next], deck[card]);
                table.push_back(deck[next++]);
            }
            for (std::size_t i = 0; i < table.size(); ++i) {
                ++games(table[i]);
                for (std::size_t j = i + 1; j < table.size(); ++j) {
                    ++met(table[i], table[j]);
                    ++met(table[j], table[i]);
                }
            }
            tables_.push_back(std::move(table));
        }
    }

    // The change of the sums of squares when `member` takes the seat.
    long long delta(std::size_t t, std::size_t seat, int member) const {
        const Seating& table = tables_[t];
        const int leaving = table[seat];
        long long d = 2LL * (games(member) - games(leaving)) + 2;
        for (std::size_t s = 0; s < table.size(); ++s)
            if (s != seat) d += 2LL * (met(member, table[s]) - met(leaving, table[s])) + 2;
        return d;
    }

    void apply(const Change& change) {
        Seating& table = tables_[change.table];
        const int leaving = table[change.seat];
        for (std::size_t s = 0; s < table.size(); ++s) {
            if (s == change.seat) continue;
            --met(leaving, table[s]);
            --met(table[s], leaving);
            ++met(change.member, table[s]);
            ++met(table[s], change.member);
        }
        --games(leaving);
        ++games(change.member);
        table[change.seat] = change.member;
        cost_ += change.delta;
    }

    void consider(std::size_t t, std::size_t seat, int member) {
        changes_.push_back({t, seat, member, delta(t, seat, member)});
    }

    // Pairs met fewer than `rare_` times, or else more than `rare_ + 1` times.
    std::vector<std::pair<int, int>> unbalanced_pairs() const {
        std::vector<std::pair<int, int>> rare, often;
        for (int x = 0; x < members_; ++x)
            for (int y = x + 1; y < members_; ++y) {
                if (met(x, y) < rare_) rare.emplace_back(x, y);
                if (met(x, y) > rare_ + 1) often.emplace_back(x, y);
            }
        return rare.empty() ? often : rare;
    }

    void step() {
        changes_.clear();
        const auto pairs = unbalanced_pairs();
        if (!pairs.empty()) {
            const auto [x, y] = pairs[rng_.below(static_cast<std::uint32_t>(pairs.size()))];
            const bool rare = met(x, y) < rare_;
            for (std::size_t t = 0; t < tables_.size(); ++t) {
                const Seating& table = tables_[t];
                const bool has_x = seated(table, x);
                const bool has_y = seated(table, y);
                if (rare && has_x != has_y) {
                    // Seat the missing one instead of a third member.
                    const int missing = has_x ? y : x;
                    for (std::size_t s = 0; s < table.size(); ++s)
                        if (table[s] != x && table[s] != y) consider(t, s, missing);
                } else if (!rare && has_x && has_y) {
                    for (std::size_t s = 0; s < table.size(); ++s) {
                        if (table[s] != x && table[s] != y) continue;
                        for (int m = 0; m < members_; ++m)
                            if (!seated(table, m)) consider(t, s, m);
                    }
                }
            }
        } else {
            // Pairs are even, games are not: give a seat of the busiest to the least busy.
            const auto [least, most] = std::minmax_element(games_.begin(), games_.end());
            const int idle = static_cast<int>(least - games_.begin());
            const int busy = static_cast<int>(most - games_.begin());
            for (std::size_t t = 0; t < tables_.size(); ++t) {
                const Seating& table = tables_[t];
                if (seated(table, idle)) continue;
                for (std::size_t s = 0; s < table.size(); ++s)
                    if (table[s] == busy) consider(t, s, idle);
            }
        }
        if (changes_.empty()) return;
        if (rng_.below(1000) < kNoisePerMille) {
            apply(changes_[rng_.below(static_cast<std::uint32_t>(changes_.size()))]);
            return;
        }
        long long least = changes_.front().delta;
        for (const Change& change : changes_)
            least = std::min(least, change.delta);
        std::erase_if(changes_, [least](const Change& change) { return change.delta > least; });
        apply(changes_[rng_.below(static_cast<std::uint32_t>(changes_.size()))]);
    }

    int members_;
    int per_table_;
    std::vector<Seating> tables_;
    std::vector<int> met_;    // members_ × members_: how often each pair sits together
    std::vector<int> games_;  // per member
    std::vector<Change> changes_;
    int rare_ = 0;  // the pair count the even spread needs at least
    long long cost_ = 0;
    long long best_cost_ = 0;
    Rng rng_;
};

// The fewest tables whose pair counts and games are even, all pairs meeting at least `g` times.
std::vector<Seating> balanced_tables(int members, int per_table, int g) {
    const int pair_slots = g * pairs_of(members);
    const int least = (pair_slots + pairs_of(per_table) - 1) / pairs_of(per_table);
    // Every shape finds its count within a few tables of `least` (the test runs them all).
    for (int count = least; count <= least + members; ++count) {
        if (!balance_possible(members, per_table, count)) continue;
        for (int attempt = 0; attempt < kAttemptsPerCount; ++attempt) {
            BalancedSearch search(members, per_table, count,
                                  kSearchSeed + static_cast<std::uint64_t>(attempt));
            if (search.solve(kStepsPerAttempt)) return search.tables();
        }
    }
    throw std::logic_error("schedule_division: no even schedule found");
}

// Seats rearranged within tables until each member holds each seat position floor or ceil of
// games / seats times. While a member holds seat a at least twice more often than seat b, follow
// a trail from it: a table where the current member sits at a, then that table's member at b, who
// continues at another table where it sits at a, and so on; swapping a and b along the trail moves
// one from a to b for the first member, changes nobody in the middle, and the last member held b
// more often than a. The sum of squares of the counts falls with every swap, so this ends.
void balance_seats(std::vector<Seating>& tables, int members) {
    const std::size_t seats = tables.front().size();
    std::vector<std::vector<int>> held(static_cast<std::size_t>(members), std::vector<int>(seats));
    for (const Seating& table : tables)
        for (std::size_t s = 0; s < seats; ++s)
            ++held[static_cast<std::size_t>(table[s])][s];
    std::vector<char> on_trail(tables.size());
    bool changed = true;
    while (changed) {
        changed = false;
        for (std::size_t a = 0; a < seats; ++a)
            for (std::size_t b = 0; b < seats; ++b)
                for (int first = 0; first < members; ++first) {
                    auto& counts = held[static_cast<std::size_t>(first)];
                    if (a == b || counts[a] < counts[b] + 2) continue;
                    std::fill(on_trail.begin(), on_trail.end(), 0);
                    std::vector<std::size_t> trail;
                    int current = first;
                    for (bool extended = true; extended;) {
                        extended = false;
                        for (std::size_t t = 0; t < tables.size(); ++t) {
                            if (on_trail[t] || tables[t][a] != current) continue;
                            on_trail[t] = 1;
                            trail.push_back(t);
                            current = tables[t][b];
                            extended = true;
                            break;
                        }
                    }
                    for (const std::size_t t : trail) {
                        Seating& table = tables[t];
                        --held[static_cast<std::size_t>(table[a])][a];
                        --held[static_cast<std::size_t>(table[b])][b];
                        std::swap(table[a], table[b]);
                        ++held[static_cast<std::size_t>(table[a])][a];
                        ++held[static_cast<std::size_t>(table[b])][b];
                    }
                    changed = true;
                }
    }
}

// Two per table: the round robin `g` times, every other time with the seats reversed, so that
// over two rounds each player of a pair sits first once; an odd last round is balanced alone.
std::vector<Seating> pair_tables(int members, int g) {
    std::vector<Seating> once = round_robin(members);
    balance_seats(once, members);
    std::vector<Seating> tables;
    for (int round = 0; round < g; ++round)
        for (Seating table : once) {
            if (round % 2 == 1) std::swap(table[0], table[1]);
            tables.push_back(std::move(table));
        }
    return tables;
}

}  // namespace

std::vector<std::vector<int>> schedule_division(int members, int per_table, int games_per_pairing,
                                                std::uint64_t seed) {
    if (per_table < 2 || per_table > 4 || members < per_table || members > 16 ||
        games_per_pairing < 1 || games_per_pairing > 4)
        throw std::invalid_argument("schedule_division: unsupported division shape");
    std::vector<Seating> tables;
    if (per_table == 2) {
        tables = pair_tables(members, games_per_pairing);
    } else {
        tables = balanced_tables(members, per_table, games_per_pairing);
        balance_seats(tables, members);
    }
    // The season's seed: who is which member, and the tables' order.
    Rng rng(seed);
    std::vector<int> label(static_cast<std::size_t>(members));
    std::iota(label.begin(), label.end(), 0);
    rng.shuffle(label);
    for (Seating& table : tables)
        for (int& member : table)
            member = label[static_cast<std::size_t>(member)];
    rng.shuffle(tables);
    return tables;
}

}  // namespace gcor::server
