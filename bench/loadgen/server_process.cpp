#include "loadgen/server_process.hpp"

#include <stdlib.h>

#include <stdexcept>

namespace gcor::loadgen {
namespace {

std::filesystem::path self_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::current_path() : exe.parent_path();
}

}  // namespace

ChildServer::ChildServer(const std::vector<std::string>& command_line, const std::string& dir) {
    const std::string port_file = dir + "/port";
    std::filesystem::remove(port_file);  // a server started before in this folder
    std::vector<std::string> argv = command_line;
    argv.insert(argv.end(), {"--port", "0", "--port-file", port_file});
    process_ = std::make_unique<support::ChildProcess>(argv);
    port_ = process_->wait_for_port(port_file, 30s);
    if (port_ == 0)
        throw std::runtime_error(
            argv[0] + (process_->running() ? " did not start within 30 s" : " exited at start"));
}

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

}  // namespace gcor::loadgen
