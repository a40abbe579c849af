#include "ratings/ratings.hpp"

#include <spdlog/spdlog.h>

#include <cmath>
#include <optional>

namespace gcor::server {

using protocol::Json;

long rounded_rating(double value) {
    return std::lround(value);
}

Rating Ratings::current(std::uint64_t user) {
    if (const auto it = ratings_.find(user); it != ratings_.end()) return it->second;
    Rating rating;
    if (const auto stored = store_.rating(user)) rating = Rating{stored->value, stored->games};
    ratings_.emplace(user, rating);
    return rating;
}

void Ratings::rate_pending() {
    try {
        rate_pending_tables();
    } catch (const std::exception& error) {
        // A store read failed: the tables stay marked, and the next finished game (or start)
        // rates them.
        spdlog::error("ratings: {}", error.what());
    }
}

void Ratings::rate_pending_tables() {
    std::lock_guard lock(mutex_);
    for (const std::string& id : store_.unrated_tables()) {
        if (queued_.contains(id)) continue;
        const auto table = store_.find_table(id);
        if (!table) continue;
        const Json result = Json::parse(table->result, nullptr, false);
        const Json* places =
            result.is_object() && result.contains("places") ? &result["places"] : nullptr;
        if (!places || !places->is_array() || places->size() != table->seats.size()) {
            spdlog::error("table {}: its result has no places; it is not rated", id);
            continue;
        }
        std::vector<Rating> before;
        std::vector<int> place;
        for (std::size_t seat = 0; seat < table->seats.size(); ++seat) {
            before.push_back(current(table->seats[seat].user));
            place.push_back((*places)[seat].get<int>());
        }
        const std::vector<Rating> after = rate_game(before, place);
        const UnixMs now = unix_now_ms();
        std::vector<RatingChange> changes;
        for (std::size_t seat = 0; seat < table->seats.size(); ++seat) {
            const std::uint64_t user = table->seats[seat].user;
            changes.push_back(RatingChange{user, id, now, before[seat].value, after[seat].value,
                                           after[seat].games, place[seat],
                                           static_cast<int>(table->seats.size())});
            ratings_[user] = after[seat];
        }
        queued_.insert(id);
        store_.save_ratings(changes, [this, id](bool ok) {
            std::lock_guard done_lock(mutex_);
            queued_.erase(id);
            // The store has the truth: read it again, and rate this table at the next call.
            if (!ok) ratings_.clear();
        });
    }
}

Json Ratings::leaderboard(std::size_t limit) {
    Json players = Json::array();
    // Players at the same rating, as shown (whole numbers), share a rank: 1, 2, 2, 4.
    int rank = 0, place = 0;
    std::optional<long> previous;
    for (const StoredRating& rating : store_.leaderboard(limit)) {
        const Rating value{rating.value, rating.games};
        const long shown = rounded_rating(rating.value);
        ++place;
        if (shown != previous) rank = place;
        previous = shown;
        players.push_back(Json{{"rank", rank},
                               {"user", {{"id", rating.user.id}, {"name", rating.user.name}}},
                               {"rating", shown},
                               {"games", rating.games},
                               {"provisional", provisional(value)}});
    }
    return Json{{"players", std::move(players)}};
}

std::optional<Json> Ratings::profile(std::uint64_t user) {
    const auto stored_user = store_.user_by_id(user);
    if (!stored_user) return std::nullopt;
    const auto stored = store_.rating(user);
    const Rating rating = stored ? Rating{stored->value, stored->games} : Rating{};
    Json history = Json::array();
    for (const RatingChange& change : store_.rating_history(user, 200))
        history.push_back(Json{{"table", change.table},
                               {"at", change.at},
                               {"before", rounded_rating(change.before)},
                               {"after", rounded_rating(change.after)},
                               {"games", change.games},
                               {"place", change.place},
                               {"players", change.players}});
    Json leagues = Json::array();
    for (const UserSeason& season : store_.seasons_of(user, 50))
        leagues.push_back(Json{{"league", {{"id", season.league.id}, {"name", season.league.name}}},
                               {"season", season.season},
                               {"status", season.status},
                               {"division", season.tier == 0 ? Json() : Json(season.tier)}});
    return Json{{"user", {{"id", stored_user->id}, {"name", stored_user->name}}},
                {"guest", stored_user->guest},
                {"rating", rounded_rating(rating.value)},
                {"games", rating.games},
                {"provisional", provisional(rating)},
                {"history", std::move(history)},
                {"leagues", std::move(leagues)}};
}

}  // namespace gcor::server
