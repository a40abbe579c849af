#pragma once
// The tables in memory and the connections following the lobby. A table is loaded from the store
// (on the blocking pool, never under the lobby's lock) when somebody asks for it and unloaded when
// nobody has used it for a while, so that stored tables cost no memory until used. Listing asks the
// store, which knows every table, and reuses the summaries it rendered before for rows that did not
// change.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "gcor/store/presence_store.hpp"
#include "tables/server_table_services.hpp"
#include "tables/table.hpp"

namespace gcor::server {

class Lobby final : public TableHost {
  public:
    Lobby(net::io_context& io, Services& services);

    // A new table that `creator` made (its save is posted to its strand; requests wait for it).
    std::variant<std::shared_ptr<Table>, protocol::ErrorCode> create(
        const protocol::TableSettings& settings, std::uint64_t creator);
    // The table, loaded from the store on the blocking pool if needed (TableHost::find).
    void find(const std::string& id, OnFound found) override;
    // The table if it is in memory, else nullptr (then `find` loads it): found as `find` finds it,
    // without a callback (a request to a table finds it this way first).
    std::shared_ptr<Table> in_memory(const std::string& id) const;
    // The same, waiting for the table: on the blocking pool only, where it loads the table itself
    // unless a load is under way. nullptr when there is no such table; throws StorageFailure when
    // the store cannot be read.
    std::shared_ptr<Table> find_here(const std::string& id);
    // Runs `change`, which changes `user`'s vacation (false: it refused); then each of their
    // playing tables works out its deadline again and tells its followers. The tables whose
    // deadline may move are loaded before the change: one restored from the store in its first
    // turn learns when that turn began from its stored deadline, which the vacations before the
    // change made (other tables are told only if in memory). Reads the store: not on an I/O
    // thread.
    void change_vacation(std::uint64_t user, const std::function<bool()>& change);
    // `user`'s account was erased in the store: every table in memory forgets them, and their
    // unfinished tables are loaded to (TableAccountChanges::erase_player). Waits until each has
    // stored its change (those that could not are logged). Reads the store: not on an I/O thread.
    void erase_player(std::uint64_t user, const std::string& name);
    // The guest `user` registered as `name` (the store renamed their seats): the tables in memory
    // rename their seat, then the store renames the seats again, in case a table stored its seats
    // with the old name meanwhile. Waits for both. Not on an I/O thread.
    void rename_player(std::uint64_t user, const std::string& name);
    // The tables in memory show `user` under `name` (TableAccountChanges::rename_player); waits for
    // them.
    void rename_here(std::uint64_t user, const std::string& name);
    // Called by a table on its strand when it retires.
    void forget(const std::string& id, const Table* table) override;

    // One page of the public tables that are not finished, matching the request's filter, oldest
    // first: at most `limit`, after the table `after` names (nullopt when there is no such table).
    struct Page {
        std::string tables;  // the summaries as a JSON array
        std::string next;    // the last table listed when more follow; empty: the last page
    };
    std::optional<Page> list(const protocol::requests::ListTables& request) const;
    void subscribe(const std::shared_ptr<Peer>& peer);
    void unsubscribe(const Peer* peer);
    // Called by a table (on its strand) whenever its summary changed; `summary()` is made only
    // for a public table with somebody subscribed.
    void publish(bool is_public, const std::function<protocol::Json()>& summary) override;

    // Another server process sharing the database changed a table or its chat (any thread): the
    // table in memory catches up and tells its followers; for one that is not, the lobby's
    // subscribers get its summary and its player to act here is told it is their turn.
    void on_news(const StoreNews& news);
    // Another process told a user something (to this process's connections of theirs), or
    // changed their name (the tables in memory rename their seat).
    void on_user_news(const UserNews& news);

    // Deadlines and unloading run on timers until stop().
    void start_maintenance();
    void stop();

  private:
    // A table being loaded: who waits for it, the news of it that came meanwhile, and once loaded
    // what was found (the table enters tables_ only when all who asked before have been answered,
    // so that requests reach it in the order they came).
    struct Loading {
        std::vector<OnFound> waiting;
        std::vector<StoreNews> news;
        bool claimed = false;    // a thread is loading it
        bool forgotten = false;  // it retired before it entered tables_
        std::optional<FoundTable> found;
    };
    // Runs `change` on each table's strand once the table is ready, and waits (at most 30 s)
    // until each says it stored it; returns the ids of those that did not.
    using TableChange = std::function<void(Table&, std::function<void(bool ok)> done)>;
    static std::vector<std::string> change_each(
        const std::unordered_map<std::string, std::shared_ptr<Table>>& tables,
        const TableChange& change);
    // Loads the table `id` unless another thread has begun to, then answers those waiting.
    void load(const std::string& id);
    // A summary as JSON text, rendered again only when its stored row changed.
    std::string rendered(const StoredTable& table) const;
    void sweep_deadlines();
    void sweep_idle_tables();

    net::io_context& io_;
    Services& services_;
    ServerTableServices table_services_{services_};  // what the tables are made with
    mutable std::mutex mutex_;
    // Looked up on every request to a table: hashed, not ordered.
    std::unordered_map<std::string, std::shared_ptr<Table>> tables_;
    std::unordered_map<std::string, Loading> loading_;
    std::vector<std::weak_ptr<Peer>> subscribers_;
    struct RenderedSummary {
        StoredTable table;  // what `text` was rendered from
        SeatsAway away;
        std::string text;
    };
    mutable std::mutex summaries_mutex_;
    mutable std::unordered_map<std::string, RenderedSummary> summaries_;
    net::strand<net::io_context::executor_type> strand_;  // for the timers
    net::steady_timer deadline_timer_;
    net::steady_timer unload_timer_;
    bool stopped_ = false;
    Table::Clock::time_point sessions_cleaned_{};
};

}  // namespace gcor::server
