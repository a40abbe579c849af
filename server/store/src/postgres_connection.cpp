#include "postgres_connection.hpp"

#include <poll.h>
#include <spdlog/spdlog.h>

#include <cassert>
#include <charconv>
#include <cstring>
#include <system_error>

namespace gcor::server::pg {

namespace {

// How long a connection attempt may take unless the URL says otherwise (libpq: forever).
constexpr const char* kConnectTimeoutSeconds = "10";
// How long sent data may go unacknowledged before the connection counts as lost, unless the URL
// says otherwise: a database machine that vanished without closing its connections fails the
// writes in flight after this rather than after the kernel's retransmissions (about 15 minutes).
constexpr const char* kTcpUserTimeoutMs = "30000";
// Statements a pipeline sends before it reads their results: the server stops reading while its
// answers wait unread, and a client that only sends would then wait for ever. A group commit
// of this many writes reads them once on the way (one more round trip).
constexpr std::size_t kMostUnread = 1000;

// SQLSTATE classes and codes that mean the server went away, not that the SQL was wrong:
// 08 (connection exception) and 57P01..57P03 (shutting down, crashed, not yet accepting).
bool means_connection_lost(const std::string& sqlstate) {
    return sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" ||
           sqlstate == "57P03";
}

template <typename Number>
Number parse_number(const char* text, const char* what) {
    Number value{};
    const char* end = text + std::strlen(text);
    const auto [stopped, failed] = std::from_chars(text, end, value);
    if (failed != std::errc() || stopped != end)
        throw Error(std::string("the database returned \"") + text + "\" for " + what, "", false);
    return value;
}

// NOTICEs (a migration's "already exists, skipping") go to the debug log, not to stderr.
void log_notice(void*, const char* message) {
    spdlog::debug("store: postgresql: {}", message);
}

}  // namespace

Params& Params::add(std::string value) {
    values_.emplace_back(std::move(value));
    return *this;
}

Params& Params::add(std::int64_t value) {
    return add(std::to_string(value));
}

Params& Params::add(double value) {
    char text[64];
    // The shortest text that reads back as the same double.
    const auto written = std::to_chars(text, text + sizeof text, value);
    return add(std::string(text, written.ptr));
}

Params& Params::add(std::nullopt_t) {
    values_.emplace_back(std::nullopt);
    return *this;
}

std::vector<const char*> Params::pointers() const {
    std::vector<const char*> pointers;
    pointers.reserve(values_.size());
    for (const auto& value : values_)
        pointers.push_back(value ? value->c_str() : nullptr);
    return pointers;
}

std::size_t Result::affected() const {
    const char* tuples = PQcmdTuples(result_.get());
    return *tuples == '\0' ? 0 : parse_number<std::size_t>(tuples, "a count of rows");
}

std::string Result::text(int row, int column) const {
    return std::string(PQgetvalue(result_.get(), row, column),
                       static_cast<std::size_t>(PQgetlength(result_.get(), row, column)));
}

std::int64_t Result::int64(int row, int column) const {
    return parse_number<std::int64_t>(PQgetvalue(result_.get(), row, column), "an integer");
}

int Result::int32(int row, int column) const {
    return parse_number<int>(PQgetvalue(result_.get(), row, column), "an integer");
}

Connection::Connection(const std::string& conninfo) : connection_(nullptr, &PQfinish) {
    // Keywords later in the list override earlier ones: the URL's own connect_timeout wins.
    const char* keywords[] = {"connect_timeout", "tcp_user_timeout", "application_name", "dbname",
                              nullptr};
    const char* values[] = {kConnectTimeoutSeconds, kTcpUserTimeoutMs, "cor-server",
                            conninfo.c_str(), nullptr};
    connection_.reset(PQconnectdbParams(keywords, values, 1));
    if (!connection_) throw Error("out of memory for a connection", "", true);
    if (PQstatus(connection_.get()) != CONNECTION_OK) {
        std::string message = PQerrorMessage(connection_.get());
        while (!message.empty() && message.back() == '\n')
            message.pop_back();
        throw Error(message, "", true);
    }
    PQsetNoticeProcessor(connection_.get(), log_notice, nullptr);
}

Result Connection::execute(const std::string& sql) {
    assert(!in_pipeline_ && "a pipeline sends statements with send() and query()");
    return checked(PQexec(connection_.get(), sql.c_str()));
}

Result Connection::query(std::string_view sql, const Params& params) {
    const std::string& name = prepared(sql);
    if (!in_pipeline_) {
        const std::vector<const char*> values = params.pointers();
        return checked(PQexecPrepared(connection_.get(), name.c_str(), params.size(), values.data(),
                                      nullptr, nullptr, 0));
    }
    send_prepared(name, params);
    pending_.push_back({Pending::Kind::statement, {}, {}});
    std::exception_ptr failure;
    std::optional<Result> result = sync_and_read(failure);
    if (failure) std::rethrow_exception(failure);
    if (!result) throw Error("the database sent no result for a statement", "", broken());
    return std::move(*result);
}

const std::string& Connection::prepared(std::string_view sql) {
    auto known = prepared_.find(std::string(sql));
    if (known != prepared_.end()) return known->second;
    std::string name = "gcor_" + std::to_string(++statements_named_);
    if (in_pipeline_) {
        // Taken as prepared at once, so that the statements after it use it; forgotten when
        // its result says it failed.
        if (PQsendPrepare(connection_.get(), name.c_str(), std::string(sql).c_str(), 0, nullptr) ==
            0)
            throw error_of(nullptr);
        pending_.push_back({Pending::Kind::prepare, std::string(sql), {}});
    } else {
        checked(PQprepare(connection_.get(), name.c_str(), std::string(sql).c_str(), 0, nullptr));
    }
    return prepared_.emplace(std::string(sql), std::move(name)).first->second;
}

void Connection::send_prepared(const std::string& name, const Params& params) {
    const std::vector<const char*> values = params.pointers();
    if (PQsendQueryPrepared(connection_.get(), name.c_str(), params.size(), values.data(), nullptr,
                            nullptr, 0) == 0)
        throw error_of(nullptr);
}

void Connection::begin_pipeline() {
    assert(!in_pipeline_);
    if (PQenterPipelineMode(connection_.get()) == 0) throw error_of(nullptr);
    in_pipeline_ = true;
    if (PQsendQueryParams(connection_.get(), "BEGIN", 0, nullptr, nullptr, nullptr, nullptr, 0) ==
        0)
        throw error_of(nullptr);
    pending_.push_back({Pending::Kind::statement, {}, {}});
}

void Connection::send(std::string_view sql, const Params& params, OnError on_error) {
    if (!in_pipeline_) {
        try {
            query(sql, params);
        } catch (const Error& error) {
            if (on_error) on_error(error);
            throw;
        }
        return;
    }
    send_prepared(prepared(sql), params);
    pending_.push_back({Pending::Kind::statement, {}, std::move(on_error)});
    if (pending_.size() >= kMostUnread) {
        std::exception_ptr failure;
        sync_and_read(failure);
        if (failure) std::rethrow_exception(failure);
    }
}

void Connection::commit_pipeline() {
    assert(in_pipeline_);
    if (PQsendQueryParams(connection_.get(), "COMMIT", 0, nullptr, nullptr, nullptr, nullptr, 0) ==
        0)
        throw error_of(nullptr);
    pending_.push_back({Pending::Kind::statement, {}, {}});
    std::exception_ptr failure;
    const std::optional<Result> committed = sync_and_read(failure);
    leave_pipeline();
    if (failure) std::rethrow_exception(failure);
    // COMMIT of a transaction that failed answers ROLLBACK, not an error.
    if (!committed || committed->command() != "COMMIT")
        throw Error("the transaction was rolled back", "", false);
}

void Connection::abandon_pipeline() noexcept {
    if (!in_pipeline_) return;
    if (!pending_.empty() && !broken()) {
        try {
            std::exception_ptr ignored;  // the failure that led here is the one reported
            sync_and_read(ignored);
        } catch (const std::exception&) {
            // Could not even send the sync: the connection is lost.
        }
    }
    leave_pipeline();
}

std::optional<Result> Connection::sync_and_read(std::exception_ptr& failure) {
    if (PQpipelineSync(connection_.get()) == 0) throw error_of(nullptr);
    pending_.push_back({Pending::Kind::sync, {}, {}});
    const auto fail = [&failure](std::exception_ptr cause) {
        if (!failure) failure = std::move(cause);
    };
    std::optional<Result> last;
    while (!pending_.empty()) {
        const Pending sent = std::move(pending_.front());
        pending_.pop_front();
        PGresult* raw = PQgetResult(connection_.get());
        if (raw == nullptr) {
            // Nothing more will come: the connection is lost (libpq said why, if anything).
            fail(std::make_exception_ptr(error_of(nullptr)));
            pending_.clear();
            return std::nullopt;
        }
        Result result(raw);
        const ExecStatusType status = PQresultStatus(raw);
        if (sent.kind == Pending::Kind::sync) {
            if (status != PGRES_PIPELINE_SYNC) {
                fail(std::make_exception_ptr(error_of(raw)));
                pending_.clear();
                return std::nullopt;
            }
            continue;  // a sync's result is not followed by a null one
        }
        // Each statement's results end with a null result.
        while (PGresult* extra = PQgetResult(connection_.get()))
            PQclear(extra);
        last.reset();
        if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) {
            if (sent.kind == Pending::Kind::statement) last.emplace(std::move(result));
            continue;
        }
        if (sent.kind == Pending::Kind::prepare) prepared_.erase(sent.sql);
        if (status == PGRES_PIPELINE_ABORTED) continue;  // skipped after the failure kept
        const Error error = error_of(raw);
        if (error.connection_lost()) {
            fail(std::make_exception_ptr(error));
            pending_.clear();
            return std::nullopt;
        }
        try {
            if (sent.on_error) sent.on_error(error);
            fail(std::make_exception_ptr(error));
        } catch (...) {
            fail(std::current_exception());
        }
    }
    return last;
}

