#pragma once
// Open connections, per client address and in all, and the connections the server closes first
// when it is full: those waiting for a request (docs/operations.md, "Connections and file
// descriptors").
#include <boost/intrusive/list.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

namespace gcor::server {

class ConnectionLimiter;

// A connection the server may close to let a new one in: an HTTP connection while it waits for a
// request (its first, or the next one on a kept-alive connection) or drains after its last reply.
// A WebSocket never is one (its upgrade was a whole request), so an established connection
// carries nothing of this. The limiter lists these oldest first; every field is the limiter's,
// read and written under its lock.
class Unproven : public boost::intrusive::list_base_hook<
                     boost::intrusive::link_mode<boost::intrusive::safe_link>> {
  public:
    // Closes the connection soon, on its own strand. Called from the accepting thread with the
    // limiter's lock held, so it must not call the limiter; the connection may be in its
    // destructor, waiting for that lock to give its place back (then there is nothing to close).
    using Close = void (*)(Unproven&);
    // Whether the peer has sent bytes not read yet (its request is on its way): such a connection
    // is closed only when every other one looked at has too. Called as Close is.
    using Spoke = bool (*)(const Unproven&);

    Unproven(Close close, Spoke spoke) noexcept : close_(close), spoke_(spoke) {}
    Unproven(const Unproven&) = delete;
    Unproven& operator=(const Unproven&) = delete;

  private:
    friend class ConnectionLimiter;
    Close close_;
    Spoke spoke_;
    bool evicted_ = false;  // closed to make room: its place is counted as going
    std::chrono::steady_clock::time_point listed_since_{};
};

// One open connection of an address; gives its place back when destroyed. A value, moved from the
// HTTP session to the WebSocket's: as a block of its own it would be one more on every connection.
class ConnectionCount {
  public:
    ConnectionCount() = default;  // no place: refused
    ConnectionCount(ConnectionLimiter& limiter, std::string address)
        : limiter_(&limiter), address_(std::move(address)) {}
    ConnectionCount(ConnectionCount&& other) noexcept
        : limiter_(std::exchange(other.limiter_, nullptr)), address_(std::move(other.address_)) {}
    ConnectionCount& operator=(ConnectionCount&&) = delete;
    ~ConnectionCount() { release(nullptr); }
    // Gives the place back now (once), and takes `connection` off the limiter's list in the same
    // step, so that the count of places being given back never lags behind.
    void release(Unproven* connection);
    // Whether this holds a place (not refused, not moved from).
    explicit operator bool() const { return limiter_ != nullptr; }
    const std::string& address() const { return address_; }

  private:
    ConnectionLimiter* limiter_ = nullptr;
    std::string address_;
};

// Counts connections, plain HTTP and WebSocket alike, from their accept, so that peers that never
// send a byte cannot use up the file descriptors. Thread-safe.
//
// When `total` connections are open, a new one closes the oldest listed Unproven connection and
// takes its place: peers that open connections and say nothing cannot keep the others out, and
// established connections are never closed for this. When no connection can be closed, the new
// one gets one of kHealthReserve places more, on which it may ask only for /healthz or /metrics.
class ConnectionLimiter {
  public:
    // Places beyond `total` for /healthz and /metrics, so that a server full of players still
    // answers its load balancer and its monitoring.
    static constexpr int kHealthReserve = 8;
    // The oldest listed connections looked at for one that has not spoken, when one is to close:
    // under a flood of new connections, a request that arrived but is not read yet stays.
    static constexpr int kLookedAt = 8;
    // Connections closed to make room whose places are not given back yet, at the most: each
    // still holds its descriptor until its own strand closes it (in microseconds, normally).
    static constexpr int kMaxClosing = 16;

    enum class Refusal { none, address_full, server_full };
    struct Admission {
        Refusal refusal = Refusal::none;
        bool health_only = false;  // on a reserve place: /healthz and /metrics only
        bool evicted = false;      // a listed connection was closed to make room
        // How long the connection closed had been waiting (for the log).
        std::chrono::steady_clock::duration evicted_waited{};
    };

    ConnectionLimiter(int per_address, int total) : per_address_(per_address), total_(total) {}
    // A place for one connection from `address`, or none and why not.
    ConnectionCount acquire(const std::string& address, Admission& admission);
    // Lists `connection` as the newest that may be closed (no change when it is listed already):
    // it waits for a request.
    void list(Unproven& connection);
    // Takes `connection` off the list: it has a whole request to answer. False when it was closed
    // to make room meanwhile (its close is on the way): it does nothing more.
    bool unlist(Unproven& connection);
    // Closes up to `count` of the oldest listed connections (no more than kMaxClosing may be
    // closing at once), when accept runs out of file descriptors; returns how many it closed.
    int evict_oldest(int count);
    int open() const;
    int listed() const;
    int total() const { return total_; }

  private:
    friend class ConnectionCount;
    void release(const std::string& address, Unproven* connection);
    // Closes the oldest listed connection that has not spoken among the kLookedAt oldest (else the
    // oldest); the caller holds the lock and saw the list not empty.
    std::chrono::steady_clock::duration evict_oldest_locked();

    const int per_address_;
    const int total_;
    mutable std::mutex mutex_;
    int open_ = 0;     // places held, those being given back (closing_) included
    int closing_ = 0;  // connections closed to make room, their places not given back yet
    std::unordered_map<std::string, int> counts_;
    // Oldest first: O(1) to add, to take off wherever it is, and to close the oldest.
    boost::intrusive::list<Unproven, boost::intrusive::constant_time_size<true>> listed_;
};

inline void ConnectionCount::release(Unproven* connection) {
    if (limiter_) std::exchange(limiter_, nullptr)->release(address_, connection);
}

}  // namespace gcor::server
