#include "sqlite_schema.hpp"

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gcor::server::sqlite_schema {

namespace {

// Schema migrations: entry i takes a database from user_version i to i + 1. A released entry is
// never edited; a change to the schema is a new entry.
constexpr std::array<std::string_view, kLatestVersion> kMigrations{
    // 1: users, sessions, tables with their seats and move logs.
    R"sql(
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT UNIQUE,  -- lower-cased name of a registered user; NULL for guests
    password_hash TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    user INTEGER NOT NULL REFERENCES users (id),
    created INTEGER NOT NULL,
    expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_expires ON sessions (expires);
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    settings TEXT NOT NULL,
    players INTEGER NOT NULL,
    rules TEXT NOT NULL,
    public INTEGER NOT NULL,
    seed INTEGER NOT NULL,  -- the uint64 seed's bit pattern
    nonce TEXT NOT NULL,
    commitment TEXT NOT NULL,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    to_act INTEGER,
    deadline INTEGER,
    result TEXT NOT NULL
);
CREATE INDEX tables_status ON tables (status);
CREATE INDEX tables_lobby ON tables (created, id) WHERE public = 1 AND status <> 'finished';
CREATE TABLE table_seats (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    user INTEGER REFERENCES users (id),
    name TEXT NOT NULL,
    bot TEXT NOT NULL,
    forfeited INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE INDEX table_seats_user ON table_seats (user);
CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    move_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
)sql",
    // 2: turn notifications (users.webhook), who made each move, and finding the tables whose
    // deadline has passed. Version 1 did not record who moved: a move without a client's move id
    // was made by the server, for a bot seat or for a seat out of time.
    R"sql(
ALTER TABLE users ADD COLUMN webhook TEXT NOT NULL DEFAULT '';
ALTER TABLE moves ADD COLUMN "by" TEXT NOT NULL DEFAULT 'player';
UPDATE moves SET "by" = CASE
    WHEN EXISTS (SELECT 1 FROM table_seats s
                 WHERE s.table_id = moves.table_id AND s.seat = moves.seat AND s.kind = 'bot')
    THEN 'bot' ELSE 'timeout' END
WHERE move_id = '';
DROP INDEX tables_status;
CREATE INDEX tables_status_deadline ON tables (status, deadline);
)sql",
    // 3: rated tables (rated: 0 no, 1 rated once finished, 2 ratings stored), leagues with their
    // seasons, sign-ups and tables, ratings and what each rated game did to them.
    R"sql(
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tables_unrated ON tables (status) WHERE rated = 1;
CREATE TABLE leagues (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    organizer INTEGER NOT NULL REFERENCES users (id),
    settings TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE seasons (
    league INTEGER NOT NULL REFERENCES leagues (id),
    number INTEGER NOT NULL,
    status TEXT NOT NULL,
    opened INTEGER NOT NULL,
    started INTEGER,
    finished INTEGER,
    final_table TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (league, number)
) WITHOUT ROWID;
CREATE TABLE season_members (
    league INTEGER NOT NULL,
    season INTEGER NOT NULL,
    user INTEGER NOT NULL REFERENCES users (id),
    signed_up INTEGER NOT NULL,
    tier INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (league, season, user),
    FOREIGN KEY (league, season) REFERENCES seasons (league, number)
) WITHOUT ROWID;
CREATE INDEX season_members_user ON season_members (user);
CREATE TABLE season_tables (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    league INTEGER NOT NULL,
    season INTEGER NOT NULL,
    tier INTEGER NOT NULL,
    FOREIGN KEY (league, season) REFERENCES seasons (league, number)
) WITHOUT ROWID;
CREATE INDEX season_tables_season ON season_tables (league, season, tier);
CREATE TABLE ratings (
    user INTEGER PRIMARY KEY REFERENCES users (id),
    value REAL NOT NULL,
    games INTEGER NOT NULL
);
CREATE INDEX ratings_value ON ratings (value DESC);
CREATE TABLE rating_history (
    table_id TEXT NOT NULL REFERENCES tables (id),
    user INTEGER NOT NULL REFERENCES users (id),
    at INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    rating_after REAL NOT NULL,
    games INTEGER NOT NULL,
    place INTEGER NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (table_id, user)
) WITHOUT ROWID;
CREATE INDEX rating_history_user ON rating_history (user, at);
)sql",
    // 4: tables' chat (a deleted line keeps its number, without its text), and whom each user
    // muted.
    R"sql(
CREATE TABLE chat (
    table_id TEXT NOT NULL REFERENCES tables (id),
    n INTEGER NOT NULL,
    user INTEGER NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    seat INTEGER,
    text TEXT NOT NULL,
    at INTEGER NOT NULL,
    deleted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
CREATE TABLE mutes (
    user INTEGER NOT NULL REFERENCES users (id),
    muted INTEGER NOT NULL REFERENCES users (id),
    PRIMARY KEY (user, muted)
) WITHOUT ROWID;
)sql",
    // 5: users' e-mail addresses (confirmed by a mailed link; how often they want mail), the
    // queue of mails to send (a mail's key is never queued twice), and the server's secrets.
    R"sql(
CREATE TABLE emails (
    user INTEGER PRIMARY KEY REFERENCES users (id),
    address TEXT NOT NULL,
    confirmed INTEGER NOT NULL,
    frequency TEXT NOT NULL,  -- each_turn, daily or off
    token_hash TEXT UNIQUE,   -- SHA-256 of the confirmation link's token; NULL once confirmed
    token_expires INTEGER,
    digest_due INTEGER        -- daily: when the next digest is due
);
CREATE INDEX emails_digest ON emails (digest_due) WHERE frequency = 'daily' AND confirmed = 1;
CREATE TABLE mail_queue (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,       -- confirm, turn, digest, reminder, season
    user INTEGER NOT NULL REFERENCES users (id),
    recipient TEXT NOT NULL,
    message TEXT NOT NULL,    -- the whole message, headers and body
    table_id TEXT,            -- turn and reminder: sent only while the turn is still the user's
    seat INTEGER,
    version INTEGER,
    due INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    ended INTEGER,            -- when it was sent, dropped or given up; NULL while waiting
    outcome TEXT              -- sent, dropped or failed
);
CREATE INDEX mail_queue_due ON mail_queue (due) WHERE ended IS NULL;
CREATE INDEX mail_queue_ended ON mail_queue (ended) WHERE ended IS NOT NULL;
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
)sql",
    // 6: users' vacations (docs/protocol.md, "Vacations"); one running or coming per user, the
    // past ones kept for the yearly count of days.
    R"sql(