void Connection::leave_pipeline() {
    pending_.clear();
    in_pipeline_ = false;
    if (!broken()) PQexitPipelineMode(connection_.get());
}

bool Connection::dropped() {
    // An idle connection has nothing to read: anything that came is the server's goodbye.
    pollfd socket{PQsocket(connection_.get()), POLLIN, 0};
    return broken() || poll(&socket, 1, 0) != 0;
}

std::vector<std::string> Connection::notifications() {
    std::vector<std::string> payloads;
    while (PGnotify* notification = PQnotifies(connection_.get())) {
        payloads.emplace_back(notification->extra);
        PQfreemem(notification);
    }
    return payloads;
}

void Connection::rollback() noexcept {
    abandon_pipeline();
    try {
        if (!broken()) execute("ROLLBACK");
    } catch (const std::exception&) {
        // The connection broke meanwhile: the server ends the transaction itself.
    }
}

Result Connection::checked(PGresult* raw) {
    Result result(raw);
    const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
    throw error_of(raw);
}

Error Connection::error_of(const PGresult* raw) const {
    std::string message = raw ? PQresultErrorMessage(raw) : PQerrorMessage(connection_.get());
    while (!message.empty() && message.back() == '\n')
        message.pop_back();
    const char* code = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
    std::string sqlstate = code ? code : "";
    const bool lost = broken() || means_connection_lost(sqlstate);
    return Error(message, std::move(sqlstate), lost);
}

