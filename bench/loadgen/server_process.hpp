#pragma once
// Starting the server under test (cor-server, or cor-calibrate) on a free loopback port, in a
// temporary folder.
#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gcor/support/child_process.hpp"
#include "loadgen/common.hpp"

namespace gcor::loadgen {

// A server process this tool started on a free loopback port (its port file in `dir`). Stopped
// with SIGTERM (then SIGKILL).
class ChildServer {
  public:
    ChildServer(const std::vector<std::string>& command_line, const std::string& dir);

    int port() const { return port_; }
    pid_t pid() const { return process_->pid(); }
    void stop() { process_->stop(10s); }

  private:
    std::unique_ptr<support::ChildProcess> process_;
    int port_ = 0;
};

void remove_database(const std::string& path);
std::string make_temp_dir();
// `given`, or the tool at `relative` to this program's folder.
std::string find_tool(const std::string& given, const std::filesystem::path& relative);
// cor-server's command line with the per-address limits raised, on `database`.
std::vector<std::string> cor_server_command(const Options& options, const std::string& dir,
                                            const std::string& database);

}  // namespace gcor::loadgen
