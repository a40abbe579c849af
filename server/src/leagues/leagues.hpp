#pragma once
// Leagues (docs/leagues.md): an organizer creates a league and opens sign-up; at the start of a
// season the players are put into divisions and every table of the season is created, started
// and stored (the lobby loads each when first used); standings come from the finished tables;
// closing a season settles promotion and relegation, keeps the final table and opens sign-up for
// the next. Calls block on the store: run them off the I/O threads.
#include <mutex>
#include <optional>
#include <string>
#include <variant>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/store.hpp"
#include "services.hpp"

namespace gcor::server {

// What the API answers: a JSON body, or the request's refusal.
using Reply = protocol::Expected<protocol::Json>;

class Leagues {
  public:
    explicit Leagues(Services& services) : services_(services) {}

    // A registered user named by --admin: manages every league.
    bool is_admin(const User& user) const;

    protocol::Json list();
    Reply create(const User& by, const protocol::Json& body);
    Reply league(std::uint64_t id);
    // Opens sign-up for the league's first season (later ones open when a season closes).
    Reply open_season(const User& by, std::uint64_t league);
    Reply sign_up(const User& by, std::uint64_t league);
    Reply withdraw(const User& by, std::uint64_t league);
    Reply season(std::uint64_t league, int number);
    Reply start_season(const User& by, std::uint64_t league, int number);
    Reply close_season(const User& by, std::uint64_t league, int number);

  private:
    // Each member's mail that the season started, with their tables.
    void mail_season_start(const StoredLeague& league, int number,
                           const std::vector<SeasonMember>& members,
                           const std::vector<SeasonTable>& tables);
    // The league and its season, or why not.
    protocol::Expected<std::pair<StoredLeague, StoredSeason>> find_season(std::uint64_t league,
                                                                          int number);
    // The same, when `by` may manage the league.
    protocol::Expected<std::pair<StoredLeague, StoredSeason>> season_to_manage(const User& by,
                                                                               std::uint64_t league,
                                                                               int number);
    std::optional<protocol::Error> may_manage(const User& by, const StoredLeague& league) const;
    std::optional<StoredSeason> open_for_signup(std::uint64_t league);
    // The divisions of a season as its page shows them; players on vacation at `away_at` marked.
    protocol::Json divisions_json(const StoredLeague& league, const StoredSeason& season,
                                  std::optional<UnixMs> away_at);

    Services& services_;
    std::mutex mutex_;  // one change to the leagues at a time
};

}  // namespace gcor::server
