#pragma once
// Forgotten passwords (docs/protocol.md, "HTTP API"): a one-time link mailed to each account
// whose confirmed address is the one given, and the new password set with its token. A token is
// random, works once, for an hour, and is stored only as its SHA-256; a user has one at a time
// (the latest). Resetting hashes a password: call reset off the I/O threads.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "accounts/password_attempts.hpp"
#include "gcor/protocol/expected.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

class Mailer;

// A password reset: whose, and the keys of the sessions it ended (session_key).
struct PasswordReset {
    std::uint64_t user = 0;
    std::vector<std::uint64_t> ended_sessions;
};

class PasswordResets {
  public:
    static constexpr UnixMs kLinkLifetime = 3600 * 1000;

    // Mails to one address (whatever accounts it has): a burst, then one per `every`, so that
    // nobody can flood an address with them.
    struct Limits {
        int burst = 3;
        PasswordAttempts::Clock::duration every = std::chrono::minutes(20);
    };

    PasswordResets(Store& store, Mailer& mailer, Limits limits)
        : store_(store), mailer_(mailer), mails_(attempts_limits(limits)) {}

    // `address` forgot its password: a link is mailed to each account whose confirmed address it
    // is (none when there is none: the caller answers alike). bad_field for what is no address,
    // mail_unavailable without a relay, rate_limited (with the wait) past the address's limit,
    // which counts every request, known address or not.
    std::optional<std::pair<protocol::Error, std::chrono::seconds>> forgot(
        std::string_view address, PasswordAttempts::Clock::time_point now);
    // The new password for the link's token at `now`: bad_token for a token unknown or used,
    // token_expired for one older than an hour, bad_field for a password against the rules.
    // Every session of the account ends.
    protocol::Expected<PasswordReset> reset(std::string_view token, std::string_view password,
                                            UnixMs now);

  private:
    static PasswordAttempts::Limits attempts_limits(Limits limits);

    Store& store_;
    Mailer& mailer_;
    // By mail address only (its "address" buckets): what the hashing queue counts is unused.
    PasswordAttempts mails_;
};

}  // namespace gcor::server
