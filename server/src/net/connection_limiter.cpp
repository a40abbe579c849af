#include "net/connection_limiter.hpp"

namespace gcor::server {

ConnectionCount ConnectionLimiter::acquire(const std::string& address, Admission& admission) {
    admission = {};
    std::lock_guard lock(mutex_);
    int& count = counts_[address];
    if (count >= per_address_) {
        admission.refusal = Refusal::address_full;
        return {};
    }
    // Places of connections closed to make room are as good as free: they are on their way back.
    int live = open_ - closing_;
    if (live >= total_ && !listed_.empty() && closing_ < kMaxClosing) {
        admission.evicted = true;
        admission.evicted_waited = evict_oldest_locked();
        --live;
    }
    if (live >= total_ + kHealthReserve) {
        admission.refusal = Refusal::server_full;
        if (count == 0) counts_.erase(address);
        return {};
    }
    admission.health_only = live >= total_;
    ++count;
    ++open_;
    return ConnectionCount(*this, address);
}

std::chrono::steady_clock::duration ConnectionLimiter::evict_oldest_locked() {
    auto victim = listed_.begin();
    int looked_at = 0;
    for (auto it = listed_.begin(); it != listed_.end() && looked_at < kLookedAt; ++it, ++looked_at)
        if (!it->spoke_(*it)) {
            victim = it;
            break;
        }
    Unproven& closed = *victim;
    listed_.erase(victim);
    closed.evicted_ = true;
    ++closing_;
    closed.close_(closed);
    return std::chrono::steady_clock::now() - closed.listed_since_;
}

int ConnectionLimiter::evict_oldest(int count) {
    std::lock_guard lock(mutex_);
    int closed = 0;
    for (; closed < count && !listed_.empty() && closing_ < kMaxClosing; ++closed)
        evict_oldest_locked();
    return closed;
}

void ConnectionLimiter::list(Unproven& connection) {
    std::lock_guard lock(mutex_);
    if (connection.is_linked() || connection.evicted_) return;
    connection.listed_since_ = std::chrono::steady_clock::now();
    listed_.push_back(connection);
}

bool ConnectionLimiter::unlist(Unproven& connection) {
    std::lock_guard lock(mutex_);
    if (connection.is_linked()) listed_.erase(listed_.iterator_to(connection));
    return !connection.evicted_;
}

void ConnectionLimiter::release(const std::string& address, Unproven* connection) {
    std::lock_guard lock(mutex_);
    if (connection) {
        if (connection->is_linked()) listed_.erase(listed_.iterator_to(*connection));
        if (connection->evicted_) --closing_;
    }
    --open_;
    if (--counts_[address] <= 0) counts_.erase(address);
}

int ConnectionLimiter::open() const {
    std::lock_guard lock(mutex_);
    return open_;
}

int ConnectionLimiter::listed() const {
    std::lock_guard lock(mutex_);
    return static_cast<int>(listed_.size());
}

}  // namespace gcor::server
