// cor-loadgen: plays whole 4-seat games against cor-server over WebSocket (every seat its own
// connection and user), in a closed loop or at a fixed rate, and reports moves per second, the
// latency from a move to the last seat's patch, bytes per patch, and the server's CPU time per move
// and memory. Other modes: the calibration server's ceiling for the same traffic, idle
// connections, dormant stored tables. See --help and docs/benchmarks.md.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "loadgen_support.hpp"
#include "sqlite_store.hpp"
#include "store.hpp"

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;  // what is read: objects compare without regard to order
using Out =
    nlohmann::ordered_json;  // what is sent: "type" first, as the calibration server reads it
using gcor::bench::Histogram;
using gcor::bench::SizeCounts;
using namespace std::chrono_literals;

// --- Options
// --------------------------------------------------------------------------------------

struct Options {
    std::string mode = "game";  // game, calibration, idle, dormant
    int tables = 200;
    double seconds = 10;
    double warmup = 2;
    double rate = 0;  // moves per second in all; 0: closed loop
    int threads = 1;
    int port = 0;  // 0: start the server (or the calibration server) here
    int server_pid = 0;
    std::string server_path;
    std::string calibration_path;
    int server_threads = 0;  // each server's own default
    std::vector<std::string> server_args;
    std::string rules = "yucata";
    int patch_bytes = 260;  // calibration: the size of each of the four messages out
    int connections = 300;  // idle
    int dormant_tables = 100'000;
    int dormant_touch = 1000;
    std::string json_path;
    std::uint64_t seed = 1;
    bool verify = false;
    bool smoke = false;
    bool quiet = false;
    int print_patches = 0;
    std::string database_dir;  // where the started server keeps its database; empty: a temp folder
                               // // game: the first N patches that seat 0 receives, on stderr
};

std::filesystem::path self_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::current_path() : exe.parent_path();
}

void say(const Options& options, const std::string& text) {
    if (!options.quiet) std::fprintf(stderr, "cor-loadgen: %s\n", text.c_str());
}

double load_average() {
    std::ifstream file("/proc/loadavg");
    double one = -1;
    file >> one;
    return one;
}

// --- The server under test --------------------------------------------------------------------

// A server process this tool started: on a free loopback port, in a temporary folder that is
// removed with it. Stopped with SIGTERM (then SIGKILL).
class ChildServer {
  public:
    ChildServer(const std::vector<std::string>& command_line, const std::string& dir) : dir_(dir) {
        const std::string port_file = dir_ + "/port";
        std::filesystem::remove(port_file);  // a server started before in this folder
        std::vector<std::string> argv = command_line;
        argv.insert(argv.end(), {"--port", "0", "--port-file", port_file});
        pid_ = fork();
        if (pid_ < 0) throw std::runtime_error("fork failed");
        if (pid_ == 0) {
            std::vector<char*> raw;
            for (std::string& arg : argv)
                raw.push_back(arg.data());
            raw.push_back(nullptr);
            execv(raw[0], raw.data());
            std::perror(raw[0]);
            _exit(127);
        }
        for (int i = 0; i < 3000 && port_ == 0; ++i) {
            std::ifstream file(port_file);
            int port = 0;
            if (file >> port) {
                port_ = port;
                break;
            }
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                throw std::runtime_error(argv[0] + " exited at start");
            }
            std::this_thread::sleep_for(10ms);
        }
        if (port_ == 0) throw std::runtime_error(argv[0] + " did not start within 30 s");
    }
    ~ChildServer() { stop(); }
    ChildServer(const ChildServer&) = delete;
    ChildServer& operator=(const ChildServer&) = delete;

    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    void stop() {
        if (pid_ <= 0) return;
        kill(pid_, SIGTERM);
        int status = 0;
        for (int i = 0; i < 1000; ++i) {
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return;
            }
            std::this_thread::sleep_for(10ms);
        }
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        pid_ = -1;
    }

  private:
    std::string dir_;
    pid_t pid_ = -1;
    int port_ = 0;
};

void remove_database(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
}

std::string make_temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "cor-loadgen-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder");
    return pattern;
}

std::string find_tool(const std::string& given, const std::filesystem::path& relative) {
    if (!given.empty()) return given;
    const auto guess = self_dir() / relative;
    if (std::filesystem::exists(guess)) return std::filesystem::weakly_canonical(guess).string();
    throw std::runtime_error("cannot find " + relative.filename().string() +
                             " next to cor-loadgen: give its path");
}

std::vector<std::string> cor_server_command(const Options& options, const std::string& dir,
                                            const std::string& database) {
    std::vector<std::string> argv{
        find_tool(options.server_path, "../server/cor-server"),
        "--bind",
        "127.0.0.1",
        "--database",
        database,
        "--threads",
        std::to_string(options.server_threads),
        "--log-level",
        "warn",
        "--web-root",
        dir,
        // A load generator is one address with many connections that send quickly.
        "--connections-per-address",
        "1000000",
        "--messages-per-second",
        "100000",
        "--message-burst",
        "100000",
        "--max-tables",
        "10000000",
        "--queue-messages",
        "100000",
        "--queue-bytes",
        "1073741824",
    };
    argv.insert(argv.end(), options.server_args.begin(), options.server_args.end());
    return argv;
}

// --- Shared counters
// ------------------------------------------------------------------------------

struct Shared {
    std::atomic<bool> measuring{false};
    std::atomic<bool> stopping{false};
    std::atomic<std::uint64_t> moves{0};  // completed while measuring
    std::atomic<std::uint64_t> connected{0};
    std::atomic<std::uint64_t> failed_connections{0};
    std::atomic<std::uint64_t> closed{0};
};

