#pragma once
// The strong bot's reviews of finished games (docs/protocol.md, "Game review"; docs/analysis.md):
// started when first asked for, computed on the bot pool, kept in the store once done and served
// from there ever after, by every process sharing it. While one runs it is claimed in the store,
// so that one process computes it; the claim is held (and its progress written) as it goes, and
// lapses if its process dies, after which the next request starts it again.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include <boost/asio/io_context.hpp>

#include "gcor/protocol/expected.hpp"
#include "gcor/protocol/game_json.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"

namespace gcor::server {

class Metrics;

class GameReviews {
  public:
    struct Settings {
        int worlds = 128;
        std::size_t per_day = 10;
        // How long a claim holds without news from its process; it is renewed at least every
        // `hold / 10` while the review runs.
        std::chrono::milliseconds hold{30'000};
    };
    // A review's answer: the stored one (`done`), or its progress {"done", "total"}.
    struct Answer {
        bool done = false;
        protocol::Json body;
    };

    GameReviews(Store& store, Metrics& metrics, boost::asio::io_context& bots, Settings settings);

    // GET /api/tables/{table}/analysis by `user` (blocking: call it off the I/O threads): the
    // review, its progress, or the error why there is none (not_found, not_finished; when it
    // must start: registered_only, analysis_busy, limit_reached).
    protocol::Expected<Answer> ask(const User& user, const std::string& table);
    // DELETE /api/tables/{table}/analysis: cancels the running review, if `user` started it or
    // `admin`; {"cancelled": true}.
    protocol::Expected<protocol::Json> cancel(const User& user, bool admin,
                                              const std::string& table);
    // The server stops: every review running here ends, its claim dropped.
    void stop();

  private:
    struct Job {
        std::uint64_t user = 0;
        std::uint64_t claim = 0;
        std::atomic<std::size_t> done{0};
        std::atomic<std::size_t> total{0};
        std::atomic<bool> cancelled{false};
    };

    protocol::Expected<Answer> start(const User& user, const std::string& table);
    void run(const std::string& table, const std::shared_ptr<Job>& job,
             const protocol::Json& changes, const engine::State& start,
             const protocol::GameRecord& record);
    std::shared_ptr<Job> job_of(const std::string& table);
    void end_job(const std::string& table);

    Store& store_;
    Metrics& metrics_;
    boost::asio::io_context& bots_;
    const Settings settings_;
    std::mutex mutex_;
    std::map<std::string, std::shared_ptr<Job>> jobs_;  // running here, by table
    std::mt19937_64 claims_;                            // under mutex_
    bool stopped_ = false;
};

}  // namespace gcor::server
