#include "sqlite_sql.hpp"

#include <sqlite3.h>

#include <utility>
#include <vector>

namespace gcor::server {

namespace {

void bind(SQLite::Statement& statement, int index, const SqlValue& value) {
    std::visit(
        [&](const auto& held) {
            using Held = std::decay_t<decltype(held)>;
            if constexpr (std::is_same_v<Held, std::monostate>)
                statement.bind(index);
            else
                statement.bind(index, held);
        },
        value);
}

SqlValue column_value(const SQLite::Column& column) {
    switch (column.getType()) {
        case SQLITE_INTEGER:
            return column.getInt64();
        case SQLITE_FLOAT:
            return column.getDouble();
        case SQLITE_NULL:
            return std::monostate{};
        default:
            return column.getString();
    }
}

bool unique_violation(const SQLite::Exception& error) {
    const int code = error.getExtendedErrorCode();
    return code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY;
}

}  // namespace

SQLite::Statement& SqliteSql::prepared(std::string_view statement) {
    auto known = prepared_.find(statement);
    if (known == prepared_.end())
        known = prepared_
                    .emplace(std::string(statement), std::make_unique<SQLite::Statement>(
                                                         db_, sql_for(Dialect::sqlite, statement)))
                    .first;
    return *known->second;
}

SqlRows SqliteSql::query(std::string_view text, const SqlParams& params) {
    SQLite::Statement& statement = prepared(text);
    // Reset at the end, failed or not: a statement left running would hold its read lock. Every
    // parameter is bound again at each run, so old bindings need no clearing.
    struct Reset {
        SQLite::Statement& statement;
        ~Reset() { statement.tryReset(); }
    } reset{statement};
    for (std::size_t i = 0; i < params.size(); ++i)
        bind(statement, static_cast<int>(i + 1), params[i]);
    const auto columns = static_cast<std::size_t>(statement.getColumnCount());
    std::vector<SqlValue> cells;
    try {
        while (statement.executeStep())
            for (std::size_t column = 0; column < columns; ++column)
                cells.push_back(column_value(statement.getColumn(static_cast<int>(column))));
    } catch (const SQLite::Exception& error) {
        if (unique_violation(error)) throw SqlError(error.what(), SqlError::Kind::unique_violation);
        throw;
    }
    return SqlRows(columns, std::move(cells), static_cast<std::size_t>(db_.getChanges()));
}

}  // namespace gcor::server
