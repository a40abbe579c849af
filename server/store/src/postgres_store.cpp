// The PostgreSQL store: the same promises as the SQLite one (sqlite_store.cpp) through the same
// interface. Writes go through one writer connection on the group-commit writer's thread; reads
// through a small pool of connections, each read in a read-only snapshot.
#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "gcor/store/postgres_store.hpp"
#include "gcor/store/presence_store.hpp"
#include "gcor/store/store.hpp"
#include "group_writer.hpp"
#include "postgres_connection.hpp"
#include "postgres_news.hpp"
#include "postgres_schema.hpp"
#include "postgres_sql.hpp"
#include "postgres_tables.hpp"
#include "sql_account_store.hpp"
#include "sql_analysis_store.hpp"
#include "sql_chat_store.hpp"
#include "sql_league_store.hpp"
#include "sql_mail_store.hpp"
#include "sql_social_store.hpp"
#include "sql_store.hpp"
#include "sql_tournament_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

namespace {

// Reader connections per store: reads come from the worker threads, and most take well under a
// millisecond. With the writer's, each server process uses at most kReaderConnections + 1.
constexpr std::size_t kReaderConnections = 4;

// How long a message too long for its notification is kept for the listeners to read.
constexpr std::chrono::minutes kMessagesKept{1};

// A connection whose statements fail after `timeout_ms` (PostgresOptions::statement_timeout_ms).
std::unique_ptr<pg::Connection> open_pg(const std::string& url, int timeout_ms) {
    auto connection = std::make_unique<pg::Connection>(url);
    connection->query("SELECT set_config('statement_timeout', $1, false)",
                      pg::params(std::to_string(timeout_ms)));
    return connection;
}

std::unique_ptr<pg::Connection> open_pg_writer(const std::string& url, int timeout_ms,
                                               const std::string& node) {
    auto connection = open_pg(url, timeout_ms);
    // The store's promise: acknowledged means committed and flushed, whatever the server's or
    // the database's default.
    connection->execute("SET synchronous_commit = on");
    // Names this process in the news of its changes, which its own listener then leaves out.
    connection->query("SELECT set_config($1, $2, false)", pg::params(kNodeSetting, node));
    return connection;
}

// A name for this process among those sharing the database: random, so that nothing needs
// configuring, and never the '-' of a writer that set none.
std::string new_node_name() {
    std::random_device random;
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string name;
    for (int i = 0; i < 16; ++i)
        name += kDigits[random() % 16];
    return name;
}

bool pg_connection_lost(const std::exception& failure) {
    const auto* error = dynamic_cast<const pg::Error*>(&failure);
    return error != nullptr && error->connection_lost();
}

// PostgreSQL's side of the group-commit writer: BEGIN, the group's writes and COMMIT sent as one
// pipeline on the writer connection (one round trip, unless a write needs a result at once),
// which is opened again when it was lost.
class PgWriterTransactions final : public WriterBackend {
  public:
    PgWriterTransactions(std::string url, int timeout_ms, std::string node)
        : url_(std::move(url)),
          timeout_ms_(timeout_ms),
          node_(std::move(node)),
          connection_(open_writer()) {}

    // The writer's connection: the writer thread's, inside a transaction (or before it starts).
    pg::Connection& connection() { return *connection_; }

    void transact(const std::function<void()>& body) override {
        // A connection the server dropped while it was idle (a restart) is replaced before
        // anything is sent on it; one lost later fails the group.
        if (!connection_ || connection_->dropped()) connection_ = open_writer();
        try {
            connection_->begin_pipeline();
            body();
            connection_->commit_pipeline();
        } catch (const std::exception& failure) {
            if (pg_connection_lost(failure)) {
                connection_.reset();  // opened again at the next transaction
            } else {
                connection_->rollback();
            }
            throw;
        }
    }

    // A connection lost fails every write of the group alike.
    bool may_be_one_write(const std::exception& failure) override {
        return !pg_connection_lost(failure);
    }

    void probe_write() override {
        connection_->send("UPDATE schema_version SET version = version", {});
    }

  private:
    std::unique_ptr<pg::Connection> open_writer() const {
        return open_pg_writer(url_, timeout_ms_, node_);
    }

