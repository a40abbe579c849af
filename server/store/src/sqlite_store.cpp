#include "gcor/store/sqlite_store.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"
#include "sqlite_chat.hpp"
#include "sqlite_gathered_log.hpp"
#include "sqlite_leagues.hpp"
#include "sqlite_mail.hpp"
#include "sqlite_schema.hpp"
#include "sqlite_support.hpp"
#include "sqlite_tables.hpp"
#include "sqlite_writer.hpp"

namespace gcor::server {

UnixMs unix_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

constexpr const char* kUserColumns =
    "u.id, u.name, u.name_key IS NULL, u.password_hash, u.webhook, u.created";

std::string query(std::string_view head, std::string_view middle, std::string_view tail) {
    std::string text(head);
    text.append(middle).append(tail);
    return text;
}

// SQLite's allocation statistics take a global mutex at every allocation (tens a move); nothing
// reads them. sqlite3_config works only before anything starts SQLite (opening a connection,
// finding or registering a VFS): later it refuses, changing nothing, so this comes first.
void turn_off_memory_statistics() {
    static std::once_flag done;
    std::call_once(done, [] {
        if (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) != SQLITE_OK)
            spdlog::warn(
                "store: SQLite started before its allocation statistics could be "
                "turned off: each of its allocations takes a lock");
    });
}

enum class LogWrites { as_sqlite_makes_them, gathered };

SQLite::Database open_connection(const std::string& path, int flags,
                                 LogWrites log = LogWrites::as_sqlite_makes_them) {
    turn_off_memory_statistics();  // before the VFS below: registering it starts SQLite
    const std::string vfs =
        log == LogWrites::gathered ? sqlite_gathered_log::vfs_name() : std::string();
    // NOMUTEX: each connection is used by one thread at a time (the writer's by the writer
    // thread, the reader's under read_mutex_), so SQLite's own locking is not needed.
    SQLite::Database db(path, flags | SQLite::OPEN_NOMUTEX, kBusyTimeoutMs, vfs);
    // In WAL mode, FULL syncs the log at every commit: a commit survives a power loss.
    db.exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON");
    return db;
}

SQLite::Database open_writer(const std::string& path) {
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder);
    // The log's writes of a commit leave in one call at its sync (sqlite_gathered_log.hpp): this
    // connection syncs at every commit (FULL), as that VFS needs.
    SQLite::Database db =
        open_connection(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, LogWrites::gathered);
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

class SqliteStore final : public Store {
  public:
    explicit SqliteStore(const SqliteOptions& options)
        : options_(options),
          writer_db_(open_migrated(options.path)),
          table_writes_(writer_db_),
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

    std::vector<UserVacation> vacations_ending_after(UnixMs after) override {
        return read([&] {
            SQLite::Statement select(reader_db_,
                                     "SELECT user, starts, ends FROM vacations WHERE ends > ? "
                                     "ORDER BY user, starts");
            select.bind(1, after);
            std::vector<UserVacation> vacations;
            while (select.executeStep())
                vacations.push_back(
                    UserVacation{from_sql(select.getColumn(0).getInt64()),
                                 {select.getColumn(1).getInt64(), select.getColumn(2).getInt64()}});
            return vacations;
        });
    }

