#pragma once
// E-mail addresses, the queue of mails, and the server's secrets (docs/protocol.md, "E-mail").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "gcor/store/store_basics.hpp"

namespace gcor::server {

// How often a user wants mail about their turns: each time, one digest a day, or never.
enum class MailFrequency : std::uint8_t { each_turn, daily, off };
void to_json(nlohmann::ordered_json&, MailFrequency) = delete;

struct StoredEmail {
    std::uint64_t user = 0;
    std::string address;
    bool confirmed = false;
    MailFrequency frequency = MailFrequency::each_turn;
    std::optional<UnixMs> digest_due;  // daily: when the next digest is due
    std::string language = "en";       // of the mails: "en" or "de"
    bool invitation_mails = true;      // mail each invitation to a table
};

enum class MailKind : std::uint8_t {
    confirm,
    turn,
    digest,
    reminder,
    season,
    password_reset,
    invitation,
    tournament_round
};

// A mail waiting in the queue (docs/operations.md, "E-mail").
struct QueuedMail {
    std::uint64_t id = 0;  // given by the store
    std::string key;       // a mail with a key that was ever queued is not queued again
    MailKind kind = MailKind::turn;
    std::uint64_t user = 0;
    std::string recipient;
    std::string message;  // the whole message: headers, a blank line, the body
    // Turn and reminder mails: sent only while it is still this seat's turn at this version.
    std::string table;
    int seat = 0;
    std::uint64_t version = 0;
    UnixMs due = 0;
    int attempts = 0;  // failed so far

    bool operator==(const QueuedMail&) const = default;
};

// What became of a mail taken from the queue.
enum class MailOutcome : std::uint8_t { sent, dropped, failed };

class MailStore {
  public:
    using Done = StoreDone;
    virtual ~MailStore() = default;

    // Synchronous: rare, and the caller needs the answer.
    virtual std::optional<StoredEmail> email_of(std::uint64_t user) = 0;
    // A new address, not confirmed until `confirm_email` with the token whose hash this is; the
    // frequency stays (each_turn for a first address).
    virtual void set_email(std::uint64_t user, const std::string& address,
                           const std::string& token_hash, UnixMs token_expires) = 0;
    virtual void remove_email(std::uint64_t user) = 0;
    // Confirms the address waiting for this token if the token has not expired at `now`; the
    // token is used up. The user, or nullopt.
    virtual std::optional<std::uint64_t> confirm_email(const std::string& token_hash,
                                                       UnixMs now) = 0;
    virtual void set_mail_frequency(std::uint64_t user, MailFrequency frequency,
                                    std::optional<UnixMs> digest_due) = 0;
    // The language of the user's mails ("en", "de"); nothing for a user without an address.
    virtual void set_mail_language(std::uint64_t user, const std::string& language) = 0;
    // The confirmed addresses equal to `address` without regard to case (one per user: several
    // accounts may share an address), for a forgotten password.
    virtual std::vector<StoredEmail> confirmed_emails(const std::string& address) = 0;
    // Whether invitations are mailed to the user; nothing for a user without an address.
    virtual void set_invitation_mails(std::uint64_t user, bool wanted) = 0;
    // Confirmed addresses whose daily digest is due at `now`.
    virtual std::vector<StoredEmail> digests_due(UnixMs now) = 0;

    // Queues a mail unless one with its key was ever queued (grouped like moves); `done(true)`
    // in both cases once committed.
    virtual void queue_mail(const QueuedMail& mail, Done done) = 0;
    // Takes up to `limit` mails waiting whose time has come at `now`, earliest first, for
    // sending: each is kept from every other taker (another process sharing the database) until
    // `kept_until`, its new `due`, by when its taker has ended or retried it (or died, and then
    // another takes it).
    virtual std::vector<QueuedMail> take_due_mails(UnixMs now, std::size_t limit,
                                                   UnixMs kept_until) = 0;
    // The time of the next mail waiting, if any.
    virtual std::optional<UnixMs> next_mail_due() = 0;
    // A mail taken from the queue ended (sent, dropped, or given up) at `at`.
    virtual void end_mail(std::uint64_t id, MailOutcome outcome, UnixMs at) = 0;
    // A mail's attempt failed: it waits until `retry_at`.
    virtual void retry_mail(std::uint64_t id, UnixMs retry_at) = 0;
    // Forgets mails that ended before `before`; returns how many.
    virtual std::size_t forget_mails(UnixMs before) = 0;

    // A secret of the server's: the one stored under `name`, or else `if_new`, which is stored.
    virtual std::string secret(const std::string& name, const std::string& if_new) = 0;
};
}  // namespace gcor::server