// What one worker thread measured.
struct Tally {
    Histogram latency;
    SizeCounts patch_bytes;
    SizeCounts operation_bytes;  // games: the RFC 6902 operations of each patch
    std::uint64_t moves = 0;     // all, measuring or not
    std::uint64_t games = 0;
    std::uint64_t invalid_games = 0;
    std::uint64_t errors = 0;
    std::uint64_t verified_patches = 0;
    std::vector<std::string> problems;  // the first few, for the report

    void problem(std::string text) {
        if (problems.size() < 10) problems.push_back(std::move(text));
    }
    void merge(const Tally& other) {
        latency.merge(other.latency);
        patch_bytes.merge(other.patch_bytes);
        operation_bytes.merge(other.operation_bytes);
        moves += other.moves;
        games += other.games;
        invalid_games += other.invalid_games;
        errors += other.errors;
        verified_patches += other.verified_patches;
        for (const std::string& text : other.problems)
            problem(text);
    }
};

// --- One WebSocket connection
// ---------------------------------------------------------------------

class Connection {
  public:
    using OnMessage = std::function<void(std::string_view text, Clock::time_point at)>;
    using OnOpen = std::function<void(bool ok)>;

    Connection(net::io_context& io, Shared& shared) : ws_(io), shared_(shared) {}

    void open(const tcp::endpoint& endpoint, OnOpen on_open, OnMessage on_message) {
        on_message_ = std::move(on_message);
        auto& stream = beast::get_lowest_layer(ws_);
        stream.expires_after(60s);
        stream.async_connect(endpoint, [this, on_open = std::move(on_open)](beast::error_code ec) {
            if (ec) return failed(on_open, ec, "connect");
            beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
            ws_.secure_prng(false);  // masking keys need no secrecy here
            ws_.async_handshake("127.0.0.1", "/ws", [this, on_open](beast::error_code ec2) {
                if (ec2) return failed(on_open, ec2, "handshake");
                beast::get_lowest_layer(ws_).expires_never();
                open_ = true;
                shared_.connected.fetch_add(1, std::memory_order_relaxed);
                read();
                on_open(true);
            });
        });
    }

    void send(std::string text) {
        if (!open_) return;
        queue_.push_back(std::move(text));
        if (!writing_) write();
    }
    bool is_open() const { return open_; }
    std::string error;

  private:
    void failed(const OnOpen& on_open, beast::error_code ec, const char* what) {
        shared_.failed_connections.fetch_add(1, std::memory_order_relaxed);
        error = std::string(what) + ": " + ec.message();
        on_open(false);
    }

