#pragma once
// Tournaments (docs/tournaments.md): a creator opens one for sign-up; at its start (by hand or at
// its start time) its first round is paired, and each later round once the round before has
// finished: a Swiss round by the standings, a knockout round by who went on. A round's tables are
// ordinary tables, started and stored at once (the lobby loads each when first used). Several
// servers may share the store: the sweep runs on each, and the round's number in the store is the
// claim that lets one of them pair it. Calls block on the store: run them off the I/O threads.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include <mutex>
#include <optional>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/store.hpp"
#include "services.hpp"
#include "tournaments/pairing.hpp"
#include "tournaments/tournament_settings.hpp"

namespace gcor::server {

class Tournaments {
  public:
    // What the API answers: a JSON body, or the request's refusal.
    using Reply = protocol::Expected<protocol::Json>;

    Tournaments(boost::asio::io_context& io, Services& services);

    // `asking`: the signed-in user who asks, if any (for "joined" and "can_start").
    protocol::Json list(const std::optional<User>& asking);
    Reply create(const User& by, const protocol::Json& body);
    Reply detail(std::uint64_t id, const std::optional<User>& asking);
    Reply join(const User& by, std::uint64_t id);
    Reply leave(const User& by, std::uint64_t id);
    Reply start(const User& by, std::uint64_t id);

    // Sweeps every config.tournament_sweep (by default config.deadline_sweep) until stop(): starts
    // the tournaments whose start time came, pairs the rounds whose tables all finished, ends the
    // tournaments that are over.
    void start_scheduler();
    void stop();
    // One sweep (on the blocking pool).
    void sweep();

  private:
    struct Loaded;

    // The tournament's next round paired and stored, or the tournament finished when it is
    // over; nothing when another server did it first. Under mutex_.
    void advance(const StoredTournament& tournament, const TournamentSettings& settings);
    bool store_round(const StoredTournament& tournament, const TournamentSettings& settings,
                     const Loaded& loaded, const PairedRound& round);
    void schedule();
    bool may_start(const User& user, const StoredTournament& tournament) const;
    protocol::Json summary_json(const StoredTournament& tournament,
                                const TournamentSettings& settings,
                                const std::vector<TournamentPlayer>& players,
                                const std::optional<User>& asking) const;

    Services& services_;
    std::mutex mutex_;  // one change to the tournaments at a time on this server
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;  // for the timer
    boost::asio::steady_timer timer_;
    bool stopped_ = false;  // on strand_
};

}  // namespace gcor::server