    const std::string url_;
    const int timeout_ms_;
    const std::string node_;
    std::unique_ptr<pg::Connection> connection_;
};

// Reader connections, opened as reads need them (at most `size`), given back after each read.
class PgReaderPool {
  public:
    PgReaderPool(std::string url, int timeout_ms, std::size_t size)
        : url_(std::move(url)), timeout_ms_(timeout_ms), size_(size) {}

    template <typename Body>
    std::invoke_result_t<Body&, pg::Connection&> with_connection(Body& body) {
        std::unique_ptr<pg::Connection> connection = take();
        try {
            auto result = body(*connection);
            give_back(std::move(connection));
            return result;
        } catch (...) {
            give_back(std::move(connection));
            throw;
        }
    }

  private:
    std::unique_ptr<pg::Connection> take() {
        std::unique_lock lock(mutex_);
        returned_.wait(lock, [this] { return !idle_.empty() || open_ < size_; });
        if (!idle_.empty()) {
            auto connection = std::move(idle_.back());
            idle_.pop_back();
            return connection;
        }
        ++open_;
        lock.unlock();
        try {
            return open_pg(url_, timeout_ms_);
        } catch (...) {
            lock.lock();
            --open_;
            returned_.notify_one();
            throw;
        }
    }

    // A connection left inside a transaction is rolled back; a broken one is closed, and so are
    // the idle ones, which a server restart broke too.
    void give_back(std::unique_ptr<pg::Connection> connection) noexcept {
        if (!connection->idle()) connection->rollback();
        std::lock_guard lock(mutex_);
        if (connection->broken() || !connection->idle()) {
            open_ -= 1 + idle_.size();
            idle_.clear();
        } else {
            idle_.push_back(std::move(connection));
        }
        returned_.notify_all();
    }

