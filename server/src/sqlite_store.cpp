#include "sqlite_store.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "sqlite_leagues.hpp"
#include "sqlite_schema.hpp"
#include "sqlite_support.hpp"
#include "sqlite_writer.hpp"
#include "store.hpp"
#include "user.hpp"

namespace gcor::server {

UnixMs unix_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

// How long a connection waits for a lock another process holds (a backup, the sqlite3 shell).
constexpr int kBusyTimeoutMs = 5000;
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

// The writer's connection, on a database at the latest schema version.
SQLite::Database open_migrated(const std::string& path) {
    SQLite::Database db = open_writer(path);
    sqlite_schema::migrate(db, sqlite_schema::kLatestVersion);
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
          // While failing with nothing to write: a write of the schema version.
          writer_(writer_db_, options, [this] {
              writer_db_.exec("PRAGMA user_version = " +
                              std::to_string(sqlite_schema::kLatestVersion));
          }) {}

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
        writer_.enqueue([this, table] { write_table(table); }, std::move(done));
    }

    void append_move(const TableProgress& table, const StoredMove& move, Done done) override {
        writer_.enqueue([this, table, move] { write_move(table, move); }, std::move(done));
    }

    void flush() override {
        if (!writer_.flush()) throw StorageFailure("store: could not flush");
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
        writer_.enqueue(
            [this, league, number, members, tables] {
                for (const SeasonTable& table : tables)
                    write_table(table.table);
                sqlite_leagues::write_start(writer_db_, league, number, members, tables);
            },
            std::move(done));
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
        writer_.enqueue([this, changes] { sqlite_leagues::write_ratings(writer_db_, changes); },
                        std::move(done));
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

    // Queues `apply` and waits until it has committed; throws when it failed.
    void write_and_wait(std::function<void()> apply, const char* what) {
        if (!writer_.write_and_wait(std::move(apply)))
            throw StorageFailure(std::string("store: could not ") + what);
    }

    // --- On the writer thread. The cached statements are reset before they are bound: their last
    // use may have failed half-way.

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
    SQLite::Statement upsert_table_;
    SQLite::Statement update_table_;
    SQLite::Statement update_turn_;  // a move that changes only version and to_act
    SQLite::Statement delete_seats_;
    SQLite::Statement insert_seat_;
    SQLite::Statement insert_move_;

    std::mutex read_mutex_;
    SQLite::Database reader_db_;

    SqliteWriter writer_;  // last: its thread starts once everything above exists
};

}  // namespace

int sqlite_schema_version() {
    return sqlite_schema::kLatestVersion;
}

void migrate_sqlite_to(const std::string& path, int version) {
    if (version < 1 || version > sqlite_schema::kLatestVersion)
        throw std::runtime_error("no schema version " + std::to_string(version));
    SQLite::Database db = open_writer(path);
    sqlite_schema::migrate(db, version);
}

std::unique_ptr<Store> open_sqlite_store(const SqliteOptions& options) {
    try {
        return std::make_unique<SqliteStore>(options);
    } catch (const std::exception& error) {
        throw std::runtime_error("cannot open the store " + options.path + ": " + error.what());
    }
}

}  // namespace gcor::server
