#pragma once
// Pieces of cor-loadgen that need no network: a log-bucket latency histogram, the cheap scans of
// the server's messages, and the server process's CPU time and memory from /proc.
#include <sys/types.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gcor::bench {

// HDR-style histogram of nanoseconds: exact below 128, then 64 buckets per power of two (a value
// is reported within 1.6% of the truth), up to 2^46 ns (about 19 hours).
class Histogram {
  public:
    static constexpr int kSubBits = 6;
    static constexpr std::uint64_t kSub = 1u << kSubBits;  // 64
    static constexpr int kMaxShift = 40;
    static constexpr std::size_t kBuckets = 2 * kSub + kMaxShift * kSub;

    Histogram() : counts_(kBuckets, 0) {}

    void record(std::uint64_t ns) {
        ++counts_[index(ns)];
        ++total_;
        max_ = std::max(max_, ns);
        sum_ += static_cast<double>(ns);
    }
    void merge(const Histogram& other) {
        for (std::size_t i = 0; i < kBuckets; ++i)
            counts_[i] += other.counts_[i];
        total_ += other.total_;
        max_ = std::max(max_, other.max_);
        sum_ += other.sum_;
    }
    std::uint64_t count() const { return total_; }
    std::uint64_t max() const { return max_; }
    double mean() const { return total_ ? sum_ / static_cast<double>(total_) : 0; }
    // The value at `fraction` (0.5: the median) of the recorded ones, as a bucket's middle.
    std::uint64_t percentile(double fraction) const {
        if (total_ == 0) return 0;
        const auto rank = static_cast<std::uint64_t>(fraction * static_cast<double>(total_ - 1));
        std::uint64_t seen = 0;
        for (std::size_t i = 0; i < kBuckets; ++i) {
            seen += counts_[i];
            if (seen > rank) return std::min(middle(i), max_);
        }
        return max_;
    }

    static std::size_t index(std::uint64_t value) {
        if (value < 2 * kSub) return static_cast<std::size_t>(value);
        const int shift =
            std::min(static_cast<int>(std::bit_width(value)) - 1 - kSubBits, kMaxShift);
        const std::uint64_t top = std::min(value >> shift, 2 * kSub - 1);
        return static_cast<std::size_t>(2 * kSub + static_cast<std::uint64_t>(shift - 1) * kSub +
                                        (top - kSub));
    }
    static std::uint64_t middle(std::size_t index) {
        if (index < 2 * kSub) return index;
        const std::size_t above = index - 2 * kSub;
        const int shift = static_cast<int>(above / kSub) + 1;
        const std::uint64_t top = kSub + above % kSub;
        return (top << shift) + (std::uint64_t{1} << shift) / 2;
    }

  private:
    std::vector<std::uint64_t> counts_;
    std::uint64_t total_ = 0;
    std::uint64_t max_ = 0;
    double sum_ = 0;
};

// Message sizes in bytes: exact up to 64 KiB.
class SizeCounts {
  public:
    static constexpr std::size_t kExact = 1u << 16;
    SizeCounts() : counts_(kExact + 1, 0) {}
    void record(std::size_t bytes) {
        ++counts_[std::min(bytes, kExact)];
        ++total_;
        sum_ += bytes;
    }
    void merge(const SizeCounts& other) {
        for (std::size_t i = 0; i <= kExact; ++i)
            counts_[i] += other.counts_[i];
        total_ += other.total_;
        sum_ += other.sum_;
    }
    std::uint64_t count() const { return total_; }
    double mean() const {
        return total_ ? static_cast<double>(sum_) / static_cast<double>(total_) : 0;
    }
    std::size_t percentile(double fraction) const {
        if (total_ == 0) return 0;
        const auto rank = static_cast<std::uint64_t>(fraction * static_cast<double>(total_ - 1));
        std::uint64_t seen = 0;
        for (std::size_t i = 0; i <= kExact; ++i) {
            seen += counts_[i];
            if (seen > rank) return i;
        }
        return kExact;
    }

