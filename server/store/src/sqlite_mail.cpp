#include "sqlite_mail.hpp"

#include <array>
#include <string_view>

#include "sqlite_support.hpp"
#include "store_texts.hpp"

namespace gcor::server::sqlite_mail {

namespace {

using store_texts::from_text_or;
using store_texts::kFrequencies;
using store_texts::kOutcomes;
using store_texts::text_of;
constexpr const auto& kKinds = store_texts::kMailKinds;

constexpr const char* kEmailColumns = "user, address, confirmed, frequency, digest_due, language";

StoredEmail email_from_row(const SQLite::Statement& row) {
    StoredEmail email;
    email.user = from_sql(row.getColumn(0).getInt64());
    email.address = row.getColumn(1).getString();
    email.confirmed = row.getColumn(2).getInt() != 0;
    email.frequency =
        from_text_or(row.getColumn(3).getString(), kFrequencies, MailFrequency::each_turn);
    if (!row.isColumnNull(4)) email.digest_due = row.getColumn(4).getInt64();
    email.language = row.getColumn(5).getString();
    return email;
}

}  // namespace

std::optional<StoredEmail> select_email(SQLite::Database& db, std::uint64_t user) {
    SQLite::Statement select(
        db, std::string("SELECT ") + kEmailColumns + " FROM emails WHERE user = ?");
    select.bind(1, to_sql(user));
    if (!select.executeStep()) return std::nullopt;
    return email_from_row(select);
}

std::vector<StoredEmail> select_digests_due(SQLite::Database& db, UnixMs now) {
    SQLite::Statement select(db, std::string("SELECT ") + kEmailColumns +
                                     " FROM emails WHERE frequency = 'daily' AND confirmed = 1 "
                                     "AND digest_due <= ? ORDER BY digest_due");
    select.bind(1, now);
    std::vector<StoredEmail> due;
    while (select.executeStep())
        due.push_back(email_from_row(select));
    return due;
}

std::vector<QueuedMail> take_due(SQLite::Database& db, UnixMs now, std::size_t limit,
                                 UnixMs kept_until) {
    SQLite::Statement select(db,
                             "SELECT id, key, kind, user, recipient, message, table_id, seat, "
                             "version, due, attempts FROM mail_queue "
                             "WHERE ended IS NULL AND due <= ? ORDER BY due, id LIMIT ?");
    select.bind(1, now);
    select.bind(2, static_cast<std::int64_t>(limit));
    std::vector<QueuedMail> due;
    while (select.executeStep()) {
        QueuedMail mail;
        mail.id = from_sql(select.getColumn(0).getInt64());
        mail.key = select.getColumn(1).getString();
        mail.kind = from_text_or(select.getColumn(2).getString(), kKinds, MailKind::turn);
        mail.user = from_sql(select.getColumn(3).getInt64());
        mail.recipient = select.getColumn(4).getString();
        mail.message = select.getColumn(5).getString();
        if (!select.isColumnNull(6)) {
            mail.table = select.getColumn(6).getString();
            mail.seat = select.getColumn(7).getInt();
            mail.version = from_sql(select.getColumn(8).getInt64());
        }
        mail.due = select.getColumn(9).getInt64();
        mail.attempts = select.getColumn(10).getInt();
        due.push_back(std::move(mail));
    }
    SQLite::Statement keep(db, "UPDATE mail_queue SET due = ? WHERE id = ?");
    for (QueuedMail& mail : due) {
        keep.reset();
        keep.bind(1, kept_until);
        keep.bind(2, to_sql(mail.id));
        keep.exec();
        mail.due = kept_until;
    }
    return due;
}

std::optional<UnixMs> select_next_due(SQLite::Database& db) {
    SQLite::Statement select(db, "SELECT min(due) FROM mail_queue WHERE ended IS NULL");
    if (!select.executeStep() || select.isColumnNull(0)) return std::nullopt;
    return select.getColumn(0).getInt64();
}

std::optional<std::string> select_secret(SQLite::Database& db, const std::string& name) {
    SQLite::Statement select(db, "SELECT value FROM secrets WHERE name = ?");
    select.bind(1, name);
    if (!select.executeStep()) return std::nullopt;
    return select.getColumn(0).getString();
}

void write_email(SQLite::Database& db, std::uint64_t user, const std::string& address,
                 const std::string& token_hash, UnixMs token_expires) {
    SQLite::Statement upsert(
        db,
        "INSERT INTO emails (user, address, confirmed, frequency, token_hash, token_expires) "
        "VALUES (?1, ?2, 0, 'each_turn', ?3, ?4) ON CONFLICT (user) DO UPDATE SET "
        "address = ?2, confirmed = 0, token_hash = ?3, token_expires = ?4");
    upsert.bind(1, to_sql(user));
    upsert.bind(2, address);
    upsert.bind(3, token_hash);
    upsert.bind(4, token_expires);
    upsert.exec();
}

void delete_email(SQLite::Database& db, std::uint64_t user) {
    SQLite::Statement remove(db, "DELETE FROM emails WHERE user = ?");
    remove.bind(1, to_sql(user));
    remove.exec();
}

std::optional<std::uint64_t> confirm(SQLite::Database& db, const std::string& token_hash,
                                     UnixMs now) {
    SQLite::Statement update(db,
                             "UPDATE emails SET confirmed = 1, token_hash = NULL, "
                             "token_expires = NULL WHERE token_hash = ? AND token_expires > ? "
                             "RETURNING user");
    update.bind(1, token_hash);
    update.bind(2, now);
    if (!update.executeStep()) return std::nullopt;
    const std::uint64_t user = from_sql(update.getColumn(0).getInt64());
    while (update.executeStep()) {
    }
    return user;
}

void write_language(SQLite::Database& db, std::uint64_t user, const std::string& language) {
    SQLite::Statement update(db, "UPDATE emails SET language = ? WHERE user = ?");
    update.bind(1, language);
    update.bind(2, to_sql(user));
    update.exec();
}

void write_frequency(SQLite::Database& db, std::uint64_t user, MailFrequency frequency,
                     std::optional<UnixMs> digest_due) {
    SQLite::Statement update(db, "UPDATE emails SET frequency = ?, digest_due = ? WHERE user = ?");
    update.bind(1, text_of(frequency, kFrequencies));
    if (digest_due)
        update.bind(2, *digest_due);
    else
        update.bind(2);
    update.bind(3, to_sql(user));
    update.exec();
}

void insert_mail(SQLite::Database& db, const QueuedMail& mail) {
    SQLite::Statement insert(db,
                             "INSERT INTO mail_queue (key, kind, user, recipient, message, "
                             "table_id, seat, version, due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                             "ON CONFLICT (key) DO NOTHING");
    insert.bind(1, mail.key);
    insert.bind(2, text_of(mail.kind, kKinds));
    insert.bind(3, to_sql(mail.user));
    insert.bind(4, mail.recipient);
    insert.bind(5, mail.message);
    if (mail.table.empty()) {
        insert.bind(6);
        insert.bind(7);
        insert.bind(8);
    } else {
        insert.bind(6, mail.table);
        insert.bind(7, mail.seat);
        insert.bind(8, to_sql(mail.version));
    }
    insert.bind(9, mail.due);
    insert.exec();
}

void end_mail(SQLite::Database& db, std::uint64_t id, MailOutcome outcome, UnixMs at) {
    // The message goes: a sent mail is kept only as long as its key must stay taken.
    SQLite::Statement update(
        db, "UPDATE mail_queue SET ended = ?, outcome = ?, message = '' WHERE id = ?");
    update.bind(1, at);
    update.bind(2, text_of(outcome, kOutcomes));
    update.bind(3, to_sql(id));
    update.exec();
}

void retry_mail(SQLite::Database& db, std::uint64_t id, UnixMs retry_at) {
    SQLite::Statement update(db,
                             "UPDATE mail_queue SET attempts = attempts + 1, due = ? WHERE id = ?");
    update.bind(1, retry_at);
    update.bind(2, to_sql(id));
    update.exec();
}

std::size_t delete_ended(SQLite::Database& db, UnixMs before) {
    SQLite::Statement remove(db, "DELETE FROM mail_queue WHERE ended < ?");
    remove.bind(1, before);
    return static_cast<std::size_t>(remove.exec());
}

std::string insert_secret(SQLite::Database& db, const std::string& name, const std::string& value) {
    SQLite::Statement insert(
        db, "INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING");
    insert.bind(1, name);
    insert.bind(2, value);
    insert.exec();
    return *select_secret(db, name);
}

}  // namespace gcor::server::sqlite_mail
