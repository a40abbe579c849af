#pragma once
// Leagues, seasons and ratings, written once for both databases. A season's start also stores its
// tables, which each backend writes its own way (the tables' hot path): start_season and
// season_tables are the backend's, on top of write_season_start.
#include "gcor/store/league_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlLeagueStore : public virtual LeagueStore {
  public:
    explicit SqlLeagueStore(StoreAccess& access) : access_(access) {}

    std::optional<StoredLeague> create_league(const std::string& name, std::uint64_t organizer,
                                              const std::string& settings) override;
    std::vector<StoredLeague> leagues() override;
    std::optional<StoredLeague> league(std::uint64_t id) override;
    std::vector<StoredSeason> seasons(std::uint64_t league) override;
    std::optional<StoredSeason> season(std::uint64_t league, int number) override;
    void open_season(std::uint64_t league, int number) override;
    bool sign_up(std::uint64_t league, int number, std::uint64_t user) override;
    bool withdraw(std::uint64_t league, int number, std::uint64_t user) override;
    std::vector<SeasonMember> members(std::uint64_t league, int number) override;
    void finish_season(std::uint64_t league, int number, const std::string& final_table) override;
    std::vector<UserSeason> seasons_of(std::uint64_t user, std::size_t limit) override;
    std::vector<std::string> unrated_tables() override;
    std::optional<StoredRating> rating(std::uint64_t user) override;
    void save_ratings(const std::vector<RatingChange>& changes, Done done) override;
    std::vector<StoredRating> leaderboard(std::size_t limit) override;
    std::vector<RatingChange> rating_history(std::uint64_t user, std::size_t limit) override;

  private:
    StoreAccess& access_;
};

// The start's rows other than the tables': each member's division, the season's tables, and the
// season's status (in the transaction that stored the tables).
void write_season_start(Sql& db, std::uint64_t league, int number,
                        const std::vector<SeasonMember>& members,
                        const std::vector<SeasonTable>& tables);

}  // namespace gcor::server