CREATE TABLE vacations (
    user INTEGER NOT NULL REFERENCES users (id),
    starts INTEGER NOT NULL,
    ends INTEGER NOT NULL,
    PRIMARY KEY (user, starts)
) WITHOUT ROWID;
CREATE INDEX vacations_ends ON vacations (ends);
)sql",
    // 7: the language a user's mails are written in ("en" or "de").
    R"sql(
ALTER TABLE emails ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
)sql",
    // 8: a table row's revision, which a write names so that a change made on an older row is
    // refused (StoredTable::revision).
    R"sql(
ALTER TABLE tables ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
)sql",
    // 9: the columns named as PostgreSQL's schema names them ("user" and "by" are reserved
    // there), so that a statement is written once for both (sql.hpp).
    R"sql(
ALTER TABLE sessions RENAME COLUMN user TO user_id;
ALTER TABLE table_seats RENAME COLUMN user TO user_id;
ALTER TABLE moves RENAME COLUMN "by" TO moved_by;
ALTER TABLE season_members RENAME COLUMN user TO user_id;
ALTER TABLE ratings RENAME COLUMN user TO user_id;
ALTER TABLE rating_history RENAME COLUMN user TO user_id;
ALTER TABLE chat RENAME COLUMN user TO user_id;
ALTER TABLE mutes RENAME COLUMN user TO user_id;
ALTER TABLE emails RENAME COLUMN user TO user_id;
ALTER TABLE mail_queue RENAME COLUMN user TO user_id;
ALTER TABLE vacations RENAME COLUMN user TO user_id;
)sql",
    // 10: friends and blocks (docs/protocol.md, "Friends and blocks"), one-way lists of users;
    // and who created a table, whose blocks keep users away from it (0: nobody, as for a
    // league's table or one made before).
    R"sql(
