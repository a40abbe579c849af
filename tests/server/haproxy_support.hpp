#pragma once
// HAProxy with the repository's docker/haproxy.cfg in front of two cor-server nodes, on a free
// loopback port: the compose cluster's balancer, run by the tests as a process.
#include <cstdint>
#include <memory>
#include <string>

#include "gcor/support/child_process.hpp"

namespace gcor::testing {

class HaproxyProcess {
  public:
    // Starts `haproxy -db -f docker/haproxy.cfg` with GCOR_LB_BIND on a free loopback port and
    // GCOR_NODE1/GCOR_NODE2 on the nodes' loopback ports, and returns once it accepts connections.
    // Throws std::runtime_error, which fails the test, when HAProxy is not installed
    // (scripts/bootstrap installs it) or does not start.
    HaproxyProcess(std::uint16_t node1_port, std::uint16_t node2_port);
    // Stops it (SIGTERM, then SIGKILL) and removes its folder.
    ~HaproxyProcess();
    HaproxyProcess(const HaproxyProcess&) = delete;
    HaproxyProcess& operator=(const HaproxyProcess&) = delete;

    std::uint16_t port() const { return port_; }
    bool running() { return process_ && process_->running(); }
    // What HAProxy printed: its request log and its servers going down or up.
    std::string log() const;

  private:
    bool start_on(std::uint16_t port, std::uint16_t node1_port, std::uint16_t node2_port);

    std::string dir_;  // the temporary folder of the log
    std::uint16_t port_ = 0;
    std::unique_ptr<support::ChildProcess> process_;
};

}  // namespace gcor::testing
