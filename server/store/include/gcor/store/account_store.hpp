#pragma once
// Users, their sessions and vacations (synchronous: rare, and the caller needs the answer).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store_basics.hpp"

namespace gcor::server {

struct StoredUser {
    std::uint64_t id = 0;
    std::string name;
    bool guest = true;
    std::string password_hash;  // argon2id string (crypto_pwhash_str); empty for a guest
    std::string webhook;        // URL called when it becomes the user's turn; empty: none
    UnixMs created = 0;
};

// What a user chose about how the game plays for them (docs/protocol.md, "Preferences"); a new
// user has these defaults.
struct UserPreferences {
    // A turn that the yucata rules would end after the player's move waits for their own end
    // move, so that the move stays undoable (docs/rules.md, "Taking moves back").
    bool confirm_turn = true;

    bool operator==(const UserPreferences&) const = default;
};

struct UserPreferencesOf {
    std::uint64_t user = 0;
    UserPreferences preferences;
};

// A password reset's one-time token, as the store keeps it (docs/protocol.md, "HTTP API").
struct StoredPasswordReset {
    std::uint64_t user = 0;
    UnixMs expires = 0;
};

// A guest who became a registered user: the account, and the hashes of the guest's sessions,
// which ended.
struct RegisteredGuest {
    StoredUser user;
    std::vector<std::string> ended_sessions;
};

// A time a user is away (docs/protocol.md, "Vacations"): from `starts` until `ends`, excluded.
struct StoredVacation {
    UnixMs starts = 0;
    UnixMs ends = 0;

    bool operator==(const StoredVacation&) const = default;
};

struct UserVacation {
    std::uint64_t user = 0;
    StoredVacation vacation;

    bool operator==(const UserVacation&) const = default;
};

// How long an erased account's name stays taken: nobody takes it over while others still
// remember it (docs/operations.md, "Your data").
constexpr UnixMs kErasedNameHeldMs = UnixMs{30} * 24 * 60 * 60 * 1000;

// A finished season's final table (JSON text), as an erasure writes it again.
struct SeasonFinalTable {
    std::uint64_t league = 0;
    int season = 0;
    std::string final_table;
};

// What erasing an account writes (AccountStore::erase_user).
struct AccountErasure {
    std::uint64_t user = 0;
    std::string name;  // shown from now on wherever the user was named: "deleted player N"
    UnixMs at = 0;     // the old name is free for registration kErasedNameHeldMs later
    // The finished seasons' final tables that named the user, with the new name.
    std::vector<SeasonFinalTable> final_tables;
};

class AccountStore {
  public:
    virtual ~AccountStore() = default;

    // A registered user; nullopt when a registered user has this name already, or had it and
    // was erased less than kErasedNameHeldMs ago (names compare case-insensitively).
    virtual std::optional<StoredUser> create_user(const std::string& name,
                                                  const std::string& password_hash) = 0;
    virtual StoredUser create_guest(const std::string& name) = 0;
    // A registered user by name (case-insensitive); guests and erased users are never found by
    // name.
    virtual std::optional<StoredUser> user_by_name(const std::string& name) = 0;
    virtual std::optional<StoredUser> user_by_id(std::uint64_t id) = 0;
    virtual void set_webhook(std::uint64_t user, const std::string& url) = 0;
    // The defaults for a user that does not exist.
    virtual UserPreferences preferences_of(std::uint64_t user) = 0;
    virtual void set_preferences(std::uint64_t user, const UserPreferences& preferences) = 0;
    // The users whose preferences are not the defaults (the server keeps them in memory), by id.
    virtual std::vector<UserPreferencesOf> changed_preferences() = 0;
    // Everybody's vacations that end after `after`, by user, then oldest first.
    virtual std::vector<UserVacation> vacations_ending_after(UnixMs after) = 0;
    // In one transaction: the user's vacations that end after `after` are replaced by
    // `vacations` (which may be none). Declaring, changing and ending a vacation are all this.
    virtual void replace_vacations(std::uint64_t user, UnixMs after,
                                   const std::vector<StoredVacation>& vacations) = 0;
    // The user's vacations, past ones too, oldest first.
    virtual std::vector<StoredVacation> vacations_of(std::uint64_t user) = 0;
    // In one transaction: the user's row keeps only its id, the new name and its creation (no
    // password, no webhook, default preferences), and holds the old name until `at` +
    // kErasedNameHeldMs; the name in their seats, chat lines (emptied, deleted) and the final
    // tables changes; their sessions, mail address, queued mails, vacations, mutes, friends and
    // blocks (theirs and of them), password resets and sign-ups for seasons not started are gone.
    // Returns the hashes of the sessions it ended. Other users' games, moves and scores stay as
    // they were.
    virtual std::vector<std::string> erase_user(const AccountErasure& erasure) = 0;
    // The guest `user` becomes a registered user named `name` with this password, keeping its
    // id; their seats take the name, and every session of the guest ends. nullopt when a
    // registered user has the name already or `user` is no guest.
    virtual std::optional<RegisteredGuest> register_guest(std::uint64_t user,
                                                          const std::string& name,
                                                          const std::string& password_hash) = 0;
    // Every seat of `user` takes the name `name` (the user's now): for a table in memory that
    // stored its seats with the old name while it was being renamed.
    virtual void rename_seats(std::uint64_t user, const std::string& name) = 0;
    // The user's password replaced, and every session of the user ended but the one whose token
    // hash is `kept_session` (empty: none kept). The hashes of the sessions ended.
    virtual std::vector<std::string> set_password(std::uint64_t user,
                                                  const std::string& password_hash,
                                                  const std::string& kept_session) = 0;
    // A password reset's token (its hash) for the user, replacing any earlier one of the user's.
    virtual void add_password_reset(std::uint64_t user, const std::string& token_hash,
                                    UnixMs expires) = 0;
    // The reset with this token hash, not used yet (perhaps expired).
    virtual std::optional<StoredPasswordReset> password_reset(const std::string& token_hash) = 0;
    // Uses up the reset token: its user's password replaced and every session of the user ended
    // (their hashes returned), in one transaction; nullopt when the token is unknown (used
    // meanwhile).
    virtual std::optional<std::vector<std::string>> use_password_reset(
        const std::string& token_hash, const std::string& password_hash) = 0;
    // Tokens are kept only as hashes.
    virtual void add_session(const std::string& token_hash, std::uint64_t user, UnixMs expires) = 0;
    // The session's user; nullopt when the token is unknown or expired at `now`.
    virtual std::optional<StoredUser> session_user(const std::string& token_hash, UnixMs now) = 0;
    virtual void remove_session(const std::string& token_hash) = 0;
    // Forgets sessions expired before `now`; returns how many.
    virtual std::size_t remove_expired_sessions(UnixMs now) = 0;
};
}  // namespace gcor::server
