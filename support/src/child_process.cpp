#include "gcor/support/child_process.hpp"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <utility>

namespace gcor::support {
namespace {

constexpr std::chrono::milliseconds kPoll{10};

int exit_status(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

ChildProcess::ChildProcess(std::vector<std::string> argv) {
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
}

ChildProcess::~ChildProcess() {
    stop();
}

bool ChildProcess::reaped() {
    int status = 0;
    if (pid_ <= 0 || waitpid(pid_, &status, WNOHANG) != pid_) return pid_ <= 0;
    pid_ = -1;
    exit_status_ = exit_status(status);
    return true;
}

bool ChildProcess::running() {
    return !reaped();
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
    if (reaped()) return std::exchange(exit_status_, -1);
    kill(pid_, SIGTERM);
    for (auto waited = std::chrono::milliseconds::zero(); waited < grace; waited += kPoll) {
        if (reaped()) return std::exchange(exit_status_, -1);
        std::this_thread::sleep_for(kPoll);
    }
    kill_hard();
    return -1;
}

void ChildProcess::kill_hard() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    exit_status_ = -1;
}

int ChildProcess::wait_for_port(const std::string& port_file, std::chrono::milliseconds timeout) {
    for (auto waited = std::chrono::milliseconds::zero(); waited < timeout; waited += kPoll) {
        std::ifstream file(port_file);
        int port = 0;
        if (file >> port) return port;
        if (reaped()) return 0;
        std::this_thread::sleep_for(kPoll);
    }
    return 0;
}

std::uint16_t free_loopback_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw std::runtime_error("no socket for a free port");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    const bool found = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                       ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
    ::close(fd);
    if (!found) throw std::runtime_error("no free loopback port");
    return ntohs(address.sin_port);
}

}  // namespace gcor::support
