#pragma once
// The store on a PostgreSQL server, the second backend of store.hpp's interface (the first is the
// embedded SQLite one): for a database server that several server processes can share.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "gcor/store/store.hpp"

namespace gcor::server {

struct PostgresOptions {
    // libpq's connection settings: postgresql://user@host:port/database (or postgres://; libpq's
    // key=value form works too). A password in it is never printed.
    std::string url;
    // As in SqliteOptions: the grouping window, grouping at all, and the observers (on_failure
    // gets PostgreSQL's reason; while failing and idle the store tries a write every 5 seconds,
    // reconnecting).
    int group_commit_ms = 0;
    bool group_commits = true;
    // A statement of the store's that runs longer fails (its request is answered
    // storage_failed): a database that stops answering must not hold the writer, and every
    // table waiting for it, for ever. The server's statements take milliseconds.
    int statement_timeout_ms = 15'000;
    std::function<void(std::chrono::nanoseconds, std::size_t writes)> on_commit = {};
    std::function<void(const std::string& error)> on_failure = {};
};

// The schema version this code migrates to (the table schema_version).
int postgres_schema_version();

// One writer connection (synchronous_commit on: a write is acknowledged after its COMMIT
// returned) and a few reader connections, opened as reads need them; schema migrations applied
// when opened. Throws std::runtime_error with a readable reason (the URL without its password)
// when the server cannot be reached or the database migrated.
std::unique_ptr<Store> open_postgres_store(const PostgresOptions& options);

}  // namespace gcor::server
