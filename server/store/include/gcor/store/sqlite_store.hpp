#pragma once
// The embedded SQLite store (open_sqlite_store, declared in store.hpp) and its schema versions,
// which tests use to build a database as an older server left it.
#include <string>

namespace gcor::server {

// The schema version this code migrates to (the database's PRAGMA user_version).
int sqlite_schema_version();

// Creates the database at `path` if missing and migrates it to schema `version`, between 1 and
// sqlite_schema_version(). Throws std::runtime_error when the database is already past `version`.
void migrate_sqlite_to(const std::string& path, int version);

}  // namespace gcor::server
