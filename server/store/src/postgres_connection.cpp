#include "postgres_connection.hpp"

#include <spdlog/spdlog.h>

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
    return checked(PQexec(connection_.get(), sql.c_str()));
}

Result Connection::query(std::string_view sql, const Params& params) {
    auto known = prepared_.find(std::string(sql));
    if (known == prepared_.end()) {
        std::string name = "gcor_" + std::to_string(prepared_.size() + 1);
        checked(PQprepare(connection_.get(), name.c_str(), std::string(sql).c_str(), 0, nullptr));
        known = prepared_.emplace(std::string(sql), std::move(name)).first;
    }
    const std::vector<const char*> values = params.pointers();
    return checked(PQexecPrepared(connection_.get(), known->second.c_str(), params.size(),
                                  values.data(), nullptr, nullptr, 0));
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
    std::string message = raw ? PQresultErrorMessage(raw) : PQerrorMessage(connection_.get());
    while (!message.empty() && message.back() == '\n')
        message.pop_back();
    const char* code = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
    std::string sqlstate = code ? code : "";
    const bool lost = broken() || means_connection_lost(sqlstate);
    throw Error(message, std::move(sqlstate), lost);
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
