#include "reviews/game_reviews.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "gcor/engine/analysis.hpp"
#include "gcor/protocol/analysis_json.hpp"
#include "metrics.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

// Reviews are seeded alike everywhere: a game reviewed on any node, or again, reviews the same.
constexpr std::uint64_t kReviewSeed = 1;

GameReviews::Answer progress(std::size_t done, std::size_t total) {
    return GameReviews::Answer{false, protocol::progress_json(done, total)};
}

}  // namespace

GameReviews::GameReviews(Store& store, Metrics& metrics, boost::asio::io_context& bots,
                         Settings settings)
    : store_(store),
      metrics_(metrics),
      bots_(bots),
      settings_(settings),
      claims_(std::random_device{}()) {}

protocol::Expected<GameReviews::Answer> GameReviews::ask(const User& user,
                                                         const std::string& table) {
    const auto row = store_.find_table(table);
    if (!row) return protocol::Error{ErrorCode::not_found, "no table \"" + table + "\""};
    if (row->status != TableStatus::finished)
        return protocol::Error{ErrorCode::not_finished, "only a finished game can be reviewed"};
    if (const auto job = job_of(table)) return progress(job->done, job->total);
    if (const auto stored = store_.find_analysis(table)) {
        if (stored->result) return Answer{true, Json::parse(*stored->result)};
        if (stored->held_until >= unix_now_ms()) return progress(stored->done, stored->total);
    }
    return start(user, table);
}

protocol::Expected<GameReviews::Answer> GameReviews::start(const User& user,
                                                           const std::string& table) {
    // A guest costs nothing to make: a limit per guest would limit nothing.
    if (user.guest)
        return protocol::Error{ErrorCode::registered_only,
                               "only registered players start a game review"};
    auto loaded = store_.load_table(table);
    const protocol::Error unplayable{ErrorCode::internal, "the game cannot be replayed"};
    if (!loaded) return protocol::Error{ErrorCode::not_found, "no table \"" + table + "\""};
    const auto game = StoredGame::read(std::move(loaded->table), std::move(loaded->moves));
    if (!game || !game->replay()) {
        spdlog::error("table {}: no review: the game does not replay", table);
        return unplayable;
    }
    StoredGame::Standing standing = game->standing();

    auto job = std::make_shared<Job>();
    job->user = user.id;
    {
        std::lock_guard lock(mutex_);
        if (stopped_)
            return protocol::Error{ErrorCode::internal, "the server is stopping; try again"};
        job->claim = claims_();
    }
    const UnixMs now = unix_now_ms();
    const AnalysisClaim claim = store_.claim_analysis(
        table, user.id, job->claim, now, now + settings_.hold.count(), settings_.per_day);
    switch (claim.outcome) {
        case AnalysisClaim::Outcome::exists:
            if (claim.analysis.result) return Answer{true, Json::parse(*claim.analysis.result)};
            return progress(claim.analysis.done, claim.analysis.total);
        case AnalysisClaim::Outcome::busy:
            return protocol::Error{ErrorCode::analysis_busy,
                                   "your review of another game is still running; wait for it "
                                   "or cancel it"};
        case AnalysisClaim::Outcome::limit_reached:
            return protocol::Error{
                ErrorCode::limit_reached,
                "you started " + std::to_string(settings_.per_day) +
                    " game reviews in the last 24 hours, as many as a day allows"};
        case AnalysisClaim::Outcome::claimed:
            break;
    }
    {
        std::lock_guard lock(mutex_);
        jobs_[table] = job;
    }
    Json changes = Json::array();
    for (const std::uint64_t change : standing.changes)
        changes.push_back(change);
    boost::asio::post(
        bots_, [this, table, job, changes = std::move(changes), start = game->deal().game.state(),
                record = std::move(standing.record)] { run(table, job, changes, start, record); });
    return progress(0, 0);
}

void GameReviews::run(const std::string& table, const std::shared_ptr<Job>& job,
                      const Json& changes, const engine::State& start,
                      const protocol::GameRecord& record) {
    // Ends the claim however the review ends, so that a failure never leaves it held.
    struct Claimed {
        GameReviews& reviews;
        const std::string& table;
        const Job& job;
        bool finished = false;
        ~Claimed() {
            if (finished) return;
            try {
                reviews.store_.drop_analysis(table, job.claim);
            } catch (const std::exception& error) {
                spdlog::warn("table {}: a cancelled review's claim stays until it lapses: {}",
                             table, error.what());
            }
            reviews.metrics_.analyses_cancelled++;
            reviews.end_job(table);
        }
    } claimed{*this, table, *job};

    auto renewed = std::chrono::steady_clock::now();
    const auto renew_every = settings_.hold / 10;
    const auto analysis = engine::analyse(
        start, record.moves, record.waited, engine::AnalysisBudget{settings_.worlds, kReviewSeed},
        [&](std::size_t done, std::size_t total) {
            job->done = done;
            job->total = total;
            if (job->cancelled) return false;
            const auto now = std::chrono::steady_clock::now();
            if (now - renewed < renew_every) return true;
            renewed = now;
            // Another process cancelled it (or took it over after the claim lapsed).
            return store_.hold_analysis(table, job->claim, done, total,
                                        unix_now_ms() + settings_.hold.count());
        });
    if (!analysis) return;
    const Json result{
        {"table", table}, {"analysis", protocol::analysis_json(*analysis)}, {"changes", changes}};
    if (!store_.finish_analysis(table, job->claim, result.dump())) return;
    claimed.finished = true;
    metrics_.analyses_done++;
    end_job(table);
}

protocol::Expected<Json> GameReviews::cancel(const User& user, bool admin,
                                             const std::string& table) {
    const protocol::Error forbidden{ErrorCode::forbidden,
                                    "only who started a review, or an admin, may cancel it"};
    if (const auto job = job_of(table)) {
        if (job->user != user.id && !admin) return forbidden;
        job->cancelled = true;
        return Json{{"cancelled", true}};
    }
    // Running on another process: dropping its claim stops it there at its next renewal.
    const auto stored = store_.find_analysis(table);
    if (!stored || stored->result || stored->held_until < unix_now_ms())
        return protocol::Error{ErrorCode::not_found, "no review of \"" + table + "\" is running"};
    if (stored->user != user.id && !admin) return forbidden;
    store_.drop_analysis(table, stored->claim);
    return Json{{"cancelled", true}};
}

void GameReviews::stop() {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    for (auto& [table, job] : jobs_)
        job->cancelled = true;
}

std::shared_ptr<GameReviews::Job> GameReviews::job_of(const std::string& table) {
    std::lock_guard lock(mutex_);
    const auto found = jobs_.find(table);
    return found == jobs_.end() ? nullptr : found->second;
}

void GameReviews::end_job(const std::string& table) {
    std::lock_guard lock(mutex_);
    jobs_.erase(table);
}

}  // namespace gcor::server
