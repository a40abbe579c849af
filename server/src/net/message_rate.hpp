#pragma once
// A connection's rate limit (docs/protocol.md, "Limits"): a token bucket that refills at
// `per_second` up to `burst`; each message takes one token, a costlier request more. The limits
// are the caller's (the server's configuration), not copied into every connection.
#include <algorithm>
#include <chrono>

namespace gcor::server {

class MessageRate {
  public:
    using Clock = std::chrono::steady_clock;

    // Full at `now`.
    MessageRate(int burst, Clock::time_point now) : tokens_(burst), refilled_(now) {}

    // A message at `now`: refills the bucket, then takes one token; false: over the rate.
    bool allow(Clock::time_point now, double per_second, int burst) {
        tokens_ = std::min<double>(
            burst, tokens_ + std::chrono::duration<double>(now - refilled_).count() * per_second);
        refilled_ = now;
        return take(1.0);
    }
    // Takes `count` tokens more, or none when there are not that many.
    bool take(double count) {
        if (tokens_ < count) return false;
        tokens_ -= count;
        return true;
    }

  private:
    double tokens_;
    Clock::time_point refilled_;
};

}  // namespace gcor::server
