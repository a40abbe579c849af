#include "gcor/store/open_store.hpp"

#include "gcor/store/postgres_store.hpp"

namespace gcor::server {

bool is_postgres_url(const std::string& database) {
    return database.starts_with("postgresql://") || database.starts_with("postgres://");
}

std::unique_ptr<Store> open_store(const std::string& database, const StoreOptions& options) {
    if (is_postgres_url(database)) {
        return open_postgres_store({.url = database,
                                    .group_commit_ms = options.group_commit_ms,
                                    .on_commit = options.on_commit,
                                    .on_failure = options.on_failure});
    }
    return open_sqlite_store({.path = database,
                              .group_commit_ms = options.group_commit_ms,
                              .on_commit = options.on_commit,
                              .on_failure = options.on_failure});
}

}  // namespace gcor::server
