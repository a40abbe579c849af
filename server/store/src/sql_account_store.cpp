#include "sql_account_store.hpp"

#include <string>

#include "gcor/store/user.hpp"

namespace gcor::server {

namespace {

// Ends the user's sessions but `kept` (a token hash; empty: none): the hashes of those ended.
std::vector<std::string> end_sessions(Sql& db, std::uint64_t user, const std::string& kept) {
    const SqlRows ended = db.query(
        "DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash",
        sql_params(user, kept));
    std::vector<std::string> hashes;
    for (int i = 0; i < ended.rows(); ++i)
        hashes.push_back(ended.text(i, 0));
    return hashes;
}

}  // namespace

std::optional<StoredUser> SqlAccountStore::read_user(const std::string& from_where,
                                                     const SqlParams& params) {
    return access_.read_one([&](Sql& db) -> std::optional<StoredUser> {
        const SqlRows rows = db.query(
            "SELECT u.id, u.name, u.name_key IS NULL, u.password_hash, u.webhook, u.created " +
                from_where,
            params);
        if (rows.empty()) return std::nullopt;
        return StoredUser{rows.uint64(0, 0), rows.text(0, 1), rows.boolean(0, 2),
                          rows.text(0, 3),   rows.text(0, 4), rows.int64(0, 5)};
    });
}

std::optional<StoredUser> SqlAccountStore::create_user(const std::string& name,
                                                       const std::string& password_hash) {
    std::optional<StoredUser> user;
    access_.write_and_wait(
        [&](Sql& db) {
            user.reset();
            const UnixMs now = unix_now_ms();
            // Erased accounts hold their names for a while; then any registration frees them.
            db.query(
                "UPDATE users SET name_key = NULL, name_released = NULL "
                "WHERE name_released <= $1",
                sql_params(now));
            const SqlRows made = db.query(
                "INSERT INTO users (name, name_key, password_hash, created) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                sql_params(name, name_key(name), password_hash, now));
            if (!made.empty())
                user = StoredUser{made.uint64(0, 0), name, false, password_hash, "", now};
        },
        "create a user");
    return user;
}

StoredUser SqlAccountStore::create_guest(const std::string& name) {
    StoredUser user{0, name, true, "", "", 0};
    access_.write_and_wait(
        [&](Sql& db) {
            user.created = unix_now_ms();
            user.id = db.query(
                            "INSERT INTO users (name, name_key, password_hash, created) "
                            "VALUES ($1, NULL, '', $2) RETURNING id",
                            sql_params(name, user.created))
                          .uint64(0, 0);
        },
        "create a guest");
    return user;
}

std::optional<StoredUser> SqlAccountStore::user_by_name(const std::string& name) {
    return read_user("FROM users u WHERE u.name_key = $1 AND u.name_released IS NULL",
                     sql_params(name_key(name)));
}

std::optional<StoredUser> SqlAccountStore::user_by_id(std::uint64_t id) {
    return read_user("FROM users u WHERE u.id = $1", sql_params(id));
}

void SqlAccountStore::set_webhook(std::uint64_t user, const std::string& url) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE users SET webhook = $1 WHERE id = $2", sql_params(url, user));
        },
        "set a webhook");
}

UserPreferences SqlAccountStore::preferences_of(std::uint64_t user) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows =
            db.query("SELECT confirm_turn FROM users WHERE id = $1", sql_params(user));
        UserPreferences preferences;
        if (!rows.empty()) preferences.confirm_turn = rows.boolean(0, 0);
        return preferences;
    });
}

void SqlAccountStore::set_preferences(std::uint64_t user, const UserPreferences& preferences) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE users SET confirm_turn = $1 WHERE id = $2",
                     sql_params(preferences.confirm_turn, user));
        },
        "set preferences");
}

std::vector<UserPreferencesOf> SqlAccountStore::changed_preferences() {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows =
            db.query("SELECT id, confirm_turn FROM users WHERE NOT confirm_turn ORDER BY id");
        std::vector<UserPreferencesOf> changed;
        for (int i = 0; i < rows.rows(); ++i)
            changed.push_back({rows.uint64(i, 0), UserPreferences{rows.boolean(i, 1)}});
        return changed;
    });
}

