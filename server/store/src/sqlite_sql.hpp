#pragma once
// The store's SQL layer (sql.hpp) on a SQLite connection: each statement prepared once.
#include <SQLiteCpp/SQLiteCpp.h>

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sql.hpp"

namespace gcor::server {

class SqliteSql final : public Sql {
  public:
    explicit SqliteSql(SQLite::Database& db) : db_(db) {}

    Dialect dialect() const override { return Dialect::sqlite; }
    // SQLite's own failures (a full disk) stay SQLite::Exception, which the writer tells apart;
    // a unique key taken is SqlError.
    SqlRows query(std::string_view statement, const SqlParams& params = {}) override;

  private:
    SQLite::Statement& prepared(std::string_view statement);

    SQLite::Database& db_;
    // By the text as written ($1): the key needs no rewriting.
    std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>> prepared_;
};

}  // namespace gcor::server
