#pragma once
// The store that the --database setting names: an SQLite file or a PostgreSQL URL.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "gcor/store/store.hpp"

namespace gcor::server {

// What open_store passes to either backend (see SqliteOptions).
struct StoreOptions {
    int group_commit_ms = 0;
    std::function<void(std::chrono::nanoseconds, std::size_t writes)> on_commit = {};
    std::function<void(const std::string& error)> on_failure = {};
};

// Whether `database` names a PostgreSQL database: a URL that starts with postgresql:// or
// postgres://. Anything else is an SQLite file.
bool is_postgres_url(const std::string& database);

// Opens open_postgres_store for a PostgreSQL URL, open_sqlite_store for anything else. Throws
// std::runtime_error with a readable reason when it cannot be opened.
std::unique_ptr<Store> open_store(const std::string& database, const StoreOptions& options);

}  // namespace gcor::server
