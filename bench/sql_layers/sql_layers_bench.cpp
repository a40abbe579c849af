// The measurement behind the store's choice of its own SQL layer over SOCI (docs/architecture.md,
// "Store"): 100k prepared single-row inserts (one transaction) and 100k point selects, on SQLite
// (WAL, synchronous=OFF: the layer's cost, not the disk's) and on PostgreSQL, through raw sqlite3
// and libpq, the store's layer (server/store/src/sql.hpp), and SOCI 4.0.3. Not part of the build:
// SOCI is no dependency of the project. Built and run by hand (docs/benchmarks.md, "SQL layer").
#include <SQLiteCpp/SQLiteCpp.h>
#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>
#include <soci/sqlite3/soci-sqlite3.h>
#include <sqlite3.h>  // already included by SOCI, inside its namespace sqlite_api

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "postgres_connection.hpp"
#include "postgres_sql.hpp"
#include "sqlite_sql.hpp"

using namespace gcor::server;
using Clock = std::chrono::steady_clock;
using namespace sqlite_api;  // SOCI includes sqlite3.h inside a namespace of its own

constexpr int kRows = 100000;

double seconds(const std::function<void()>& run) {
    const auto start = Clock::now();
    run();
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void report(const char* db, const char* layer, double insert_s, double select_s) {
    std::printf("| %s | %s | %.0f | %.0f | %.2f | %.2f |\n", db, layer, kRows / insert_s,
                kRows / select_s, insert_s * 1e6 / kRows, select_s * 1e6 / kRows);
    std::fflush(stdout);
}

std::string name_of(int i) {
    return "name-" + std::to_string(i);
}

std::string fresh_sqlite(const std::string& path) {
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
    SQLite::Database db(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL)");
    return path;
}

void raw_sqlite(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db, "INSERT INTO t (id, name, value) VALUES (?1, ?2, ?3)", -1, &insert,
                       nullptr);
    const double in = seconds([&] {
        sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
        for (int i = 0; i < kRows; ++i) {
            const std::string name = name_of(i);
            sqlite3_bind_int64(insert, 1, i);
            sqlite3_bind_text(insert, 2, name.c_str(), static_cast<int>(name.size()),
                              SQLITE_TRANSIENT);
            sqlite3_bind_int64(insert, 3, i * 3);
            sqlite3_step(insert);
            sqlite3_reset(insert);
        }
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    });
    sqlite3_stmt* select = nullptr;
    sqlite3_prepare_v2(db, "SELECT name, value FROM t WHERE id = ?1", -1, &select, nullptr);
    long long sum = 0;
    const double out = seconds([&] {
        for (int i = 0; i < kRows; ++i) {
            sqlite3_bind_int64(select, 1, i);
            if (sqlite3_step(select) == SQLITE_ROW) {
                std::string name(reinterpret_cast<const char*>(sqlite3_column_text(select, 0)));
                sum += sqlite3_column_int64(select, 1) + static_cast<long long>(name.size());
            }
            sqlite3_reset(select);
        }
    });
    sqlite3_finalize(insert);
    sqlite3_finalize(select);
    sqlite3_close(db);
    if (sum == 0) std::puts("?");
    report("SQLite", "raw sqlite3", in, out);
}

// The store's layer on either database.
void ours(const char* db_name, Sql& db, const std::function<void(const char*)>& exec) {
    const double in = seconds([&] {
        exec("BEGIN");
        for (int i = 0; i < kRows; ++i)
            db.query("INSERT INTO t (id, name, value) VALUES ($1, $2, $3)",
                     sql_params(i, name_of(i), i * 3));
        exec("COMMIT");
    });
    long long sum = 0;
    const double out = seconds([&] {
        for (int i = 0; i < kRows; ++i) {
            const SqlRows rows = db.query("SELECT name, value FROM t WHERE id = $1", sql_params(i));
            sum += rows.int64(0, 1) + static_cast<long long>(rows.text(0, 0).size());
        }
    });
    if (sum == 0) std::puts("?");
    report(db_name, "ours (sql.hpp)", in, out);
}

// SOCI with statements prepared once (its fastest use), and as one usually writes it (`sql <<`,
// prepared again at each call).
void soci_prepared(const char* db_name, soci::session& sql) {
    int id = 0;
    std::string name;
    long long value = 0;
    const double in = seconds([&] {
        soci::transaction transaction(sql);
        soci::statement insert = (sql.prepare << "INSERT INTO t (id, name, value) VALUES "
                                                 "(:id, :name, :value)",
                                  soci::use(id), soci::use(name), soci::use(value));
        for (int i = 0; i < kRows; ++i) {
            id = i;
            name = name_of(i);
            value = i * 3;
            insert.execute(true);
        }
        transaction.commit();
    });
    long long sum = 0;
    std::string got;
    long long got_value = 0;
    const double out = seconds([&] {
        soci::statement select = (sql.prepare << "SELECT name, value FROM t WHERE id = :id",
                                  soci::use(id), soci::into(got), soci::into(got_value));
        for (int i = 0; i < kRows; ++i) {
            id = i;
            select.execute(true);
            sum += got_value + static_cast<long long>(got.size());
        }
    });
    if (sum == 0) std::puts("?");
    report(db_name, "SOCI, prepared once", in, out);
}

