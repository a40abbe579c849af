#pragma once
// Server settings: defaults, then the configuration file, then the command line.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gcor::server {

struct Config {
    std::string bind = "127.0.0.1";
    std::uint16_t port = 8080;
    int threads = 0;  // 0: one per core but one (parse_config sets the number)
    std::string web_root = "web";
    std::string log_level = "info";
    std::size_t max_message_bytes = 64 * 1024;
    int max_json_depth = 16;
    double messages_per_second = 20;  // per connection, with a burst of `message_burst`
    int message_burst = 40;
    int connections_per_address = 64;  // HTTP and WebSocket, counted from the accept
    int max_connections = 0;           // 0: what the file descriptor limit allows, less a reserve
    int password_attempts = 10;        // register and login, per address per minute (a burst too)
    std::chrono::seconds handshake_timeout{30};
    std::chrono::seconds idle_timeout{60};  // pings are sent before it closes an idle connection
    std::size_t queue_messages = 256;       // per connection, then the slow reader gets a snapshot
    std::size_t queue_bytes = 1 << 20;
    int lagging_limit = 8;  // snapshots a connection may need before it is closed as too slow
    // SO_SNDBUF of every accepted connection, in bytes (0: the system's, which Linux grows with
    // the connection's needs). Tests and tuning: Linux doubles the value and keeps it fixed.
    int send_buffer_bytes = 0;
    std::chrono::milliseconds bot_delay{500};
    std::chrono::milliseconds bot_time{200};  // the strong bot's thinking time per move
    int bot_threads = 0;  // the bots' own pool; 0: half the cores (parse_config sets the number)
    // Game reviews (docs/protocol.md, "Game review"): worlds per decision, and reviews a user may
    // start a day.
    int analysis_worlds = 128;
    int analyses_per_day = 10;
    std::size_t max_tables = 100'000;
    // The SQLite file (its folder is created), or a postgresql:// URL.
    std::string database = "var/cor.db";
    int group_commit_ms = 0;  // writes that arrive within this window share one commit
    std::chrono::hours session_lifetime{24 * 30};
    std::chrono::seconds unload_after{300};  // a table nobody used for this long leaves memory
    std::chrono::milliseconds deadline_sweep{500};  // how often deadlines are checked
    // How often the tournaments are checked for a start or a round to pair (tests lengthen it to
    // hold a round back); deadline_sweep when not set.
    std::optional<std::chrono::milliseconds> tournament_sweep;
    // How often a process sharing its database tells the others it lives (and who is connected
    // to it); one silent for three beats is taken for dead.
    std::chrono::milliseconds presence_beat{5000};
    // Days of vacation a registered user may take per calendar year (0: no vacations).
    int vacation_days = 30;
    bool webhooks_to_private = false;  // may webhooks call loopback and private addresses?
    std::string port_file;             // where to write the port actually bound (for --port 0)
    // The address people open: links in mails start with it (empty: http://localhost:<port>).
    std::string public_url;
    // E-mail (docs/operations.md, "E-mail"): no smtp_url, no mail.
    std::string smtp_url;
    std::string smtp_from = "The Great City of Rome <noreply@localhost.localdomain>";
    std::string smtp_user;
    std::string smtp_password;
    bool smtp_starttls = false;
    std::string smtp_ca_file;             // empty: the system's certificate authorities
    std::chrono::seconds mail_delay{60};  // a turn mail waits this long (not sent if they moved)
    std::chrono::seconds mail_retry{30};  // the first wait after a failure; then doubled
    std::chrono::seconds mail_digest_every{24 * 3600};
    // Registered users (by name, compared case-insensitively) who may manage every league.
    std::vector<std::string> admins;
    // --copy-database FROM TO: copy one store into another and stop (empty: serve).
    std::vector<std::string> copy_database;
    // Tests and demos only: table n (from 0, in order of creation) is dealt from test_seed + n,
    // which makes every deal predictable.
    std::optional<std::uint64_t> test_seed;
};

// Parses the command line (and the file named by --config). nullopt with `exit_code` set when the
// program should stop: after --help (0) or on bad input (2, with the reason on stderr).
std::optional<Config> parse_config(int argc, char** argv, int& exit_code);

}  // namespace gcor::server