    const std::string url_;
    const int timeout_ms_;
    const std::size_t size_;
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<pg::Connection>> idle_;
    std::size_t open_ = 0;  // idle and in use
};

class PostgresStore final : private StoreAccess,
                            public SqlStore,
                            public SqlAccountStore,
                            public SqlChatStore,
                            public SqlLeagueStore,
                            public SqlMailStore,
                            public SqlSocialStore,
                            public SqlAnalysisStore,
                            public SqlTournamentStore,
                            public PresenceStore {
  public:
    explicit PostgresStore(const PostgresOptions& options)
        : SqlStore(static_cast<StoreAccess&>(*this)),
          SqlAccountStore(static_cast<StoreAccess&>(*this)),
          SqlChatStore(static_cast<StoreAccess&>(*this)),
          SqlLeagueStore(static_cast<StoreAccess&>(*this)),
          SqlMailStore(static_cast<StoreAccess&>(*this)),
          SqlSocialStore(static_cast<StoreAccess&>(*this)),
          SqlAnalysisStore(static_cast<StoreAccess&>(*this)),
          SqlTournamentStore(static_cast<StoreAccess&>(*this)),
          url_(options.url),
          node_(new_node_name()),
          transactions_(url_, options.statement_timeout_ms, node_),
          readers_(options.url, options.statement_timeout_ms, kReaderConnections),
          writer_(transactions_, {options.group_commit_ms, options.group_commits, options.on_commit,
                                  options.on_failure}) {}

    // --- Tables: the SQL is in postgres_tables.cpp.

    void save_table(const StoredTable& table, TableDone done) override {
        writer_.enqueue([this, table] { postgres_tables::save_on_its_own(db(), table); },
                        std::move(done));
    }

    void remove_table(const std::string& id, std::uint64_t revision, TableDone done) override {
        writer_.enqueue(
            [this, id, revision] { postgres_tables::remove_waiting(db(), id, revision); },
            std::move(done));
    }

    void append_move(const TableProgress& table, const StoredMove& move, TableDone done) override {
        writer_.enqueue([this, table, move] { postgres_tables::append(db(), table, move); },
                        std::move(done));
    }

    void flush() override {
        if (!writer_.flush()) throw StorageFailure("store: could not flush");
    }

    std::vector<std::string> take_due_tables(UnixMs now, UnixMs held_until) override {
        std::vector<std::string> taken;
        const bool written = writer_.write_and_wait(
            [&] { taken = postgres_tables::take_due(db(), now, node_, held_until); });
        if (!written) throw StorageFailure("store: could not take the due tables");
        return taken;
    }

    // --- A season's start: the tables' rows are this store's own (postgres_tables.cpp).

    void start_season(std::uint64_t league, int number, const std::vector<SeasonMember>& members,
                      const std::vector<SeasonTable>& tables, Done done) override {
        writer_.enqueue(
            [this, league, number, members, tables] {
                for (const SeasonTable& table : tables)
                    postgres_tables::save(db(), table.table);
                PostgresSql sql(db());
                write_season_start(sql, league, number, members, tables);
            },
            std::move(done));
    }

    // --- A tournament round's start, on the claim of its round (sql_tournament_store.hpp).

    void start_round(const RoundStart& start, Done done) override {
        auto claimed = std::make_shared<bool>(false);
        writer_.enqueue(
            [this, start, claimed] {
                PostgresSql sql(db());
                *claimed = claim_round(sql, start);
                if (!*claimed) return;
                for (const StoredTable& table : start.tables)
                    postgres_tables::save(db(), table);
                write_round_start(sql, start);
            },
            Done([claimed, done = std::move(done)](bool ok) { done(ok && *claimed); }));
    }

    void listen(std::function<void(const StoreNews&)> on_news) override {
        listener_.reset();  // its thread ends before another starts
        if (on_news)
            listener_ = std::make_unique<NewsListener>(url_, node_, std::move(on_news),
                                                       [this](const UserNews& news) {
                                                           std::lock_guard lock(user_news_mutex_);
                                                           if (on_user_news_) on_user_news_(news);
                                                       });
    }
    bool shared() const override { return true; }

    // --- Users connected to several processes: single statements on a reader connection, never
    // through the writer, so that a table's commits never wait for them.

    bool beat(std::chrono::milliseconds forget_after) override {
        const UnixMs now = unix_now_ms();
        return statement([&](pg::Connection& db) {
            db.query("DELETE FROM nodes WHERE seen < $1 AND node <> $2",
                     pg::params(now - forget_after.count(), node_));
            db.query("DELETE FROM user_messages WHERE at < $1",
                     pg::params(now - kMessagesKept.count()));
            // xmax is 0 in a row the statement inserted rather than updated.
            return db.query(
                         "INSERT INTO nodes (node, seen) VALUES ($1, $2) ON CONFLICT (node) DO "
                         "UPDATE SET seen = EXCLUDED.seen RETURNING xmax = 0",
                         pg::params(node_, now))
                       .text(0, 0) == "t";
        });
    }

    void mark_present(const std::vector<std::uint64_t>& users, bool present) override {
        if (users.empty()) return;
        std::string list = "{";
        for (const std::uint64_t user : users)
            list += (list.size() > 1 ? "," : "") + std::to_string(user);
        list += "}";
        statement([&](pg::Connection& db) {
            db.query(present
                         ? "INSERT INTO node_users (node, user_id) SELECT $1, unnest($2::bigint[]) "
                           "ON CONFLICT DO NOTHING"
                         : "DELETE FROM node_users WHERE node = $1 AND user_id = ANY($2::bigint[])",
                     pg::params(node_, list));
            return true;
        });
    }

    void leave() override {
        statement([&](pg::Connection& db) {
            db.query("DELETE FROM nodes WHERE node = $1", pg::params(node_));
            return true;
        });
    }

    std::vector<std::uint64_t> users_elsewhere(std::chrono::milliseconds forget_after) override {
        return statement([&](pg::Connection& db) {
            const pg::Result rows = db.query(
                "SELECT DISTINCT u.user_id FROM node_users u JOIN nodes n ON n.node = u.node "
                "WHERE n.node <> $1 AND n.seen >= $2",
                pg::params(node_, unix_now_ms() - forget_after.count()));
            std::vector<std::uint64_t> users;
            users.reserve(static_cast<std::size_t>(rows.rows()));
            for (int row = 0; row < rows.rows(); ++row)
                users.push_back(rows.uint64(row, 0));
            return users;
        });
    }

    void listen_users(std::function<void(const UserNews&)> on_news) override {
        std::lock_guard lock(user_news_mutex_);
        on_user_news_ = std::move(on_news);
    }

    void tell_elsewhere(std::uint64_t user, const std::string& message) override {
        const std::string header = "u " + node_ + " " + std::to_string(user);
        statement([&](pg::Connection& db) {
            if (header.size() + 1 + message.size() <= kMessageInNotification) {
                db.query("SELECT pg_notify($1, $2)",
                         pg::params(kNewsChannel, header + "\n" + message));
            } else {
                db.query(
                    "WITH kept AS (INSERT INTO user_messages (at, body) VALUES ($3, $4) "
                    "RETURNING id) SELECT pg_notify($1, $2 || ' #' || id) FROM kept",
                    pg::params(kNewsChannel, header, unix_now_ms(), message));
            }
            return true;
        });
    }

  private:
    // --- StoreAccess: what the parts written once run on.

    void read_in_snapshot(const std::function<void(Sql&)>& body) override {
        read([&](pg::Connection& connection) {
            PostgresSql sql(connection);
            body(sql);
            return true;
        });
    }

    void read_statement(const std::function<void(Sql&)>& body) override {
        read(
            [&](pg::Connection& connection) {
                PostgresSql sql(connection, PostgresSql::Statements::one);
                body(sql);
                return true;
            },
            Snapshot::statement);
    }

    bool wait_for_write(const Write& write) override {
        return writer_.write_and_wait([&] {
            PostgresSql sql(db());
            write(sql);
        });
    }

    void enqueue(Write write, Done done) override {
        writer_.enqueue(
            [this, write = std::move(write)] {
                PostgresSql sql(db());
                write(sql);
            },
            std::move(done));
    }

    // One statement of its own (it commits alone), with the failures of a read.
    template <typename Body>
    std::invoke_result_t<Body&, pg::Connection&> statement(Body body) {
        return read(std::move(body), Snapshot::statement);
    }

    // The writer's connection: only inside a write (on the writer thread).
    pg::Connection& db() { return transactions_.connection(); }

    // What a read's statements see: one read-only snapshot, so that a table, its seats and its
    // moves agree; or the one statement's own.
    enum class Snapshot : std::uint8_t { transaction, statement };

    // Runs `body` on a reader connection. A connection that the server dropped while it was
    // idle (a restart) is replaced, and the read tried once more.
    template <typename Body>
    std::invoke_result_t<Body&, pg::Connection&> read(Body body,
                                                      Snapshot snapshot = Snapshot::transaction) {
        auto in_snapshot = [&body, snapshot](pg::Connection& connection) {
            if (snapshot == Snapshot::statement) return body(connection);
            connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
            auto result = body(connection);
            connection.execute("COMMIT");
            return result;
        };
        for (bool retried = false;; retried = true) {
            try {
                return readers_.with_connection(in_snapshot);
            } catch (const pg::Error& error) {
                if (!retried && error.connection_lost()) continue;
                throw StorageFailure(std::string("store: could not read: ") + error.what());
            }
        }
    }

    const std::string url_;
    const std::string node_;  // this process's name in the news of its changes
    PgWriterTransactions transactions_;
    PgReaderPool readers_;
    GroupWriter writer_;  // its thread starts once everything above exists
    std::mutex user_news_mutex_;
    std::function<void(const UserNews&)> on_user_news_;  // PresenceStore::listen_users
    // Destroyed first: its thread may be calling the server's on_news while the rest goes.
    std::unique_ptr<NewsListener> listener_;
};

}  // namespace

int postgres_schema_version() {
    return postgres_schema::kLatestVersion;
}

std::unique_ptr<Store> open_postgres_store(const PostgresOptions& options) {
    const std::string shown = pg::redacted(options.url);
    if (const auto problem = pg::url_problem(options.url))
        throw std::runtime_error("cannot read the database URL " + shown + ": " + *problem);
    try {
        {
            // Migrated before the store's threads and pools exist, on a connection of its own.
            pg::Connection migrator(options.url);
            postgres_schema::migrate(migrator);
        }
        auto store = std::make_unique<PostgresStore>(options);
        spdlog::info("store: PostgreSQL database {}", shown);
        return store;
    } catch (const std::exception& error) {
        throw std::runtime_error("cannot open the store " + shown + ": " + error.what());
    }
}

}  // namespace gcor::server
