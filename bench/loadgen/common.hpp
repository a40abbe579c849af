#pragma once
// What every part of cor-loadgen shares: its options, the names it uses, and its progress lines.
#include <sys/types.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "loadgen_support.hpp"

namespace gcor::loadgen {

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

constexpr int kSeats = 4;

struct Options {
    std::string mode = "game";  // game, calibration, idle, dormant
    int tables = 200;
    double seconds = 10;
    double warmup = 2;
    double rate = 0;  // moves per second in all; 0: closed loop
    int threads = 1;
    std::vector<int> ports;         // none: start the server (or the calibration server) here
    std::vector<int> server_pids;   // one per port, or none
    std::string spread = "tables";  // several ports: tables (a table's seats on one node) or seats
    std::string server_path;
    std::string calibration_path;
    int server_threads = 0;  // each server's own default
    std::vector<std::string> server_args;
    std::string rules = "yucata";
    int patch_bytes = 260;  // calibration: the size of each of the four messages out
    int connections = 300;  // idle
    int dormant_tables = 100'000;
    int dormant_touch = 1000;
    int dormant_moves = 100;  // lobby: moves stored in each table
    std::string json_path;
    std::uint64_t seed = 1;
    bool verify = false;
    bool smoke = false;
    bool quiet = false;
    int print_patches = 0;     // game: the first N patches that seat 0 receives, on stderr
    std::string database_dir;  // where the started server keeps its database; empty: a temp folder
};

// A server under test: where to connect, and its process for CPU and memory figures.
struct Node {
    tcp::endpoint endpoint;
    pid_t pid = 0;  // 0: unknown (no CPU or memory figures)
};

// The servers under test: one, or several nodes on one database (game mode).
struct Target {
    std::vector<Node> nodes;

    const Node& first() const { return nodes.front(); }
};

inline void say(const Options& options, const std::string& text) {
    if (!options.quiet) std::fprintf(stderr, "cor-loadgen: %s\n", text.c_str());
}

inline double load_average() {
    std::ifstream file("/proc/loadavg");
    double one = -1;
    file >> one;
    return one;
}

}  // namespace gcor::loadgen
