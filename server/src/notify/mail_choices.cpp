#include "notify/mail_choices.hpp"

#include <spdlog/spdlog.h>

#include "crypto.hpp"

namespace gcor::server {
namespace {

constexpr std::size_t kMaxCachedUsers = 100'000;

}  // namespace

std::optional<StoredEmail> MailChoices::cached(std::uint64_t user) {
    {
        std::lock_guard lock(mutex_);
        if (const auto it = emails_.find(user); it != emails_.end()) return it->second;
    }
    std::optional<StoredEmail> email;
    try {
        email = store_.email_of(user);
    } catch (const StorageFailure& failure) {
        spdlog::warn("mail: {}", failure.what());
        return std::nullopt;  // not remembered: asked again next time
    }
    std::lock_guard lock(mutex_);
    if (emails_.size() >= kMaxCachedUsers) emails_.clear();
    emails_.emplace(user, email);
    return email;
}

void MailChoices::forget(std::uint64_t user) {
    std::lock_guard lock(mutex_);
    emails_.erase(user);
}

void MailChoices::set_address(std::uint64_t user, const std::string& address,
                              const std::string& token_hash, UnixMs confirm_by, Language language) {
    store_.set_email(user, address, token_hash, confirm_by);
    store_.set_mail_language(user, std::string(protocol::language_id(language)));
    forget(user);
}

void MailChoices::set_language(std::uint64_t user, Language language) {
    store_.set_mail_language(user, std::string(protocol::language_id(language)));
    forget(user);
}

void MailChoices::remove_address(std::uint64_t user) {
    store_.remove_email(user);
    forget(user);
}

std::optional<std::uint64_t> MailChoices::confirm(const std::string& token) {
    const auto user = store_.confirm_email(token_hash(token), unix_now_ms());
    if (user) forget(*user);
    return user;
}

void MailChoices::set_frequency(std::uint64_t user, MailFrequency frequency) {
    const auto digest_due =
        frequency == MailFrequency::daily
            ? std::optional(
                  unix_now_ms() +
                  std::chrono::duration_cast<std::chrono::milliseconds>(digest_every_).count())
            : std::nullopt;
    store_.set_mail_frequency(user, frequency, digest_due);
    forget(user);
}

void MailChoices::set_invitation_mails(std::uint64_t user, bool wanted) {
    store_.set_invitation_mails(user, wanted);
    forget(user);
}

}  // namespace gcor::server
