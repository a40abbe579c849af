#include "gcor/server/config.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <thread>

#include "gcor/engine/analysis.hpp"
#include "notify/mail_message.hpp"

namespace gcor::server {

std::optional<Config> parse_config(int argc, char** argv, int& exit_code) {
    Config config;
    CLI::App app{"cor-server: the Great City of Rome game server (HTTP and WebSocket on one port)"};
    app.set_config("--config", "",
                   "Read settings from this file (key = value lines; see config/cor-server.conf)");
    app.footer("Command-line options override the configuration file.");
    app.allow_config_extras(CLI::config_extras_mode::error);  // a misspelt setting is an error
    app.add_option("--bind", config.bind, "Address to listen on")->capture_default_str();
    app.add_option("--port", config.port, "Port to listen on (0: any free port, printed at start)")
        ->capture_default_str();
    app.add_option("--threads", config.threads,
                   "Worker threads (0: one per core but one, which the store's writer and the "
                   "kernel's network work need; at least one)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    app.add_option("--web-root", config.web_root, "Folder of the browser client's files")
        ->capture_default_str();
    app.add_option("--log-level", config.log_level, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}))
        ->capture_default_str();
    app.add_option("--max-message-bytes", config.max_message_bytes,
                   "Largest WebSocket message (larger: closed with 1009)")
        ->check(CLI::Range(std::size_t{256}, std::size_t{16} << 20))
        ->capture_default_str();
    app.add_option("--max-json-depth", config.max_json_depth, "Deepest JSON nesting of a message")
        ->check(CLI::Range(2, 256))
        ->capture_default_str();
    app.add_option("--messages-per-second", config.messages_per_second,
                   "Messages a connection may send per second")
        ->check(CLI::Range(0.1, 100000.0))
        ->capture_default_str();
    app.add_option("--message-burst", config.message_burst,
                   "Messages a connection may send at once")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--connections-per-address", config.connections_per_address,
                   "Open connections (HTTP and WebSocket) per client address")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--password-attempts", config.password_attempts,
                   "Registrations and logins per client address per minute (a burst as large)")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    app.add_option("--max-connections", config.max_connections,
                   "Open connections in all (0: as many as the file descriptor limit allows, "
                   "less a reserve; the soft limit is raised to the hard one at start). When all "
                   "are open, a new connection closes the oldest one waiting for a request; 8 "
                   "places more answer only /healthz and /metrics")
        ->check(CLI::Range(0, 10000000))
        ->capture_default_str();
    int handshake = static_cast<int>(config.handshake_timeout.count());
    int idle = static_cast<int>(config.idle_timeout.count());
    int bot_delay = static_cast<int>(config.bot_delay.count());
    int bot_time = static_cast<int>(config.bot_time.count());
    app.add_option("--handshake-timeout", handshake, "Seconds to complete the WebSocket handshake")
        ->check(CLI::Range(1, 3600))
        ->capture_default_str();
    app.add_option("--idle-timeout", idle,
                   "Seconds of silence (pings unanswered) before a connection is closed")
        ->check(CLI::Range(2, 86400))
        ->capture_default_str();
    app.add_option("--queue-messages", config.queue_messages,
                   "Messages queued for a slow reader before it gets a snapshot instead")
        ->check(CLI::Range(std::size_t{4}, std::size_t{100000}))
        ->capture_default_str();
    app.add_option("--queue-bytes", config.queue_bytes,
                   "Bytes queued for a slow reader before it gets a snapshot instead")
        ->check(CLI::Range(std::size_t{4096}, std::size_t{1} << 30))
        ->capture_default_str();
    app.add_option("--lagging-limit", config.lagging_limit,
                   "Snapshots a slow reader may need before it is closed")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    app.add_option("--send-buffer-bytes", config.send_buffer_bytes,
                   "TESTING AND TUNING: each connection's socket send buffer (SO_SNDBUF; Linux "
                   "doubles it, at least about 4.6 KB, and no longer grows it); 0: the system's")
        ->check(CLI::Range(0, 64 << 20))
        ->capture_default_str();
    app.add_option("--bot-delay-ms", bot_delay, "Milliseconds a bot waits before it moves")
        ->check(CLI::Range(0, 600000))
        ->capture_default_str();
    app.add_option("--bot-ms", bot_time,
                   "Milliseconds the strong bot thinks per move (it also stands in for players "
                   "out of time)")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    app.add_option("--bot-threads", config.bot_threads,
                   "Threads on which bots think, apart from the tables and the I/O (0: half the "
                   "cores)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    app.add_option("--analysis-worlds", config.analysis_worlds,
                   "Worlds a game review samples per decision (docs/analysis.md): more is steadier "
                   "and slower; a stored review keeps the number it was made with")
        ->check(CLI::Range(1, engine::kMaxAnalysisWorlds))
        ->capture_default_str();
    app.add_option("--analyses-per-day", config.analyses_per_day,
                   "Game reviews a registered user may start in 24 hours (a stored one is served "
                   "to everybody without counting)")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    app.add_option("--max-tables", config.max_tables, "Tables the server holds at once")
        ->check(CLI::Range(std::size_t{1}, std::size_t{10'000'000}))
        ->capture_default_str();
    app.add_option("--database", config.database,
                   "Where everything is kept: an SQLite file (created with its folder when "
                   "missing), or a PostgreSQL database as a URL, "
                   "postgresql://user@host:port/database")
        ->capture_default_str();
    app.add_option("--copy-database", config.copy_database,
                   "Copy everything from the SQLite file FROM into the empty PostgreSQL database "
                   "TO (a postgresql:// URL), check the copy, and stop without serving")
        ->expected(2)
        ->type_name("FROM TO");
    app.add_option("--group-commit-ms", config.group_commit_ms,
                   "Milliseconds during which writes are gathered into one commit (0: commit at "
                   "once, still grouping what arrives during a commit)")
        ->check(CLI::Range(0, 100))
        ->capture_default_str();
    int session_days = static_cast<int>(config.session_lifetime.count() / 24);
    app.add_option("--session-days", session_days, "Days a login or guest session lasts")
        ->check(CLI::Range(1, 3650))
        ->capture_default_str();
    int unload_after = static_cast<int>(config.unload_after.count());
    app.add_option("--unload-after", unload_after,
                   "Seconds after which a table nobody follows leaves memory (it stays stored)")
        ->check(CLI::Range(1, 86400))
        ->capture_default_str();
    int deadline_sweep = static_cast<int>(config.deadline_sweep.count());
    app.add_option("--deadline-sweep-ms", deadline_sweep,
                   "Milliseconds between two checks for seats out of time")
        ->check(CLI::Range(10, 60000))
        ->capture_default_str();
    int tournament_sweep = 0;
    app.add_option("--tournament-sweep-ms", tournament_sweep,
                   "Milliseconds between two checks for tournaments to start or rounds to pair "
                   "(default: --deadline-sweep-ms)")
        ->check(CLI::Range(10, 3'600'000));
    int presence_beat = static_cast<int>(config.presence_beat.count());
    app.add_option("--presence-beat-ms", presence_beat,
                   "Milliseconds between two heartbeats to the other servers sharing the database "
                   "(three missed: their users shown offline)")
        ->check(CLI::Range(50, 60000))
        ->capture_default_str();
    app.add_option("--vacation-days", config.vacation_days,
                   "Days of vacation a registered user may take per calendar year, during which "
                   "their correspondence deadlines stop (0: no vacations)")
        ->check(CLI::Range(0, 366))
        ->capture_default_str();
    app.add_flag("--webhooks-to-private{true},!--no-webhooks-to-private{false}",
                 config.webhooks_to_private,
                 "Let webhooks call loopback and private-network addresses (off: public ones only)")
        ->capture_default_str();
    app.add_option("--public-url", config.public_url,
                   "The address people open the site at, for links in mails "
                   "(default http://localhost:<port>)");
    app.add_option("--smtp-url", config.smtp_url,
                   "SMTP relay for turn mails, e.g. smtp://127.0.0.1:25 or smtps://host:465 "
                   "(empty: no mail, and the settings page does not offer it)");
    app.add_option("--smtp-from", config.smtp_from,
                   "Sender of the mails: an address, optionally with a name (\"Name <address>\")")
        ->capture_default_str();
    app.add_option("--smtp-user", config.smtp_user, "User name for the relay (empty: none)");
    app.add_option("--smtp-password", config.smtp_password, "Password for the relay");
    app.add_flag("--smtp-starttls{true},!--no-smtp-starttls{false}", config.smtp_starttls,
                 "Require STARTTLS on an smtp:// relay (smtps:// is TLS from the start)")
        ->capture_default_str();
    app.add_option("--smtp-ca-file", config.smtp_ca_file,
                   "PEM file of the certificate authorities that vouch for the relay's TLS "
                   "certificate (default: the system's)")
        ->check(CLI::ExistingFile);
    int mail_delay = static_cast<int>(config.mail_delay.count());
    app.add_option("--mail-delay", mail_delay,
                   "Seconds a turn mail waits; it is not sent if the player moved meanwhile")
        ->check(CLI::Range(0, 86400))
        ->capture_default_str();
    int mail_retry = static_cast<int>(config.mail_retry.count());
    app.add_option("--mail-retry", mail_retry,
                   "Seconds before a mail the relay did not take is tried again (doubling, at "
                   "most an hour, 16 tries)")
        ->check(CLI::Range(1, 3600))
        ->capture_default_str();
    int mail_digest_every = static_cast<int>(config.mail_digest_every.count());
    app.add_option("--mail-digest-every", mail_digest_every,
                   "Seconds between two digests for those who chose a daily one")
        ->check(CLI::Range(1, 7 * 86400))
        ->capture_default_str();
    app.add_option("--admin", config.admins,
                   "A registered user who may manage every league (repeat for several)")
        ->take_all();
    app.add_option("--port-file", config.port_file,
                   "Write the port actually bound to this file (useful with --port 0)");
    app.add_option(
        "--test-seed", config.test_seed,
        "TESTS ONLY: deal table n from this seed + n, which makes every game predictable");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        exit_code = app.exit(error) == 0 ? 0 : 2;
        return std::nullopt;
    }
    if (config.threads == 0)
        config.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    config.handshake_timeout = std::chrono::seconds(handshake);
    config.idle_timeout = std::chrono::seconds(idle);
    config.bot_delay = std::chrono::milliseconds(bot_delay);
    config.bot_time = std::chrono::milliseconds(bot_time);
    if (config.bot_threads == 0)
        config.bot_threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / 2);
    config.session_lifetime = std::chrono::hours(24 * session_days);
    config.unload_after = std::chrono::seconds(unload_after);
    config.deadline_sweep = std::chrono::milliseconds(deadline_sweep);
    if (tournament_sweep != 0)
        config.tournament_sweep = std::chrono::milliseconds(tournament_sweep);
    config.presence_beat = std::chrono::milliseconds(presence_beat);
    config.mail_delay = std::chrono::seconds(mail_delay);
    config.mail_retry = std::chrono::seconds(mail_retry);
    config.mail_digest_every = std::chrono::seconds(mail_digest_every);
    if (!config.smtp_url.empty() && !config.smtp_url.starts_with("smtp://") &&
        !config.smtp_url.starts_with("smtps://")) {
        std::cerr << "--smtp-url: an smtp:// or smtps:// URL\n";
        exit_code = 2;
        return std::nullopt;
    }
    if (!parse_mail_sender(config.smtp_from)) {
        std::cerr << "--smtp-from: an address (name@example.org), optionally with a name: "
                     "\"Name <name@example.org>\"\n";
        exit_code = 2;
        return std::nullopt;
    }
    if (!config.public_url.empty() && !config.public_url.starts_with("http://") &&
        !config.public_url.starts_with("https://")) {
        std::cerr << "--public-url: an http:// or https:// URL\n";
        exit_code = 2;
        return std::nullopt;
    }
    while (config.public_url.ends_with('/'))
        config.public_url.pop_back();
    return config;
}

}  // namespace gcor::server
