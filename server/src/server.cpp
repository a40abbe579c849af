#include "gcor/server/server.hpp"

#include <spdlog/spdlog.h>

#include <sys/resource.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <thread>

#include "accounts/accounts.hpp"
#include "accounts/blocks.hpp"
#include "accounts/password_attempts.hpp"
#include "accounts/password_resets.hpp"
#include "accounts/preferences.hpp"
#include "accounts/vacations.hpp"
#include "chat/chat_limits.hpp"
#include "fence.hpp"
#include "gcor/store/open_store.hpp"
#include "gcor/store/store.hpp"
#include "leagues/leagues.hpp"
#include "net/http_session.hpp"
#include "net/ws_session.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "notify/webhooks.hpp"
#include "ratings/ratings.hpp"
#include "reviews/game_reviews.hpp"
#include "tables/lobby.hpp"

namespace gcor::server {

namespace {

// A service manager starts the server with a soft limit of 1,024 descriptors: as many as the hard
// limit allows are asked for, and the connections are capped below what the process has, leaving
// a reserve (256, or a quarter of a small limit) for the database, the files being served, the
// webhooks, Asio's own, and the limiter's places for /healthz and /metrics and for connections
// being closed to make room (ConnectionLimiter).
int connection_cap(const Config& config) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return config.max_connections > 0 ? config.max_connections : 1000;
    if (limit.rlim_cur < limit.rlim_max) {
        rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    const auto descriptors = static_cast<std::int64_t>(std::min<rlim_t>(limit.rlim_cur, 1u << 30));
    const std::int64_t reserve = std::min<std::int64_t>(256, descriptors / 4);
    const auto fits = static_cast<int>(std::max<std::int64_t>(16, descriptors - reserve));
    if (config.max_connections > fits)
        spdlog::warn(
            "--max-connections {} needs more file descriptors than the {} this process "
            "may open: capped at {}",
            config.max_connections, descriptors, fits);
    const int cap = config.max_connections > 0 ? std::min(config.max_connections, fits) : fits;
    spdlog::info(
        "at most {} connections, and {} more for /healthz and /metrics ({} file descriptors)", cap,
        ConnectionLimiter::kHealthReserve, descriptors);
    return cap;
}

MailSettings mail_settings(const Config& config) {
    MailSettings settings;
    settings.smtp.url = config.smtp_url;
    settings.from = *parse_mail_sender(config.smtp_from);  // parse_config checked it
    settings.smtp.from = settings.from.address;
    settings.smtp.user = config.smtp_user;
    settings.smtp.password = config.smtp_password;
    settings.smtp.starttls = config.smtp_starttls;
    settings.smtp.ca_file = config.smtp_ca_file;
    settings.delay = config.mail_delay;
    settings.first_retry = config.mail_retry;
    settings.digest_every = config.mail_digest_every;
    return settings;
}

WebhookSettings webhook_settings(const Config& config) {
    WebhookSettings settings;
    settings.allow_private = config.webhooks_to_private;
    return settings;
}

}  // namespace

struct Server::Impl {
    explicit Impl(const Config& c)
        : config(c),
          store(open_store(
              c.database,
              {.group_commit_ms = c.group_commit_ms,
               .on_commit =
                   [this](std::chrono::nanoseconds took, std::size_t writes) {
                       metrics.store_commit_seconds.observe(took);
                       metrics.store_writes.fetch_add(writes, std::memory_order_relaxed);
                       metrics.storage_works();
                   },
               .on_failure = [this](const std::string& error) { metrics.storage_failed(error); }})),
          limiter(c.connections_per_address, connection_cap(c)),
          webhook_work(webhook_io.get_executor()),
          webhooks(webhook_io, webhook_settings(c)),
          mailer(*store, metrics, mail_settings(c)),
          notifier(*store, webhooks, mailer),
          ratings(*store),
          accounts(*store, c.session_lifetime, blocking.context()),
          password_resets(*store, mailer, {}),
          mutes(*store, blocking.context()),
          vacations(*store, c.vacation_days),
          blocks(*store),
          preferences(*store),
          reviews(*store, metrics, bots.context(),
                  {c.analysis_worlds, static_cast<std::size_t>(c.analyses_per_day)}),
          web(StaticFiles::load(c.web_root)),
          services{config,
                   metrics,
                   *store,
                   accounts,
                   notifier,
                   mailer,
                   lobby,
                   ratings,
                   leagues,
                   sessions,
                   limiter,
                   password_attempts,
                   password_resets,
                   chat_limiter,
                   mutes,
                   vacations,
                   blocks,
                   preferences,
                   web,
                   blocking.context(),
                   hashing.context(),
                   bots.context(),
                   loading.context(),
                   reviews},
          lobby(io, services),
          leagues(services),
          signals(io, SIGINT, SIGTERM),
          shutdown_timer(io),
          keep_alive_timer(io),
          listener(std::make_shared<Listener>(
              io, tcp::endpoint(net::ip::make_address(c.bind), c.port), services)) {}

