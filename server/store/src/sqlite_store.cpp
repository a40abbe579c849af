#include "gcor/store/sqlite_store.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "gcor/store/store.hpp"
#include "sql_account_store.hpp"
#include "sql_analysis_store.hpp"
#include "sql_chat_store.hpp"
#include "sql_league_store.hpp"
#include "sql_mail_store.hpp"
#include "sql_social_store.hpp"
#include "sql_store.hpp"
#include "sql_table_reads.hpp"
#include "sqlite_gathered_log.hpp"
#include "sqlite_schema.hpp"
#include "sqlite_sql.hpp"
#include "sqlite_support.hpp"
#include "sqlite_tables.hpp"
#include "sqlite_writer.hpp"
#include "store_access.hpp"

namespace gcor::server {

UnixMs unix_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

namespace {

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

class SqliteStore final : private StoreAccess,
                          public SqlStore,
                          public SqlAccountStore,
                          public SqlChatStore,
                          public SqlLeagueStore,
                          public SqlMailStore,
                          public SqlSocialStore,
                          public SqlAnalysisStore {
  public:
    explicit SqliteStore(const SqliteOptions& options)
        : SqlStore(static_cast<StoreAccess&>(*this)),
          SqlAccountStore(static_cast<StoreAccess&>(*this)),
          SqlChatStore(static_cast<StoreAccess&>(*this)),
          SqlLeagueStore(static_cast<StoreAccess&>(*this)),
          SqlMailStore(static_cast<StoreAccess&>(*this)),
          SqlSocialStore(static_cast<StoreAccess&>(*this)),
          SqlAnalysisStore(static_cast<StoreAccess&>(*this)),
          options_(options),
          writer_db_(open_migrated(options.path)),
          writer_sql_(writer_db_),
          table_writes_(writer_db_),
          reader_db_(open_connection(options.path, SQLite::OPEN_READONLY)),
          reader_sql_(reader_db_),
          // While failing with nothing to write: a write of the schema version.
          writer_(writer_db_, options, [this] {
              writer_db_.exec("PRAGMA user_version = " +
                              std::to_string(sqlite_schema::kLatestVersion));
          }) {}

    void save_table(const StoredTable& table, TableDone done) override {
        writer_.enqueue([this, table] { table_writes_.save(table); }, std::move(done));
    }

    void remove_table(const std::string& id, std::uint64_t revision, TableDone done) override {
        writer_.enqueue(
            [this, id, revision] {
                if (!table_writes_.removable(id, revision)) return;
                writer_sql_.query("DELETE FROM chat WHERE table_id = $1", sql_params(id));
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

    // One process: every due table is its own, each time.
    std::vector<std::string> take_due_tables(UnixMs now, UnixMs /*held_until*/) override {
        return read([&] { return table_reads::select_due(reader_sql_, now); });
    }

    // --- A season's start: the tables' rows are this store's own (sqlite_tables.cpp).

    void start_season(std::uint64_t league, int number, const std::vector<SeasonMember>& members,
                      const std::vector<SeasonTable>& tables, Done done) override {
        writer_.enqueue(
            [this, league, number, members, tables] {
                for (const SeasonTable& table : tables)
                    table_writes_.save(table.table);
                write_season_start(writer_sql_, league, number, members, tables);
            },
            std::move(done));
    }

  private:
    // --- StoreAccess: what the parts written once run on.

    void read_in_snapshot(const std::function<void(Sql&)>& body) override {
        read([&] {
            body(reader_sql_);
            return true;
        });
    }
    // A local read costs the same with or without its transaction.
    void read_statement(const std::function<void(Sql&)>& body) override { read_in_snapshot(body); }

    bool wait_for_write(const Write& write) override {
        return writer_.write_and_wait([&] { write(writer_sql_); });
    }

    void enqueue(Write write, Done done) override {
        writer_.enqueue([this, write = std::move(write)] { write(writer_sql_); }, std::move(done));
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

    const SqliteOptions options_;

    SQLite::Database writer_db_;               // the writer thread's, once it runs
    SqliteSql writer_sql_;                     // its statements written once
    sqlite_tables::TableWrites table_writes_;  // the statements of every move

    std::mutex read_mutex_;
    SQLite::Database reader_db_;
    SqliteSql reader_sql_;

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