    void replace_vacations(std::uint64_t user, UnixMs after,
                           const std::vector<StoredVacation>& vacations) override {
        write_and_wait(
            [&] {
                SQLite::Statement remove(writer_db_,
                                         "DELETE FROM vacations WHERE user = ? AND ends > ?");
                remove.bind(1, to_sql(user));
                remove.bind(2, after);
                remove.exec();
                SQLite::Statement insert(
                    writer_db_, "INSERT INTO vacations (user, starts, ends) VALUES (?, ?, ?)");
                for (const StoredVacation& vacation : vacations) {
                    insert.reset();
                    insert.bind(1, to_sql(user));
                    insert.bind(2, vacation.starts);
                    insert.bind(3, vacation.ends);
                    insert.exec();
                }
            },
            "change a vacation");
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

    void save_table(const StoredTable& table, TableDone done) override {
        writer_.enqueue([this, table] { table_writes_.save(table); }, std::move(done));
    }

    void remove_table(const std::string& id, std::uint64_t revision, TableDone done) override {
        writer_.enqueue(
            [this, id, revision] {
                if (!table_writes_.removable(id, revision)) return;
                sqlite_chat::delete_waiting_table_lines(writer_db_, id);
                table_writes_.remove(id);
            },
            std::move(done));
    }

    void append_move(const TableProgress& table, const StoredMove& move, TableDone done) override {
        writer_.enqueue([this, table, move] { table_writes_.append(table, move); },
                        std::move(done));
    }

    void flush() override {
        if (!writer_.flush()) throw StorageFailure("store: could not flush");
    }

    std::optional<LoadedTable> load_table(const std::string& id) override {
        return read([&]() -> std::optional<LoadedTable> {
            auto table = sqlite_tables::select_table(reader_db_, id);
            if (!table) return std::nullopt;
            return LoadedTable{
                std::move(*table), sqlite_tables::select_moves(reader_db_, id),
                sqlite_chat::select_lines(reader_db_, id, std::nullopt, kRecentChatLines),
                sqlite_chat::select_last_number(reader_db_, id)};
        });
    }

    std::optional<LoadedTable> load_table_since(const std::string& id,
                                                std::uint64_t after) override {
        return read([&]() -> std::optional<LoadedTable> {
            auto table = sqlite_tables::select_table(reader_db_, id);
            if (!table) return std::nullopt;
            return LoadedTable{
                std::move(*table), sqlite_tables::select_moves(reader_db_, id, after), {}, 0};
        });
    }

    std::optional<StoredTable> find_table(const std::string& id) override {
        return read([&] { return sqlite_tables::select_table(reader_db_, id); });
    }

    std::vector<StoredTable> list_tables(const TableFilter& filter) override {
        return read([&] { return sqlite_tables::select_listed(reader_db_, filter); });
    }

    std::vector<std::string> table_ids(TableStatus status) override {
        return read([&] { return sqlite_tables::select_ids(reader_db_, status); });
    }

    std::vector<std::string> due_tables(UnixMs now) override {
        return read([&] { return sqlite_tables::select_due(reader_db_, now); });
    }

    std::vector<std::string> deadlines_between(UnixMs from, UnixMs to) override {
        return read([&] { return sqlite_tables::select_deadlines_between(reader_db_, from, to); });
    }

    std::vector<UserTable> tables_of(std::uint64_t user, std::size_t limit) override {
        return read([&] { return sqlite_tables::select_tables_of(reader_db_, user, limit); });
    }

    std::uint64_t count_tables() override {
        return read([&] { return sqlite_tables::count_tables(reader_db_); });
    }

    // --- Chat: the SQL is in sqlite_chat.cpp.

    void append_chat(const std::string& table, const StoredChatLine& line, Done done) override {
        writer_.enqueue([this, table, line] { sqlite_chat::insert_line(writer_db_, table, line); },
                        std::move(done));
    }

    void delete_chat(const std::string& table, std::uint64_t n, Done done) override {
        writer_.enqueue([this, table, n] { sqlite_chat::delete_line(writer_db_, table, n); },
                        std::move(done));
    }

    std::vector<StoredChatLine> chat_lines(const std::string& table,
                                           std::optional<std::uint64_t> before,
                                           std::size_t limit) override {
        return read([&] { return sqlite_chat::select_lines(reader_db_, table, before, limit); });
    }

    void set_muted(std::uint64_t user, std::uint64_t other, bool muted) override {
        write_and_wait([&] { sqlite_chat::write_mute(writer_db_, user, other, muted); },
                       muted ? "mute a user" : "unmute a user");
    }

    std::vector<std::uint64_t> muted_by(std::uint64_t user) override {
        return read([&] { return sqlite_chat::select_muted(reader_db_, user); });
    }

    // --- E-mail: the SQL is in sqlite_mail.cpp.

    std::optional<StoredEmail> email_of(std::uint64_t user) override {
        return read([&] { return sqlite_mail::select_email(reader_db_, user); });
    }

    void set_email(std::uint64_t user, const std::string& address, const std::string& token_hash,
                   UnixMs token_expires) override {
        write_and_wait(
            [&] { sqlite_mail::write_email(writer_db_, user, address, token_hash, token_expires); },
            "set an e-mail address");
    }

    void remove_email(std::uint64_t user) override {
        write_and_wait([&] { sqlite_mail::delete_email(writer_db_, user); },
                       "remove an e-mail address");
    }

    std::optional<std::uint64_t> confirm_email(const std::string& token_hash, UnixMs now) override {
        std::optional<std::uint64_t> user;
        write_and_wait([&] { user = sqlite_mail::confirm(writer_db_, token_hash, now); },
                       "confirm an e-mail address");
        return user;
    }

    void set_mail_frequency(std::uint64_t user, MailFrequency frequency,
                            std::optional<UnixMs> digest_due) override {
        write_and_wait(
            [&] { sqlite_mail::write_frequency(writer_db_, user, frequency, digest_due); },
            "set how often to mail");
    }

    void set_mail_language(std::uint64_t user, const std::string& language) override {
        write_and_wait([&] { sqlite_mail::write_language(writer_db_, user, language); },
                       "set the language of mails");
    }

    std::vector<StoredEmail> digests_due(UnixMs now) override {
        return read([&] { return sqlite_mail::select_digests_due(reader_db_, now); });
    }

    void queue_mail(const QueuedMail& mail, Done done) override {
        writer_.enqueue([this, mail] { sqlite_mail::insert_mail(writer_db_, mail); },
                        std::move(done));
    }

    std::vector<QueuedMail> take_due_mails(UnixMs now, std::size_t limit,
                                           UnixMs kept_until) override {
        std::vector<QueuedMail> taken;
        write_and_wait([&] { taken = sqlite_mail::take_due(writer_db_, now, limit, kept_until); },
                       "take mails");
        return taken;
    }

    std::optional<UnixMs> next_mail_due() override {
        return read([&] { return sqlite_mail::select_next_due(reader_db_); });
    }

    void end_mail(std::uint64_t id, MailOutcome outcome, UnixMs at) override {
        write_and_wait([&] { sqlite_mail::end_mail(writer_db_, id, outcome, at); }, "end a mail");
    }

    void retry_mail(std::uint64_t id, UnixMs retry_at) override {
        write_and_wait([&] { sqlite_mail::retry_mail(writer_db_, id, retry_at); },
                       "postpone a mail");
    }

    std::size_t forget_mails(UnixMs before) override {
        std::size_t forgotten = 0;
        write_and_wait([&] { forgotten = sqlite_mail::delete_ended(writer_db_, before); },
                       "forget old mails");
        return forgotten;
    }

    std::string secret(const std::string& name, const std::string& if_new) override {
        if (auto known = read([&] { return sqlite_mail::select_secret(reader_db_, name); }))
            return *known;
        std::string value;
        write_and_wait([&] { value = sqlite_mail::insert_secret(writer_db_, name, if_new); },
                       "keep a secret");
        return value;
    }

    // --- Leagues and ratings: the SQL is in sqlite_leagues.cpp, the tables' in sqlite_tables.cpp.

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
                    table_writes_.save(table.table);
                sqlite_leagues::write_start(writer_db_, league, number, members, tables);
            },
            std::move(done));
    }

    std::vector<SeasonTable> season_tables(std::uint64_t league, int number) override {
        return read(
            [&] { return sqlite_tables::select_season_tables(reader_db_, league, number); });
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

    const SqliteOptions options_;

    SQLite::Database writer_db_;               // the writer thread's, once it runs
    sqlite_tables::TableWrites table_writes_;  // the statements of every move

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