    void read() {
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            if (ec) {
                if (open_ && !shared_.stopping) {
                    shared_.closed.fetch_add(1, std::memory_order_relaxed);
                    error = "read: " + ec.message();
                }
                open_ = false;
                return;
            }
            const auto data = buffer_.cdata();
            on_message_(std::string_view(static_cast<const char*>(data.data()), data.size()),
                        Clock::now());
            buffer_.consume(buffer_.size());
            read();
        });
    }

    void write() {
        writing_ = true;
        ws_.async_write(net::buffer(queue_.front()), [this](beast::error_code ec, std::size_t) {
            if (ec) {
                open_ = false;
                writing_ = false;
                return;
            }
            queue_.pop_front();
            if (queue_.empty())
                writing_ = false;
            else
                write();
        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    Shared& shared_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    OnMessage on_message_;
    bool writing_ = false;
    bool open_ = false;
};

// --- A table of four connections
// ------------------------------------------------------------------

constexpr int kSeats = 4;

struct Pacing {
    Clock::duration interval{};  // between two moves of one table; zero: closed loop
};

// Shared by the game and calibration drivers: four connections, one move in flight, a move is
// complete when all four connections received its patch (in a game, the mover's patch carries the
// move's id: its acknowledgement).
class TableDriver {
  public:
    TableDriver(net::io_context& io, Shared& shared, Tally& tally, const Options& options,
                Pacing pacing, std::uint64_t index)
        : io_(io),
          shared_(shared),
          tally_(tally),
          options_(options),
          pacing_(pacing),
          index_(index),
          rng_(options.seed * 1'000'003 + index),
          timer_(io) {}
    virtual ~TableDriver() = default;

    void start(const tcp::endpoint& endpoint) {
        for (int seat = 0; seat < kSeats; ++seat) {
            seats_[static_cast<std::size_t>(seat)] = std::make_unique<Connection>(io_, shared_);
            seats_[static_cast<std::size_t>(seat)]->open(
                endpoint,
                [this, seat](bool ok) {
                    if (!ok) {
                        tally_.problem("table " + std::to_string(index_) + " seat " +
                                       std::to_string(seat) + ": " +
                                       seats_[static_cast<std::size_t>(seat)]->error);
                        return;
                    }
                    if (++open_seats_ == kSeats) on_open();
                },
                [this, seat](std::string_view text, Clock::time_point at) {
                    on_message(seat, text, at);
                });
        }
    }

  protected:
    virtual void on_open() = 0;
    virtual void on_message(int seat, std::string_view text, Clock::time_point at) = 0;
    // Sends the next move now; `intended` is when it should have left.
    virtual void send_move() = 0;

    Connection& seat(int s) { return *seats_[static_cast<std::size_t>(s)]; }

    // Sends the next move at its time: at once in a closed loop; at a fixed rate, at the next
    // slot of this table's schedule (or at once when behind, the latency still counted from the
    // slot: no coordinated omission).
    void next_move(bool restart_schedule) {
        if (shared_.stopping) return;
        const auto now = Clock::now();
        if (pacing_.interval == Clock::duration::zero()) {
            intended_ = now;
            return send_move();
        }
        if (!scheduled_) {
            // A random phase, so that tables do not move in step.
            std::uniform_int_distribution<std::int64_t> phase(0, pacing_.interval.count());
            intended_ = now + Clock::duration(phase(rng_));
            scheduled_ = true;
        } else {
            intended_ += pacing_.interval;
            // A new game's setup is not a move: its time is not counted against the schedule.
            if (restart_schedule && intended_ < now) intended_ = now;
        }
        if (intended_ <= now) return send_move();
        timer_.expires_at(intended_);
        timer_.async_wait([this](beast::error_code ec) {
            if (!ec && !shared_.stopping) send_move();
        });
    }

    void move_completed(Clock::time_point last_patch) {
        ++tally_.moves;
        if (shared_.measuring.load(std::memory_order_relaxed)) {
            const auto waited =
                std::chrono::duration_cast<std::chrono::nanoseconds>(last_patch - intended_);
            tally_.latency.record(
                static_cast<std::uint64_t>(std::max<std::int64_t>(0, waited.count())));
            shared_.moves.fetch_add(1, std::memory_order_relaxed);
        }
    }

    void record_patch(std::size_t bytes) {
        if (shared_.measuring.load(std::memory_order_relaxed)) tally_.patch_bytes.record(bytes);
    }
    void record_operations(std::string_view patch) {
        if (shared_.measuring.load(std::memory_order_relaxed))
            tally_.operation_bytes.record(gcor::bench::operations_bytes(patch));
    }

    net::io_context& io_;
    Shared& shared_;
    Tally& tally_;
    const Options& options_;
    const Pacing pacing_;
    const std::uint64_t index_;
    std::mt19937_64 rng_;
    net::steady_timer timer_;
    std::array<std::unique_ptr<Connection>, kSeats> seats_;
    int open_seats_ = 0;
    Clock::time_point intended_;
    bool scheduled_ = false;
};

// Plays games on cor-server: hello, create_table, sit, start, moves until the end, sync to check
// the result, again.
class GameTable : public TableDriver {
  public:
    using TableDriver::TableDriver;

  private:
    enum class Phase { hello, creating, sitting, starting, playing, checking };

    struct Seat {
        std::vector<std::string> moves;
        std::uint64_t version = 0;
        bool welcomed = false;
        bool seated = false;
        bool has_snapshot = false;
        Json view;  // --verify: the view, patched
        Clock::time_point patched{};
    };

    void on_open() override {
        phase_ = Phase::hello;
        for (int s = 0; s < kSeats; ++s)
            seat(s).send(Out{{"type", "hello"},
                             {"name", "lg" + std::to_string(index_) + "-" + std::to_string(s)}}
                             .dump());
    }

    void new_game() {
        phase_ = Phase::creating;
        table_.clear();
        for (Seat& s : state_) {
            s.seated = false;
            s.has_snapshot = false;
            s.moves.clear();
        }
        seat(0).send(Out{
            {"type", "create_table"},
            {"id", "create"},
            {"options", {{"players", kSeats}, {"rules", options_.rules}, {"shrine", false}}},
            {"public", false},
            {"spectators", false},
            {"sit",
             true}}.dump());
    }

    void fail(int s, const std::string& what) {
        ++tally_.errors;
        tally_.problem("table " + std::to_string(index_) + " (" + table_ + ") seat " +
                       std::to_string(s) + ": " + what);
        // Start over with a new table: this one's state is unknown.
        if (!shared_.stopping) new_game();
    }

    void on_message(int s, std::string_view text, Clock::time_point at) override {
        Seat& me = state_[static_cast<std::size_t>(s)];
        const std::string_view type = gcor::bench::message_type(text);
        if (type == "patch") return on_patch(s, me, text, at);
        if (type == "table" || type == "started") return;
        if (type == "error") return fail(s, std::string(text));
        const Json message = Json::parse(text, nullptr, false);
        if (message.is_discarded()) return fail(s, "not JSON: " + std::string(text));
        if (type == "welcome") {
            me.welcomed = true;
            for (const Seat& other : state_)
                if (!other.welcomed) return;
            return new_game();
        }
        if (type == "table_created") {
            table_ = message["table"]["id"].get<std::string>();
            return;
        }
        if (type == "seated") {
            if (message.value("table", std::string()) != table_) return;
            me.seated = true;
            if (s == 0 && phase_ == Phase::creating) {
                phase_ = Phase::sitting;
                for (int other = 1; other < kSeats; ++other)
                    seat(other).send(Out{
                        {"type", "sit"},
                        {"id", "sit"},
                        {"table", table_},
                        {"seat", other}}.dump());
                return;
            }
            for (const Seat& other : state_)
                if (!other.seated) return;
            phase_ = Phase::starting;
            seat(0).send(Out{{"type", "start"}, {"id", "start"}, {"table", table_}}.dump());
            return;
        }
        if (type == "snapshot") return on_snapshot(s, me, message);
        fail(s, "unexpected message " + std::string(text.substr(0, 200)));
    }

    void on_snapshot(int s, Seat& me, const Json& message) {
        if (message.value("table", std::string()) != table_) return;
        const Json& view = message["view"];
        me.version = message["version"].get<std::uint64_t>();
        me.moves = view["moves"].get<std::vector<std::string>>();
        if (options_.verify) me.view = view;
        me.has_snapshot = true;
        if (phase_ == Phase::starting) {
            for (const Seat& other : state_)
                if (!other.has_snapshot) return;
            phase_ = Phase::playing;
            return next_move(true);
        }
        if (phase_ == Phase::checking) {
            const bool over = view["phase"] == "game_over" && !view["result"].is_null() &&
                              view["to_act"].is_null();
            bool same = true;
            if (options_.verify) same = me.view == view;  // the patched view is the server's
            if (!over || !same) {
                ++tally_.invalid_games;
                tally_.problem("table " + table_ + " seat " + std::to_string(s) +
                               (over ? ": patched view differs from the snapshot"
                                     : ": no moves left but the game is not over"));
            }
            if (--checks_left_ > 0) return;
            ++tally_.games;
            return new_game();
        }
    }

    void on_patch(int s, Seat& me, std::string_view text, Clock::time_point at) {
        const auto table = gcor::bench::string_member(text, "table");
        if (!table || *table != table_) return;  // a table left behind
        const auto from = gcor::bench::number_member(text, "from");
        const auto to = gcor::bench::number_member(text, "to");
        if (!from || !to || *from != me.version || *to != me.version + 1)
            return fail(s, "patch from " + std::to_string(from.value_or(0)) + " at version " +
                               std::to_string(me.version));
        me.version = *to;
        me.patched = at;
        record_patch(text.size());
        if (s == 0 && index_ == 0 && printed_ < options_.print_patches) {
            ++printed_;
            std::fprintf(stderr, "%.*s\n", static_cast<int>(text.size()), text.data());
        }
        try {
            record_operations(text);
            if (auto moves = gcor::bench::patched_moves(text, me.moves))
                me.moves = std::move(*moves);
        } catch (const std::exception& error) {
            return fail(s, error.what());
        }
        if (options_.verify) {
            const Json patch = Json::parse(text, nullptr, false);
            me.view = me.view.patch(patch["ops"]);
            if (me.view["moves"].get<std::vector<std::string>>() != me.moves)
                return fail(s, "the moves read from a patch differ from the patched view");
            ++tally_.verified_patches;
        }
        if (*to != waiting_for_) return;
        // The mover's patch acknowledges its move.
        if (s == mover_ && gcor::bench::string_member(text, "move_id") != move_id()) return;
        patched_ |= 1u << s;
        if (patched_ != (1u << kSeats) - 1) return;
        Clock::time_point last{};
        for (const Seat& other : state_)
            last = std::max(last, other.patched);
        move_completed(last);
        waiting_for_ = 0;
        next_move(false);
    }

    void send_move() override {
        if (phase_ != Phase::playing) return;
        int to_act = -1;
        for (int s = 0; s < kSeats; ++s)
            if (!state_[static_cast<std::size_t>(s)].moves.empty()) {
                if (to_act >= 0) return fail(s, "two seats have legal moves");
                to_act = s;
            }
        if (to_act < 0) {
            // No seat may move: the game should be over; every seat checks with a snapshot.
            phase_ = Phase::checking;
            checks_left_ = options_.verify ? kSeats : 1;
            for (int s = 0; s < checks_left_; ++s)
                seat(s).send(Out{{"type", "sync"}, {"id", "check"}, {"table", table_}}.dump());
            return;
        }
        Seat& me = state_[static_cast<std::size_t>(to_act)];
        std::uniform_int_distribution<std::size_t> pick(0, me.moves.size() - 1);
        mover_ = to_act;
        waiting_for_ = me.version + 1;
        patched_ = 0;
        ++move_ids_;
        seat(to_act).send(Out{{"type", "move"},
                              {"table", table_},
                              {"version", me.version},
                              {"move_id", move_id()},
                              {"move", me.moves[pick(rng_)]}}
                              .dump());
    }

    std::string move_id() const { return "m" + std::to_string(move_ids_); }

    Phase phase_ = Phase::hello;
    std::array<Seat, kSeats> state_;
    std::string table_;
    int mover_ = -1;
    std::uint64_t waiting_for_ = 0;
    unsigned patched_ = 0;
    int checks_left_ = 0;
    std::uint64_t move_ids_ = 0;
    int printed_ = 0;
};

// The same traffic against the calibration server: one message in, four of `patch_bytes` out.
class CalibrationTable : public TableDriver {
  public:
    using TableDriver::TableDriver;

  private:
    void on_open() override {
        for (int s = 0; s < kSeats; ++s)
            seat(s).send(Out{{"type", "join"}, {"group", index_}, {"seat", s}}.dump());
    }

    void on_message(int s, std::string_view text, Clock::time_point at) override {
        const std::string_view type = gcor::bench::message_type(text);
        if (type == "joined") {
            if (++joined_ == kSeats) next_move(true);
            return;
        }
        if (type != "patch") {
            ++tally_.errors;
            tally_.problem("calibration: unexpected " + std::string(text.substr(0, 100)));
            return;
        }
        record_patch(text.size());
        last_ = std::max(last_, at);
        if ((patched_ |= 1u << s) == (1u << kSeats) - 1) {
            move_completed(last_);
            next_move(false);
        }
    }

    void send_move() override {
        patched_ = 0;
        last_ = {};
        std::uniform_int_distribution<int> pick(0, kSeats - 1);
        // The size of a real move request (about 100 bytes).
        seat(pick(rng_))
            .send(Out{{"type", "move"},
                      {"group", index_},
                      {"bytes", options_.patch_bytes},
                      {"move_id", "m" + std::to_string(++move_ids_)},
                      {"move", "build 17 1,0"},
                      {"pad", "t0123456789abcdef"}}
                      .dump());
    }

    int joined_ = 0;
    unsigned patched_ = 0;
    Clock::time_point last_{};
    std::uint64_t move_ids_ = 0;
};

// --- Modes
// ----------------------------------------------------------------------------------------

struct Target {
    tcp::endpoint endpoint;
    pid_t pid = 0;  // 0: unknown (no CPU or memory figures)
};

void raise_file_limit(Json& report) {
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    const rlim_t before = limit.rlim_cur;
    limit.rlim_cur = limit.rlim_max;
    const bool raised = setrlimit(RLIMIT_NOFILE, &limit) == 0;
    getrlimit(RLIMIT_NOFILE, &limit);
    report["fd_limit"] = {{"soft_before", before},
                          {"soft", limit.rlim_cur},
                          {"hard", limit.rlim_max},
                          {"raised", raised}};
}

Json run_tables(const Options& options, const Target& target, Json report) {
    Shared shared;
    const int threads = std::max(1, std::min(options.threads, options.tables));
    std::vector<std::unique_ptr<net::io_context>> ios;
    std::vector<Tally> tallies(static_cast<std::size_t>(threads));
    std::vector<std::vector<std::unique_ptr<TableDriver>>> drivers(
        static_cast<std::size_t>(threads));
    Pacing pacing;
    if (options.rate > 0)
        pacing.interval = std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(options.tables / options.rate));
    for (int t = 0; t < threads; ++t)
        ios.push_back(std::make_unique<net::io_context>(1));
    for (int i = 0; i < options.tables; ++i) {
        const auto t = static_cast<std::size_t>(i % threads);
        const auto index = static_cast<std::uint64_t>(i);
        if (options.mode == "calibration")
            drivers[t].push_back(std::make_unique<CalibrationTable>(*ios[t], shared, tallies[t],
                                                                    options, pacing, index));
        else
            drivers[t].push_back(
                std::make_unique<GameTable>(*ios[t], shared, tallies[t], options, pacing, index));
        drivers[t].back()->start(target.endpoint);
    }
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] { ios[static_cast<std::size_t>(t)]->run(); });

    const double load_before = load_average();
    std::this_thread::sleep_for(std::chrono::duration<double>(options.warmup));
    const auto server_before =
        target.pid ? gcor::bench::sample_process(target.pid) : gcor::bench::ProcessSample{};
    rusage self_before{};
    getrusage(RUSAGE_SELF, &self_before);
    shared.measuring = true;
    const auto started = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(options.seconds));
    shared.measuring = false;
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    const auto server_after =
        target.pid ? gcor::bench::sample_process(target.pid) : gcor::bench::ProcessSample{};
    rusage self_after{};
    getrusage(RUSAGE_SELF, &self_after);
    const double load_after = load_average();
    shared.stopping = true;
    for (auto& io : ios)
        io->stop();
    for (std::thread& worker : workers)
        worker.join();

    Tally total;
    for (const Tally& tally : tallies)
        total.merge(tally);
    const auto moves = shared.moves.load();
    auto cpu = [](const rusage& usage) {
        return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
               static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    };
    auto ms = [](std::uint64_t ns) { return static_cast<double>(ns) / 1e6; };
    report["tables"] = options.tables;
    report["connections"] = options.tables * kSeats;
    report["connected"] = shared.connected.load();
    report["failed_connections"] = shared.failed_connections.load();
    report["closed_by_server"] = shared.closed.load();
    report["loop"] = options.rate > 0 ? "fixed rate" : "closed";
    if (options.rate > 0) report["target_rate"] = options.rate;
    report["loadgen_threads"] = threads;
    report["warmup_s"] = options.warmup;
    report["seconds"] = elapsed;
    report["moves"] = moves;
    report["moves_per_s"] = static_cast<double>(moves) / elapsed;
    report["moves_all"] = total.moves;
    report["games"] = total.games;
    report["invalid_games"] = total.invalid_games;
    report["errors"] = total.errors;
    if (options.verify) report["verified_patches"] = total.verified_patches;
    report["latency_ms"] = {{"p50", ms(total.latency.percentile(0.50))},
                            {"p90", ms(total.latency.percentile(0.90))},
                            {"p99", ms(total.latency.percentile(0.99))},
                            {"p999", ms(total.latency.percentile(0.999))},
                            {"max", ms(total.latency.max())},
                            {"mean", ms(static_cast<std::uint64_t>(total.latency.mean()))}};
    report["patch_bytes"] = {{"median", total.patch_bytes.percentile(0.5)},
                             {"p90", total.patch_bytes.percentile(0.9)},
                             {"mean", total.patch_bytes.mean()},
                             {"count", total.patch_bytes.count()}};
    if (total.operation_bytes.count() > 0)
        report["patch_operation_bytes"] = {{"median", total.operation_bytes.percentile(0.5)},
                                           {"p90", total.operation_bytes.percentile(0.9)}};
    if (server_before.ok && server_after.ok) {
        const double server_cpu = server_after.cpu_seconds - server_before.cpu_seconds;
        report["server"] = {
            {"pid", target.pid},
            {"cpu_s", server_cpu},
            {"cpu_cores", server_cpu / elapsed},
            {"cpu_us_per_move", moves ? server_cpu / static_cast<double>(moves) * 1e6 : 0},
            {"rss_kb", server_after.rss_kb}};
    }
    const double self_cpu = cpu(self_after) - cpu(self_before);
    report["loadgen_cpu_cores"] = self_cpu / elapsed;
    report["load_average"] = {{"before", load_before}, {"after", load_after}};
    report["problems"] = total.problems;
    report["ok"] = moves > 0 && total.invalid_games == 0 && total.errors == 0 &&
                   shared.failed_connections == 0 && shared.closed == 0 &&
                   (options.mode == "calibration" || !options.smoke || total.games > 0);
    return report;
}

