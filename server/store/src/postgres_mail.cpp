#include "postgres_mail.hpp"

#include "store_texts.hpp"

namespace gcor::server::postgres_mail {

namespace {

using store_texts::from_text_or;
using store_texts::text_of;

constexpr const char* kPgEmailSelect =
    "SELECT user_id, address, confirmed, frequency, digest_due, language FROM emails";

std::vector<StoredEmail> pg_emails(const pg::Result& rows) {
    std::vector<StoredEmail> emails;
    for (int i = 0; i < rows.rows(); ++i) {
        StoredEmail email;
        email.user = rows.uint64(i, 0);
        email.address = rows.text(i, 1);
        email.confirmed = rows.boolean(i, 2);
        email.frequency =
            from_text_or(rows.text(i, 3), store_texts::kFrequencies, MailFrequency::each_turn);
        email.digest_due = rows.optional_int64(i, 4);
        email.language = rows.text(i, 5);
        emails.push_back(std::move(email));
    }
    return emails;
}

}  // namespace

std::optional<StoredEmail> select_email(pg::Connection& db, std::uint64_t user) {
    auto emails =
        pg_emails(db.query(std::string(kPgEmailSelect) + " WHERE user_id = $1", pg::params(user)));
    if (emails.empty()) return std::nullopt;
    return std::move(emails.front());
}

std::vector<StoredEmail> select_digests_due(pg::Connection& db, UnixMs now) {
    return pg_emails(db.query(std::string(kPgEmailSelect) +
                                  " WHERE frequency = 'daily' AND confirmed AND digest_due <= $1 "
                                  "ORDER BY digest_due",
                              pg::params(now)));
}

std::vector<QueuedMail> take_due(pg::Connection& db, UnixMs now, std::size_t limit,
                                 UnixMs kept_until) {
    // Rows another process is taking are skipped, not waited for: each mail goes to one taker.
    const pg::Result rows = db.query(
        "SELECT id, key, kind, user_id, recipient, message, table_id, seat, version, due, "
        "attempts FROM mail_queue WHERE ended IS NULL AND due <= $1 ORDER BY due, id LIMIT $2 "
        "FOR UPDATE SKIP LOCKED",
        pg::params(now, limit));
    std::vector<QueuedMail> due;
    for (int i = 0; i < rows.rows(); ++i) {
        QueuedMail mail;
        mail.id = rows.uint64(i, 0);
        mail.key = rows.text(i, 1);
        mail.kind = from_text_or(rows.text(i, 2), store_texts::kMailKinds, MailKind::turn);
        mail.user = rows.uint64(i, 3);
        mail.recipient = rows.text(i, 4);
        mail.message = rows.text(i, 5);
        if (!rows.null(i, 6)) {
            mail.table = rows.text(i, 6);
            mail.seat = rows.int32(i, 7);
            mail.version = rows.uint64(i, 8);
        }
        mail.due = rows.int64(i, 9);
        mail.attempts = rows.int32(i, 10);
        due.push_back(std::move(mail));
    }
    for (QueuedMail& mail : due) {
        db.query("UPDATE mail_queue SET due = $1 WHERE id = $2", pg::params(kept_until, mail.id));
        mail.due = kept_until;
    }
    return due;
}

std::optional<UnixMs> select_next_due(pg::Connection& db) {
    return db.query("SELECT min(due) FROM mail_queue WHERE ended IS NULL").optional_int64(0, 0);
}

std::optional<std::string> select_secret(pg::Connection& db, const std::string& name) {
    const pg::Result rows = db.query("SELECT value FROM secrets WHERE name = $1", pg::params(name));
    if (rows.empty()) return std::nullopt;
    return rows.text(0, 0);
}

void write_email(pg::Connection& db, std::uint64_t user, const std::string& address,
                 const std::string& token_hash, UnixMs token_expires) {
    db.query(
        "INSERT INTO emails (user_id, address, confirmed, frequency, token_hash, token_expires) "
        "VALUES ($1, $2, false, 'each_turn', $3, $4) ON CONFLICT (user_id) DO UPDATE SET "
        "address = EXCLUDED.address, confirmed = false, token_hash = EXCLUDED.token_hash, "
        "token_expires = EXCLUDED.token_expires",
        pg::params(user, address, token_hash, token_expires));
}

void delete_email(pg::Connection& db, std::uint64_t user) {
    db.query("DELETE FROM emails WHERE user_id = $1", pg::params(user));
}

std::optional<std::uint64_t> confirm(pg::Connection& db, const std::string& token_hash,
                                     UnixMs now) {
    const pg::Result confirmed = db.query(
        "UPDATE emails SET confirmed = true, token_hash = NULL, token_expires = NULL "
        "WHERE token_hash = $1 AND token_expires > $2 RETURNING user_id",
        pg::params(token_hash, now));
    if (confirmed.empty()) return std::nullopt;
    return confirmed.uint64(0, 0);
}

void write_frequency(pg::Connection& db, std::uint64_t user, MailFrequency frequency,
                     std::optional<UnixMs> digest_due) {
    db.query("UPDATE emails SET frequency = $1, digest_due = $2 WHERE user_id = $3",
             pg::params(text_of(frequency, store_texts::kFrequencies), digest_due, user));
}

void write_language(pg::Connection& db, std::uint64_t user, const std::string& language) {
    db.query("UPDATE emails SET language = $1 WHERE user_id = $2", pg::params(language, user));
}

void insert_mail(pg::Connection& db, const QueuedMail& mail) {
    const bool about_table = !mail.table.empty();
    db.query(
        "INSERT INTO mail_queue (key, kind, user_id, recipient, message, table_id, seat, "
        "version, due) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (key) DO NOTHING",
        pg::params(mail.key, text_of(mail.kind, store_texts::kMailKinds), mail.user, mail.recipient,
                   mail.message, about_table ? std::optional(mail.table) : std::nullopt,
                   about_table ? std::optional(mail.seat) : std::nullopt,
                   about_table ? std::optional(mail.version) : std::nullopt, mail.due));
}

void end_mail(pg::Connection& db, std::uint64_t id, MailOutcome outcome, UnixMs at) {
    // The message goes: a sent mail is kept only as long as its key must stay taken.
    db.query("UPDATE mail_queue SET ended = $1, outcome = $2, message = '' WHERE id = $3",
             pg::params(at, text_of(outcome, store_texts::kOutcomes), id));
}

void retry_mail(pg::Connection& db, std::uint64_t id, UnixMs retry_at) {
    db.query("UPDATE mail_queue SET attempts = attempts + 1, due = $1 WHERE id = $2",
             pg::params(retry_at, id));
}

std::size_t delete_ended(pg::Connection& db, UnixMs before) {
    return db.query("DELETE FROM mail_queue WHERE ended < $1", pg::params(before)).affected();
}

std::string insert_secret(pg::Connection& db, const std::string& name, const std::string& value) {
    db.query("INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
             pg::params(name, value));
    return *select_secret(db, name);
}

}  // namespace gcor::server::postgres_mail