std::vector<UserVacation> SqlAccountStore::vacations_ending_after(UnixMs after) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            "SELECT user_id, starts, ends FROM vacations WHERE ends > $1 ORDER BY user_id, starts",
            sql_params(after));
        std::vector<UserVacation> vacations;
        for (int i = 0; i < rows.rows(); ++i)
            vacations.push_back(
                UserVacation{rows.uint64(i, 0), {rows.int64(i, 1), rows.int64(i, 2)}});
        return vacations;
    });
}

void SqlAccountStore::replace_vacations(std::uint64_t user, UnixMs after,
                                        const std::vector<StoredVacation>& vacations) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("DELETE FROM vacations WHERE user_id = $1 AND ends > $2",
                     sql_params(user, after));
            for (const StoredVacation& vacation : vacations)
                db.query("INSERT INTO vacations (user_id, starts, ends) VALUES ($1, $2, $3)",
                         sql_params(user, vacation.starts, vacation.ends));
        },
        "change a vacation");
}

std::vector<StoredVacation> SqlAccountStore::vacations_of(std::uint64_t user) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows =
            db.query("SELECT starts, ends FROM vacations WHERE user_id = $1 ORDER BY starts",
                     sql_params(user));
        std::vector<StoredVacation> vacations;
        for (int i = 0; i < rows.rows(); ++i)
            vacations.push_back(StoredVacation{rows.int64(i, 0), rows.int64(i, 1)});
        return vacations;
    });
}

std::vector<std::string> SqlAccountStore::erase_user(const AccountErasure& erasure) {
    std::vector<std::string> sessions;
    access_.write_and_wait(
        [&](Sql& db) {
            sessions.clear();
            const SqlParams user = sql_params(erasure.user);
            const SqlRows ended =
                db.query("DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash", user);
            for (int i = 0; i < ended.rows(); ++i)
                sessions.push_back(ended.text(i, 0));
            db.query(
                "UPDATE users SET name = $2, password_hash = '', webhook = '', confirm_turn = $3 "
                "WHERE id = $1",
                sql_params(erasure.user, erasure.name, UserPreferences{}.confirm_turn));
            // A guest's name_key is NULL: it holds no name.
            db.query("UPDATE users SET name_released = $2 WHERE id = $1 AND name_key IS NOT NULL",
                     sql_params(erasure.user, erasure.at + kErasedNameHeldMs));
            // The seats kept for the user (invitations) are open again; the tables in memory free
            // them too (Table::erase_player).
            db.query(
                "UPDATE table_seats SET kind = 'open', user_id = NULL, name = '', "
                "invited_by = NULL, invited_at = NULL WHERE user_id = $1 AND kind = 'reserved'",
                user);
            db.query("UPDATE table_seats SET name = $2 WHERE user_id = $1",
                     sql_params(erasure.user, erasure.name));
            // Deleted lines keep their numbers (and writer), as a deletion by an admin does.
            db.query("UPDATE chat SET name = $2, text = '', deleted = true WHERE user_id = $1",
                     sql_params(erasure.user, erasure.name));
            for (const SeasonFinalTable& season : erasure.final_tables)
                db.query("UPDATE seasons SET final_table = $3 WHERE league = $1 AND number = $2",
                         sql_params(season.league, season.season, season.final_table));
            // A season not started yet would deal the user into games they cannot play.
            db.query(
                "DELETE FROM season_members WHERE user_id = $1 AND EXISTS (SELECT 1 FROM seasons s "
                "WHERE s.league = season_members.league AND s.number = season_members.season "
                "AND s.status = 'signup')",
                user);
            db.query("DELETE FROM emails WHERE user_id = $1", user);
            db.query("DELETE FROM mail_queue WHERE user_id = $1", user);
            db.query("DELETE FROM vacations WHERE user_id = $1", user);
            db.query("DELETE FROM mutes WHERE user_id = $1 OR muted = $1", user);
            db.query("DELETE FROM friends WHERE user_id = $1 OR friend_id = $1", user);
            db.query("DELETE FROM blocks WHERE user_id = $1 OR blocked_id = $1", user);
            db.query("DELETE FROM password_resets WHERE user_id = $1", user);
            // A review is the game's, shown to all its players: a done one stays, no longer
            // naming who asked; a running one ends (its taker's next hold finds it gone).
            db.query("DELETE FROM analyses WHERE user_id = $1 AND result IS NULL", user);
            db.query("UPDATE analyses SET user_id = 0 WHERE user_id = $1", user);
            db.query("DELETE FROM analysis_starts WHERE user_id = $1", user);
        },
        "erase a user");
    return sessions;
}

