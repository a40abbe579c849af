#pragma once
// What each user chose for their mail (docs/operations.md, "E-mail"): their address, whether it is
// confirmed, the language of its mails, how often turns are mailed and whether invitations are.
// The store keeps the choices; this keeps what it said of each user who had a turn, so that most
// turns cost no store read, and forgets a user's whenever they change. Thread-safe.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "gcor/protocol/events.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

class MailChoices {
  public:
    using Language = protocol::Language;

    // `store` outlives the choices; a daily digest is due `digest_every` after it was chosen.
    MailChoices(Store& store, std::chrono::seconds digest_every)
        : store_(store), digest_every_(digest_every) {}

    // As the store has it now (blocks on the store).
    std::optional<StoredEmail> email_of(std::uint64_t user) { return store_.email_of(user); }
    // As remembered, read once from the store; nullopt (not remembered) when it cannot be read.
    std::optional<StoredEmail> cached(std::uint64_t user);

    // The choices the HTTP API makes; each blocks on the store. A new address is not confirmed
    // until a link with the token whose hash is `token_hash` is followed before `confirm_by`.
    void set_address(std::uint64_t user, const std::string& address, const std::string& token_hash,
                     UnixMs confirm_by, Language language);
    void set_language(std::uint64_t user, Language language);
    void remove_address(std::uint64_t user);
    // The token from a confirmation link: the user whose address it confirmed, or nullopt.
    std::optional<std::uint64_t> confirm(const std::string& token);
    void set_frequency(std::uint64_t user, MailFrequency frequency);
    // Whether invitations to tables are mailed to the user.
    void set_invitation_mails(std::uint64_t user, bool wanted);
    // The store changed the user's address by itself (an erased account): read it again.
    void forget(std::uint64_t user);

  private:
    Store& store_;
    const std::chrono::seconds digest_every_;
    std::mutex mutex_;  // emails_
    std::unordered_map<std::uint64_t, std::optional<StoredEmail>> emails_;
};

}  // namespace gcor::server
