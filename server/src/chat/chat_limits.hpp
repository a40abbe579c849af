#pragma once
// What keeps a table's chat usable: a rate per user, and each user's mutes. Both are shared by
// every table and connection of the process (Services), and safe to use from any thread.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>

#include "gcor/protocol/expected.hpp"

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
// forgotten when their last one closes, changed (and stored) by mute and unmute. The store is
// read and written on the blocking pool, and the answer posted to the connection's strand.
class Mutes {
  public:
    static constexpr std::size_t kMaxPerUser = 200;
    // A user's list, sorted; or why it could not be read or changed.
    using MutedOrError = protocol::Expected<std::vector<std::uint64_t>>;
    using Done = std::function<void(MutedOrError)>;

    Mutes(Store& store, boost::asio::io_context& blocking) : store_(store), blocking_(blocking) {}
    // A connection of `user` began: `done` gets their list (read from the store for the first
    // one), or storage_failed.
    void connect(std::uint64_t user, boost::asio::any_io_executor answer_on, Done done);
    void disconnect(std::uint64_t user);
    // Whether `user`'s list holds `other` (false for a user with no connection).
    bool muted(std::uint64_t user, std::uint64_t other) const;
    // mute (`muted`) or unmute `other`: `done` gets the user's list once stored, or not_found (no
    // such user to mute), limit_reached (kMaxPerUser already), storage_failed.
    void set(std::uint64_t user, std::uint64_t other, bool muted,
             boost::asio::any_io_executor answer_on, Done done);

  private:
    struct Entry {
        int connections = 0;
        std::vector<std::uint64_t> muted;  // sorted
    };
    // The store's parts of connect and set, on the blocking pool. Throw StorageFailure.
    std::vector<std::uint64_t> read_connected(std::uint64_t user);
    MutedOrError store_change(std::uint64_t user, std::uint64_t other, bool muted);

    Store& store_;
    boost::asio::io_context& blocking_;
    mutable std::mutex mutex_;
    std::unordered_map<std::uint64_t, Entry> users_;
};

}  // namespace gcor::server