void soci_simple(const char* db_name, soci::session& sql) {
    const double in = seconds([&] {
        soci::transaction transaction(sql);
        for (int i = 0; i < kRows; ++i) {
            const std::string name = name_of(i);
            const long long value = i * 3;
            sql << "INSERT INTO t (id, name, value) VALUES (:id, :name, :value)", soci::use(i),
                soci::use(name), soci::use(value);
        }
        transaction.commit();
    });
    long long sum = 0;
    const double out = seconds([&] {
        for (int i = 0; i < kRows; ++i) {
            std::string got;
            long long got_value = 0;
            sql << "SELECT name, value FROM t WHERE id = :id", soci::use(i), soci::into(got),
                soci::into(got_value);
            sum += got_value + static_cast<long long>(got.size());
        }
    });
    if (sum == 0) std::puts("?");
    report(db_name, "SOCI, `sql <<` each time", in, out);
}

void raw_libpq(const std::string& url) {
    PGconn* db = PQconnectdb(url.c_str());
    PQclear(PQexec(db,
                   "CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, value bigint "
                   "NOT NULL)"));
    PQclear(
        PQprepare(db, "ins", "INSERT INTO t (id, name, value) VALUES ($1, $2, $3)", 0, nullptr));
    PQclear(PQprepare(db, "sel", "SELECT name, value FROM t WHERE id = $1", 0, nullptr));
    const double in = seconds([&] {
        PQclear(PQexec(db, "BEGIN"));
        for (int i = 0; i < kRows; ++i) {
            const std::string id = std::to_string(i), name = name_of(i),
                              value = std::to_string(i * 3);
            const char* values[] = {id.c_str(), name.c_str(), value.c_str()};
            PQclear(PQexecPrepared(db, "ins", 3, values, nullptr, nullptr, 0));
        }
        PQclear(PQexec(db, "COMMIT"));
    });
    long long sum = 0;
    const double out = seconds([&] {
        for (int i = 0; i < kRows; ++i) {
            const std::string id = std::to_string(i);
            const char* values[] = {id.c_str()};
            PGresult* result = PQexecPrepared(db, "sel", 1, values, nullptr, nullptr, 0);
            sum += std::stoll(PQgetvalue(result, 0, 1)) +
                   static_cast<long long>(std::string(PQgetvalue(result, 0, 0)).size());
            PQclear(result);
        }
    });
    PQfinish(db);
    if (sum == 0) std::puts("?");
    report("PostgreSQL", "raw libpq", in, out);
}

void pg_table(const std::string& url) {
    PGconn* db = PQconnectdb(url.c_str());
    PQclear(PQexec(db,
                   "DROP TABLE IF EXISTS t; CREATE TABLE t (id bigint PRIMARY KEY, name text "
                   "NOT NULL, value bigint NOT NULL)"));
    PQfinish(db);
}

int main(int argc, char** argv) {
    const std::string path = "/tmp/s42/layers.db";
    const std::string pg_url = argc > 1 ? argv[1] : "";
    std::puts("| database | layer | inserts/s | selects/s | µs/insert | µs/select |");
    std::puts("|---|---|---|---|---|---|");
    for (int round = 0; round < 3; ++round) {
        raw_sqlite(fresh_sqlite(path));
        {
            SQLite::Database connection(fresh_sqlite(path), SQLite::OPEN_READWRITE);
            connection.exec("PRAGMA synchronous = OFF");
            SqliteSql db(connection);
            ours("SQLite", db, [&](const char* sql) { connection.exec(sql); });
        }
        {
            soci::session sql(soci::sqlite3, "db=" + fresh_sqlite(path));
            sql << "PRAGMA synchronous = OFF";
            soci_prepared("SQLite", sql);
        }
        {
            soci::session sql(soci::sqlite3, "db=" + fresh_sqlite(path));
            sql << "PRAGMA synchronous = OFF";
            soci_simple("SQLite", sql);
        }
        if (pg_url.empty()) continue;
        raw_libpq(pg_url);
        pg_table(pg_url);
        {
            pg::Connection connection(pg_url);
            connection.execute("DROP TABLE t");
            connection.execute(
                "CREATE TABLE t (id bigint PRIMARY KEY, name text NOT NULL, value bigint NOT "
                "NULL)");
            PostgresSql db(connection);
            ours("PostgreSQL", db, [&](const char* sql) { connection.execute(sql); });
        }
        pg_table(pg_url);
        {
            soci::session sql(soci::postgresql, pg_url);
            soci_prepared("PostgreSQL", sql);
        }
        pg_table(pg_url);
        {
            soci::session sql(soci::postgresql, pg_url);
            soci_simple("PostgreSQL", sql);
        }
        pg_table(pg_url);
        {
            PGconn* db = PQconnectdb(pg_url.c_str());
            PQclear(PQexec(db, "DROP TABLE t"));
            PQfinish(db);
        }
    }
}
