// The PostgreSQL store: the same promises as the SQLite one (sqlite_store.cpp) through the same
// interface. Writes go through one writer connection on the group-commit writer's thread; reads
// through a small pool of connections, each read in a read-only snapshot.
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gcor/store/postgres_store.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"
#include "group_writer.hpp"
#include "postgres_connection.hpp"
#include "postgres_leagues.hpp"
#include "postgres_mail.hpp"
#include "postgres_news.hpp"
#include "postgres_schema.hpp"
#include "postgres_tables.hpp"

namespace gcor::server {

namespace {

// Reader connections per store: reads come from the worker threads, and most take well under a
// millisecond. With the writer's, each server process uses at most kReaderConnections + 1.
constexpr std::size_t kReaderConnections = 4;

constexpr const char* kPgUserSelect =
    "SELECT u.id, u.name, u.name_key IS NULL, u.password_hash, u.webhook, u.created";

std::optional<StoredUser> pg_user_from(const pg::Result& rows) {
    if (rows.empty()) return std::nullopt;
    return StoredUser{rows.uint64(0, 0), rows.text(0, 1), rows.boolean(0, 2),
                      rows.text(0, 3),   rows.text(0, 4), rows.int64(0, 5)};
}

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

// PostgreSQL's side of the group-commit writer: BEGIN ... COMMIT on the writer connection, which
// is opened again when it was lost.
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
        begin();
        try {
            body();
            // COMMIT of a transaction that failed answers ROLLBACK, not an error.
            if (connection_->execute("COMMIT").command() != "COMMIT")
                throw pg::Error("the transaction was rolled back", "", false);
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
        connection_->execute("UPDATE schema_version SET version = version");
    }

  private:
    // A connection the server dropped while idle (a restart) fails at BEGIN, before anything was
    // sent: then a new connection is opened and BEGIN tried once more.
    void begin() {
        if (!connection_ || connection_->broken()) connection_ = open_writer();
        try {
            connection_->execute("BEGIN");
        } catch (const pg::Error& error) {
            if (!error.connection_lost()) throw;
            connection_.reset();
            connection_ = open_writer();
            connection_->execute("BEGIN");
        }
    }

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

class PostgresStore final : public Store {
  public:
    explicit PostgresStore(const PostgresOptions& options)
        : url_(options.url),
          node_(new_node_name()),
          transactions_(url_, options.statement_timeout_ms, node_),
          readers_(options.url, options.statement_timeout_ms, kReaderConnections),
          writer_(transactions_, {options.group_commit_ms, options.group_commits, options.on_commit,
                                  options.on_failure}) {}

