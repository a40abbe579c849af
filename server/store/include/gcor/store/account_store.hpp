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

class AccountStore {
  public:
    virtual ~AccountStore() = default;

    // A registered user; nullopt when a registered user has this name already (names compare
    // case-insensitively).
    virtual std::optional<StoredUser> create_user(const std::string& name,
                                                  const std::string& password_hash) = 0;
    virtual StoredUser create_guest(const std::string& name) = 0;
    // A registered user by name (case-insensitive); guests are never found by name.
    virtual std::optional<StoredUser> user_by_name(const std::string& name) = 0;
    virtual std::optional<StoredUser> user_by_id(std::uint64_t id) = 0;
    virtual void set_webhook(std::uint64_t user, const std::string& url) = 0;
    // Everybody's vacations that end after `after`, by user, then oldest first.
    virtual std::vector<UserVacation> vacations_ending_after(UnixMs after) = 0;
    // In one transaction: the user's vacations that end after `after` are replaced by
    // `vacations` (which may be none). Declaring, changing and ending a vacation are all this.
    virtual void replace_vacations(std::uint64_t user, UnixMs after,
                                   const std::vector<StoredVacation>& vacations) = 0;
    // Tokens are kept only as hashes.
    virtual void add_session(const std::string& token_hash, std::uint64_t user, UnixMs expires) = 0;
    // The session's user; nullopt when the token is unknown or expired at `now`.
    virtual std::optional<StoredUser> session_user(const std::string& token_hash, UnixMs now) = 0;
    virtual void remove_session(const std::string& token_hash) = 0;
    // Forgets sessions expired before `now`; returns how many.
    virtual std::size_t remove_expired_sessions(UnixMs now) = 0;
};
}  // namespace gcor::server