std::optional<RegisteredGuest> SqlAccountStore::register_guest(std::uint64_t user,
                                                               const std::string& name,
                                                               const std::string& password_hash) {
    std::optional<RegisteredGuest> registered;
    access_.write_and_wait(
        [&](Sql& db) {
            registered.reset();
            // The name's check and the change in one statement: the writer is one transaction
            // at a time, and PostgreSQL's unique name_key settles a race between processes.
            const SqlRows made = db.query(
                "UPDATE users SET name = $2, name_key = $3, password_hash = $4 "
                "WHERE id = $1 AND name_key IS NULL "
                "AND NOT EXISTS (SELECT 1 FROM users taken WHERE taken.name_key = $3) "
                "RETURNING webhook, created",
                sql_params(user, name, name_key(name), password_hash));
            if (made.empty()) return;
            db.query("UPDATE table_seats SET name = $2 WHERE user_id = $1", sql_params(user, name));
            registered = RegisteredGuest{
                StoredUser{user, name, false, password_hash, made.text(0, 0), made.int64(0, 1)},
                end_sessions(db, user, "")};
        },
        "register a guest");
    return registered;
}

void SqlAccountStore::rename_seats(std::uint64_t user, const std::string& name) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE table_seats SET name = $2 WHERE user_id = $1", sql_params(user, name));
        },
        "rename a user's seats");
}

std::vector<std::string> SqlAccountStore::set_password(std::uint64_t user,
                                                       const std::string& password_hash,
                                                       const std::string& kept_session) {
    std::vector<std::string> ended;
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("UPDATE users SET password_hash = $2 WHERE id = $1",
                     sql_params(user, password_hash));
            ended = end_sessions(db, user, kept_session);
        },
        "change a password");
    return ended;
}

void SqlAccountStore::add_password_reset(std::uint64_t user, const std::string& token_hash,
                                         UnixMs expires) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query(
                "INSERT INTO password_resets (user_id, token_hash, expires) VALUES ($1, $2, $3) "
                "ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, "
                "expires = excluded.expires",
                sql_params(user, token_hash, expires));
        },
        "add a password reset");
}

std::optional<StoredPasswordReset> SqlAccountStore::password_reset(const std::string& token_hash) {
    return access_.read_one([&](Sql& db) -> std::optional<StoredPasswordReset> {
        const SqlRows rows =
            db.query("SELECT user_id, expires FROM password_resets WHERE token_hash = $1",
                     sql_params(token_hash));
        if (rows.empty()) return std::nullopt;
        return StoredPasswordReset{rows.uint64(0, 0), rows.int64(0, 1)};
    });
}

std::optional<std::vector<std::string>> SqlAccountStore::use_password_reset(
    const std::string& token_hash, const std::string& password_hash) {
    std::optional<std::vector<std::string>> ended;
    access_.write_and_wait(
        [&](Sql& db) {
            ended.reset();
            const SqlRows used =
                db.query("DELETE FROM password_resets WHERE token_hash = $1 RETURNING user_id",
                         sql_params(token_hash));
            if (used.empty()) return;
            const std::uint64_t user = used.uint64(0, 0);
            db.query("UPDATE users SET password_hash = $2 WHERE id = $1",
                     sql_params(user, password_hash));
            ended = end_sessions(db, user, "");
        },
        "reset a password");
    return ended;
}

void SqlAccountStore::add_session(const std::string& token_hash, std::uint64_t user,
                                  UnixMs expires) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query(
                "INSERT INTO sessions (token_hash, user_id, created, expires) "
                "VALUES ($1, $2, $3, $4)",
                sql_params(token_hash, user, unix_now_ms(), expires));
        },
        "add a session");
}

std::optional<StoredUser> SqlAccountStore::session_user(const std::string& token_hash, UnixMs now) {
    return read_user(
        "FROM sessions s JOIN users u ON u.id = s.user_id "
        "WHERE s.token_hash = $1 AND s.expires > $2",
        sql_params(token_hash, now));
}

void SqlAccountStore::remove_session(const std::string& token_hash) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query("DELETE FROM sessions WHERE token_hash = $1", sql_params(token_hash));
        },
        "remove a session");
}

std::size_t SqlAccountStore::remove_expired_sessions(UnixMs now) {
    std::size_t removed = 0;
    access_.write_and_wait(
        [&](Sql& db) {
            removed =
                db.query("DELETE FROM sessions WHERE expires <= $1", sql_params(now)).affected();
        },
        "remove expired sessions");
    return removed;
}

}  // namespace gcor::server