// Opens `connections` WebSockets that only say hello, and holds them.
Json run_idle(const Options& options, const Target& target, Json report) {
    Shared shared;
    net::io_context io(1);
    std::vector<std::unique_ptr<Connection>> connections;
    std::size_t welcomed = 0;
    std::size_t opened = 0;
    std::size_t next = 0;
    const std::size_t total = static_cast<std::size_t>(options.connections);
    const std::size_t baseline_at = std::min<std::size_t>(100, total / 10);
    gcor::bench::ProcessSample baseline;
    std::size_t problems = 0;
    // At most kHandshakes at once: the listen backlog stays short. The first baseline_at
    // connections are opened alone.
    constexpr std::size_t kHandshakes = 256;
    std::function<void()> open_next = [&] {
        if (next >= total) return;
        const std::size_t i = next++;
        connections.push_back(std::make_unique<Connection>(io, shared));
        Connection& connection = *connections.back();
        connection.open(
            target.endpoint,
            [&, i](bool ok) {
                if (!ok) {
                    ++problems;
                    if (welcomed + problems == total) return io.stop();
                    return open_next();
                }
                ++opened;
                connections[i]->send(
                    Out{{"type", "hello"}, {"name", "idle" + std::to_string(i)}}.dump());
            },
            [&](std::string_view text, Clock::time_point) {
                if (gcor::bench::message_type(text) != "welcome") {
                    ++problems;
                    return;
                }
                if (++welcomed == baseline_at) {
                    // Taken with no handshake in flight: their passing memory, counted in the
                    // baseline and then reused, would make the figure per connection look smaller.
                    if (target.pid) baseline = gcor::bench::sample_process(target.pid);
                    for (std::size_t more = 0; more < kHandshakes; ++more)
                        open_next();
                } else if (welcomed > baseline_at) {
                    open_next();
                }
                if (welcomed + problems >= total) io.stop();
            });
    };
    const auto start = Clock::now();
    const auto before =
        target.pid ? gcor::bench::sample_process(target.pid) : gcor::bench::ProcessSample{};
    for (std::size_t i = 0; i < (baseline_at > 0 ? baseline_at : kHandshakes); ++i)
        open_next();
    std::thread stopper([&] {
        // Gives up if the connections are not all open within a few minutes.
        for (int i = 0; i < 3000 && !io.stopped(); ++i)
            std::this_thread::sleep_for(100ms);
        io.stop();
    });
    io.run();
    stopper.join();
    const double opening = std::chrono::duration<double>(Clock::now() - start).count();
    const auto all_open =
        target.pid ? gcor::bench::sample_process(target.pid) : gcor::bench::ProcessSample{};
    // Hold them: the server pings idle connections, the pending reads answer.
    io.restart();
    net::steady_timer hold(io);
    hold.expires_after(std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double>(options.seconds)));
    hold.async_wait([&](beast::error_code) { io.stop(); });
    io.run();
    const auto held =
        target.pid ? gcor::bench::sample_process(target.pid) : gcor::bench::ProcessSample{};
    std::size_t still_open = 0;
    for (const auto& connection : connections)
        if (connection->is_open()) ++still_open;
    shared.stopping = true;

    report["connections"] = total;
    report["welcomed"] = welcomed;
    report["still_open"] = still_open;
    report["problems"] = problems;
    report["open_s"] = opening;
    report["held_s"] = options.seconds;
    if (all_open.ok) {
        const double per = welcomed > baseline_at
                               ? static_cast<double>(all_open.rss_kb - baseline.rss_kb) * 1024.0 /
                                     static_cast<double>(welcomed - baseline_at)
                               : 0;
        report["server"] = {
            {"rss_kb_before", before.rss_kb},      {"rss_kb_baseline", baseline.rss_kb},
            {"baseline_connections", baseline_at}, {"rss_kb_all_open", all_open.rss_kb},
            {"rss_kb_after_hold", held.rss_kb},    {"rss_bytes_per_connection", per}};
    }
    report["load_average"] = load_average();
    report["ok"] = welcomed == total && still_open == total && problems == 0;
    return report;
}

}  // namespace

