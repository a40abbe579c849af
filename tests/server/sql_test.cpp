// The store's own SQL layer (server/store/src/sql.hpp): a statement written once runs alike on
// SQLite and on PostgreSQL.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "postgres_connection.hpp"
#include "postgres_sql.hpp"
#include "postgres_support.hpp"
#include "sql.hpp"
#include "sqlite_sql.hpp"

using namespace gcor::server;

TEST_CASE("SQLite takes numbered parameters as ?N, and text in quotes stays", "[store][sql]") {
    CHECK(sql_for(Dialect::sqlite, "UPDATE t SET a = $2 WHERE id = $1") ==
          "UPDATE t SET a = ?2 WHERE id = ?1");
    CHECK(sql_for(Dialect::sqlite, "VALUES ($9, $10, $11)") == "VALUES (?9, ?10, ?11)");
    CHECK(sql_for(Dialect::sqlite, "SELECT '$1', \"a$2\", 'it''s $3', $4") ==
          "SELECT '$1', \"a$2\", 'it''s $3', ?4");
    CHECK(sql_for(Dialect::sqlite, "SELECT '$argon2id$', $ FROM x") ==
          "SELECT '$argon2id$', $ FROM x");
    CHECK(sql_for(Dialect::postgres, "UPDATE t SET a = $2 WHERE id = $1") ==
          "UPDATE t SET a = $2 WHERE id = $1");
}

TEST_CASE("only PostgreSQL skips the rows another transaction is taking", "[store][sql]") {
    CHECK(skip_locked_rows(Dialect::postgres) == " FOR UPDATE SKIP LOCKED");
    CHECK(skip_locked_rows(Dialect::sqlite).empty());
}

TEST_CASE("a list of texts is an array on PostgreSQL and JSON on SQLite, quotes escaped",
          "[store][sql]") {
    const std::vector<std::string> texts{"a", "b\"c", "d\\e"};
    CHECK(std::get<std::string>(text_list(Dialect::postgres, texts)) == R"({"a","b\"c","d\\e"})");
    CHECK(std::get<std::string>(text_list(Dialect::sqlite, texts)) == R"(["a","b\"c","d\\e"])");
    CHECK(in_text_list(Dialect::postgres, "t.id", "$1") == "t.id = ANY (CAST($1 AS text[]))");
    CHECK(in_text_list(Dialect::sqlite, "t.id", "$1") ==
          "t.id IN (SELECT value FROM json_each($1))");
    CHECK(true_value(Dialect::sqlite) == "1");
    CHECK(true_value(Dialect::postgres) == "true");
}

TEST_CASE("parameters keep a uint64's bits, booleans as 0 and 1, empty optionals as NULL",
          "[store][sql]") {
    const SqlParams params = sql_params(std::numeric_limits<std::uint64_t>::max(), true, false,
                                        std::optional<int>(), std::optional<int>(7), "text", 2.5);
    CHECK(std::get<std::int64_t>(params[0]) == -1);
    CHECK(std::get<std::int64_t>(params[1]) == 1);
    CHECK(std::get<std::int64_t>(params[2]) == 0);
    CHECK(std::holds_alternative<std::monostate>(params[3]));
    CHECK(std::get<std::int64_t>(params[4]) == 7);
    CHECK(std::get<std::string>(params[5]) == "text");
    CHECK(std::get<double>(params[6]) == 2.5);
}

TEST_CASE("a row reads PostgreSQL's text and SQLite's values alike", "[store][sql]") {
    const SqlRows text(3, {std::string("t"), std::string("-42"), std::monostate{}}, 0);
    const SqlRows values(3, {std::int64_t{1}, std::int64_t{-42}, std::monostate{}}, 0);
    for (const SqlRows* rows : {&text, &values}) {
        CHECK(rows->rows() == 1);
        CHECK(rows->boolean(0, 0));
        CHECK(rows->int64(0, 1) == -42);
        CHECK(rows->text(0, 1) == "-42");
        CHECK(rows->null(0, 2));
        CHECK_FALSE(rows->optional_int64(0, 2));
    }
    CHECK_FALSE(SqlRows(1, {std::string("f")}, 0).boolean(0, 0));
    CHECK_THROWS_AS(SqlRows(1, {std::string("4x")}, 0).int64(0, 0), SqlError);
}

