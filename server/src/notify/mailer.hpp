#pragma once
// Turn mails (docs/operations.md, "E-mail"): the mails written from what users chose
// (notify/mail_choices.hpp: their addresses, how often they want mail), and the queue of mails,
// which lives in the store and is sent by a thread of its own through the SMTP relay, so that a
// table never waits for a mail and a restart sends what was waiting.
//
// A mail's key is queued at most once. A turn mail's key names the table, the seat and the
// seat's last own move: one mail per turn at most, and none again until the player has moved.
// It waits `delay` and is dropped when, by then, the turn has passed; it is not written at all
// while the player follows the table. A relay that refuses or cannot be reached is tried again
// after first_retry, then twice as long each time (at most an hour), up to `attempts` tries.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gcor/store/store.hpp"
#include "metrics.hpp"
#include "notify/mail_choices.hpp"
#include "notify/mail_message.hpp"
#include "notify/smtp.hpp"

namespace gcor::server {

struct MailSettings {
    SmtpSettings smtp;  // no url: nothing is mailed, and the API says so
    MailSender from;
    std::chrono::seconds delay{60};
    std::chrono::seconds first_retry{30};
    int attempts = 16;
    std::chrono::seconds digest_every{std::chrono::hours(24)};
};

// A turn, as the table tells the mailer.
struct TurnNotice {
    std::uint64_t user = 0;
    std::string name;  // the player's
    std::string table;
    int seat = 0;
    std::uint64_t version = 0;
    std::uint64_t last_own_move = 0;  // the version of the seat's last move of its own; 0: none
    std::vector<std::string> players;
    std::optional<UnixMs> deadline;
    std::string table_name;  // given at its creation; empty: none
};

// An invitation to a table, as the mailer tells the invited user.
struct InvitationNotice {
    std::uint64_t user = 0;
    std::string name;  // the invited user's
    std::string host;  // the name of who invited them
    std::string table;
    int seat = 0;  // the seat kept
    UnixMs at = 0;
    std::vector<std::string> players;
    std::string table_name;  // empty: none given
};

// A league table in a season's start mail.
struct SeasonTableNotice {
    std::string table;
    std::vector<std::string> players;
    std::optional<UnixMs> deadline;
};

class Mailer {
  public:
    Mailer(Store& store, Metrics& metrics, MailSettings settings);
    ~Mailer();
    Mailer(const Mailer&) = delete;
    Mailer& operator=(const Mailer&) = delete;

    bool enabled() const { return !settings_.smtp.url.empty(); }
    // Links in mails start with `site_url` ("http://host:port"); the sending thread starts when
    // mail is enabled. stop() sends nothing more (the queue stays stored).
    void start(std::string site_url);
    void stop();

    // What each user chose (the HTTP API changes it; the notices read it).
    MailChoices& choices() { return choices_; }
    // A new address: not confirmed, and a confirmation link mailed to it in `language`, which
    // its mails are written in from now on (blocks on the store).
    void set_address(std::uint64_t user, const std::string& name, const std::string& address,
                     Language language);
    // The one-click unsubscribe link's query ("user=5&sig=...") is genuine: mail stops.
    bool unsubscribe(std::uint64_t user, const std::string& signature);

    // A forgotten password's link, with the one-time `token`, to the user's confirmed address
    // (queued now; blocks on the store).
    void password_reset(const StoredEmail& email, const std::string& name,
                        const std::string& token);

    // --- Notices (any thread; they never wait for the relay) ---
    // Whether a turn of this user's would be mailed now (cached: no store read after the first).
    bool wants_turn_mail(std::uint64_t user);
    void turn(const TurnNotice& notice);
    // Mailed at once when the user wants invitations mailed; dropped if answered before it goes.
    void invitation(const InvitationNotice& notice);
    void season_started(std::uint64_t user, const std::string& name, const std::string& league,
                        std::uint64_t league_id, int season, int division,
                        const std::vector<SeasonTableNotice>& tables,
                        const std::vector<std::string>& your_turn);
    // A tournament's round seated the user at `table` (`your_turn`: they move first there).
    void tournament_round(std::uint64_t user, const std::string& name,
                          const std::string& tournament, std::uint64_t tournament_id, int round,
                          const SeasonTableNotice& table, bool your_turn);

  private:
    // Wakes the sending thread: shared with the store's callbacks, which may outlive the mailer.
    struct Signal {
        std::mutex mutex;
        std::condition_variable changed;
        bool stopping = false;
        bool woken = false;
    };

    // The signature of a user's unsubscribe link (hex HMAC-SHA256 of the user's id).
    std::string signature(std::uint64_t user);
    void run();
    bool stopping();
    // Digests and reminders that are due; old ended mails forgotten.
    void sweep(UnixMs now);
    void deliver(const QueuedMail& mail, UnixMs now);
    // Whether `mail` is still wanted: the address is the same and confirmed, mail is not off,
    // and for a turn or reminder the turn has not passed.
    bool still_wanted(const QueuedMail& mail);
    void queue(QueuedMail mail);
    QueuedMail mail_to(const StoredEmail& email, MailKind kind, std::string key,
                       const MailContent& content, UnixMs due);
    std::string table_link(const std::string& table) const;
    static std::vector<std::string> names_of(const StoredTable& table);
    // The name given to the table at its creation; empty: none (or unreadable settings).
    static std::string given_name(const StoredTable& table);
    MailTable mail_table(const StoredTable& table, bool your_turn) const;

    Store& store_;
    Metrics& metrics_;
    const MailSettings settings_;
    const std::string secret_;  // the unsubscribe links' key
    std::string site_url_;      // set by start(), before any mail is written
    std::string host_;          // of the sender's address: Message-IDs end with it
    std::shared_ptr<Signal> signal_;
    MailChoices choices_;
    // The sending thread's:
    UnixMs reminders_until_ = 0;  // deadlines up to here were looked at for reminders
    UnixMs next_forget_ = 0;
    std::thread thread_;
};

}  // namespace gcor::server
