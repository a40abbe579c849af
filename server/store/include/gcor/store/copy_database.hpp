#pragma once
// cor-server --copy-database FROM TO: moves a site from its SQLite file to a PostgreSQL database.
#include <ostream>
#include <string>

namespace gcor::server {

// Copies every row of the SQLite file `from` (migrated to the current schema first, as the
// server would) into the PostgreSQL database `to` (a postgresql:// URL), which must be empty, in
// one transaction. Then checks the copy: the rows of every kind counted in both, and every game
// table loaded with its moves and chat from both stores and compared. Progress and a summary go to
// `out`. Throws std::runtime_error with the reason when it cannot copy or a check fails.
void copy_database(const std::string& from, const std::string& to, std::ostream& out);

}  // namespace gcor::server
