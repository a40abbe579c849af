#include "sql_mail_store.hpp"

#include <string>

#include "store_texts.hpp"

namespace gcor::server {

namespace {

using store_texts::from_text_or;
using store_texts::text_of;

constexpr const char* kEmailSelect =
    "SELECT user_id, address, confirmed, frequency, digest_due, language, invitation_mails "
    "FROM emails";

std::vector<StoredEmail> emails_of(const SqlRows& rows) {
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
        email.invitation_mails = rows.boolean(i, 6);
        emails.push_back(std::move(email));
    }
    return emails;
}

std::optional<std::string> select_secret(Sql& db, const std::string& name) {
    const SqlRows rows = db.query("SELECT value FROM secrets WHERE name = $1", sql_params(name));
    if (rows.empty()) return std::nullopt;
    return rows.text(0, 0);
}

}  // namespace

std::optional<StoredEmail> SqlMailStore::email_of(std::uint64_t user) {
    return first_of(access_.read_one([&](Sql& db) {
        return emails_of(
            db.query(std::string(kEmailSelect) + " WHERE user_id = $1", sql_params(user)));
    }));
}

void SqlMailStore::set_email(std::uint64_t user, const std::string& address,
                             const std::string& token_hash, UnixMs token_expires) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query(
                "INSERT INTO emails (user_id, address, confirmed, frequency, token_hash, "
                "token_expires) VALUES ($1, $2, false, 'each_turn', $3, $4) "
                "ON CONFLICT (user_id) DO UPDATE SET address = excluded.address, "
                "confirmed = false, token_hash = excluded.token_hash, "
                "token_expires = excluded.token_expires",
                sql_params(user, address, token_hash, token_expires));
        },
        "set an e-mail address");
}

void SqlMailStore::remove_email(std::uint64_t user) {
    access_.write_and_wait(
        [&](Sql& db) { db.query("DELETE FROM emails WHERE user_id = $1", sql_params(user)); },
        "remove an e-mail address");
}

std::optional<std::uint64_t> SqlMailStore::confirm_email(const std::string& token_hash,
                                                         UnixMs now) {
    std::optional<std::uint64_t> user;
    access_.write_and_wait(
        [&](Sql& db) {
            const SqlRows confirmed = db.query(
                "UPDATE emails SET confirmed = true, token_hash = NULL, token_expires = NULL "
                "WHERE token_hash = $1 AND token_expires > $2 RETURNING user_id",
                sql_params(token_hash, now));
            if (!confirmed.empty()) user = confirmed.uint64(0, 0);
        },
        "confirm an e-mail address");
    return user;
}

void SqlMailStore::set_mail_frequency(std::uint64_t user, MailFrequency frequency,
                                      std::optional<UnixMs> digest_due) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE emails SET frequency = $1, digest_due = $2 WHERE user_id = $3",
                     sql_params(text_of(frequency, store_texts::kFrequencies), digest_due, user));
        },
        "set how often to mail");
}

void SqlMailStore::set_mail_language(std::uint64_t user, const std::string& language) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE emails SET language = $1 WHERE user_id = $2",
                     sql_params(language, user));
        },
        "set the language of mails");
}

void SqlMailStore::set_invitation_mails(std::uint64_t user, bool wanted) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE emails SET invitation_mails = $1 WHERE user_id = $2",
                     sql_params(wanted, user));
        },
        "set whether to mail invitations");
}

std::vector<StoredEmail> SqlMailStore::confirmed_emails(const std::string& address) {
    // Addresses are ASCII (valid_mail_address), where both databases' lower() agree; the
    // index emails_address is on lower(address).
    return access_.read_one([&](Sql& db) {
        return emails_of(db.query(std::string(kEmailSelect) +
                                      " WHERE lower(address) = lower($1) AND confirmed = true "
                                      "ORDER BY user_id",
                                  sql_params(address)));
    });
}

std::vector<StoredEmail> SqlMailStore::digests_due(UnixMs now) {
    return access_.read_one([&](Sql& db) {
        return emails_of(db.query(std::string(kEmailSelect) +
                                      " WHERE frequency = 'daily' AND confirmed = true "
                                      "AND digest_due <= $1 ORDER BY digest_due",
                                  sql_params(now)));
    });
}

void SqlMailStore::queue_mail(const QueuedMail& mail, Done done) {
    access_.enqueue(
        [mail](Sql& db) {
            const bool about_table = !mail.table.empty();
            db.query(
                "INSERT INTO mail_queue (key, kind, user_id, recipient, message, table_id, seat, "
                "version, due) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (key) DO NOTHING",
                sql_params(mail.key, text_of(mail.kind, store_texts::kMailKinds), mail.user,
                           mail.recipient, mail.message,
                           about_table ? std::optional(mail.table) : std::nullopt,
                           about_table ? std::optional(mail.seat) : std::nullopt,
                           about_table ? std::optional(mail.version) : std::nullopt, mail.due));
        },
        std::move(done));
}

std::vector<QueuedMail> SqlMailStore::take_due_mails(UnixMs now, std::size_t limit,
                                                     UnixMs kept_until) {
    std::vector<QueuedMail> due;
    access_.write_and_wait(
        [&](Sql& db) {
            due.clear();
            // Each mail goes to one taker, also among processes sharing the database.
            const SqlRows rows = db.query(
                "SELECT id, key, kind, user_id, recipient, message, table_id, seat, "
                "version, due, attempts FROM mail_queue WHERE ended IS NULL AND "
                "due <= $1 ORDER BY due, id LIMIT $2" +
                    std::string(skip_locked_rows(db.dialect())),
                sql_params(now, limit));
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
                mail.due = kept_until;
                mail.attempts = rows.int32(i, 10);
                db.query("UPDATE mail_queue SET due = $1 WHERE id = $2",
                         sql_params(kept_until, mail.id));
                due.push_back(std::move(mail));
            }
        },
        "take mails");
    return due;
}

std::optional<UnixMs> SqlMailStore::next_mail_due() {
    return access_.read_one([](Sql& db) {
        return db.query("SELECT min(due) FROM mail_queue WHERE ended IS NULL").optional_int64(0, 0);
    });
}

void SqlMailStore::end_mail(std::uint64_t id, MailOutcome outcome, UnixMs at) {
    access_.write_and_wait(
        [&](Sql& db) {
            // The message goes: a sent mail is kept only as long as its key must stay taken.
            db.query("UPDATE mail_queue SET ended = $1, outcome = $2, message = '' WHERE id = $3",
                     sql_params(at, text_of(outcome, store_texts::kOutcomes), id));
        },
        "end a mail");
}

void SqlMailStore::retry_mail(std::uint64_t id, UnixMs retry_at) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE mail_queue SET attempts = attempts + 1, due = $1 WHERE id = $2",
                     sql_params(retry_at, id));
        },
        "postpone a mail");
}

std::size_t SqlMailStore::forget_mails(UnixMs before) {
    std::size_t forgotten = 0;
    access_.write_and_wait(
        [&](Sql& db) {
            forgotten =
                db.query("DELETE FROM mail_queue WHERE ended < $1", sql_params(before)).affected();
        },
        "forget old mails");
    return forgotten;
}

std::string SqlMailStore::secret(const std::string& name, const std::string& if_new) {
    if (auto known = access_.read_one([&](Sql& db) { return select_secret(db, name); }))
        return *known;
    std::string value;
    access_.write_and_wait(
        [&](Sql& db) {
            db.query(
                "INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                sql_params(name, if_new));
            value = *select_secret(db, name);
        },
        "keep a secret");
    return value;
}

}  // namespace gcor::server
