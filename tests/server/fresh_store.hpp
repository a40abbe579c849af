#pragma once
// A fresh store of either backend for one test, removed at the end: SQLite's folder, or one of the
// test PostgreSQL server's databases.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "gcor/store/postgres_store.hpp"
#include "gcor/store/sqlite_store.hpp"
#include "gcor/store/store.hpp"
#include "postgres_support.hpp"

namespace gcor::testing {

enum class FreshBackend { sqlite, postgres };

inline const char* backend_name(FreshBackend backend) {
    return backend == FreshBackend::sqlite ? "SQLite" : "PostgreSQL";
}

class FreshStore {
  public:
    explicit FreshStore(FreshBackend backend) {
        if (backend == FreshBackend::postgres) {
            store_ =
                server::open_postgres_store({.url = PostgresServer::shared().create_database()});
            return;
        }
        char pattern[] = "/tmp/gcor-store-XXXXXX";
        dir_ = mkdtemp(pattern);
        store_ = server::open_sqlite_store({.path = dir_ + "/store.db"});
    }
    ~FreshStore() {
        store_.reset();
        std::error_code ignored;
        if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    }
    FreshStore(const FreshStore&) = delete;
    FreshStore& operator=(const FreshStore&) = delete;

    server::Store& store() { return *store_; }

  private:
    std::string dir_;
    std::unique_ptr<server::Store> store_;
};

}  // namespace gcor::testing