// Dormant tables: many stored tables written straight into a new database through the store.
namespace {

std::string table_id(std::size_t index) {
    char id[24];
    std::snprintf(id, sizeof id, "t%016zx", index + 1);
    return id;
}

void create_dormant(const std::string& database, int count) {
    using namespace gcor::server;
    auto store = open_sqlite_store({.path = database, .group_commit_ms = 2});
    std::vector<StoredUser> users;
    for (int s = 0; s < kSeats; ++s)
        users.push_back(store->create_guest("dormant" + std::to_string(s)));
    for (int i = 0; i < count; ++i) {
        StoredTable table;
        table.id = table_id(static_cast<std::size_t>(i));
        table.created = unix_now_ms();
        table.settings =
            R"({"options":{"players":4,"rules":"yucata","shrine":false},"public":false,)"
            R"("spectators":true,"time_control":{"kind":"none"}})";
        table.players = kSeats;
        table.rules = "yucata";
        table.is_public = false;
        table.seed = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(i + 1);
        table.nonce = std::string(32, 'a');
        table.commitment = std::string(64, 'c');
        table.status = TableStatus::playing;
        table.to_act = 0;
        for (const StoredUser& user : users) {
            StoredSeat seat;
            seat.kind = SeatKind::human;
            seat.user = user.id;
            seat.name = user.name;
            table.seats.push_back(seat);
        }
        store->save_table(table, [](bool) {});
    }
    store->flush();
}

Json run_dormant(const Options& options, Json report) {
    const std::string dir = make_temp_dir();
    const std::string database = dir + "/cor.db";
    const auto made = Clock::now();
    create_dormant(database, options.dormant_tables);
    report["tables"] = options.dormant_tables;
    report["create_s"] = std::chrono::duration<double>(Clock::now() - made).count();
    report["database_bytes"] = std::filesystem::file_size(database);

    // The server started on an empty database, then on the one with the tables.
    auto settled_rss = [](pid_t pid) {
        std::this_thread::sleep_for(1s);
        return gcor::bench::sample_process(pid).rss_kb;
    };
    long empty_rss = 0;
    {
        ChildServer server(cor_server_command(options, dir, dir + "/empty.db"), dir);
        empty_rss = settled_rss(server.pid());
    }
    ChildServer server(cor_server_command(options, dir, database), dir);
    const long dormant_rss = settled_rss(server.pid());
    report["server"] = {{"rss_kb_empty_database", empty_rss}, {"rss_kb_dormant", dormant_rss}};

    // A spectator watches some of them: each is loaded from the store (and stays in memory).
    Shared shared;
    net::io_context io(1);
    Connection watcher(io, shared);
    const int touch = std::min(options.dormant_touch, options.dormant_tables);
    int snapshots = 0;
    int problems = 0;
    int next = 0;
    auto watch_next = [&] {
        watcher.send(
            Out{{"type", "watch"}, {"table", table_id(static_cast<std::size_t>(next++))}}.dump());
    };
    watcher.open(
        tcp::endpoint(net::ip::make_address("127.0.0.1"),
                      static_cast<std::uint16_t>(server.port())),
        [&](bool ok) {
            if (!ok) return io.stop();
            watcher.send(Out{{"type", "hello"}, {"name", "watcher"}}.dump());
        },
        [&](std::string_view text, Clock::time_point) {
            const auto type = gcor::bench::message_type(text);
            if (type == "snapshot")
                ++snapshots;
            else if (type != "welcome")
                ++problems;
            if (snapshots + problems >= touch) return io.stop();
            if (type == "welcome" || type == "snapshot") watch_next();
        });
    std::thread stopper([&] {
        for (int i = 0; i < 1200 && !io.stopped(); ++i)
            std::this_thread::sleep_for(100ms);
        io.stop();
    });
    if (touch > 0) io.run();
    stopper.join();
    const long touched_rss = gcor::bench::sample_process(server.pid()).rss_kb;
    shared.stopping = true;
    report["server"]["watched"] = snapshots;
    report["server"]["rss_kb_after_watching"] = touched_rss;
    if (snapshots > 0)
        report["server"]["rss_bytes_per_loaded_table"] =
            static_cast<double>(touched_rss - dormant_rss) * 1024.0 / snapshots;
    report["load_average"] = load_average();
    report["ok"] = snapshots == touch && problems == 0 && dormant_rss > 0;
    server.stop();
    std::filesystem::remove_all(dir);
    return report;
}

void print_summary(const Json& report) {
    const std::string mode = report["mode"];
    std::printf("%s: ", mode.c_str());
    if (mode == "game" || mode == "calibration") {
        std::printf(
            "%.0f moves/s (%s loop, %d tables), latency to the last seat p50 %.2f ms, p99 "
            "%.2f ms, p99.9 %.2f ms, max %.2f ms; patch median %d B/seat",
            report["moves_per_s"].get<double>(), report["loop"].get<std::string>().c_str(),
            report["tables"].get<int>(), report["latency_ms"]["p50"].get<double>(),
            report["latency_ms"]["p99"].get<double>(), report["latency_ms"]["p999"].get<double>(),
            report["latency_ms"]["max"].get<double>(), report["patch_bytes"]["median"].get<int>());
        if (report.contains("patch_operation_bytes"))
            std::printf(" (its operations %d B)",
                        report["patch_operation_bytes"]["median"].get<int>());
        if (report.contains("server"))
            std::printf("; server %.1f µs CPU/move, %.2f cores, RSS %ld KiB",
                        report["server"]["cpu_us_per_move"].get<double>(),
                        report["server"]["cpu_cores"].get<double>(),
                        report["server"]["rss_kb"].get<long>());
        if (mode == "game")
            std::printf("; %llu games, %llu invalid, %llu errors",
                        report["games"].get<unsigned long long>(),
                        report["invalid_games"].get<unsigned long long>(),
                        report["errors"].get<unsigned long long>());
    } else if (mode == "idle") {
        std::printf("%zu of %zu connections open after %.0f s",
                    report["still_open"].get<std::size_t>(),
                    report["connections"].get<std::size_t>(), report["held_s"].get<double>());
        if (report.contains("server"))
            std::printf("; server RSS %ld KiB, %.0f B per connection",
                        report["server"]["rss_kb_all_open"].get<long>(),
                        report["server"]["rss_bytes_per_connection"].get<double>());
    } else if (mode == "dormant") {
        std::printf(
            "%d stored tables; server RSS %ld KiB (empty database: %ld KiB), %ld KiB after "
            "watching %d",
            report["tables"].get<int>(), report["server"]["rss_kb_dormant"].get<long>(),
            report["server"]["rss_kb_empty_database"].get<long>(),
            report["server"]["rss_kb_after_watching"].get<long>(),
            report["server"]["watched"].get<int>());
    }
    std::printf(" [%s]\n", report["ok"].get<bool>() ? "ok" : "FAILED");
    if (report.contains("problems") && report["problems"].is_array())
        for (const auto& problem : report["problems"])
            std::printf("  problem: %s\n", problem.get<std::string>().c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    CLI::App app{
        "cor-loadgen: load generator for cor-server. Plays whole 4-seat games (every seat its "
        "own WebSocket and user) with random legal moves and reports moves/s, the latency from a "
        "move to the last seat's patch (corrected for coordinated omission at a fixed rate), "
        "bytes per patch and the server's CPU per move and memory. By default it starts "
        "cor-server itself on 127.0.0.1 with a temporary database (durability on)."};
    app.add_option("--mode", options.mode,
                   "game: play games; calibration: the same traffic against cor-calibrate; idle: "
                   "open --connections that only say hello; dormant: --dormant-tables stored "
                   "tables, then the server's memory")
        ->check(CLI::IsMember({"game", "calibration", "idle", "dormant"}))
        ->capture_default_str();
    app.add_option("--tables", options.tables, "Tables (4 connections each)")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    app.add_option("--seconds", options.seconds,
                   "Seconds measured (idle: seconds the connections are held)")
        ->check(CLI::Range(0.1, 86400.0))
        ->capture_default_str();
    app.add_option("--warmup", options.warmup, "Seconds before measuring (connect, first games)")
        ->check(CLI::Range(0.0, 600.0))
        ->capture_default_str();
    app.add_option("--rate", options.rate,
                   "Moves per second in all, spread evenly over the tables (0: closed loop, each "
                   "table sends its next move when the last one is complete)")
        ->check(CLI::Range(0.0, 10'000'000.0))
        ->capture_default_str();
    app.add_option("--threads", options.threads, "Threads of this load generator")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    app.add_option("--port", options.port,
                   "Use the server already listening on 127.0.0.1:PORT instead of starting one "
                   "(it must allow many connections and messages from one address)")
        ->check(CLI::Range(1, 65535));
    app.add_option("--server-pid", options.server_pid,
                   "With --port: the server's process id, for its CPU time and memory")
        ->check(CLI::PositiveNumber);
    app.add_option("--server", options.server_path,
                   "cor-server to start (default: ../server/cor-server next to this tool)");
    app.add_option("--calibration-server", options.calibration_path,
                   "cor-calibrate to start in calibration mode (default: next to this tool)");
    app.add_option("--server-threads", options.server_threads,
                   "--threads of the server this tool starts (0: its default: cor-server one per "
                   "core but one, cor-calibrate one per core)")
        ->check(CLI::Range(0, 256))
        ->capture_default_str();
    app.add_option("--server-arg", options.server_args,
                   "One more argument for the server this tool starts (repeat: --server-arg "
                   "--group-commit-ms --server-arg 0)")
        ->allow_extra_args(false);
    app.add_option("--database-dir", options.database_dir,
                   "Folder of the started server's database (cor-loadgen.db, replaced; default: a "
                   "temporary folder). The disk's sync latency is part of every move's.")
        ->check(CLI::ExistingDirectory);
    app.add_option("--rules", options.rules, "Rules of the games")
        ->check(CLI::IsMember({"yucata", "publisher"}))
        ->capture_default_str();
    app.add_option("--patch-bytes", options.patch_bytes,
                   "Calibration: bytes of each of the four messages out (use the game's median)")
        ->check(CLI::Range(16, 65536))
        ->capture_default_str();
    app.add_option("--connections", options.connections, "Idle: connections to open")
        ->check(CLI::Range(1, 1'000'000))
        ->capture_default_str();
    app.add_option("--dormant-tables", options.dormant_tables, "Dormant: stored tables")
        ->check(CLI::Range(1, 10'000'000))
        ->capture_default_str();
    app.add_option("--dormant-touch", options.dormant_touch,
                   "Dormant: tables then watched (loaded into memory) after the restart")
        ->check(CLI::Range(0, 10'000'000))
        ->capture_default_str();
    app.add_option("--seed", options.seed, "Seed of the random moves")->capture_default_str();
    app.add_flag("--verify", options.verify,
                 "Game: also apply every patch to the whole view (nlohmann's patch), check the "
                 "moves read from it, and compare every seat's view with a snapshot at the end");
    app.add_flag("--smoke", options.smoke,
                 "A run of a few seconds for CI: small numbers, --verify in game mode; exits "
                 "non-zero unless moves were made and every game was valid");
    app.add_option("--json", options.json_path,
                   "Write the report as JSON to this file (- : stdout)");
    app.add_flag("--quiet", options.quiet, "No progress lines on stderr");
    app.add_option("--print-patches", options.print_patches,
                   "Game: print the first N patches seat 0 of table 0 receives (stderr)")
        ->check(CLI::Range(0, 1'000'000));
    CLI11_PARSE(app, argc, argv);
    if (options.server_pid && !options.port) {
        std::fprintf(stderr, "cor-loadgen: --server-pid needs --port\n");
        return 2;
    }
    if (options.smoke) {
        options.tables = std::min(options.tables, 8);
        options.seconds = std::min(options.seconds, 2.0);
        options.warmup = std::min(options.warmup, 0.5);
        options.connections = std::min(options.connections, 200);
        options.dormant_tables = std::min(options.dormant_tables, 2000);
        options.dormant_touch = std::min(options.dormant_touch, 50);
        if (options.mode == "game") options.verify = true;
    }

    Json report{{"mode", options.mode}};
    try {
        raise_file_limit(report);
        signal(SIGPIPE, SIG_IGN);
        if (options.mode == "dormant") {
            report = run_dormant(options, std::move(report));
        } else {
            std::unique_ptr<ChildServer> child;
            std::string dir;
            std::string database;
            Target target;
            if (options.port) {
                target.endpoint = tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                                static_cast<std::uint16_t>(options.port));
                target.pid = options.server_pid;
            } else {
                dir = make_temp_dir();
                database =
                    (options.database_dir.empty() ? dir : options.database_dir) + "/cor-loadgen.db";
                remove_database(database);
                std::vector<std::string> command;
                if (options.mode == "calibration")
                    command = {find_tool(options.calibration_path, "cor-calibrate"), "--threads",
                               std::to_string(options.server_threads)};
                else
                    command = cor_server_command(options, dir, database);
                try {
                    child = std::make_unique<ChildServer>(command, dir);
                } catch (...) {
                    remove_database(database);
                    std::filesystem::remove_all(dir);  // a server that did not start
                    throw;
                }
                target.endpoint = tcp::endpoint(net::ip::make_address("127.0.0.1"),
                                                static_cast<std::uint16_t>(child->port()));
                target.pid = child->pid();
                say(options, command.front() + " started, port " + std::to_string(child->port()));
            }
            report["server_threads"] = options.server_threads;
            report = options.mode == "idle" ? run_idle(options, target, std::move(report))
                                            : run_tables(options, target, std::move(report));
            if (child) {
                child->stop();
                remove_database(database);
                std::filesystem::remove_all(dir);
            }
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "cor-loadgen: %s\n", error.what());
        return 1;
    }
    print_summary(report);
    if (!options.json_path.empty()) {
        const std::string text = report.dump(2) + "\n";
        if (options.json_path == "-")
            std::fputs(text.c_str(), stdout);
        else
            std::ofstream(options.json_path) << text;
    }
    return report["ok"].get<bool>() ? 0 : 1;
}
