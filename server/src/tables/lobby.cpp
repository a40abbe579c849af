#include "tables/lobby.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <chrono>
#include <future>
#include <tuple>

#include "accounts/blocks.hpp"
#include "accounts/preferences.hpp"
#include "accounts/vacations.hpp"
#include "crypto.hpp"
#include "notify/notifier.hpp"

namespace gcor::server {

using protocol::Json;

Lobby::Lobby(net::io_context& io, Services& services)
    : io_(io),
      services_(services),
      strand_(net::make_strand(io)),
      deadline_timer_(strand_),
      unload_timer_(strand_) {}

std::variant<std::shared_ptr<Table>, protocol::ErrorCode> Lobby::create(
    const protocol::TableSettings& settings, std::uint64_t creator) {
    std::shared_ptr<Table> table;
    {
        std::lock_guard lock(mutex_);
        if (tables_.size() >= services_.config.max_tables) return protocol::ErrorCode::table_full;
        const auto& test_seed = services_.config.test_seed;
        // In test mode table n (counting every stored table) is dealt from test_seed + n.
        const std::uint64_t seed =
            test_seed ? *test_seed + services_.store.count_tables() : secure_random_seed();
        table = Table::create(io_, table_services_.services(), *this, "t" + secure_random_hex(8),
                              settings, seed, creator);
        tables_.emplace(table->id(), table);
    }
    return table;
}

void Lobby::find(const std::string& id, OnFound found) {
    {
        std::unique_lock lock(mutex_);
        if (const auto it = tables_.find(id); it != tables_.end()) {
            auto table = it->second;
            lock.unlock();
            return found(FoundTable{std::move(table)});
        }
        auto [loading, first] = loading_.try_emplace(id);
        loading->second.waiting.push_back(std::move(found));
        if (!first) return;
    }
    net::post(services_.loading, [this, id] { load(id); });
}

std::shared_ptr<Table> Lobby::in_memory(const std::string& id) const {
    const std::lock_guard lock(mutex_);
    const auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second;
}

std::shared_ptr<Table> Lobby::find_here(const std::string& id) {
    std::promise<FoundTable> promise;
    auto future = promise.get_future();
    find(id, [&promise](FoundTable found) { promise.set_value(std::move(found)); });
    // Not waiting for the pool to reach the load: this thread may be the one it would wait for.
    // Loaded again when it retired before it was handed out (load): by whichever gets to it first.
    do
        load(id);
    while (future.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready);
    FoundTable found = future.get();
    if (found.unreadable) throw StorageFailure("table " + id + " could not be read");
    return std::move(found.table);
}

void Lobby::load(const std::string& id) {
    {
        std::lock_guard lock(mutex_);
        const auto it = loading_.find(id);
        if (it == loading_.end() || it->second.claimed) return;
        it->second.claimed = true;
    }
    FoundTable found;
    try {
        if (auto loaded = services_.store.load_table(id)) {
            const std::size_t moves = loaded->moves.size();
            found.table =
                Table::restore(io_, table_services_.services(), *this, std::move(*loaded));
            if (found.table) spdlog::debug("table {} loaded ({} moves)", id, moves);
        }
    } catch (const StorageFailure& failure) {
        spdlog::error("table {}: cannot load: {}", id, failure.what());
        found.unreadable = true;
    }
    for (;;) {
        std::vector<OnFound> waiting;
        std::vector<StoreNews> news;
        bool forgotten = false;
        {
            std::lock_guard lock(mutex_);
            Loading& loading = loading_.at(id);
            if (!loading.found) loading.found = found;
            waiting.swap(loading.waiting);
            news.swap(loading.news);
            forgotten = loading.forgotten;
            if (forgotten || (waiting.empty() && news.empty())) {
                if (found.table && !forgotten) tables_.emplace(id, found.table);
                loading_.erase(id);
            }
        }
        if (forgotten) {
            // It retired already (its first change failed): those still waiting load it anew.
            for (OnFound& again : waiting)
                find(id, std::move(again));
            return;
        }
        if (waiting.empty() && news.empty()) return;
        for (const StoreNews& item : news)
            if (found.table) found.table->on_news(item);
        for (OnFound& answer : waiting)
            answer(found);
    }
}

void Lobby::change_vacation(std::uint64_t user, const std::function<bool()>& change) {
    // Unfinished tables come first; a player rarely has more.
    constexpr std::size_t kTablesOfAPlayer = 10'000;
    std::vector<std::shared_ptr<Table>> tables;
    for (const UserTable& mine : services_.store.tables_of(user, kTablesOfAPlayer)) {
        if (mine.table.status == TableStatus::finished) break;
        if (mine.table.status != TableStatus::playing) continue;
        std::shared_ptr<Table> table;
        if (mine.table.turn_of(mine.seat) && mine.table.deadline) {
            table = find_here(mine.table.id);
        } else {
            std::lock_guard lock(mutex_);
            if (const auto it = tables_.find(mine.table.id); it != tables_.end())
                table = it->second;
        }
        if (table) tables.push_back(std::move(table));
    }
    if (!change()) return;
    for (const std::shared_ptr<Table>& table : tables)
        net::post(table->strand(), [table, user] {
            table->when_ready(
                [table, user] { table->account_changes().on_vacation_changed(user); });
        });
}

void Lobby::erase_player(std::uint64_t user, const std::string& name) {
    // Any table in memory may hold their chat lines; a finished one not in memory reads the
    // erased seat from the store.
    std::unordered_map<std::string, std::shared_ptr<Table>> tables;
    {
        std::lock_guard lock(mutex_);
        tables = tables_;
    }
    constexpr std::size_t kTablesOfAPlayer = 10'000;
    for (const UserTable& mine : services_.store.tables_of(user, kTablesOfAPlayer)) {
        if (mine.table.status == TableStatus::finished) break;  // unfinished come first
        if (!tables.contains(mine.table.id))
            if (auto table = find_here(mine.table.id)) tables.emplace(mine.table.id, table);
    }
    const TableChange erase = [user, name](Table& table, std::function<void(bool)> done) {
        table.account_changes().erase_player(user, name, std::move(done));
    };
    // The tables whose change was not stored: one that retired meanwhile is loaded again once.
    std::unordered_map<std::string, std::shared_ptr<Table>> again;
    for (const std::string& id : change_each(tables, erase))
        if (auto table = find_here(id)) again.emplace(id, std::move(table));
    if (const auto failed = change_each(again, erase); !failed.empty())
        spdlog::error("user {} erased, but not at {} of their tables (the first: {})", user,
                      failed.size(), failed.front());
}

void Lobby::rename_player(std::uint64_t user, const std::string& name) {
    rename_here(user, name);
    services_.store.rename_seats(user, name);
}

void Lobby::rename_here(std::uint64_t user, const std::string& name) {
    std::unordered_map<std::string, std::shared_ptr<Table>> tables;
    {
        std::lock_guard lock(mutex_);
        tables = tables_;
    }
    const auto failed =
        change_each(tables, [user, name](Table& table, std::function<void(bool)> done) {
            table.account_changes().rename_player(user, name, std::move(done));
        });
    if (!failed.empty())
        spdlog::warn("user {} is now {}: {} tables in memory did not answer (the first: {})", user,
                     name, failed.size(), failed.front());
}

std::vector<std::string> Lobby::change_each(
    const std::unordered_map<std::string, std::shared_ptr<Table>>& tables,
    const TableChange& change) {
    std::vector<std::pair<std::string, std::future<bool>>> stored;
    for (const auto& [id, table] : tables) {
        auto done = std::make_shared<std::promise<bool>>();
        stored.emplace_back(id, done->get_future());
        net::post(table->strand(), [table, change, done] {
            table->when_ready([table, change, done] {
                change(*table, [done](bool ok) { done->set_value(ok); });
            });
        });
    }
    std::vector<std::string> failed;
    for (auto& [id, ok] : stored)
        if (ok.wait_for(std::chrono::seconds(30)) != std::future_status::ready || !ok.get())
            failed.push_back(id);
    return failed;
}

void Lobby::forget(const std::string& id, const Table* table) {
    std::lock_guard lock(mutex_);
    if (const auto it = tables_.find(id); it != tables_.end() && it->second.get() == table)
        tables_.erase(it);
    else if (const auto loading = loading_.find(id); loading != loading_.end() &&
                                                     loading->second.found &&
                                                     loading->second.found->table.get() == table)
        loading->second.forgotten = true;
}

namespace {

// A listing reaches the oldest kListed tables, in pages: the store reads the rows before a page
// too (it has no cursor), so deeper pages would cost more and more.
constexpr std::size_t kListed = 200;
// Summaries kept rendered: more than a listing reaches with any filter, most of the time.
constexpr std::size_t kRenderedSummaries = 4 * kListed;
// How long a due deadline this server took is left to it by the others sharing its database.
constexpr auto kDeadlineHeld = std::chrono::seconds(10);

}  // namespace

std::string Lobby::rendered(const StoredTable& table) const {
    // A vacation that began or ended changes the summary as much as a change of the row.
    const SeatsAway away = services_.vacations.seats_away(table.seats, unix_now_ms());
    {
        std::lock_guard lock(summaries_mutex_);
        const auto it = summaries_.find(table.id);
        if (it != summaries_.end() && it->second.table == table && it->second.away == away)
            return it->second.text;
    }
    std::string text = summary_json(table, away).dump();
    std::lock_guard lock(summaries_mutex_);
    if (summaries_.size() >= kRenderedSummaries) summaries_.clear();
    summaries_.insert_or_assign(table.id, RenderedSummary{table, away, text});
    return text;
}

std::optional<Lobby::Page> Lobby::list(const protocol::requests::ListTables& request) const {
    TableFilter filter;
    filter.players = request.players;
    if (request.rules) filter.rules = std::string(engine::variant_id(*request.rules));
    filter.open_only = request.open_only;
    const auto limit = static_cast<std::size_t>(request.limit);
    // The first page reads one row more than it lists, to tell whether more follow.
    filter.limit = std::min(kListed, limit + 1);
    std::optional<std::pair<UnixMs, std::string>> after;  // the store's order: created, then id
    if (!request.after.empty()) {
        auto table = services_.store.find_table(request.after);
        if (!table) return std::nullopt;
        after.emplace(table->created, std::move(table->id));
        filter.limit = kListed;
    }
    const std::vector<StoredTable> rows = services_.store.list_tables(filter);
    auto row = rows.begin();
    if (after)
        row = std::ranges::find_if(rows, [&](const StoredTable& table) {
            return std::tie(table.created, table.id) > std::tie(after->first, after->second);
        });
    Page page;
    page.tables = "[";
    for (std::size_t listed = 0; row != rows.end() && listed < limit; ++row, ++listed) {
        if (listed > 0) page.tables += ',';
        page.tables += rendered(*row);
    }
    page.tables += ']';
    if (row != rows.end()) page.next = std::prev(row)->id;
    return page;
}

void Lobby::subscribe(const std::shared_ptr<Peer>& peer) {
    std::lock_guard lock(mutex_);
    std::erase_if(subscribers_, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
    subscribers_.push_back(peer);
}

void Lobby::unsubscribe(const Peer* peer) {
    std::lock_guard lock(mutex_);
    std::erase_if(subscribers_, [&](const std::weak_ptr<Peer>& p) {
        const auto locked = p.lock();
        return !locked || locked.get() == peer;
    });
}

void Lobby::publish(bool is_public, const std::function<Json()>& summary) {
    if (!is_public) return;
    std::vector<std::shared_ptr<Peer>> to_tell;
    {
        std::lock_guard lock(mutex_);
        for (const auto& subscriber : subscribers_)
            if (auto peer = subscriber.lock()) to_tell.push_back(std::move(peer));
    }
    if (to_tell.empty()) return;
    const Message message =
        make_message(Json{{"type", "lobby_update"}, {"table", summary()}}.dump());
    for (const auto& peer : to_tell)
        peer->send(message);
}

// --- Other server processes' changes -----------------------------------------------------------

void Lobby::on_user_news(const UserNews& news) {
    if (news.kind == UserNews::Kind::message)
        return services_.notifier.tell_here(news.user, news.message);
    // A guest registered or an account was erased elsewhere: the seats in the store have the name
    // already, the tables held here take it (off the store's thread: they are waited for).
    net::post(services_.blocking, [this, user = news.user] {
        try {
            if (const auto renamed = services_.store.user_by_id(user))
                rename_here(user, renamed->name);
        } catch (const StorageFailure& failure) {
            spdlog::error("user {}: cannot read the name another server gave: {}", user,
                          failure.what());
        }
    });
}

void Lobby::on_news(const StoreNews& news) {
    if (news.kind == StoreNews::Kind::missed) {
        net::post(services_.blocking, [this] {
            try {
                services_.blocks.reload_all();
                services_.preferences.reload_all();
            } catch (const StorageFailure& failure) {
                spdlog::error("cannot read the blocks and preferences again: {}", failure.what());
            }
        });
        // Changes went unheard: every table in memory compares itself with the store.
        std::lock_guard lock(mutex_);
        for (const auto& [id, table] : tables_)
            table->on_news(news);
        for (auto& [id, loading] : loading_)
            loading.news.push_back(news);
        return;
    }
    // A user's data that another process changed, read again off the table's and I/O threads.
    const auto read_again = [this, user = news.user](const char* what, auto reload) {
        net::post(services_.blocking, [user, what, reload] {
            try {
                reload(user);
            } catch (const StorageFailure& failure) {
                spdlog::error("user {}: cannot read another server's {} change: {}", user, what,
                              failure.what());
            }
        });
    };
    if (news.kind == StoreNews::Kind::blocks)
        return read_again("block", [this](std::uint64_t user) { services_.blocks.reload(user); });
    if (news.kind == StoreNews::Kind::preferences)
        return read_again("preference",
                          [this](std::uint64_t user) { services_.preferences.reload(user); });
    // The deadlines a vacation moved come as news of their tables.
    if (news.kind == StoreNews::Kind::vacation)
        return read_again("vacation",
                          [this](std::uint64_t user) { services_.vacations.reload(user); });
    std::shared_ptr<Table> table;
    {
        std::lock_guard lock(mutex_);
        if (const auto it = tables_.find(news.table); it != tables_.end()) {
            table = it->second;
        } else if (const auto loading = loading_.find(news.table); loading != loading_.end()) {
            // The load may have read the store before this change: the table hears of it loaded.
            return loading->second.news.push_back(news);
        }
    }
    if (table) return table->on_news(news);
    if (news.kind != StoreNews::Kind::table) return;  // chat of a table nobody follows here
    if (news.turn_changed && news.status == TableStatus::playing && news.to_act_user != 0 &&
        news.to_act)
        services_.notifier.your_turn_here(news.to_act_user, [&] {
            return your_turn_json(news.table, static_cast<engine::Seat>(*news.to_act), news.version,
                                  news.deadline);
        });
    if (!news.listing_changed || !news.is_public) return;
    {
        std::lock_guard lock(mutex_);
        std::erase_if(subscribers_, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
        if (subscribers_.empty()) return;
    }
    if (news.removed)
        return publish(true, [&] { return Json{{"id", news.table}, {"status", "closed"}}; });
    // The summary needs the row: a store read, on the blocking pool.
    net::post(services_.blocking, [this, id = news.table] {
        try {
            if (const auto row = services_.store.find_table(id))
                publish(row->is_public, [&] {
                    return summary_json(*row,
                                        services_.vacations.seats_away(row->seats, unix_now_ms()));
                });
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read another server's change: {}", id, failure.what());
        }
    });
}

// --- Maintenance --------------------------------------------------------------------------------

void Lobby::start_maintenance() {
    net::post(strand_, [this] {
        sweep_deadlines();
        sweep_idle_tables();
    });
}

void Lobby::stop() {
    net::post(strand_, [this] {
        stopped_ = true;
        deadline_timer_.cancel();
        unload_timer_.cancel();
    });
}

// Deadlines live in the store, so they hold across restarts and for tables not in memory: a
// deadline that passed while the server was down is found by the first sweep. Among servers
// sharing a database each due deadline is taken by one (for kDeadlineHeld: acting on it takes
// milliseconds, a bot's move for the seat a little more; should this server die meanwhile,
// another takes it after that). The store is read on the blocking pool; the timer is set again
// on the lobby's strand.
void Lobby::sweep_deadlines() {
    if (stopped_) return;
    net::post(services_.blocking, [this] {
        try {
            const UnixMs now = unix_now_ms();
            const UnixMs held_until =
                now + std::chrono::duration_cast<std::chrono::milliseconds>(kDeadlineHeld).count();
            for (const std::string& id : services_.store.take_due_tables(now, held_until))
                find(id, [](FoundTable found) {
                    if (const auto table = std::move(found.table))
                        net::post(table->strand(), [table] {
                            table->when_ready([table] { table->play().on_deadline(); });
                        });
                });
        } catch (const StorageFailure& failure) {
            spdlog::error("the deadline sweep could not read the store: {}", failure.what());
        }
        net::post(strand_, [this] {
            if (stopped_) return;
            deadline_timer_.expires_after(services_.config.deadline_sweep);
            deadline_timer_.async_wait([this](const boost::system::error_code& ec) {
                if (!ec) sweep_deadlines();
            });
        });
    });
}

// Also forgets expired sessions, once an hour.
void Lobby::sweep_idle_tables() {
    if (stopped_) return;
    std::vector<std::shared_ptr<Table>> loaded;
    {
        std::lock_guard lock(mutex_);
        loaded.reserve(tables_.size());
        for (const auto& [id, table] : tables_)
            loaded.push_back(table);
    }
    // Expired sessions are refused anyway; forgetting them keeps the table small.
    if (Table::Clock::now() - sessions_cleaned_ > std::chrono::hours(1)) {
        sessions_cleaned_ = Table::Clock::now();
        net::post(services_.blocking, [this] {
            if (const auto removed = services_.store.remove_expired_sessions(unix_now_ms()))
                spdlog::info("{} expired sessions removed", removed);
        });
    }
    const auto idle = services_.config.unload_after;
    for (const auto& table : loaded)
        net::post(table->strand(), [table, idle] { table->retirement().unload_if_idle(idle); });
    unload_timer_.expires_after(
        std::max<Table::Clock::duration>(idle / 2, std::chrono::seconds(1)));
    unload_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) sweep_idle_tables();
    });
}

}  // namespace gcor::server
