#include "postgres_sql.hpp"

#include <cassert>
#include <utility>
#include <vector>

namespace gcor::server {

namespace {

constexpr const char* kUniqueViolation = "23505";

pg::Params pg_params(const SqlParams& params) {
    pg::Params converted;
    for (const SqlValue& value : params)
        std::visit(
            [&](const auto& held) {
                using Held = std::decay_t<decltype(held)>;
                if constexpr (std::is_same_v<Held, std::monostate>)
                    converted.add(std::nullopt);
                else
                    converted.add(held);
            },
            value);
    return converted;
}

}  // namespace

SqlRows PostgresSql::query(std::string_view statement, const SqlParams& params) {
    // A second statement would not see the first one's snapshot.
    assert(statements_ == Statements::any || ++run_ == 1);
    try {
        const pg::Result result = connection_.query(statement, pg_params(params));
        const int rows = result.rows();
        const int columns = result.columns();
        std::vector<SqlValue> cells;
        cells.reserve(static_cast<std::size_t>(rows * columns));
        for (int row = 0; row < rows; ++row)
            for (int column = 0; column < columns; ++column)
                if (result.null(row, column))
                    cells.emplace_back(std::monostate{});
                else
                    cells.emplace_back(result.text(row, column));
        return SqlRows(static_cast<std::size_t>(columns), std::move(cells), result.affected());
    } catch (const pg::Error& error) {
        if (error.sqlstate() != kUniqueViolation) throw;
        throw SqlError(error.what(), SqlError::Kind::unique_violation);
    }
}

}  // namespace gcor::server
