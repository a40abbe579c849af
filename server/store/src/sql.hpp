#pragma once
// The store's own small SQL layer: a statement written once, run on SQLite or on PostgreSQL.
// Statements are written in the SQL both databases read (upserts with ON CONFLICT, RETURNING,
// true and false), parameters numbered `$1`, `$2` ...; the little they spell differently is a
// function of `Dialect` here, never a statement written twice. Chosen over SOCI by measurement
// (docs/architecture.md, "Store").
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace gcor::server {

enum class Dialect : std::uint8_t { sqlite, postgres };

// A parameter or a column's value. Integers are int64 (a uint64's bit pattern, as both schemas
// keep ids, seeds and versions); booleans are 0 and 1, which PostgreSQL reads as booleans too.
using SqlValue = std::variant<std::monostate, std::int64_t, double, std::string>;
using SqlParams = std::vector<SqlValue>;

template <typename T>
SqlValue sql_value(const T& value) {
    if constexpr (std::is_same_v<T, std::nullopt_t>) {
        return std::monostate{};
    } else if constexpr (std::is_same_v<T, bool>) {
        return std::int64_t{value ? 1 : 0};
    } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
        static_assert(!std::is_enum_v<T>, "store enums as their words (store_texts.hpp)");
        return static_cast<std::int64_t>(value);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<double>(value);
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
        return std::string(std::string_view(value));
    } else {
        return value ? sql_value(*value) : SqlValue{};  // a std::optional: NULL when empty
    }
}

template <typename... Values>
SqlParams sql_params(const Values&... values) {
    return SqlParams{sql_value(values)...};
}

// What a statement failed with, in terms the store decides on.
class SqlError : public std::runtime_error {
  public:
    enum class Kind : std::uint8_t { other, unique_violation };
    SqlError(const std::string& message, Kind kind) : std::runtime_error(message), kind_(kind) {}
    bool unique_violation() const { return kind_ == Kind::unique_violation; }

  private:
    Kind kind_;
};

// A statement's result: its rows (columns read by position) and the rows it changed.
class SqlRows {
  public:
    SqlRows(std::size_t columns, std::vector<SqlValue> cells, std::size_t affected)
        : columns_(columns), cells_(std::move(cells)), affected_(affected) {}

    int rows() const { return columns_ == 0 ? 0 : static_cast<int>(cells_.size() / columns_); }
    bool empty() const { return cells_.empty(); }
    // Rows changed by an INSERT, UPDATE or DELETE.
    std::size_t affected() const { return affected_; }

    bool null(int row, int column) const;
    std::string text(int row, int column) const;
    std::int64_t int64(int row, int column) const;
    std::uint64_t uint64(int row, int column) const {
        return static_cast<std::uint64_t>(int64(row, column));
    }
    int int32(int row, int column) const;
    double real(int row, int column) const;
    bool boolean(int row, int column) const;
    std::optional<std::int64_t> optional_int64(int row, int column) const;
    std::optional<int> optional_int32(int row, int column) const;

  private:
    const SqlValue& cell(int row, int column) const;

    std::size_t columns_;
    std::vector<SqlValue> cells_;  // row by row
    std::size_t affected_;
};

// One connection, as a statement sees it; used by one thread at a time.
class Sql {
  public:
    virtual ~Sql() = default;
    virtual Dialect dialect() const = 0;
    // Runs one statement (prepared once per connection and text) with its parameters; throws
    // SqlError.
    virtual SqlRows query(std::string_view statement, const SqlParams& params = {}) = 0;
};

// `statement` in the form `dialect` takes: SQLite numbers its parameters `?1`, `?2` ... (its
// `$1` would be a parameter named "$1", numbered by first use). Text in quotes is left alone.
std::string sql_for(Dialect dialect, std::string_view statement);

// Ends a SELECT whose rows the transaction takes for itself: rows another transaction is taking
// are skipped, not waited for (PostgreSQL). SQLite has one writer: every row is its own.
std::string_view skip_locked_rows(Dialect dialect);

// The literal true, where a condition must be written as a partial index's is: SQLite matches an
// index's `public = 1` only by that text.
std::string_view true_value(Dialect dialect);

// `column` is one of the texts of the list that `parameter` holds (text_list): one statement,
// however long the list.
std::string in_text_list(Dialect dialect, std::string_view column, std::string_view parameter);
SqlValue text_list(Dialect dialect, const std::vector<std::string>& texts);

}  // namespace gcor::server
