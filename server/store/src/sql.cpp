#include "sql.hpp"

#include <charconv>

#include <nlohmann/json.hpp>

namespace gcor::server {

namespace {

template <typename Number>
Number parse_number(const std::string& text, const char* what) {
    Number value{};
    const auto [stopped, failed] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (failed != std::errc() || stopped != text.data() + text.size())
        throw SqlError("the database returned \"" + text + "\" for " + what, SqlError::Kind::other);
    return value;
}

}  // namespace

const SqlValue& SqlRows::cell(int row, int column) const {
    return cells_.at(static_cast<std::size_t>(row) * columns_ + static_cast<std::size_t>(column));
}

bool SqlRows::null(int row, int column) const {
    return std::holds_alternative<std::monostate>(cell(row, column));
}

std::string SqlRows::text(int row, int column) const {
    const SqlValue& value = cell(row, column);
    if (const auto* text = std::get_if<std::string>(&value)) return *text;
    if (const auto* number = std::get_if<std::int64_t>(&value)) return std::to_string(*number);
    throw SqlError("a column read as text is not text", SqlError::Kind::other);
}

// PostgreSQL's values come as text, SQLite's as what the column holds.
std::int64_t SqlRows::int64(int row, int column) const {
    const SqlValue& value = cell(row, column);
    if (const auto* number = std::get_if<std::int64_t>(&value)) return *number;
    if (const auto* text = std::get_if<std::string>(&value))
        return parse_number<std::int64_t>(*text, "an integer");
    throw SqlError("a column read as an integer is not one", SqlError::Kind::other);
}

int SqlRows::int32(int row, int column) const {
    return static_cast<int>(int64(row, column));
}

double SqlRows::real(int row, int column) const {
    const SqlValue& value = cell(row, column);
    if (const auto* number = std::get_if<double>(&value)) return *number;
    if (const auto* number = std::get_if<std::int64_t>(&value)) return static_cast<double>(*number);
    if (const auto* text = std::get_if<std::string>(&value))
        return parse_number<double>(*text, "a number");
    throw SqlError("a column read as a number is not one", SqlError::Kind::other);
}

// SQLite keeps booleans as 0 and 1; PostgreSQL writes them "t" and "f".
bool SqlRows::boolean(int row, int column) const {
    const SqlValue& value = cell(row, column);
    if (const auto* text = std::get_if<std::string>(&value)) return *text == "t";
    return int64(row, column) != 0;
}

std::optional<std::int64_t> SqlRows::optional_int64(int row, int column) const {
    if (null(row, column)) return std::nullopt;
    return int64(row, column);
}

std::optional<int> SqlRows::optional_int32(int row, int column) const {
    if (null(row, column)) return std::nullopt;
    return int32(row, column);
}

std::string sql_for(Dialect dialect, std::string_view statement) {
    if (dialect == Dialect::postgres) return std::string(statement);
    std::string rewritten;
    rewritten.reserve(statement.size());
    char quote = 0;  // the quote of the literal or name being read, if any
    for (std::size_t i = 0; i < statement.size(); ++i) {
        const char c = statement[i];
        if (quote != 0) {
            if (c == quote) quote = 0;  // a doubled quote closes and opens again: same result
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '$' && i + 1 < statement.size() && statement[i + 1] >= '1' &&
                   statement[i + 1] <= '9') {
            rewritten += '?';
            continue;
        }
        rewritten += c;
    }
    return rewritten;
}

std::string_view skip_locked_rows(Dialect dialect) {
    return dialect == Dialect::postgres ? " FOR UPDATE SKIP LOCKED" : "";
}

std::string_view true_value(Dialect dialect) {
    return dialect == Dialect::postgres ? "true" : "1";
}

// PostgreSQL compares with an array (text[]); SQLite reads the list as a JSON array.
std::string in_text_list(Dialect dialect, std::string_view column, std::string_view parameter) {
    std::string condition(column);
    if (dialect == Dialect::postgres)
        return condition.append(" = ANY (CAST(").append(parameter).append(" AS text[]))");
    return condition.append(" IN (SELECT value FROM json_each(").append(parameter).append("))");
}

SqlValue text_list(Dialect dialect, const std::vector<std::string>& texts) {
    if (dialect == Dialect::sqlite) return nlohmann::json(texts).dump();
    // Every element quoted, its quotes and backslashes escaped.
    std::string array = "{";
    for (const std::string& text : texts) {
        if (array.size() > 1) array += ',';
        array += '"';
        for (char c : text) {
            if (c == '"' || c == '\\') array += '\\';
            array += c;
        }
        array += '"';
    }
    return array + "}";
}

}  // namespace gcor::server
