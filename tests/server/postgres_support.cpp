#include "postgres_support.hpp"

#include <libpq-fe.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gcor::testing {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kStartTimeout = 30s;
constexpr auto kStopTimeout = 30s;
constexpr auto kPoll = 20ms;

// What `command` prints on its first line ("" when it fails).
std::string first_line_of(const std::string& command) {
    std::unique_ptr<FILE, decltype(&pclose)> pipe(popen(command.c_str(), "r"), &pclose);
    if (!pipe) return {};
    std::array<char, 512> line{};
    if (!fgets(line.data(), static_cast<int>(line.size()), pipe.get())) return {};
    std::string text(line.data());
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    return text;
}

// The folder of Debian's PostgreSQL server programs: pg_config's, or the newest installed.
std::string postgres_bin() {
    std::string bin = first_line_of("pg_config --bindir 2>/dev/null");
    if (!bin.empty() && fs::exists(fs::path(bin) / "initdb")) return bin;
    std::string newest;
    std::error_code ignored;
    for (const auto& version : fs::directory_iterator("/usr/lib/postgresql", ignored))
        if (fs::exists(version.path() / "bin" / "initdb") && version.path().string() > newest)
            newest = version.path().string();
    if (newest.empty())
        throw std::runtime_error(
            "PostgreSQL is not installed (no initdb): the PostgreSQL tests need Debian's "
            "postgresql package; scripts/bootstrap installs it");
    return newest + "/bin";
}

std::string file_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string quoted(const std::string& text) {
    return "'" + text + "'";  // only our own paths and numbers, which hold no quote
}

}  // namespace

PostgresServer& PostgresServer::shared() {
    static PostgresServer server;
    return server;
}

PostgresServer::PostgresServer() : bin_(postgres_bin()) {
    char pattern[] = "/tmp/gcor-pg-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot make a folder for PostgreSQL");
    dir_ = pattern;
    log_ = dir_ + "/postgres.log";
    // PostgreSQL refuses to run as root: then it runs as the user Debian's package made.
    as_postgres_user_ = ::geteuid() == 0;
    if (as_postgres_user_) {
        const passwd* postgres = ::getpwnam("postgres");
        if (!postgres)
            throw std::runtime_error(
                "the tests run as root and there is no postgres user to run PostgreSQL as "
                "(Debian's postgresql package makes it)");
        if (::chown(dir_.c_str(), postgres->pw_uid, postgres->pw_gid) != 0)
            throw std::runtime_error("cannot give " + dir_ + " to the postgres user");
    }
    // A copy of a cluster made once per machine (initdb takes about a second, a copy a tenth of
    // that; the suite starts a server per test process).
    const std::string made = made_cluster();
    if (std::system(("cp -a " + quoted(made) + " " + quoted(dir_ + "/data")).c_str()) != 0 ||
        !fs::exists(dir_ + "/data/PG_VERSION"))
        throw std::runtime_error("cannot copy the PostgreSQL cluster " + made + " to " + dir_);
    // A port taken between free_loopback_port and postgres's bind: another one.
    for (int attempt = 0; attempt < 5; ++attempt)
        if (start_on(support::free_loopback_port())) return;
    throw std::runtime_error("PostgreSQL did not start:\n" + file_text(log_));
}

std::string PostgresServer::made_cluster() const {
    // One per user and PostgreSQL installation.
    const std::string made = "/tmp/gcor-pg-cluster-" + std::to_string(::geteuid()) + "-" +
                             std::to_string(std::hash<std::string>{}(bin_));
    if (fs::exists(made + "/PG_VERSION")) return made;
    // trust: only this user, on loopback and a socket in the server's own folder. No sync: the
    // files of databases thrown away at the end.
    support::ChildProcess initdb(
        command("initdb", {"-D", dir_ + "/made", "-U", "postgres", "-A", "trust", "-E", "UTF8",
                           "--locale=C", "--no-sync"}));
    const auto started = std::chrono::steady_clock::now();
    while (initdb.running()) {
        if (std::chrono::steady_clock::now() - started > kStartTimeout)
            throw std::runtime_error("initdb took too long:\n" + file_text(log_));
        std::this_thread::sleep_for(kPoll);
    }
    if (!fs::exists(dir_ + "/made/PG_VERSION"))
        throw std::runtime_error("initdb failed:\n" + file_text(log_));
    // Whole or not at all: a test process that started at the same time may have put its own
    // there first, and then this one's goes.
    std::error_code taken;
    fs::rename(dir_ + "/made", made, taken);
    if (taken) fs::remove_all(dir_ + "/made", taken);
    return made;
}

