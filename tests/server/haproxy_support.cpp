#include "haproxy_support.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gcor::testing {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr auto kHaproxyStartTimeout = 10s;
constexpr auto kHaproxyPoll = 20ms;

// Debian's package puts it in /usr/sbin, which a user's PATH may lack.
std::string haproxy_program() {
    for (const char* path : {"/usr/sbin/haproxy", "/usr/local/sbin/haproxy", "/usr/bin/haproxy",
                             "/usr/local/bin/haproxy"})
        if (::access(path, X_OK) == 0) return path;
    throw std::runtime_error(
        "HAProxy is not installed (no haproxy in /usr/sbin, /usr/bin or /usr/local): the "
        "cluster tests "
        "need Debian's haproxy package; scripts/bootstrap installs it");
}

sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    return address;
}

bool haproxy_accepts(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    const sockaddr_in address = loopback(port);
    const bool connected =
        ::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

std::string single_quoted(const std::string& text) {
    return "'" + text + "'";  // only our own paths and numbers, which hold no quote
}

std::string loopback_address(std::uint16_t port) {
    return "127.0.0.1:" + std::to_string(port);
}

}  // namespace

HaproxyProcess::HaproxyProcess(std::uint16_t node1_port, std::uint16_t node2_port) {
    const std::string program = haproxy_program();
    char pattern[] = "/tmp/gcor-haproxy-XXXXXX";
    if (!mkdtemp(pattern)) throw std::runtime_error("cannot make a folder for HAProxy");
    dir_ = pattern;
    // A port taken between free_loopback_port and HAProxy's bind: another one.
    for (int attempt = 0; attempt < 5; ++attempt)
        if (start_on(support::free_loopback_port(), node1_port, node2_port)) return;
    const std::string printed = log();
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
    throw std::runtime_error("HAProxy did not start (" + program +
                             " -f " GCOR_HAPROXY_CONFIG "):\n" + printed);
}

HaproxyProcess::~HaproxyProcess() {
    process_.reset();  // SIGTERM, then SIGKILL
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
}

bool HaproxyProcess::start_on(std::uint16_t port, std::uint16_t node1_port,
                              std::uint16_t node2_port) {
    // The configuration reads its addresses from the environment, as in
    // docker/compose.cluster.yaml; -db: in the foreground, its log to standard output, here a file.
    const std::string line = "exec /usr/bin/env GCOR_LB_BIND=" + loopback_address(port) +
                             " GCOR_NODE1=" + loopback_address(node1_port) +
                             " GCOR_NODE2=" + loopback_address(node2_port) + " " +
                             single_quoted(haproxy_program()) + " -db -f " +
                             single_quoted(GCOR_HAPROXY_CONFIG) + " >> " +
                             single_quoted(dir_ + "/log") + " 2>&1";
    process_ =
        std::make_unique<support::ChildProcess>(std::vector<std::string>{"/bin/sh", "-c", line});
    const auto started = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - started < kHaproxyStartTimeout) {
        if (!process_->running()) return false;
        if (haproxy_accepts(port)) {
            port_ = port;
            return true;
        }
        std::this_thread::sleep_for(kHaproxyPoll);
    }
    process_.reset();
    return false;
}

std::string HaproxyProcess::log() const {
    std::ifstream in(dir_ + "/log");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace gcor::testing
