#include "loadgen_support.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

namespace gcor::bench {

std::optional<std::vector<std::string>> patched_moves(std::string_view patch,
                                                      const std::vector<std::string>& moves) {
    if (patch.find(R"("path":"/moves/)") != std::string_view::npos) {
        const nlohmann::json message = nlohmann::json::parse(patch);
        nlohmann::json ops = nlohmann::json::array();
        for (const nlohmann::json& op : message.at("ops"))
            if (op.at("path").get<std::string>().rfind("/moves", 0) == 0) ops.push_back(op);
        return nlohmann::json{{"moves", moves}}
            .patch(ops)
            .at("moves")
            .get<std::vector<std::string>>();
    }
    constexpr std::string_view kOp = R"("path":"/moves","value":[)";
    const std::size_t at = patch.find(kOp);
    if (at == std::string_view::npos) return std::nullopt;
    std::vector<std::string> replaced;
    std::size_t i = at + kOp.size();
    while (true) {
        if (i >= patch.size()) throw std::runtime_error("a /moves list that does not end");
        if (patch[i] == ']') return replaced;
        if (patch[i] == ',') {
            ++i;
            continue;
        }
        if (patch[i] != '"') throw std::runtime_error("a /moves list of something but strings");
        const std::size_t end = patch.find('"', i + 1);
        if (end == std::string_view::npos)
            throw std::runtime_error("a /moves string that never ends");
        const std::string_view move = patch.substr(i + 1, end - i - 1);
        if (move.find('\\') != std::string_view::npos)
            throw std::runtime_error("an escaped character in a move");
        replaced.emplace_back(move);
        i = end + 1;
    }
}

std::size_t operations_bytes(std::string_view patch) {
    constexpr std::string_view kOps = R"("ops":[)";
    const std::size_t at = patch.find(kOps);
    if (at == std::string_view::npos) return 0;
    const std::size_t begin = at + kOps.size() - 1;
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = begin; i < patch.size(); ++i) {
        const char c = patch[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            ++depth;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            return i + 1 - begin;
        }
    }
    throw std::runtime_error("an ops list that does not end");
}

BucketCounts BucketCounts::since(const BucketCounts& earlier) const {
    if (earlier.bounds != bounds) return {};
    BucketCounts difference{bounds, cumulative};
    for (std::size_t i = 0; i < cumulative.size(); ++i)
        difference.cumulative[i] -= std::min(earlier.cumulative[i], cumulative[i]);
    return difference;
}

void BucketCounts::add(const BucketCounts& other) {
    if (bounds.empty()) {
        *this = other;
        return;
    }
    if (other.bounds != bounds) return;
    for (std::size_t i = 0; i < cumulative.size(); ++i)
        cumulative[i] += other.cumulative[i];
}

double BucketCounts::percentile_bound(double fraction) const {
    if (count() == 0) return 0;
    const auto rank = static_cast<std::uint64_t>(fraction * static_cast<double>(count() - 1));
    for (std::size_t i = 0; i < cumulative.size(); ++i)
        if (cumulative[i] > rank) return bounds[i];
    return bounds.back();
}

BucketCounts read_histogram(std::string_view metrics, std::string_view name) {
    BucketCounts histogram;
    const std::string prefix = std::string(name) + "_bucket{le=\"";
    std::istringstream lines{std::string(metrics)};
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(prefix, 0) != 0) continue;
        const std::size_t bound_end = line.find("\"} ", prefix.size());
        if (bound_end == std::string::npos) throw std::runtime_error("a bucket line: " + line);
        const std::string bound = line.substr(prefix.size(), bound_end - prefix.size());
        try {
            histogram.bounds.push_back(bound == "+Inf" ? std::numeric_limits<double>::infinity()
                                                       : std::stod(bound));
            histogram.cumulative.push_back(std::stoull(line.substr(bound_end + 3)));
        } catch (const std::logic_error&) {
            throw std::runtime_error("a bucket line: " + line);
        }
    }
    return histogram;
}

namespace {

// A /proc/.../stat line's command name (field 2) and user + system CPU seconds (fields 14, 15);
// nothing when the file is gone (the process or thread ended) or unreadable.
std::optional<std::pair<std::string, double>> read_stat(const std::string& path) {
    std::ifstream stat(path);
    std::string text;
    if (!std::getline(stat, text)) return std::nullopt;
    // The name may hold spaces and parentheses: it ends at the last ')'.
    const std::size_t open = text.find('(');
    const std::size_t close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return std::nullopt;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int index = 3; fields >> field; ++index) {
        if (index == 14) utime = std::stoull(field);
        if (index == 15) {
            stime = std::stoull(field);
            break;
        }
    }
    const long ticks = sysconf(_SC_CLK_TCK);
    return std::pair{text.substr(open + 1, close - open - 1),
                     static_cast<double>(utime + stime) / static_cast<double>(ticks)};
}

}  // namespace

ProcessSample sample_process(pid_t pid) {
    ProcessSample sample;
    const std::string proc = "/proc/" + std::to_string(pid);
    const auto process = read_stat(proc + "/stat");
    if (!process) return sample;
    sample.cpu_seconds = process->second;
    std::error_code error;
    for (const auto& task : std::filesystem::directory_iterator(proc + "/task", error))
        if (const auto thread = read_stat(task.path().string() + "/stat"))
            sample.cpu_seconds_by_thread[thread->first] += thread->second;
    std::ifstream status(proc + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) sample.rss_kb = std::stol(line.substr(6));
    sample.ok = true;
    return sample;
}

}  // namespace gcor::bench
