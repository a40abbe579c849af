#include "sqlite_store.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <pthread.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <type_traits>

#include "sqlite_leagues.hpp"
#include "sqlite_support.hpp"
#include "store.hpp"
#include "user.hpp"

namespace gcor::server {

UnixMs unix_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

// Schema migrations: entry i takes a database from user_version i to i + 1. A released entry is
// never edited; a change to the schema is a new entry.
constexpr std::array<std::string_view, 3> kMigrations{
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
};
constexpr int kLatestVersion = static_cast<int>(kMigrations.size());

// How long a connection waits for a lock another process holds (a backup, the sqlite3 shell).
constexpr int kBusyTimeoutMs = 5000;
constexpr int kCheckpointPages = 4000;
// How often a failing store with nothing to write tries a write, to learn that the disk is back.
constexpr auto kProbeEvery = std::chrono::seconds(5);
// With less free space than this, the log is checkpointed every kLowSpaceCheckpointPages instead
// (1 MiB: more checkpoints, slower moves), so that the log cannot take the room the database
// needs to grow into; with twice as much free again, back to kCheckpointPages.
constexpr std::uintmax_t kLowSpaceBytes = 64u << 20;
constexpr int kLowSpaceCheckpointPages = 256;
constexpr auto kSpaceCheckEvery = std::chrono::seconds(1);

// The columns of `tables t` in the order table_from_row reads them.
constexpr std::string_view kTableColumns =
    "t.id, t.created, t.settings, t.players, t.rules, t.public, t.seed, t.nonce, t.commitment, "
    "t.status, t.version, t.to_act, t.deadline, t.result, t.rated <> 0";
constexpr int kTableColumnCount = 15;

constexpr const char* kUserColumns =
    "u.id, u.name, u.name_key IS NULL, u.password_hash, u.webhook, u.created";

std::string query(std::string_view head, std::string_view middle, std::string_view tail) {
    std::string text(head);
    text.append(middle).append(tail);
    return text;
}

SQLite::Database open_connection(const std::string& path, int flags) {
    // SQLite's allocation statistics take a global mutex at every allocation; nothing reads them.
    // sqlite3_config works only before SQLite's first use (later it refuses, changing nothing).
    static std::once_flag no_memory_statistics;
    std::call_once(no_memory_statistics, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
    // NOMUTEX: each connection is used by one thread at a time (the writer's by the writer
    // thread, the reader's under read_mutex_), so SQLite's own locking is not needed.
    SQLite::Database db(path, flags | SQLite::OPEN_NOMUTEX, kBusyTimeoutMs);
    // In WAL mode, FULL syncs the log at every commit: a commit survives a power loss.
    db.exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON");
    return db;
}

SQLite::Database open_writer(const std::string& path) {
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder);
    SQLite::Database db = open_connection(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    const std::string mode = db.execAndGet("PRAGMA journal_mode = WAL").getString();
    if (mode != "wal")
        throw std::runtime_error("cannot use a write-ahead log (journal " + mode + ")");
    // A checkpoint copies each page changed since the last one once, however often it changed:
    // the pages of the tables in play (their move log, their row) change at nearly every move,
    // so checkpointing every 4,000 log pages (SQLite's default: 1,000) copies far fewer pages per
    // move. Each checkpoint, which holds up the commits behind it, is then about four times
    // longer, and the log grows to about 16 MiB. See docs/benchmarks.md (fifth round).
    db.exec("PRAGMA wal_autocheckpoint = " + std::to_string(kCheckpointPages));
    return db;
}

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

// The writer's connection, on a database at the latest schema version.
SQLite::Database open_migrated(const std::string& path) {
    SQLite::Database db = open_writer(path);
    migrate(db, kLatestVersion);
    return db;
}

StoredUser user_from_row(const SQLite::Statement& row) {
    StoredUser user;
    user.id = from_sql(row.getColumn(0).getInt64());
    user.name = row.getColumn(1).getString();
    user.guest = row.getColumn(2).getInt() != 0;
    user.password_hash = row.getColumn(3).getString();
    user.webhook = row.getColumn(4).getString();
    user.created = row.getColumn(5).getInt64();
    return user;
}

// The text SQLite keeps for each status and kind; a row with any other is not one this server
// wrote, and reading it fails as a broken disk would.
template <typename Enum, std::size_t N>
std::string_view text_of(Enum value, const std::array<std::string_view, N>& texts) {
    return texts.at(static_cast<std::size_t>(value));
}
template <typename Enum, std::size_t N>
Enum from_text(const std::string& text, const std::array<std::string_view, N>& texts,
               const char* what) {
    for (std::size_t i = 0; i < N; ++i)
        if (texts[i] == text) return static_cast<Enum>(i);
    throw StorageFailure(std::string("the database holds an unknown ") + what + " \"" + text +
                         "\"");
}
constexpr std::array<std::string_view, 3> kStatusTexts{"waiting", "playing", "finished"};
constexpr std::array<std::string_view, 3> kSeatKindTexts{"open", "human", "bot"};
constexpr std::array<std::string_view, 3> kMovedByTexts{"player", "bot", "timeout"};

std::string sql_text(TableStatus status) {
    return std::string(text_of(status, kStatusTexts));
}

StoredTable table_from_row(const SQLite::Statement& row) {
    StoredTable table;
    table.id = row.getColumn(0).getString();
    table.created = row.getColumn(1).getInt64();
    table.settings = row.getColumn(2).getString();
    table.players = row.getColumn(3).getInt();
    table.rules = row.getColumn(4).getString();
    table.is_public = row.getColumn(5).getInt() != 0;
    table.seed = from_sql(row.getColumn(6).getInt64());
    table.nonce = row.getColumn(7).getString();
    table.commitment = row.getColumn(8).getString();
    table.status =
        from_text<TableStatus>(row.getColumn(9).getString(), kStatusTexts, "table status");
    table.version = from_sql(row.getColumn(10).getInt64());
    if (!row.isColumnNull(11)) table.to_act = row.getColumn(11).getInt();
    if (!row.isColumnNull(12)) table.deadline = row.getColumn(12).getInt64();
    table.result = row.getColumn(13).getString();
    table.rated = row.getColumn(14).getInt() != 0;
    return table;
}

// The table of each kind of row that rows_with_seats reads.
StoredTable& table_of(StoredTable& table) {
    return table;
}
StoredTable& table_of(UserTable& row) {
    return row.table;
}
StoredTable& table_of(SeasonTable& row) {
    return row.table;
}

constexpr const char* kSelectSeats =
    "SELECT kind, user, name, bot, forfeited FROM table_seats WHERE table_id = ? ORDER BY seat";

// `seats` is kSelectSeats.
void read_seats(SQLite::Statement& seats, StoredTable& table) {
    seats.reset();
    seats.bind(1, table.id);
    while (seats.executeStep()) {
        table.seats.push_back(StoredSeat{
            from_text<SeatKind>(seats.getColumn(0).getString(), kSeatKindTexts, "seat kind"),
            from_sql(seats.getColumn(1).getInt64()),  // NULL: 0
            seats.getColumn(2).getString(), seats.getColumn(3).getString(),
            seats.getColumn(4).getInt() != 0});
    }
}

template <typename T>
void bind_optional(SQLite::Statement& statement, int index, const std::optional<T>& value) {
    if (value) {
        statement.bind(index, *value);
    } else {
        statement.bind(index);
    }
}

class SqliteStore final : public Store {
  public:
    explicit SqliteStore(const SqliteOptions& options)
        : options_(options),
          writer_db_(open_migrated(options.path)),
          begin_(writer_db_, "BEGIN IMMEDIATE"),
          commit_(writer_db_, "COMMIT"),
          rollback_(writer_db_, "ROLLBACK"),
          upsert_table_(writer_db_,
                        "INSERT INTO tables (id, created, settings, players, rules, public, seed, "
                        "nonce, commitment, status, version, to_act, deadline, result, rated) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) "
                        "ON CONFLICT (id) DO UPDATE SET created = ?2, settings = ?3, players = ?4, "
                        "rules = ?5, public = ?6, seed = ?7, nonce = ?8, commitment = ?9, "
                        "status = ?10, version = ?11, to_act = ?12, deadline = ?13, result = ?14, "
                        "rated = CASE WHEN ?15 = 0 THEN 0 ELSE max(rated, 1) END"),
          update_table_(writer_db_,
                        "UPDATE tables SET status = ?2, version = ?3, to_act = ?4, deadline = ?5, "
                        "result = ?6 WHERE id = ?1"),
          update_turn_(writer_db_, "UPDATE tables SET version = ?2, to_act = ?3 WHERE id = ?1"),
          delete_seats_(writer_db_, "DELETE FROM table_seats WHERE table_id = ?"),
          insert_seat_(writer_db_,
                       "INSERT INTO table_seats (table_id, seat, kind, user, name, bot, forfeited) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)"),
          insert_move_(writer_db_,
                       "INSERT INTO moves (table_id, seq, seat, move, move_id, at, \"by\") "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)"),
          reader_db_(open_connection(options.path, SQLite::OPEN_READONLY)),
          writer_([this] { run_writer(); }) {}

    ~SqliteStore() override {
        {
            std::lock_guard lock(queue_mutex_);
            stopping_ = true;
        }
        queue_changed_.notify_one();
        writer_.join();
    }

    std::optional<StoredUser> create_user(const std::string& name,
                                          const std::string& password_hash) override {
        std::optional<StoredUser> user;
        write_and_wait(
            [&] {
                user.reset();
                const UnixMs now = unix_now_ms();
                SQLite::Statement insert(
                    writer_db_,
                    "INSERT INTO users (name, name_key, password_hash, created) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (name_key) DO NOTHING");
                insert.bind(1, name);
                insert.bind(2, name_key(name));
                insert.bind(3, password_hash);
                insert.bind(4, now);
                if (insert.exec() == 0) return;
                user = StoredUser{
                    from_sql(writer_db_.getLastInsertRowid()), name, false, password_hash, "", now};
            },
            "create a user");
        return user;
    }

    StoredUser create_guest(const std::string& name) override {
        StoredUser user{0, name, true, "", "", 0};
        write_and_wait(
            [&] {
                user.created = unix_now_ms();
                SQLite::Statement insert(writer_db_,
                                         "INSERT INTO users (name, name_key, password_hash, "
                                         "created) VALUES (?, NULL, '', ?)");
                insert.bind(1, name);
                insert.bind(2, user.created);
                insert.exec();
                user.id = from_sql(writer_db_.getLastInsertRowid());
            },
            "create a guest");
        return user;
    }

    std::optional<StoredUser> user_by_name(const std::string& name) override {
        return read_user(query("SELECT ", kUserColumns, " FROM users u WHERE u.name_key = ?"),
                         [&](SQLite::Statement& select) { select.bind(1, name_key(name)); });
    }

    std::optional<StoredUser> user_by_id(std::uint64_t id) override {
        return read_user(query("SELECT ", kUserColumns, " FROM users u WHERE u.id = ?"),
                         [&](SQLite::Statement& select) { select.bind(1, to_sql(id)); });
    }

    void set_webhook(std::uint64_t user, const std::string& url) override {
        write_and_wait(
            [&] {
                SQLite::Statement update(writer_db_, "UPDATE users SET webhook = ? WHERE id = ?");
                update.bind(1, url);
                update.bind(2, to_sql(user));
                update.exec();
            },
            "set a webhook");
    }

    void add_session(const std::string& token_hash, std::uint64_t user, UnixMs expires) override {
        write_and_wait(
            [&] {
                SQLite::Statement insert(writer_db_,
                                         "INSERT INTO sessions (token_hash, user, created, "
                                         "expires) VALUES (?, ?, ?, ?)");
                insert.bind(1, token_hash);
                insert.bind(2, to_sql(user));
                insert.bind(3, unix_now_ms());
                insert.bind(4, expires);
                insert.exec();
            },
            "add a session");
    }

    std::optional<StoredUser> session_user(const std::string& token_hash, UnixMs now) override {
        return read_user(query("SELECT ", kUserColumns,
                               " FROM sessions s JOIN users u ON u.id = s.user "
                               "WHERE s.token_hash = ? AND s.expires > ?"),
                         [&](SQLite::Statement& select) {
                             select.bind(1, token_hash);
                             select.bind(2, now);
                         });
    }

    void remove_session(const std::string& token_hash) override {
        write_and_wait(
            [&] {
                SQLite::Statement remove(writer_db_, "DELETE FROM sessions WHERE token_hash = ?");
                remove.bind(1, token_hash);
                remove.exec();
            },
            "remove a session");
    }

    std::size_t remove_expired_sessions(UnixMs now) override {
        std::size_t removed = 0;
        write_and_wait(
            [&] {
                SQLite::Statement remove(writer_db_, "DELETE FROM sessions WHERE expires <= ?");
                remove.bind(1, now);
                removed = static_cast<std::size_t>(remove.exec());
            },
            "remove expired sessions");
        return removed;
    }

    void save_table(const StoredTable& table, Done done) override {
        enqueue({[this, table] { write_table(table); }, std::move(done)});
    }

    void append_move(const TableProgress& table, const StoredMove& move, Done done) override {
        enqueue({[this, table, move] { write_move(table, move); }, std::move(done)});
    }

    void flush() override {
        write_and_wait([] {}, "flush");
    }

    std::optional<LoadedTable> load_table(const std::string& id) override {
        return read([&]() -> std::optional<LoadedTable> {
            auto table = table_by_id(id);
            if (!table) return std::nullopt;
            LoadedTable loaded{std::move(*table), {}};
            SQLite::Statement moves(reader_db_,
                                    "SELECT seq, seat, move, move_id, at, \"by\" FROM moves "
                                    "WHERE table_id = ? ORDER BY seq");
            moves.bind(1, id);
            while (moves.executeStep()) {
                loaded.moves.push_back(StoredMove{
                    from_sql(moves.getColumn(0).getInt64()), moves.getColumn(1).getInt(),
                    moves.getColumn(2).getString(), moves.getColumn(3).getString(),
                    moves.getColumn(4).getInt64(),
                    from_text<MovedBy>(moves.getColumn(5).getString(), kMovedByTexts, "mover")});
            }
            return loaded;
        });
    }

    std::optional<StoredTable> find_table(const std::string& id) override {
        return read([&] { return table_by_id(id); });
    }

    std::vector<StoredTable> list_tables(const TableFilter& filter) override {
        return read([&] {
            // tables_lobby holds exactly the public unfinished tables, in creation order; SQLite
            // uses it only while this condition is written as in its WHERE. The other filters
            // are checked on its rows.
            SQLite::Statement select(
                reader_db_, query("SELECT ", kTableColumns,
                                  " FROM tables t WHERE t.public = 1 AND t.status <> 'finished' "
                                  "AND (?1 = 0 OR t.players = ?1) AND (?2 = '' OR t.rules = ?2) "
                                  "AND (?3 = 0 OR (t.status = 'waiting' AND EXISTS (SELECT 1 FROM "
                                  "table_seats s WHERE s.table_id = t.id AND s.kind = 'open'))) "
                                  "ORDER BY t.created, t.id LIMIT ?4"));
            select.bind(1, filter.players);
            select.bind(2, filter.rules);
            select.bind(3, filter.open_only ? 1 : 0);
            select.bind(4, static_cast<std::int64_t>(filter.limit));
            return rows_with_seats<StoredTable>(select, table_from_row);
        });
    }

    std::vector<std::string> table_ids(TableStatus status) override {
        return read_ids("SELECT id FROM tables WHERE status = ? ORDER BY created, id",
                        [&](SQLite::Statement& select) { select.bind(1, sql_text(status)); });
    }

    std::vector<std::string> due_tables(UnixMs now) override {
        return read_ids(
            "SELECT id FROM tables WHERE status = 'playing' AND deadline <= ? ORDER BY deadline",
            [&](SQLite::Statement& select) { select.bind(1, now); });
    }

    std::vector<UserTable> tables_of(std::uint64_t user, std::size_t limit) override {
        return read([&] {
            SQLite::Statement select(
                reader_db_, query("SELECT ", kTableColumns,
                                  ", s.seat FROM table_seats s JOIN tables t ON t.id = s.table_id "
                                  "WHERE s.user = ? "
                                  "ORDER BY t.status = 'finished', t.created DESC, t.id DESC "
                                  "LIMIT ?"));
            select.bind(1, to_sql(user));
            select.bind(2, static_cast<std::int64_t>(limit));
            return rows_with_seats<UserTable>(select, [](const SQLite::Statement& row) {
                return UserTable{table_from_row(row), row.getColumn(kTableColumnCount).getInt()};
            });
        });
    }

    std::uint64_t count_tables() override {
        return read([&] {
            return from_sql(reader_db_.execAndGet("SELECT count(*) FROM tables").getInt64());
        });
    }

    // --- Leagues and ratings: the SQL is in sqlite_leagues.cpp, except what writes tables.

    std::optional<StoredLeague> create_league(const std::string& name, std::uint64_t organizer,
                                              const std::string& settings) override {
        std::optional<StoredLeague> league;
        write_and_wait(
            [&] { league = sqlite_leagues::insert_league(writer_db_, name, organizer, settings); },
            "create a league");
        return league;
    }

    std::vector<StoredLeague> leagues() override {
        return read([&] { return sqlite_leagues::select_leagues(reader_db_, std::nullopt); });
    }

    std::optional<StoredLeague> league(std::uint64_t id) override {
        return first_of(read([&] { return sqlite_leagues::select_leagues(reader_db_, id); }));
    }

    std::vector<StoredSeason> seasons(std::uint64_t league) override {
        return read(
            [&] { return sqlite_leagues::select_seasons(reader_db_, league, std::nullopt); });
    }

    std::optional<StoredSeason> season(std::uint64_t league, int number) override {
        return first_of(
            read([&] { return sqlite_leagues::select_seasons(reader_db_, league, number); }));
    }

    void open_season(std::uint64_t league, int number) override {
        write_and_wait([&] { sqlite_leagues::insert_season(writer_db_, league, number); },
                       "open a season");
    }

    bool sign_up(std::uint64_t league, int number, std::uint64_t user) override {
        bool added = false;
        write_and_wait(
            [&] { added = sqlite_leagues::insert_member(writer_db_, league, number, user); },
            "sign up");
        return added;
    }

    bool withdraw(std::uint64_t league, int number, std::uint64_t user) override {
        bool removed = false;
        write_and_wait(
            [&] { removed = sqlite_leagues::delete_member(writer_db_, league, number, user); },
            "withdraw");
        return removed;
    }

    std::vector<SeasonMember> members(std::uint64_t league, int number) override {
        return read([&] { return sqlite_leagues::select_members(reader_db_, league, number); });
    }

    void start_season(std::uint64_t league, int number, const std::vector<SeasonMember>& members,
                      const std::vector<SeasonTable>& tables, Done done) override {
        enqueue({[this, league, number, members, tables] {
                     for (const SeasonTable& table : tables)
                         write_table(table.table);
                     sqlite_leagues::write_start(writer_db_, league, number, members, tables);
                 },
                 std::move(done)});
    }

    std::vector<SeasonTable> season_tables(std::uint64_t league, int number) override {
        return read([&] {
            SQLite::Statement select(
                reader_db_,
                query("SELECT ", kTableColumns,
                      ", st.tier FROM season_tables st JOIN tables t ON t.id = st.table_id "
                      "WHERE st.league = ? AND st.season = ? ORDER BY st.tier, t.created, t.id"));
            select.bind(1, to_sql(league));
            select.bind(2, number);
            return rows_with_seats<SeasonTable>(select, [](const SQLite::Statement& row) {
                return SeasonTable{row.getColumn(kTableColumnCount).getInt(), table_from_row(row)};
            });
        });
    }

    void finish_season(std::uint64_t league, int number, const std::string& final_table) override {
        write_and_wait(
            [&] { sqlite_leagues::write_finish(writer_db_, league, number, final_table); },
            "finish a season");
    }

    std::vector<UserSeason> seasons_of(std::uint64_t user, std::size_t limit) override {
        return read([&] { return sqlite_leagues::select_seasons_of(reader_db_, user, limit); });
    }

    std::vector<std::string> unrated_tables() override {
        return read([&] { return sqlite_leagues::select_unrated(reader_db_); });
    }

    std::optional<StoredRating> rating(std::uint64_t user) override {
        return first_of(read([&] { return sqlite_leagues::select_ratings(reader_db_, user, 1); }));
    }

    void save_ratings(const std::vector<RatingChange>& changes, Done done) override {
        enqueue({[this, changes] { sqlite_leagues::write_ratings(writer_db_, changes); },
                 std::move(done)});
    }

    std::vector<StoredRating> leaderboard(std::size_t limit) override {
        return read(
            [&] { return sqlite_leagues::select_ratings(reader_db_, std::nullopt, limit); });
    }

    std::vector<RatingChange> rating_history(std::uint64_t user, std::size_t limit) override {
        return read([&] { return sqlite_leagues::select_rating_history(reader_db_, user, limit); });
    }

  private:
    template <typename T>
    static std::optional<T> first_of(std::vector<T> rows) {
        if (rows.empty()) return std::nullopt;
        return std::move(rows.front());
    }

    // A queued write: `apply` runs its statements inside the writer's transaction and throws on
    // failure; `done` learns whether that transaction committed.
    struct Write {
        std::function<void()> apply;
        Done done;
    };

    void enqueue(Write write) {
        bool was_empty = false;
        {
            std::lock_guard lock(queue_mutex_);
            was_empty = queue_.empty();
            if (was_empty) first_queued_ = std::chrono::steady_clock::now();
            queue_.push_back(std::move(write));
        }
        if (was_empty) queue_changed_.notify_one();
    }

    // Queues `apply` and waits until it has committed; throws when it failed.
    void write_and_wait(std::function<void()> apply, const char* what) {
        auto committed = std::make_shared<std::promise<bool>>();
        std::future<bool> result = committed->get_future();
        enqueue({std::move(apply), [committed](bool ok) { committed->set_value(ok); }});
        if (!result.get()) throw StorageFailure(std::string("store: could not ") + what);
    }

    void run_writer() {
        pthread_setname_np(pthread_self(), "gcor-writer");  // for top -H, perf and strace
        std::vector<Write> writes;
        for (;;) {
            {
                std::unique_lock lock(queue_mutex_);
                const auto ready = [this] { return stopping_ || !queue_.empty(); };
                if (!failing_) {
                    queue_changed_.wait(lock, ready);
                } else if (!queue_changed_.wait_for(lock, kProbeEvery, ready)) {
                    // Failing, and no write came to find out whether the disk is back.
                    lock.unlock();
                    probe();
                    continue;
                }
                if (queue_.empty()) return;  // stopping, and everything queued is written
                if (options_.group_commits && options_.group_commit_ms > 0) {
                    // Gather what arrives within the window the first queued write opened.
                    const auto until =
                        first_queued_ + std::chrono::milliseconds(options_.group_commit_ms);
                    queue_changed_.wait_until(lock, until, [this] { return stopping_; });
                }
                writes.swap(queue_);
            }
            if (options_.group_commits && writes.size() > 1 && commit(writes)) {
                for (Write& write : writes)
                    write.done(true);
            } else {
                // Ungrouped, alone, or in a group that failed: one transaction each, so that a
                // bad write fails only itself.
                for (Write& write : writes)
                    write.done(commit({&write, 1}));
            }
            writes.clear();
        }
    }

    // Commits `writes` in one transaction. On a full disk, a write-ahead log that holds most of
    // the free space is emptied into the database (a TRUNCATE checkpoint) and the transaction is
    // tried once more: otherwise a disk smaller than the log's checkpoint interval would stop
    // every write for good.
    bool commit(std::span<Write> writes) {
        const auto start = std::chrono::steady_clock::now();
        std::string error;
        bool disk_full = false;
        bool ok = try_commit(writes, error, disk_full);
        if (!ok && disk_full && checkpoint()) ok = try_commit(writes, error, disk_full);
        if (!ok) {
            spdlog::error("store: a transaction of {} writes failed: {}", writes.size(), error);
            failing_ = true;
            if (options_.on_failure) options_.on_failure(error);
            return false;
        }
        failing_ = false;
        adapt_to_free_space();
        // Outside the try: what the observer does cannot turn a commit into a failure.
        if (options_.on_commit)
            options_.on_commit(std::chrono::steady_clock::now() - start, writes.size());
        return true;
    }

    bool try_commit(std::span<Write> writes, std::string& error, bool& disk_full) {
        try {
            run(begin_);
            try {
                for (Write& write : writes)
                    write.apply();
                run(commit_);
            } catch (...) {
                rollback();
                throw;
            }
            return true;
        } catch (const SQLite::Exception& failure) {
            disk_full = failure.getErrorCode() == SQLITE_FULL;
            error = failure.what();
        } catch (const std::exception& failure) {
            disk_full = false;
            error = failure.what();
        }
        return false;
    }

    // Copies the write-ahead log into the database and empties the log file; false when it could
    // not (a reader in the way, or no room for the database to grow).
    bool checkpoint() noexcept {
        try {
            SQLite::Statement truncate(writer_db_, "PRAGMA wal_checkpoint(TRUNCATE)");
            return truncate.executeStep() && truncate.getColumn(0).getInt() == 0;
        } catch (const std::exception& error) {
            spdlog::warn("store: a checkpoint to make room failed: {}", error.what());
            return false;
        }
    }

    // Checks the free space (at most once a second) and sizes the log's checkpoints to it.
    void adapt_to_free_space() {
        const auto now = std::chrono::steady_clock::now();
        if (now - space_checked_ < kSpaceCheckEvery) return;
        space_checked_ = now;
        std::error_code failed;
        const auto space = std::filesystem::space(folder_, failed);
        if (failed) return;
        const bool low =
            low_space_ ? space.available < 2 * kLowSpaceBytes : space.available < kLowSpaceBytes;
        if (low == low_space_) return;
        low_space_ = low;
        try {
            writer_db_.exec("PRAGMA wal_autocheckpoint = " +
                            std::to_string(low ? kLowSpaceCheckpointPages : kCheckpointPages));
            if (low) checkpoint();  // give back the room the longer log took
            spdlog::warn("store: {} MiB free: the write-ahead log is checkpointed every {} pages",
                         space.available >> 20, low ? kLowSpaceCheckpointPages : kCheckpointPages);
        } catch (const std::exception& error) {
            spdlog::warn("store: cannot resize the write-ahead log: {}", error.what());
        }
    }

    // While failing with nothing to write: a checkpoint and a write of the schema version (a
    // real transaction, with its sync), so that health reports the disk's return.
    void probe() {
        const int version = kLatestVersion;
        Write write{[this, version] {
                        writer_db_.exec("PRAGMA user_version = " + std::to_string(version));
                    },
                    [](bool) {}};
        checkpoint();
        if (commit({&write, 1})) spdlog::info("store: writing works again");
    }

    // BEGIN, COMMIT and ROLLBACK are prepared once: sqlite3_exec would parse them at every commit.
    static void run(SQLite::Statement& statement) {
        statement.tryReset();
        statement.exec();
    }
    void rollback() noexcept {
        try {
            run(rollback_);
        } catch (const std::exception&) {
            // A failed COMMIT may have ended the transaction already: nothing left to undo.
        }
    }

    // --- Writer thread. The cached statements are reset before they are bound: their last use
    // may have failed half-way.

    void write_table(const StoredTable& table) {
        SQLite::Statement& upsert = upsert_table_;
        upsert.tryReset();
        upsert.bind(1, table.id);
        upsert.bind(2, table.created);
        upsert.bind(3, table.settings);
        upsert.bind(4, table.players);
        upsert.bind(5, table.rules);
        upsert.bind(6, table.is_public ? 1 : 0);
        upsert.bind(7, to_sql(table.seed));
        upsert.bind(8, table.nonce);
        upsert.bind(9, table.commitment);
        upsert.bind(10, sql_text(table.status));
        upsert.bind(11, to_sql(table.version));
        bind_optional(upsert, 12, table.to_act);
        bind_optional(upsert, 13, table.deadline);
        upsert.bind(14, table.result);
        upsert.bind(15, table.rated ? 1 : 0);
        upsert.exec();
        write_seats(table);
    }

    void write_move(const TableProgress& table, const StoredMove& move) {
        SQLite::Statement& insert = insert_move_;
        insert.tryReset();
        insert.bind(1, table.id);
        insert.bind(2, to_sql(move.seq));
        insert.bind(3, move.seat);
        insert.bind(4, move.move);
        insert.bind(5, move.move_id);
        insert.bind(6, move.at);
        insert.bind(7, std::string(text_of(move.by, kMovedByTexts)));
        insert.exec();  // refused by the foreign key when the table is unknown

        if (table.turn_only) {
            SQLite::Statement& update = update_turn_;
            update.tryReset();
            update.bind(1, table.id);
            update.bind(2, to_sql(table.version));
            bind_optional(update, 3, table.to_act);
            update.exec();
            return;
        }
        SQLite::Statement& update = update_table_;
        update.tryReset();
        update.bind(1, table.id);
        update.bind(2, sql_text(table.status));
        update.bind(3, to_sql(table.version));
        bind_optional(update, 4, table.to_act);
        bind_optional(update, 5, table.deadline);
        update.bind(6, table.result);
        update.exec();
    }

    void write_seats(const StoredTable& table) {
        delete_seats_.tryReset();
        delete_seats_.bind(1, table.id);
        delete_seats_.exec();
        SQLite::Statement& insert = insert_seat_;
        for (std::size_t i = 0; i < table.seats.size(); ++i) {
            const StoredSeat& seat = table.seats[i];
            insert.tryReset();
            insert.bind(1, table.id);
            insert.bind(2, static_cast<int>(i));
            insert.bind(3, std::string(text_of(seat.kind, kSeatKindTexts)));
            if (seat.user != 0) {
                insert.bind(4, to_sql(seat.user));
            } else {
                insert.bind(4);
            }
            insert.bind(5, seat.name);
            insert.bind(6, seat.bot);
            insert.bind(7, seat.forfeited ? 1 : 0);
            insert.exec();
        }
    }

    // --- Reads: one connection under read_mutex_. WAL lets it read while the writer writes, and
    // a read started after a commit sees it.

    // Runs `body` in one read transaction, so that a table, its seats and its moves agree.
    template <typename Body>
    std::invoke_result_t<Body&> read(Body body) {
        std::lock_guard lock(read_mutex_);
        try {
            SQLite::Transaction snapshot(reader_db_);
            auto result = body();
            snapshot.commit();
            return result;
        } catch (const SQLite::Exception& error) {
            throw StorageFailure(std::string("store: could not read: ") + error.what());
        }
    }

    template <typename Bind>
    std::optional<StoredUser> read_user(const std::string& sql, Bind bind) {
        return read([&]() -> std::optional<StoredUser> {
            SQLite::Statement select(reader_db_, sql);
            bind(select);
            if (!select.executeStep()) return std::nullopt;
            return user_from_row(select);
        });
    }

    template <typename Bind>
    std::vector<std::string> read_ids(const char* sql, Bind bind) {
        return read([&] {
            SQLite::Statement select(reader_db_, sql);
            bind(select);
            std::vector<std::string> ids;
            while (select.executeStep())
                ids.push_back(select.getColumn(0).getString());
            return ids;
        });
    }

    // Inside read(): a row per result of `select` (a table, maybe with more columns after its
    // own), each table with its seats.
    template <typename Row, typename MakeRow>
    std::vector<Row> rows_with_seats(SQLite::Statement& select, MakeRow make_row) {
        std::vector<Row> rows;
        while (select.executeStep())
            rows.push_back(make_row(select));
        SQLite::Statement seats(reader_db_, kSelectSeats);
        for (Row& row : rows)
            read_seats(seats, table_of(row));
        return rows;
    }

    // Inside read().
    std::optional<StoredTable> table_by_id(const std::string& id) {
        SQLite::Statement select(reader_db_,
                                 query("SELECT ", kTableColumns, " FROM tables t WHERE t.id = ?"));
        select.bind(1, id);
        if (!select.executeStep()) return std::nullopt;
        StoredTable table = table_from_row(select);
        SQLite::Statement seats(reader_db_, kSelectSeats);
        read_seats(seats, table);
        return table;
    }

    const SqliteOptions options_;

    SQLite::Database writer_db_;  // the writer thread's, once it runs
    // The statements of every move, prepared once.
    SQLite::Statement begin_;
    SQLite::Statement commit_;
    SQLite::Statement rollback_;
    SQLite::Statement upsert_table_;
    SQLite::Statement update_table_;
    SQLite::Statement update_turn_;  // a move that changes only version and to_act
    SQLite::Statement delete_seats_;
    SQLite::Statement insert_seat_;
    SQLite::Statement insert_move_;

    std::mutex read_mutex_;
    SQLite::Database reader_db_;

    std::mutex queue_mutex_;
    std::condition_variable queue_changed_;
    std::vector<Write> queue_;
    std::chrono::steady_clock::time_point first_queued_;  // of the oldest write in queue_
    bool stopping_ = false;
    // Writer thread only:
    bool failing_ = false;    // the last transaction failed
    bool low_space_ = false;  // checkpointing every kLowSpaceCheckpointPages
    std::chrono::steady_clock::time_point space_checked_{};
    const std::filesystem::path folder_ =
        std::filesystem::absolute(std::filesystem::path(options_.path)).parent_path();
    std::thread writer_;  // last: it starts once everything above exists
};

}  // namespace

int sqlite_schema_version() {
    return kLatestVersion;
}

void migrate_sqlite_to(const std::string& path, int version) {
    if (version < 1 || version > kLatestVersion)
        throw std::runtime_error("no schema version " + std::to_string(version));
    SQLite::Database db = open_writer(path);
    migrate(db, version);
}

std::unique_ptr<Store> open_sqlite_store(const SqliteOptions& options) {
    try {
        return std::make_unique<SqliteStore>(options);
    } catch (const std::exception& error) {
        throw std::runtime_error("cannot open the store " + options.path + ": " + error.what());
    }
}

}  // namespace gcor::server
