#pragma once
// The SQL of e-mail addresses, the mail queue and the server's secrets for the PostgreSQL store
// (postgres_store.cpp): reads on a reader's connection inside its read transaction, writes on the
// writer's inside its transaction.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"
#include "postgres_connection.hpp"

namespace gcor::server::postgres_mail {

std::optional<StoredEmail> select_email(pg::Connection& db, std::uint64_t user);
std::vector<StoredEmail> select_digests_due(pg::Connection& db, UnixMs now);
// The writer's: Store::take_due_mails.
std::vector<QueuedMail> take_due(pg::Connection& db, UnixMs now, std::size_t limit,
                                 UnixMs kept_until);
std::optional<UnixMs> select_next_due(pg::Connection& db);
std::optional<std::string> select_secret(pg::Connection& db, const std::string& name);

void write_email(pg::Connection& db, std::uint64_t user, const std::string& address,
                 const std::string& token_hash, UnixMs token_expires);
void delete_email(pg::Connection& db, std::uint64_t user);
std::optional<std::uint64_t> confirm(pg::Connection& db, const std::string& token_hash, UnixMs now);
void write_frequency(pg::Connection& db, std::uint64_t user, MailFrequency frequency,
                     std::optional<UnixMs> digest_due);
void write_language(pg::Connection& db, std::uint64_t user, const std::string& language);
void insert_mail(pg::Connection& db, const QueuedMail& mail);
void end_mail(pg::Connection& db, std::uint64_t id, MailOutcome outcome, UnixMs at);
void retry_mail(pg::Connection& db, std::uint64_t id, UnixMs retry_at);
std::size_t delete_ended(pg::Connection& db, UnixMs before);
// Inserts `value` unless the secret exists; the secret as stored.
std::string insert_secret(pg::Connection& db, const std::string& name, const std::string& value);

}  // namespace gcor::server::postgres_mail
