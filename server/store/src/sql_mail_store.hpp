#pragma once
// E-mail addresses, the mail queue and the server's secrets, written once for both databases.
#include "gcor/store/mail_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlMailStore : public virtual MailStore {
  public:
    explicit SqlMailStore(StoreAccess& access) : access_(access) {}

    std::optional<StoredEmail> email_of(std::uint64_t user) override;
    void set_email(std::uint64_t user, const std::string& address, const std::string& token_hash,
                   UnixMs token_expires) override;
    void remove_email(std::uint64_t user) override;
    std::optional<std::uint64_t> confirm_email(const std::string& token_hash, UnixMs now) override;
    void set_mail_frequency(std::uint64_t user, MailFrequency frequency,
                            std::optional<UnixMs> digest_due) override;
    void set_mail_language(std::uint64_t user, const std::string& language) override;
    std::vector<StoredEmail> confirmed_emails(const std::string& address) override;
    void set_invitation_mails(std::uint64_t user, bool wanted) override;
    std::vector<StoredEmail> digests_due(UnixMs now) override;
    void queue_mail(const QueuedMail& mail, Done done) override;
    std::vector<QueuedMail> take_due_mails(UnixMs now, std::size_t limit,
                                           UnixMs kept_until) override;
    std::optional<UnixMs> next_mail_due() override;
    void end_mail(std::uint64_t id, MailOutcome outcome, UnixMs at) override;
    void retry_mail(std::uint64_t id, UnixMs retry_at) override;
    std::size_t forget_mails(UnixMs before) override;
    std::string secret(const std::string& name, const std::string& if_new) override;

  private:
    StoreAccess& access_;
};

}  // namespace gcor::server
