#pragma once
// Ratings: every finished rated table (league tables always, others if created rated) updates
// the rating of each of its players by rate_game (rating.hpp, docs/leagues.md). The store keeps
// which tables are rated already, so a table finished just before a crash is rated at the next
// start. Calls block on the store: run them off the I/O threads.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/store.hpp"
#include "ratings/rating.hpp"

namespace gcor::server {

class Ratings {
  public:
    explicit Ratings(Store& store) : store_(store) {}

    // Rates every finished rated table not rated yet, in the order they finished.
    void rate_pending();

    // {"players": [{"rank", "user": {"id", "name"}, "rating", "games", "provisional"}, …]}
    protocol::Json leaderboard(std::size_t limit);
    // {"user", "rating", "games", "provisional", "history": […], "leagues": […]}; nullopt for an
    // unknown user.
    std::optional<protocol::Json> profile(std::uint64_t user);

  private:
    void rate_pending_tables();
    Rating current(std::uint64_t user);

    Store& store_;
    std::mutex mutex_;
    // Ratings as of the writes queued so far, which the store may not have committed yet.
    std::unordered_map<std::uint64_t, Rating> ratings_;
    std::unordered_set<std::string> queued_;  // tables whose ratings are being committed
};

// A rating as the API shows it: whole points.
long rounded_rating(double value);

}  // namespace gcor::server