namespace {

// The same statements on either database, on a table made for them.
void check_round_trip(Sql& db) {
    db.query("CREATE TABLE t (id bigint PRIMARY KEY, name text, flag boolean, seen bigint)");
    // Parameters in any order, one of them used twice.
    const SqlRows inserted =
        db.query("INSERT INTO t (id, name, flag, seen) VALUES ($2, $1, $3, $2) RETURNING id",
                 sql_params("a", std::numeric_limits<std::uint64_t>::max(), true));
    REQUIRE(inserted.rows() == 1);
    CHECK(inserted.uint64(0, 0) == std::numeric_limits<std::uint64_t>::max());
    db.query("INSERT INTO t (id, name, flag, seen) VALUES ($1, $2, $3, $4)",
             sql_params(2, "b", false, std::nullopt));

    const SqlRows rows = db.query(
        "SELECT name, flag, seen FROM t WHERE flag = $1 OR seen IS NULL "
        "ORDER BY name",
        sql_params(true));
    REQUIRE(rows.rows() == 2);
    CHECK(rows.text(0, 0) == "a");
    CHECK(rows.boolean(0, 1));
    CHECK(rows.uint64(0, 2) == std::numeric_limits<std::uint64_t>::max());
    CHECK(rows.text(1, 0) == "b");
    CHECK_FALSE(rows.boolean(1, 1));
    CHECK(rows.null(1, 2));

    // The upsert both take, and the rows a statement changed.
    db.query(
        "INSERT INTO t (id, name, flag) VALUES ($1, $2, true) "
        "ON CONFLICT (id) DO UPDATE SET name = excluded.name",
        sql_params(2, "c"));
    CHECK(db.query("SELECT name FROM t WHERE id = $1", sql_params(2)).text(0, 0) == "c");
    CHECK(db.query("UPDATE t SET seen = 1 WHERE flag = false").affected() == 1);
    CHECK(db.query("DELETE FROM t").affected() == 2);

    // A list of texts, quotes and all, in one parameter.
    db.query(
        "INSERT INTO t (id, name, flag) VALUES (3, 'q\"u''o\\te', true), (4, 'r', true), "
        "(5, 's', true)");
    const SqlRows listed = db.query(
        "SELECT id FROM t WHERE " + in_text_list(db.dialect(), "name", "$1") + " ORDER BY id",
        SqlParams{text_list(db.dialect(), {"s", "q\"u'o\\te", "c"})});
    REQUIRE(listed.rows() == 2);
    CHECK(listed.int64(0, 0) == 3);
    CHECK(listed.int64(1, 0) == 5);
    db.query("DELETE FROM t");

    db.query("INSERT INTO t (id, name, flag) VALUES (1, 'x', true)");
    try {
        db.query("INSERT INTO t (id, name, flag) VALUES (1, 'y', true)");
        FAIL("a second row with the same key was written");
    } catch (const SqlError& error) {
        CHECK(error.unique_violation());
    }
}

}  // namespace

TEST_CASE("a statement written once runs on SQLite", "[store][sql]") {
    // As the store starts SQLite: with its allocation statistics off, which only the first start
    // of SQLite in a process may choose (a [store] test checks that they are off).
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    SQLite::Database connection(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    SqliteSql db(connection);
    check_round_trip(db);
}

TEST_CASE("postgres: a statement written once runs on PostgreSQL", "[store][sql][postgres]") {
    pg::Connection connection(gcor::testing::PostgresServer::shared().create_database());
    PostgresSql db(connection);
    check_round_trip(db);
}

// --- PostgreSQL's pipelines: a transaction sent as one round trip fails as a whole.

namespace {

struct PipelineRefused : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::int64_t pipeline_count(pg::Connection& connection, const std::string& table) {
    return connection.query("SELECT count(*) FROM " + table).int64(0, 0);
}

}  // namespace

TEST_CASE("postgres: a pipelined transaction commits every statement, and a query reads at once",
          "[store][sql][postgres]") {
    pg::Connection connection(gcor::testing::PostgresServer::shared().create_database());
    connection.execute("CREATE TABLE p (x bigint PRIMARY KEY)");
    connection.begin_pipeline();
    for (std::int64_t x = 1; x <= 3; ++x)
        connection.send("INSERT INTO p VALUES ($1)", pg::params(x));
    // A query's result is needed at once: it reads the statements sent before it.
    CHECK(connection.query("SELECT count(*) FROM p").int64(0, 0) == 3);
    connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{4}));
    connection.commit_pipeline();
    CHECK(connection.idle());
    CHECK(pipeline_count(connection, "p") == 4);
}

