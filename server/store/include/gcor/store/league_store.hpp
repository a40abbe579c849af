#pragma once
// Leagues, their seasons, and ratings (docs/leagues.md).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store_basics.hpp"
#include "gcor/store/table_store.hpp"
#include "gcor/store/user.hpp"

namespace gcor::server {

struct StoredLeague {
    std::uint64_t id = 0;
    std::string name;
    User organizer;
    // JSON text: options, time control, division size, games per pairing, points, promote,
    // relegate; the store keeps it, the server reads it.
    std::string settings;
    UnixMs created = 0;
};

struct StoredSeason {
    std::uint64_t league = 0;
    int number = 0;      // 1, 2, ...
    std::string status;  // "signup", "playing" or "finished"
    UnixMs opened = 0;
    std::optional<UnixMs> started;
    std::optional<UnixMs> finished;
    std::string final_table;  // JSON text once finished: standings, promotions, relegations
};

// A player signed up for a season, with the division the start put them in.
struct SeasonMember {
    User user;
    UnixMs signed_up = 0;
    int tier = 0;  // 0 until the season starts; 1 is the top division
};

// One of a season's tables, as stored.
struct SeasonTable {
    int tier = 0;
    StoredTable table;
};

// A season a user signed up for.
struct UserSeason {
    StoredLeague league;
    int season = 0;
    std::string status;  // the season's
    int tier = 0;        // 0 until the season starts
};

// A rating as it stands.
struct StoredRating {
    User user;
    double value = 0;
    int games = 0;
};

// What one rated game did to one player's rating.
struct RatingChange {
    std::uint64_t user = 0;
    std::string table;
    UnixMs at = 0;
    double before = 0;
    double after = 0;
    int games = 0;  // the player's rated games, this one included
    int place = 0;
    int players = 0;
};

class LeagueStore {
  public:
    using Done = StoreDone;
    virtual ~LeagueStore() = default;

    // Synchronous: rare, and the caller needs the answer. nullopt when the name is taken
    // (names compare case-insensitively).
    virtual std::optional<StoredLeague> create_league(const std::string& name,
                                                      std::uint64_t organizer,
                                                      const std::string& settings) = 0;
    virtual std::vector<StoredLeague> leagues() = 0;
    virtual std::optional<StoredLeague> league(std::uint64_t id) = 0;
    virtual std::vector<StoredSeason> seasons(std::uint64_t league) = 0;
    virtual std::optional<StoredSeason> season(std::uint64_t league, int number) = 0;
    // A new season open for sign-up.
    virtual void open_season(std::uint64_t league, int number) = 0;
    // false when the user had signed up already (sign_up) or had not (withdraw).
    virtual bool sign_up(std::uint64_t league, int number, std::uint64_t user) = 0;
    virtual bool withdraw(std::uint64_t league, int number, std::uint64_t user) = 0;
    // In sign-up order.
    virtual std::vector<SeasonMember> members(std::uint64_t league, int number) = 0;
    // The start, in one transaction: each member's division, every table with its seats, and
    // the season's status.
    virtual void start_season(std::uint64_t league, int number,
                              const std::vector<SeasonMember>& members,
                              const std::vector<SeasonTable>& tables, Done done) = 0;
    virtual std::vector<SeasonTable> season_tables(std::uint64_t league, int number) = 0;
    // The end, in one transaction: the final table kept, and the next season open for sign-up.
    virtual void finish_season(std::uint64_t league, int number,
                               const std::string& final_table) = 0;
    // The seasons a user signed up for, newest first.
    virtual std::vector<UserSeason> seasons_of(std::uint64_t user, std::size_t limit) = 0;

    // Finished rated tables whose ratings are not stored yet, in the order they finished.
    virtual std::vector<std::string> unrated_tables() = 0;
    // nullopt for a player with no rated game yet.
    virtual std::optional<StoredRating> rating(std::uint64_t user) = 0;
    // One rated game's changes, in one transaction; a table is rated at most once.
    virtual void save_ratings(const std::vector<RatingChange>& changes, Done done) = 0;
    // Best first.
    virtual std::vector<StoredRating> leaderboard(std::size_t limit) = 0;
    // Newest first.
    virtual std::vector<RatingChange> rating_history(std::uint64_t user, std::size_t limit) = 0;
};
}  // namespace gcor::server
