#pragma once
// A program run as a child process (fork and execv): the server tests and cor-loadgen start
// cor-server (or cor-calibrate) this way. Stopped with SIGTERM, then SIGKILL, when destroyed.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace gcor::support {

class ChildProcess {
  public:
    // Runs argv[0] with these arguments; throws std::runtime_error when fork fails. A program
    // that cannot be executed says why on stderr and exits with status 127.
    explicit ChildProcess(std::vector<std::string> argv);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // -1 once the process has ended and was waited for.
    pid_t pid() const { return pid_; }
    bool running();
    // Sends SIGTERM and waits up to `grace`, then SIGKILL. The exit status, or -1 when the process
    // was killed, died of a signal, or had been stopped already.
    int stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
    // SIGKILL at once (no shutdown at all), then waits.
    void kill_hard();
    // For a server that writes its port to `port_file` (its --port-file) once it listens: that
    // port, or 0 when the process ends first or `timeout` passes.
    int wait_for_port(const std::string& port_file, std::chrono::milliseconds timeout);

  private:
    // Whether the process ended (it is then waited for); keeps its exit status.
    bool reaped();

    pid_t pid_ = -1;
    int exit_status_ = -1;
};

// A loopback port nobody listened on a moment ago, for a child that takes its port as given
// (bound once, then released: start the child again on another when it was taken meanwhile).
// Throws std::runtime_error when there is none.
std::uint16_t free_loopback_port();

}  // namespace gcor::support