  private:
    std::vector<std::uint64_t> counts_;
    std::uint64_t total_ = 0;
    std::uint64_t sum_ = 0;
};

// The "type" of a server message: every message the server writes starts with it.
inline std::string_view message_type(std::string_view text) {
    constexpr std::string_view kPrefix = R"({"type":")";
    if (text.substr(0, kPrefix.size()) != kPrefix) return {};
    const std::size_t end = text.find('"', kPrefix.size());
    if (end == std::string_view::npos) return {};
    return text.substr(kPrefix.size(), end - kPrefix.size());
}

// The whole number after `"key":` (first occurrence), if any. Searched without allocating: this
// runs for every message the load generator reads.
inline std::optional<std::uint64_t> number_member(std::string_view text, std::string_view key) {
    for (std::size_t at = text.find(key); at != std::string_view::npos;
         at = text.find(key, at + 1)) {
        if (at == 0 || text[at - 1] != '"' || text.substr(at + key.size(), 2) != "\":") continue;
        std::size_t i = at + key.size() + 2;
        if (i >= text.size() || text[i] < '0' || text[i] > '9') return std::nullopt;
        std::uint64_t value = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i)
            value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
        return value;
    }
    return std::nullopt;
}

// The string after `"key":"` (first occurrence; no escapes in it), if any.
inline std::optional<std::string_view> string_member(std::string_view text, std::string_view key) {
    for (std::size_t at = text.find(key); at != std::string_view::npos;
         at = text.find(key, at + 1)) {
        if (at == 0 || text[at - 1] != '"' || text.substr(at + key.size(), 3) != "\":\"") continue;
        const std::size_t begin = at + key.size() + 3;
        const std::size_t end = text.find('"', begin);
        if (end == std::string_view::npos) return std::nullopt;
        return text.substr(begin, end - begin);
    }
    return std::nullopt;
}

// A patch's new legal moves, given the moves before it: the value of its `/moves` replace, found by
// a scan; or, for a patch that changes elements of the list (rarer), the list with the patch's
// operations on it applied. nullopt when the patch leaves the moves alone; throws on a list it
// cannot read.
std::optional<std::vector<std::string>> patched_moves(std::string_view patch,
                                                      const std::vector<std::string>& moves);

// The length of a patch's "ops" value, brackets included: its RFC 6902 operations without the
// envelope and the log lines around them. Found by a scan that skips strings; 0 without "ops";
// throws on a list that does not end.
std::size_t operations_bytes(std::string_view patch);

// A Prometheus histogram as GET /metrics shows it: the cumulative count at each bucket's upper
// bound (`name_bucket{le="0.002"} 917`), in seconds, the last bound infinite (`+Inf`).
struct BucketCounts {
    std::vector<double> bounds;
    std::vector<std::uint64_t> cumulative;

    std::uint64_t count() const { return cumulative.empty() ? 0 : cumulative.back(); }
    // What was counted between two readings of one histogram (`this` the later one); empty when
    // the buckets differ.
    BucketCounts since(const BucketCounts& earlier) const;
    // Adds another histogram's counts (another server's, with the same buckets): an empty `this`
    // takes the other's; other buckets are left out.
    void add(const BucketCounts& other);
    // The upper bound of the bucket holding the value at `fraction` (0.99: p99): the value is at
    // most this. 0 when nothing was counted; infinity in the last bucket.
    double percentile_bound(double fraction) const;
};
// The histogram `name` in a /metrics text; empty buckets when it is not there. Throws on a bucket
// line it cannot read.
BucketCounts read_histogram(std::string_view metrics, std::string_view name);

// The server process as /proc shows it.
struct ProcessSample {
    double cpu_seconds = 0;  // user + system, since the process started
    // The same, of its living threads by name (threads of one name summed: cor-server's I/O
    // threads share the process's name, the store's writer is gcor-writer).
    std::map<std::string, double> cpu_seconds_by_thread;
    long rss_kb = 0;  // VmRSS
    bool ok = false;
};
ProcessSample sample_process(pid_t pid);

}  // namespace gcor::bench