TEST_CASE(
    "postgres: a failing statement inside a pipeline fails the transaction, which changes "
    "nothing",
    "[store][sql][postgres]") {
    pg::Connection connection(gcor::testing::PostgresServer::shared().create_database());
    connection.execute("CREATE TABLE p (x bigint PRIMARY KEY); CREATE TABLE q (x bigint)");

    SECTION("the statement's own error") {
        connection.begin_pipeline();
        connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}));
        connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}));  // the key
        // After the failure: skipped, and so is the preparation of this new statement.
        connection.send("INSERT INTO q VALUES ($1)", pg::params(std::int64_t{2}));
        try {
            connection.commit_pipeline();
            FAIL("a transaction with a unique key taken twice committed");
        } catch (const pg::Error& error) {
            CHECK(error.sqlstate() == "23505");
            CHECK_FALSE(error.connection_lost());
        }
    }
    SECTION("turned into the exception its sender chose") {
        connection.begin_pipeline();
        connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}));
        connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}),
                        [](const pg::Error& error) {
                            if (error.sqlstate() == "23505") throw PipelineRefused("taken");
                        });
        connection.send("INSERT INTO q VALUES ($1)", pg::params(std::int64_t{2}));
        CHECK_THROWS_AS(connection.commit_pipeline(), PipelineRefused);
    }
    SECTION("read by a query after it") {
        connection.begin_pipeline();
        connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}));
        connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}));
        connection.send("INSERT INTO q VALUES ($1)", pg::params(std::int64_t{2}));
        CHECK_THROWS_WITH(connection.query("SELECT count(*) FROM p"), Catch::Contains("p_pkey"));
    }
    connection.rollback();
    CHECK(connection.idle());
    CHECK(pipeline_count(connection, "p") == 0);
    CHECK(pipeline_count(connection, "q") == 0);
    // The statement whose preparation was skipped is prepared again when next used.
    connection.send("INSERT INTO q VALUES ($1)", pg::params(std::int64_t{3}));
    CHECK(pipeline_count(connection, "q") == 1);
}

TEST_CASE("postgres: a connection lost in the middle of a pipeline fails it as lost",
          "[store][sql][postgres]") {
    const std::string url = gcor::testing::PostgresServer::shared().create_database();
    pg::Connection connection(url);
    connection.execute("CREATE TABLE p (x bigint PRIMARY KEY)");
    const std::string pid = connection.query("SELECT pg_backend_pid()").text(0, 0);
    CHECK_FALSE(connection.dropped());

    connection.begin_pipeline();
    connection.send("INSERT INTO p VALUES ($1)", pg::params(std::int64_t{1}));
    // The server ends this connection's process (waiting until it ended) before the commit.
    gcor::testing::PostgresServer::query(url, "SELECT pg_terminate_backend(" + pid + ", 10000)");
    try {
        connection.commit_pipeline();
        FAIL("a pipeline committed on a connection that the server ended");
    } catch (const pg::Error& error) {
        CHECK(error.connection_lost());
    }
    CHECK(connection.dropped());
    connection.rollback();  // nothing to do, and nothing thrown

    pg::Connection again(url);
    CHECK(pipeline_count(again, "p") == 0);
}

TEST_CASE("postgres: an idle connection the server ended tells that it was dropped",
          "[store][sql][postgres]") {
    const std::string url = gcor::testing::PostgresServer::shared().create_database();
    pg::Connection connection(url);
    const std::string pid = connection.query("SELECT pg_backend_pid()").text(0, 0);
    CHECK_FALSE(connection.dropped());
    gcor::testing::PostgresServer::query(url, "SELECT pg_terminate_backend(" + pid + ", 10000)");
    // The server's goodbye is on its way once its process ended: wait for it, not a fixed time.
    bool dropped = false;
    for (int i = 0; i < 1000 && !dropped; ++i) {
        dropped = connection.dropped();
        if (!dropped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    CHECK(dropped);
}
