#pragma once
// A small RAII wrapper of libpq (the C API) for the PostgreSQL store: a connection, its results,
// and statements prepared on first use under a name the connection gives them. Parameters and
// results travel as text; parameters are always bound ($1, $2 ...), never written into the SQL.
// A transaction can be sent as one pipeline (libpq's pipeline mode): its statements go out
// without waiting for each other's results, so that the whole costs one round trip.
#include <libpq-fe.h>

#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
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

    // A transaction as one pipeline: `begin_pipeline` sends BEGIN, `send` and `query` the
    // statements, `commit_pipeline` COMMIT; nothing waits for the server but a `query`, whose
    // result is needed at once (it reads every earlier result too), and the commit. The first
    // statement that fails fails the transaction: the server skips the rest, and the commit (or
    // the `query` that reads it) throws that statement's error. Throws Error.
    void begin_pipeline();
    // Sends one statement without waiting for it; in a pipeline, `on_error` turns its Error into
    // the exception the transaction then throws (nothing: the Error itself). Outside a
    // pipeline, runs it at once.
    using OnError = std::function<void(const Error&)>;
    void send(std::string_view sql, const Params& params, OnError on_error = {});
    // Sends COMMIT, waits for every result, and leaves pipeline mode; throws the first failure,
    // after which the transaction is still open (failed): rollback() ends it.
    void commit_pipeline();
    // After a failure inside a pipeline: reads what is left of it and leaves pipeline mode, so
    // that rollback() can follow; nothing when the connection is lost.
    void abandon_pipeline() noexcept;
    // The server closed this idle connection (a restart), as far as what arrived tells; reads
    // what arrived without waiting.
    bool dropped();
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
    // What a pipeline sent and has not read the result of yet, in order.
    struct Pending {
        enum class Kind : std::uint8_t { prepare, statement, sync } kind;
        std::string sql;   // prepare: the statement it prepares, forgotten if that failed
        OnError on_error;  // statement
    };

    // The result if it succeeded; otherwise throws Error.
    Result checked(PGresult* result);
    Error error_of(const PGresult* result) const;
    // The prepared statement's name, prepared first (in a pipeline: sent) if it is new.
    const std::string& prepared(std::string_view sql);
    void send_prepared(const std::string& name, const Params& params);
    // Marks a sync point and reads every result up to it. The failure to throw, if any: the
    // first statement's that failed, mapped by its on_error, as an exception; returns the last
    // statement's result when it succeeded.
    std::optional<Result> sync_and_read(std::exception_ptr& failure);
    void leave_pipeline();

    std::unique_ptr<PGconn, decltype(&PQfinish)> connection_;
    std::unordered_map<std::string, std::string> prepared_;  // SQL text -> statement name
    int statements_named_ = 0;
    std::deque<Pending> pending_;  // in a pipeline
    bool in_pipeline_ = false;
};

// `url` with its password, if any, replaced by "***": for messages and logs.
std::string redacted(std::string_view url);
// Why libpq cannot read `url` as connection settings; nullopt when it can.
std::optional<std::string> url_problem(const std::string& url);

}  // namespace gcor::server::pg
