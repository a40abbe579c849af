#pragma once
// A small RAII wrapper of libpq (the C API) for the PostgreSQL store: a connection, its results,
// and statements prepared on first use under a name the connection gives them. Parameters and
// results travel as text; parameters are always bound ($1, $2 ...), never written into the SQL.
#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gcor::server::pg {

// What PostgreSQL (or libpq) said when a statement or a connection failed.
class Error : public std::runtime_error {
  public:
    Error(const std::string& message, std::string code, bool lost)
        : std::runtime_error(message), sqlstate_(std::move(code)), connection_lost_(lost) {}
    // The SQLSTATE code ("23505": a unique key taken), empty when the server sent none.
    const std::string& sqlstate() const { return sqlstate_; }
    // The connection is gone (the server stopped or is unreachable): nothing was the SQL's fault.
    bool connection_lost() const { return connection_lost_; }

  private:
    std::string sqlstate_;
    bool connection_lost_;
};

// The parameters of one statement, in order; nullopt is NULL.
class Params {
  public:
    Params& add(std::string value);
    Params& add(const char* value) { return add(std::string(value)); }
    Params& add(std::int64_t value);
    // Ids, seeds and versions: the uint64's bit pattern as a bigint (as the SQLite store keeps it).
    Params& add(std::uint64_t value) { return add(static_cast<std::int64_t>(value)); }
    Params& add(int value) { return add(static_cast<std::int64_t>(value)); }
    Params& add(double value);
    Params& add(bool value) { return add(std::string(value ? "t" : "f")); }
    Params& add(std::nullopt_t);
    template <typename T>
    Params& add(const std::optional<T>& value) {
        return value ? add(*value) : add(std::nullopt);
    }

    int size() const { return static_cast<int>(values_.size()); }
    // libpq's arrays: a pointer per parameter (null for NULL), valid while this lives.
    std::vector<const char*> pointers() const;

  private:
    std::vector<std::optional<std::string>> values_;
};

template <typename... Values>
Params params(const Values&... values) {
    Params list;
    (list.add(values), ...);
    return list;
}

// A statement's result: rows of text (columns read by position).
class Result {
  public:
    explicit Result(PGresult* result) : result_(result, &PQclear) {}

    int rows() const { return PQntuples(result_.get()); }
    int columns() const { return PQnfields(result_.get()); }
    bool empty() const { return rows() == 0; }
    // Rows changed by an INSERT, UPDATE or DELETE.
    std::size_t affected() const;
    // The command tag ("COMMIT", or "ROLLBACK" for a COMMIT of a failed transaction).
    std::string command() const { return PQcmdStatus(result_.get()); }

    bool null(int row, int column) const { return PQgetisnull(result_.get(), row, column) != 0; }
    std::string text(int row, int column) const;
    std::int64_t int64(int row, int column) const;
    std::uint64_t uint64(int row, int column) const {
        return static_cast<std::uint64_t>(int64(row, column));
    }
    int int32(int row, int column) const;

  private:
    std::unique_ptr<PGresult, decltype(&PQclear)> result_;
};

class Connection {
  public:
    // Connects to `conninfo` (a postgresql:// URL or libpq's key=value form); throws Error.
    explicit Connection(const std::string& conninfo);

    // SQL without parameters, possibly several statements (BEGIN, a migration).
    Result execute(const std::string& sql);
    // One statement with its parameters, prepared on this connection the first time its text
    // is run and by name after that.
    Result query(std::string_view sql, const Params& params = {});
    // Ends a failed or open transaction, if the connection still works.
    void rollback() noexcept;
    // The connection is gone: a new one is needed.
    bool broken() const { return PQstatus(connection_.get()) == CONNECTION_BAD; }
    // Outside any transaction (none open, none failed).
    bool idle() const { return PQtransactionStatus(connection_.get()) == PQTRANS_IDLE; }

    // For a connection that LISTENs: its socket, to wait on; reads what arrived (false when the
    // connection is lost); and the payloads of the notifications read so far, in order.
    int socket() const { return PQsocket(connection_.get()); }
    bool consume_input() { return PQconsumeInput(connection_.get()) == 1; }
    std::vector<std::string> notifications();

  private:
    // The result if it succeeded; otherwise throws Error.
    Result checked(PGresult* result);

    std::unique_ptr<PGconn, decltype(&PQfinish)> connection_;
    std::unordered_map<std::string, std::string> prepared_;  // SQL text -> statement name
};

// `url` with its password, if any, replaced by "***": for messages and logs.
std::string redacted(std::string_view url);
// Why libpq cannot read `url` as connection settings; nullopt when it can.
std::optional<std::string> url_problem(const std::string& url);

}  // namespace gcor::server::pg