    // Closes every WebSocket with 1001 once its queue is written, then stops when all are gone
    // (or after a few seconds, for clients that never answer the close).
    void stop() {
        net::post(io, [this] {
            if (stopping) return;
            stopping = true;
            spdlog::info("shutting down");
            listener->stop();
            lobby.stop();
            reviews.stop();
            signals.cancel();
            keep_alive_timer.cancel();
            // Sessions whose handshake ends after this close themselves (SessionList::add).
            for (const auto& session : sessions.close())
                session->go_away();
            shutdown_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
            wait_for_sessions();
        });
    }
    void wait_for_sessions() {
        if (sessions.open().empty() || std::chrono::steady_clock::now() > shutdown_deadline)
            return io.stop();
        shutdown_timer.expires_after(std::chrono::milliseconds(20));
        shutdown_timer.async_wait([this](const beast::error_code&) { wait_for_sessions(); });
    }

    // Every quarter of the idle timeout each connection checks its silence: one timer for all of
    // them, where Beast's idle timer kept a wait pending on each (about 110 bytes, measured).
    void keep_connections_alive() {
        keep_alive_timer.expires_after(
            std::chrono::duration_cast<std::chrono::milliseconds>(config.idle_timeout) / 4);
        keep_alive_timer.async_wait([this](const beast::error_code& ec) {
            if (ec || stopping) return;
            for (const auto& session : sessions.open())
                session->keep_alive();
            keep_connections_alive();
        });
    }

    static PasswordAttempts::Limits password_limits(const Config& c) {
        PasswordAttempts::Limits limits;
        limits.address_burst = c.password_attempts;
        limits.address_every =
            std::chrono::duration_cast<PasswordAttempts::Clock::duration>(std::chrono::minutes(1)) /
            c.password_attempts;
        return limits;
    }

    // Declared before the io_context, so that they outlive the connections and tables its
    // pending handlers still hold when it is destroyed.
    Config config;
    Metrics metrics;
    std::unique_ptr<Store> store;
    SessionList sessions;
    ConnectionLimiter limiter;
    WorkerPool blocking{2, metrics};
    // Half the cores check passwords (a tenth of a second each), the rest never wait for them.
    WorkerPool hashing{std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2),
                       metrics};
    // Bots think on threads of their own: a table of strong bots never holds up the others.
    WorkerPool bots{config.bot_threads, metrics};
    WorkerPool loading{2, metrics};
    PasswordAttempts password_attempts{password_limits(config)};
    // Webhook calls run on their own thread: a slow receiver never delays a table.
    net::io_context webhook_io;
    net::executor_work_guard<net::io_context::executor_type> webhook_work;
    Webhooks webhooks;
    // Mails leave from a thread of its own, from a queue in the store.
    Mailer mailer;
    Notifier notifier;
    Ratings ratings;
    ChatLimiter chat_limiter;
    Accounts accounts;
    PasswordResets password_resets;
    Mutes mutes;
    Vacations vacations;
    Blocks blocks;
    Preferences preferences;
    GameReviews reviews;
    const StaticFiles web;
    Services services;  // refers to the lobby and leagues, which are made after the io_context
    // The thread count is Asio's concurrency hint: with one thread it neither wakes other
    // threads nor takes a lock for the posts of its own thread.
    net::io_context io{config.threads};
    Lobby lobby;
    Leagues leagues;
    net::signal_set signals;
    net::steady_timer shutdown_timer;
    net::steady_timer keep_alive_timer;
    std::shared_ptr<Listener> listener;
    bool stopping = false;
    std::chrono::steady_clock::time_point shutdown_deadline;
};

Server::Server(const Config& config) : impl_(std::make_unique<Impl>(config)) {}
Server::~Server() = default;

std::uint16_t Server::port() const {
    return impl_->listener->port();
}

void Server::run() {
    Impl& impl = *impl_;
    impl.signals.async_wait([this](const beast::error_code& ec, int) {
        if (!ec) stop();
    });
    impl.mailer.start(impl.config.public_url.empty()
                          ? "http://localhost:" + std::to_string(impl.listener->port())
                          : impl.config.public_url);
    if (impl.mailer.enabled()) spdlog::info("turn mails go through {}", impl.config.smtp_url);
    // With other server processes on the same database, their changes reach this one's
    // followers, lobby and players (a store of its own hears nothing).
    impl.store->listen([&impl](const StoreNews& news) { impl.lobby.on_news(news); });
    if (impl.web.empty())
        spdlog::warn("no web client in {} (no index.html): only the API and WebSockets are served",
                     impl.config.web_root);
    impl.listener->run();
    impl.lobby.start_maintenance();
    impl.keep_connections_alive();
    // Rated games that finished just before a stop are rated now.
    net::post(impl.blocking.context(), [&impl] { impl.ratings.rate_pending(); });
    std::thread webhook_thread([&impl] { run_fenced(impl.webhook_io, impl.metrics); });
    std::vector<std::thread> threads;
    for (int i = 1; i < impl.config.threads; ++i)
        threads.emplace_back([&impl] { run_fenced(impl.io, impl.metrics); });
    run_fenced(impl.io, impl.metrics);
    for (std::thread& thread : threads)
        thread.join();
    impl.store->listen({});  // nothing more for the lobby, which goes before the store
    // Everything acknowledged is stored already; this only waits for writes still in flight,
    // whose acks are lost with the connections (their clients find the moves on return).
    impl.bots.join();
    impl.loading.join();
    impl.blocking.join();
    impl.hashing.join();
    impl.mailer.stop();
    impl.store->flush();
    impl.webhook_work.reset();
    impl.webhook_io.stop();
    webhook_thread.join();
}

void Server::stop() {
    impl_->stop();
}

}  // namespace gcor::server
