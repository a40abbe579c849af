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
    // Looked up by a statement's text as written ($1), without a string made for each query.
    struct TextHash : std::hash<std::string_view> {
        using is_transparent = void;
    };
    std::unordered_map<std::string, std::unique_ptr<SQLite::Statement>, TextHash, std::equal_to<>>
        prepared_;
};

}  // namespace gcor::server
