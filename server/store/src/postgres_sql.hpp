#pragma once
// The store's SQL layer (sql.hpp) on a PostgreSQL connection, which prepares each statement once.
#include <cstdint>
#include <string_view>

#include "postgres_connection.hpp"
#include "sql.hpp"

namespace gcor::server {

class PostgresSql final : public Sql {
  public:
    // How many statements it may run: one outside a transaction (StoreAccess::read_statement),
    // any number inside one.
    enum class Statements : std::uint8_t { one, any };

    explicit PostgresSql(pg::Connection& connection, Statements statements = Statements::any)
        : connection_(connection), statements_(statements) {}

    Dialect dialect() const override { return Dialect::postgres; }
    // PostgreSQL's failures stay pg::Error (a lost connection is told apart); a unique key taken
    // is SqlError.
    SqlRows query(std::string_view statement, const SqlParams& params = {}) override;

  private:
    pg::Connection& connection_;
    Statements statements_;
    int run_ = 0;
};

}  // namespace gcor::server
