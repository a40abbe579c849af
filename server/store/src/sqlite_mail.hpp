#pragma once
// The SQL of e-mail addresses, the mail queue and the server's secrets for the SQLite store
// (sqlite_store.cpp): reads on the reader's connection inside its read transaction, writes on the
// writer's inside its transaction.
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server::sqlite_mail {

std::optional<StoredEmail> select_email(SQLite::Database& db, std::uint64_t user);
std::vector<StoredEmail> select_digests_due(SQLite::Database& db, UnixMs now);
// The writer's: Store::take_due_mails.
std::vector<QueuedMail> take_due(SQLite::Database& db, UnixMs now, std::size_t limit,
                                 UnixMs kept_until);
std::optional<UnixMs> select_next_due(SQLite::Database& db);
std::optional<std::string> select_secret(SQLite::Database& db, const std::string& name);

void write_email(SQLite::Database& db, std::uint64_t user, const std::string& address,
                 const std::string& token_hash, UnixMs token_expires);
void delete_email(SQLite::Database& db, std::uint64_t user);
std::optional<std::uint64_t> confirm(SQLite::Database& db, const std::string& token_hash,
                                     UnixMs now);
void write_frequency(SQLite::Database& db, std::uint64_t user, MailFrequency frequency,
                     std::optional<UnixMs> digest_due);
void write_language(SQLite::Database& db, std::uint64_t user, const std::string& language);
void insert_mail(SQLite::Database& db, const QueuedMail& mail);
void end_mail(SQLite::Database& db, std::uint64_t id, MailOutcome outcome, UnixMs at);
void retry_mail(SQLite::Database& db, std::uint64_t id, UnixMs retry_at);
std::size_t delete_ended(SQLite::Database& db, UnixMs before);
// Inserts `value` unless the secret exists; the secret as stored.
std::string insert_secret(SQLite::Database& db, const std::string& name, const std::string& value);

}  // namespace gcor::server::sqlite_mail
