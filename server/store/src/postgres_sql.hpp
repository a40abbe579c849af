#pragma once
// The store's SQL layer (sql.hpp) on a PostgreSQL connection, which prepares each statement once.
#include <string_view>

#include "postgres_connection.hpp"
#include "sql.hpp"

namespace gcor::server {

class PostgresSql final : public Sql {
  public:
    explicit PostgresSql(pg::Connection& connection) : connection_(connection) {}

    Dialect dialect() const override { return Dialect::postgres; }
    // PostgreSQL's failures stay pg::Error (a lost connection is told apart); a unique key taken
    // is SqlError.
    SqlRows query(std::string_view statement, const SqlParams& params = {}) override;

  private:
    pg::Connection& connection_;
};

}  // namespace gcor::server