    std::optional<StoredUser> create_user(const std::string& name,
                                          const std::string& password_hash) override {
        std::optional<StoredUser> user;
        write_and_wait(
            [&] {
                user.reset();
                const UnixMs now = unix_now_ms();
                const pg::Result made = db().query(
                    "INSERT INTO users (name, name_key, password_hash, created) "
                    "VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                    pg::params(name, name_key(name), password_hash, now));
                if (made.empty()) return;
                user = StoredUser{made.uint64(0, 0), name, false, password_hash, "", now};
            },
            "create a user");
        return user;
    }

    StoredUser create_guest(const std::string& name) override {
        StoredUser user{0, name, true, "", "", 0};
        write_and_wait(
            [&] {
                user.created = unix_now_ms();
                user.id = db().query(
                                  "INSERT INTO users (name, name_key, password_hash, created) "
                                  "VALUES ($1, NULL, '', $2) RETURNING id",
                                  pg::params(name, user.created))
                              .uint64(0, 0);
            },
            "create a guest");
        return user;
    }

    std::optional<StoredUser> user_by_name(const std::string& name) override {
        return read([&](pg::Connection& c) {
            return pg_user_from(
                c.query(std::string(kPgUserSelect) + " FROM users u WHERE u.name_key = $1",
                        pg::params(name_key(name))));
        });
    }

    std::optional<StoredUser> user_by_id(std::uint64_t id) override {
        return read([&](pg::Connection& c) {
            return pg_user_from(c.query(
                std::string(kPgUserSelect) + " FROM users u WHERE u.id = $1", pg::params(id)));
        });
    }

    void set_webhook(std::uint64_t user, const std::string& url) override {
        write_and_wait(
            [&] {
                db().query("UPDATE users SET webhook = $1 WHERE id = $2", pg::params(url, user));
            },
            "set a webhook");
    }

    std::vector<UserVacation> vacations_ending_after(UnixMs after) override {
        return read([&](pg::Connection& c) {
            const pg::Result rows = c.query(
                "SELECT user_id, starts, ends FROM vacations WHERE ends > $1 "
                "ORDER BY user_id, starts",
                pg::params(after));
            std::vector<UserVacation> vacations;
            for (int i = 0; i < rows.rows(); ++i)
                vacations.push_back(
                    UserVacation{rows.uint64(i, 0), {rows.int64(i, 1), rows.int64(i, 2)}});
            return vacations;
        });
    }

    void replace_vacations(std::uint64_t user, UnixMs after,
                           const std::vector<StoredVacation>& vacations) override {
        write_and_wait(
            [&] {
                db().query("DELETE FROM vacations WHERE user_id = $1 AND ends > $2",
                           pg::params(user, after));
                for (const StoredVacation& vacation : vacations)
                    db().query("INSERT INTO vacations (user_id, starts, ends) VALUES ($1, $2, $3)",
                               pg::params(user, vacation.starts, vacation.ends));
            },
            "change a vacation");
    }

    void add_session(const std::string& token_hash, std::uint64_t user, UnixMs expires) override {
        write_and_wait(
            [&] {
                db().query(
                    "INSERT INTO sessions (token_hash, user_id, created, expires) "
                    "VALUES ($1, $2, $3, $4)",
                    pg::params(token_hash, user, unix_now_ms(), expires));
            },
            "add a session");
    }

    std::optional<StoredUser> session_user(const std::string& token_hash, UnixMs now) override {
        return read([&](pg::Connection& c) {
            return pg_user_from(c.query(std::string(kPgUserSelect) +
                                            " FROM sessions s JOIN users u ON u.id = s.user_id "
                                            "WHERE s.token_hash = $1 AND s.expires > $2",
                                        pg::params(token_hash, now)));
        });
    }

    void remove_session(const std::string& token_hash) override {
        write_and_wait(
            [&] {
                db().query("DELETE FROM sessions WHERE token_hash = $1", pg::params(token_hash));
            },
            "remove a session");
    }

    std::size_t remove_expired_sessions(UnixMs now) override {
        std::size_t removed = 0;
        write_and_wait(
            [&] {
                removed = db().query("DELETE FROM sessions WHERE expires <= $1", pg::params(now))
                              .affected();
            },
            "remove expired sessions");
        return removed;
    }

    // --- Tables and chat: the SQL is in postgres_tables.cpp.

    void save_table(const StoredTable& table, TableDone done) override {
        writer_.enqueue([this, table] { postgres_tables::save(db(), table); }, std::move(done));
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

    std::optional<LoadedTable> load_table(const std::string& id) override {
        return read([&](pg::Connection& c) -> std::optional<LoadedTable> {
            auto table = postgres_tables::select_table(c, id);
            if (!table) return std::nullopt;
            return LoadedTable{std::move(*table), postgres_tables::select_moves(c, id),
                               postgres_tables::select_chat(c, id, std::nullopt, kRecentChatLines),
                               postgres_tables::select_last_chat_number(c, id)};
        });
    }

    std::optional<LoadedTable> load_table_since(const std::string& id,
                                                std::uint64_t after) override {
        return read([&](pg::Connection& c) -> std::optional<LoadedTable> {
            auto table = postgres_tables::select_table(c, id);
            if (!table) return std::nullopt;
            return LoadedTable{
                std::move(*table), postgres_tables::select_moves(c, id, after), {}, 0};
        });
    }

    std::optional<StoredTable> find_table(const std::string& id) override {
        return read([&](pg::Connection& c) { return postgres_tables::select_table(c, id); });
    }

    std::vector<StoredTable> list_tables(const TableFilter& filter) override {
        return read([&](pg::Connection& c) { return postgres_tables::select_listed(c, filter); });
    }

    std::vector<std::string> table_ids(TableStatus status) override {
        return read([&](pg::Connection& c) { return postgres_tables::select_ids(c, status); });
    }

    std::vector<std::string> due_tables(UnixMs now) override {
        return read([&](pg::Connection& c) { return postgres_tables::select_due(c, now); });
    }

    std::vector<std::string> deadlines_between(UnixMs from, UnixMs to) override {
        return read([&](pg::Connection& c) {
            return postgres_tables::select_deadlines_between(c, from, to);
        });
    }

    std::vector<UserTable> tables_of(std::uint64_t user, std::size_t limit) override {
        return read(
            [&](pg::Connection& c) { return postgres_tables::select_tables_of(c, user, limit); });
    }

    std::uint64_t count_tables() override {
        return read([&](pg::Connection& c) { return postgres_tables::count_tables(c); });
    }

    void append_chat(const std::string& table, const StoredChatLine& line, Done done) override {
        writer_.enqueue([this, table, line] { postgres_tables::insert_chat(db(), table, line); },
                        std::move(done));
    }

    void delete_chat(const std::string& table, std::uint64_t n, Done done) override {
        writer_.enqueue([this, table, n] { postgres_tables::delete_chat(db(), table, n); },
                        std::move(done));
    }

    std::vector<StoredChatLine> chat_lines(const std::string& table,
                                           std::optional<std::uint64_t> before,
                                           std::size_t limit) override {
        return read([&](pg::Connection& c) {
            return postgres_tables::select_chat(c, table, before, limit);
        });
    }

    void set_muted(std::uint64_t user, std::uint64_t other, bool muted) override {
        write_and_wait([&] { postgres_tables::write_mute(db(), user, other, muted); },
                       muted ? "mute a user" : "unmute a user");
    }

    std::vector<std::uint64_t> muted_by(std::uint64_t user) override {
        return read([&](pg::Connection& c) { return postgres_tables::select_muted(c, user); });
    }

    // --- E-mail: the SQL is in postgres_mail.cpp.

    std::optional<StoredEmail> email_of(std::uint64_t user) override {
        return read([&](pg::Connection& c) { return postgres_mail::select_email(c, user); });
    }

    void set_email(std::uint64_t user, const std::string& address, const std::string& token_hash,
                   UnixMs token_expires) override {
        write_and_wait(
            [&] { postgres_mail::write_email(db(), user, address, token_hash, token_expires); },
            "set an e-mail address");
    }

    void remove_email(std::uint64_t user) override {
        write_and_wait([&] { postgres_mail::delete_email(db(), user); },
                       "remove an e-mail address");
    }

    std::optional<std::uint64_t> confirm_email(const std::string& token_hash, UnixMs now) override {
        std::optional<std::uint64_t> user;
        write_and_wait([&] { user = postgres_mail::confirm(db(), token_hash, now); },
                       "confirm an e-mail address");
        return user;
    }

    void set_mail_frequency(std::uint64_t user, MailFrequency frequency,
                            std::optional<UnixMs> digest_due) override {
        write_and_wait([&] { postgres_mail::write_frequency(db(), user, frequency, digest_due); },
                       "set how often to mail");
    }

    void set_mail_language(std::uint64_t user, const std::string& language) override {
        write_and_wait([&] { postgres_mail::write_language(db(), user, language); },
                       "set the language of mails");
    }

    std::vector<StoredEmail> digests_due(UnixMs now) override {
        return read([&](pg::Connection& c) { return postgres_mail::select_digests_due(c, now); });
    }

    void queue_mail(const QueuedMail& mail, Done done) override {
        writer_.enqueue([this, mail] { postgres_mail::insert_mail(db(), mail); }, std::move(done));
    }

    std::vector<QueuedMail> take_due_mails(UnixMs now, std::size_t limit,
                                           UnixMs kept_until) override {
        std::vector<QueuedMail> taken;
        write_and_wait([&] { taken = postgres_mail::take_due(db(), now, limit, kept_until); },
                       "take mails");
        return taken;
    }

    std::optional<UnixMs> next_mail_due() override {
        return read([&](pg::Connection& c) { return postgres_mail::select_next_due(c); });
    }

    void end_mail(std::uint64_t id, MailOutcome outcome, UnixMs at) override {
        write_and_wait([&] { postgres_mail::end_mail(db(), id, outcome, at); }, "end a mail");
    }

    void retry_mail(std::uint64_t id, UnixMs retry_at) override {
        write_and_wait([&] { postgres_mail::retry_mail(db(), id, retry_at); }, "postpone a mail");
    }

    std::size_t forget_mails(UnixMs before) override {
        std::size_t forgotten = 0;
        write_and_wait([&] { forgotten = postgres_mail::delete_ended(db(), before); },
                       "forget old mails");
        return forgotten;
    }

    std::string secret(const std::string& name, const std::string& if_new) override {
        if (auto known =
                read([&](pg::Connection& c) { return postgres_mail::select_secret(c, name); }))
            return *known;
        std::string value;
        write_and_wait([&] { value = postgres_mail::insert_secret(db(), name, if_new); },
                       "keep a secret");
        return value;
    }

    // --- Leagues and ratings: the SQL is in postgres_leagues.cpp, the tables' in
    // postgres_tables.cpp.

    std::optional<StoredLeague> create_league(const std::string& name, std::uint64_t organizer,
                                              const std::string& settings) override {
        std::optional<StoredLeague> league;
        write_and_wait(
            [&] { league = postgres_leagues::insert_league(db(), name, organizer, settings); },
            "create a league");
        return league;
    }

    std::vector<StoredLeague> leagues() override {
        return read(
            [&](pg::Connection& c) { return postgres_leagues::select_leagues(c, std::nullopt); });
    }

    std::optional<StoredLeague> league(std::uint64_t id) override {
        return first_of(
            read([&](pg::Connection& c) { return postgres_leagues::select_leagues(c, id); }));
    }

    std::vector<StoredSeason> seasons(std::uint64_t league) override {
        return read([&](pg::Connection& c) {
            return postgres_leagues::select_seasons(c, league, std::nullopt);
        });
    }

    std::optional<StoredSeason> season(std::uint64_t league, int number) override {
        return first_of(read([&](pg::Connection& c) {
            return postgres_leagues::select_seasons(c, league, number);
        }));
    }

    void open_season(std::uint64_t league, int number) override {
        write_and_wait([&] { postgres_leagues::insert_season(db(), league, number); },
                       "open a season");
    }

    bool sign_up(std::uint64_t league, int number, std::uint64_t user) override {
        bool added = false;
        write_and_wait([&] { added = postgres_leagues::insert_member(db(), league, number, user); },
                       "sign up");
        return added;
    }

    bool withdraw(std::uint64_t league, int number, std::uint64_t user) override {
        bool removed = false;
        write_and_wait(
            [&] { removed = postgres_leagues::delete_member(db(), league, number, user); },
            "withdraw");
        return removed;
    }

    std::vector<SeasonMember> members(std::uint64_t league, int number) override {
        return read(
            [&](pg::Connection& c) { return postgres_leagues::select_members(c, league, number); });
    }

    void start_season(std::uint64_t league, int number, const std::vector<SeasonMember>& members,
                      const std::vector<SeasonTable>& tables, Done done) override {
        writer_.enqueue(
            [this, league, number, members, tables] {
                for (const SeasonTable& table : tables)
                    postgres_tables::save(db(), table.table);
                postgres_leagues::write_start(db(), league, number, members, tables);
            },
            std::move(done));
    }

    std::vector<SeasonTable> season_tables(std::uint64_t league, int number) override {
        return read([&](pg::Connection& c) {
            return postgres_tables::select_season_tables(c, league, number);
        });
    }

    void finish_season(std::uint64_t league, int number, const std::string& final_table) override {
        write_and_wait([&] { postgres_leagues::write_finish(db(), league, number, final_table); },
                       "finish a season");
    }

    std::vector<UserSeason> seasons_of(std::uint64_t user, std::size_t limit) override {
        return read(
            [&](pg::Connection& c) { return postgres_leagues::select_seasons_of(c, user, limit); });
    }

    std::vector<std::string> unrated_tables() override {
        return read([&](pg::Connection& c) { return postgres_leagues::select_unrated(c); });
    }

    std::optional<StoredRating> rating(std::uint64_t user) override {
        return first_of(
            read([&](pg::Connection& c) { return postgres_leagues::select_ratings(c, user, 1); }));
    }

    void save_ratings(const std::vector<RatingChange>& changes, Done done) override {
        writer_.enqueue([this, changes] { postgres_leagues::write_ratings(db(), changes); },
                        std::move(done));
    }

    std::vector<StoredRating> leaderboard(std::size_t limit) override {
        return read([&](pg::Connection& c) {
            return postgres_leagues::select_ratings(c, std::nullopt, limit);
        });
    }

    std::vector<RatingChange> rating_history(std::uint64_t user, std::size_t limit) override {
        return read([&](pg::Connection& c) {
            return postgres_leagues::select_rating_history(c, user, limit);
        });
    }

    void listen(std::function<void(const StoreNews&)> on_news) override {
        listener_.reset();  // its thread ends before another starts
        if (on_news) listener_ = std::make_unique<NewsListener>(url_, node_, std::move(on_news));
    }
    bool shared() const override { return true; }

  private:
    template <typename T>
    static std::optional<T> first_of(std::vector<T> rows) {
        if (rows.empty()) return std::nullopt;
        return std::move(rows.front());
    }

    // The writer's connection: only inside a write (on the writer thread).
    pg::Connection& db() { return transactions_.connection(); }

    // Queues `apply` and waits until it has committed; throws when it failed.
    void write_and_wait(std::function<void()> apply, const char* what) {
        if (!writer_.write_and_wait(std::move(apply)))
            throw StorageFailure(std::string("store: could not ") + what);
    }

    // Runs `body` in one read-only snapshot, so that a table, its seats and its moves agree. A
    // connection that the server dropped while it was idle (a restart) is replaced, and the read
    // tried once more.
    template <typename Body>
    std::invoke_result_t<Body&, pg::Connection&> read(Body body) {
        auto in_snapshot = [&body](pg::Connection& connection) {
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
