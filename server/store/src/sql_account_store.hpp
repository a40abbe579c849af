#pragma once
// Users, sessions and vacations, written once for both databases.
#include "gcor/store/account_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlAccountStore : public virtual AccountStore {
  public:
    explicit SqlAccountStore(StoreAccess& access) : access_(access) {}

    std::optional<StoredUser> create_user(const std::string& name,
                                          const std::string& password_hash) override;
    StoredUser create_guest(const std::string& name) override;
    std::optional<StoredUser> user_by_name(const std::string& name) override;
    std::optional<StoredUser> user_by_id(std::uint64_t id) override;
    void set_webhook(std::uint64_t user, const std::string& url) override;
    UserPreferences preferences_of(std::uint64_t user) override;
    void set_preferences(std::uint64_t user, const UserPreferences& preferences) override;
    std::vector<UserPreferencesOf> changed_preferences() override;
    std::vector<UserVacation> vacations_ending_after(UnixMs after) override;
    void replace_vacations(std::uint64_t user, UnixMs after,
                           const std::vector<StoredVacation>& vacations) override;
    std::vector<StoredVacation> vacations_of(std::uint64_t user) override;
    std::vector<std::string> erase_user(const AccountErasure& erasure) override;
    void rename_seats(std::uint64_t user, const std::string& name) override;
    std::optional<RegisteredGuest> register_guest(std::uint64_t user, const std::string& name,
                                                  const std::string& password_hash) override;
    std::vector<std::string> set_password(std::uint64_t user, const std::string& password_hash,
                                          const std::string& kept_session) override;
    void add_password_reset(std::uint64_t user, const std::string& token_hash,
                            UnixMs expires) override;
    std::optional<StoredPasswordReset> password_reset(const std::string& token_hash) override;
    std::optional<std::vector<std::string>> use_password_reset(
        const std::string& token_hash, const std::string& password_hash) override;
    void add_session(const std::string& token_hash, std::uint64_t user, UnixMs expires) override;
    std::optional<StoredUser> session_user(const std::string& token_hash, UnixMs now) override;
    void remove_session(const std::string& token_hash) override;
    std::size_t remove_expired_sessions(UnixMs now) override;

  private:
    // The user of the first row of `from_where` (a FROM and WHERE clause over users u).
    std::optional<StoredUser> read_user(const std::string& from_where, const SqlParams& params);

    StoreAccess& access_;
};

}  // namespace gcor::server
