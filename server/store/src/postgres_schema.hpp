#pragma once
// The PostgreSQL store's schema: numbered migrations, applied at open under an advisory lock so
// that processes opening one database at once migrate it once.
#include "postgres_connection.hpp"

namespace gcor::server::postgres_schema {

constexpr int kLatestVersion = 14;

// Migrates the database to kLatestVersion in one transaction; throws when it is newer.
void migrate(pg::Connection& connection);

}  // namespace gcor::server::postgres_schema