ALTER TABLE tables ADD COLUMN created_by INTEGER NOT NULL DEFAULT 0;
CREATE TABLE friends (
    user_id INTEGER NOT NULL REFERENCES users (id),
    friend_id INTEGER NOT NULL REFERENCES users (id),
    added INTEGER NOT NULL,
    PRIMARY KEY (user_id, friend_id)
) WITHOUT ROWID;
CREATE INDEX friends_friend ON friends (friend_id);
CREATE TABLE blocks (
    user_id INTEGER NOT NULL REFERENCES users (id),
    blocked_id INTEGER NOT NULL REFERENCES users (id),
    added INTEGER NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
) WITHOUT ROWID;
CREATE INDEX blocks_blocked ON blocks (blocked_id);
)sql",
    // 11: erased accounts (docs/operations.md, "Your data"). An erased user's row stays for
    // the records that name it; its lower-cased name stays in name_key, held from registration,
    // until name_released. A user's chat lines are found by their writer (an export, an erasure).
    R"sql(
ALTER TABLE users ADD COLUMN name_released INTEGER;
CREATE INDEX users_name_released ON users (name_released) WHERE name_released IS NOT NULL;
CREATE INDEX chat_user ON chat (user_id);
)sql",
    // 12: forgotten passwords: each user's latest reset link (its one-time token's SHA-256),
    // finding the accounts of an address, and a user's sessions, to end them all.
    R"sql(
CREATE TABLE password_resets (
    user_id INTEGER PRIMARY KEY REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    expires INTEGER NOT NULL
);
CREATE INDEX emails_address ON emails (lower(address));
CREATE INDEX sessions_user ON sessions (user_id);
)sql",
    // 13: invitations (docs/protocol.md, "Invitations"): a reserved seat keeps its invited user
    // in user_id, with who invited them and when; whether a user's invitations are mailed.
    R"sql(
ALTER TABLE table_seats ADD COLUMN invited_by INTEGER REFERENCES users (id);
ALTER TABLE table_seats ADD COLUMN invited_at INTEGER;
ALTER TABLE emails ADD COLUMN invitation_mails INTEGER NOT NULL DEFAULT 1;
)sql",
    // 14: a user's preferences (docs/protocol.md, "Preferences"): whether the end of their turn
    // waits for their own end move.
    R"sql(
ALTER TABLE users ADD COLUMN confirm_turn INTEGER NOT NULL DEFAULT 1;
)sql",
    // 15: game reviews (docs/protocol.md, "Game review"): a table's review, claimed while it runs
    // (by `claim` until `held_until`), kept once done; each user's starts of the last day.
    R"sql(
CREATE TABLE analyses (
    table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    claim INTEGER NOT NULL,
    started INTEGER NOT NULL,
    held_until INTEGER NOT NULL,
    done INTEGER NOT NULL,
    total INTEGER NOT NULL,
    result TEXT
);
CREATE INDEX analyses_running ON analyses (user_id) WHERE result IS NULL;
CREATE TABLE analysis_starts (
    user_id INTEGER NOT NULL,
    started INTEGER NOT NULL
);
CREATE INDEX analysis_starts_user ON analysis_starts (user_id, started);
)sql",
};
// Every version up to kLatestVersion has its migration.
static_assert(!kMigrations.back().empty());

}  // namespace

void migrate(SQLite::Database& db, int target) {
    for (;;) {
        // IMMEDIATE locks before the version is read, so two processes opening the same file
        // cannot both apply a migration.
        SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
        const int version = db.execAndGet("PRAGMA user_version").getInt();
        if (version > target) {
            throw std::runtime_error("the database has schema version " + std::to_string(version) +
                                     ", newer than version " + std::to_string(target) +
                                     " that this server knows");
        }
        if (version == target) return;
        db.exec(std::string(kMigrations[static_cast<std::size_t>(version)]));
        db.exec("PRAGMA user_version = " + std::to_string(version + 1));
        transaction.commit();
    }
}

}  // namespace gcor::server::sqlite_schema