PostgresServer::~PostgresServer() {
    stop();
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
}

std::vector<std::string> PostgresServer::command(const std::string& program,
                                                 const std::vector<std::string>& args) const {
    // From the server's folder: the postgres user may not read the test's working directory.
    std::string line = "cd " + quoted(dir_) + " && exec " + quoted(bin_ + "/" + program);
    for (const std::string& arg : args)
        line += " " + quoted(arg);
    line += " >> " + quoted(log_) + " 2>&1";
    std::vector<std::string> argv;
    if (as_postgres_user_)
        argv = {"/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"};
    argv.insert(argv.end(), {"/bin/sh", "-c", line});
    return argv;
}

bool PostgresServer::start_on(std::uint16_t port) {
    // fsync off: a database created per test case costs a second with it on this machine's
    // disks. What the tests ask of durability holds without it: a commit is in PostgreSQL's
    // write-ahead log (in the kernel's cache) before it is acknowledged, and the tests kill
    // cor-server, never the machine.
    process_ = std::make_unique<support::ChildProcess>(
        command("postgres", {"-D", dir_ + "/data", "-k", dir_, "-h", "127.0.0.1", "-p",
                             std::to_string(port), "-c", "fsync=off"}));
    const std::string ping = "host=127.0.0.1 port=" + std::to_string(port) +
                             " user=postgres dbname=postgres connect_timeout=2";
    const auto started = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - started < kStartTimeout) {
        if (!process_->running()) return false;
        if (PQping(ping.c_str()) == PQPING_OK) {
            port_ = port;
            return true;
        }
        std::this_thread::sleep_for(kPoll);
    }
    throw std::runtime_error("PostgreSQL did not accept connections in time:\n" + file_text(log_));
}

void PostgresServer::stop() {
    if (!process_ || !process_->running()) return;
    // SIGINT: a fast shutdown, which ends the connections (SIGTERM would wait for them).
    ::kill(process_->pid(), SIGINT);
    const auto asked = std::chrono::steady_clock::now();
    while (process_->running() && std::chrono::steady_clock::now() - asked < kStopTimeout)
        std::this_thread::sleep_for(kPoll);
    process_.reset();  // SIGTERM, then SIGKILL, if it is still running
}

void PostgresServer::start() {
    if (process_ && process_->running()) return;
    if (!start_on(port_))
        throw std::runtime_error("PostgreSQL did not start again:\n" + file_text(log_));
}

std::string PostgresServer::url(const std::string& database) const {
    return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/" + database;
}

std::string PostgresServer::create_database() {
    const std::string name = "t" + std::to_string(++databases_);
    query(url("postgres"), "CREATE DATABASE " + name);
    return url(name);
}

std::string PostgresServer::query(const std::string& database_url, const std::string& sql) {
    std::unique_ptr<PGconn, decltype(&PQfinish)> connection(PQconnectdb(database_url.c_str()),
                                                            &PQfinish);
    if (PQstatus(connection.get()) != CONNECTION_OK)
        throw std::runtime_error("cannot connect to " + database_url + ": " +
                                 PQerrorMessage(connection.get()));
    std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(connection.get(), sql.c_str()),
                                                         &PQclear);
    const ExecStatusType status = PQresultStatus(result.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        throw std::runtime_error(sql + ": " + PQresultErrorMessage(result.get()));
    if (status == PGRES_COMMAND_OK || PQntuples(result.get()) == 0) return "";
    return PQgetvalue(result.get(), 0, 0);
}

}  // namespace gcor::testing
