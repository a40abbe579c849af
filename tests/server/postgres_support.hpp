#pragma once
// A throw-away PostgreSQL server for the tests: a copy of a cluster that initdb made once, in a
// fresh temporary folder, postgres on a free loopback port, stopped and removed when the test
// process ends. One per test process, started on first use and shared by its test cases, each
// of which takes a fresh database.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gcor/support/child_process.hpp"

namespace gcor::testing {

class PostgresServer {
  public:
    // The test process's server, started on first use. Throws std::runtime_error, which fails
    // the test, when PostgreSQL is not installed (scripts/bootstrap installs it) or will not start.
    static PostgresServer& shared();

    ~PostgresServer();
    PostgresServer(const PostgresServer&) = delete;
    PostgresServer& operator=(const PostgresServer&) = delete;

    // A new empty database on this server: its URL (postgresql://postgres@127.0.0.1:port/tN).
    std::string create_database();
    // Runs one SQL statement on the database at `database_url` and returns the first column of its
    // first row ("" when it returns none); throws when it fails.
    static std::string query(const std::string& database_url, const std::string& sql);

    // Stops the server (a fast shutdown: connections are ended), and starts it again on the same
    // folder and port: for tests of a store whose database went away.
    void stop();
    void start();

  private:
    PostgresServer();
    std::string url(const std::string& database) const;
    // Runs a PostgreSQL program (as the postgres user when the tests run as root), its output
    // appended to log_.
    std::vector<std::string> command(const std::string& program,
                                     const std::vector<std::string>& args) const;
    bool start_on(std::uint16_t port);
    // A cluster made by initdb, kept in /tmp for every later test process to copy; its path.
    std::string made_cluster() const;

    std::string bin_;  // the folder of initdb and postgres
    std::string dir_;  // the temporary folder: data/, the socket, the log
    std::string log_;  // what the server and initdb printed
    bool as_postgres_user_ = false;
    std::uint16_t port_ = 0;
    int databases_ = 0;
    std::unique_ptr<support::ChildProcess> process_;
};

}  // namespace gcor::testing
