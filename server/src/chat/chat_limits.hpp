#pragma once
// What keeps a table's chat usable: a rate per user, and each user's mutes. Both are shared by
// every table and connection of the process (Services), and safe to use from any thread.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

namespace gcor::server {

class Store;

// At most 5 chat lines per 10 seconds per user, 3 of them at once: a token bucket per user. A
// user's bucket is kept only until it is full again (6 seconds after their last line), so the
// memory follows the users who chatted in the last seconds, never all users.
class ChatLimiter {
  public:
    using Clock = std::chrono::steady_clock;
    static constexpr double kLinesPerSecond = 0.5;
    static constexpr double kBurst = 3;

    // Takes a line from the user's bucket: nullopt when allowed, else how long until a line is.
    std::optional<std::chrono::milliseconds> take(std::uint64_t user, Clock::time_point now);
    std::size_t users_held() const;

  private:
    struct Bucket {
        double lines = kBurst;
        Clock::time_point at;
    };
    // Forgets the buckets that are full again at `now`.
    void forget_full(Clock::time_point now);

    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, Bucket> buckets_;
    std::size_t forget_at_ = 1024;  // the next size at which full buckets are forgotten
};

// Whom each connected user muted: read from the store when their first connection says hello,
// forgotten when their last one closes, changed (and stored) by mute and unmute.
class Mutes {
  public:
    static constexpr std::size_t kMaxPerUser = 200;

    explicit Mutes(Store& store) : store_(store) {}
    // A connection of `user` began: their list (read from the store for the first one). Throws
    // StorageFailure when the store cannot be read.
    std::vector<std::uint64_t> connect(std::uint64_t user);
    void disconnect(std::uint64_t user);
    // Whether `user`'s list holds `other` (false for a user with no connection).
    bool muted(std::uint64_t user, std::uint64_t other) const;
    // Stores the change and returns the user's list; nullopt when it would exceed kMaxPerUser.
    // Throws StorageFailure when the store cannot write. Blocks on the store: not on an I/O thread.
    std::optional<std::vector<std::uint64_t>> set(std::uint64_t user, std::uint64_t other,
                                                  bool muted);

  private:
    struct Entry {
        int connections = 0;
        std::vector<std::uint64_t> muted;  // sorted
    };

    Store& store_;
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, Entry> users_;
};

}  // namespace gcor::server