std::string redacted(std::string_view url) {
    std::string text(url);
    const std::size_t scheme = text.find("://");
    if (scheme == std::string::npos) return text;
    const std::size_t authority = scheme + 3;
    const std::size_t end = text.find_first_of("/?", authority);
    const std::size_t at = text.rfind('@', end == std::string::npos ? text.size() : end);
    if (at != std::string::npos && at >= authority) {
        const std::size_t colon = text.find(':', authority);
        if (colon != std::string::npos && colon < at)
            text.replace(colon + 1, at - colon - 1, "***");
    }
    // A password may also come as a parameter: password=...
    for (std::size_t key = text.find("password="); key != std::string::npos;
         key = text.find("password=", key + 1)) {
        const std::size_t value = key + std::strlen("password=");
        const std::size_t value_end = text.find('&', value);
        text.replace(value, (value_end == std::string::npos ? text.size() : value_end) - value,
                     "***");
    }
    return text;
}

std::optional<std::string> url_problem(const std::string& url) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
    if (options) {
        PQconninfoFree(options);
        return std::nullopt;
    }
    std::string message = error ? error : "cannot read it";
    PQfreemem(error);
    while (!message.empty() && message.back() == '\n')
        message.pop_back();
    return message;
}

}  // namespace gcor::server::pg
