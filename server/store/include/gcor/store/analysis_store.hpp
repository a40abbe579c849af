#pragma once
// The reviews of finished games (docs/protocol.md, "Game review"): each kept once computed, and
// claimed while it runs, so that among processes sharing the database one computes it.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store_basics.hpp"

namespace gcor::server {

// A table's review: running (no result) under a claim that holds until `held_until`, or done.
struct StoredAnalysis {
    std::uint64_t user = 0;   // who asked for it first
    std::uint64_t claim = 0;  // its taker's, while it runs
    UnixMs held_until = 0;
    std::size_t done = 0;  // decisions reviewed so far, of `total`
    std::size_t total = 0;
    std::optional<std::string> result;  // the review's JSON, once done
};

// A review a user asked for first (their export lists them).
struct AskedAnalysis {
    std::string table;
    UnixMs started = 0;
    bool done = false;
};

// What came of asking to start a review.
struct AnalysisClaim {
    enum class Outcome : std::uint8_t {
        claimed,        // the caller runs it now, under its claim
        exists,         // it is running elsewhere or done: `analysis`
        busy,           // the user's review of another game is running
        limit_reached,  // the user started as many as the day allows
    };
    Outcome outcome = Outcome::claimed;
    StoredAnalysis analysis;
};

class AnalysisStore {
  public:
    virtual ~AnalysisStore() = default;

    virtual std::optional<StoredAnalysis> find_analysis(const std::string& table) = 0;
    // Starts `table`'s review for `user` under `claim` until `held_until`, unless it is done or
    // held by another claim at `now`, the user holds another one, or the user started
    // `per_day` in the 24 hours before `now` (every start counts, cancelled ones too).
    virtual AnalysisClaim claim_analysis(const std::string& table, std::uint64_t user,
                                         std::uint64_t claim, UnixMs now, UnixMs held_until,
                                         std::size_t per_day) = 0;
    // The claim's progress, and its hold extended; false when the claim was lost (cancelled, or
    // taken over after it lapsed): its taker stops.
    virtual bool hold_analysis(const std::string& table, std::uint64_t claim, std::size_t done,
                               std::size_t total, UnixMs held_until) = 0;
    // The claim's result kept; false when the claim was lost.
    virtual bool finish_analysis(const std::string& table, std::uint64_t claim,
                                 const std::string& result) = 0;
    // Ends the claim's running review without a result (cancelled); false when it was not
    // running under that claim.
    virtual bool drop_analysis(const std::string& table, std::uint64_t claim) = 0;
    // The reviews `user` asked for first, the newest first, at most `limit`.
    virtual std::vector<AskedAnalysis> analyses_asked_by(std::uint64_t user, std::size_t limit) = 0;
};

}  // namespace gcor::server
