#pragma once
// The SQLite store's schema: the numbered migrations that take a database from one schema version
// (its PRAGMA user_version) to the next.
#include <SQLiteCpp/SQLiteCpp.h>

namespace gcor::server::sqlite_schema {

// The schema version this code migrates to; a new migration increments it.
constexpr int kLatestVersion = 15;

// Applies the migrations that take `db` from its version to `target`, each in its own IMMEDIATE
// transaction. Throws std::runtime_error when the database is already past `target`.
void migrate(SQLite::Database& db, int target);

}  // namespace gcor::server::sqlite_schema
