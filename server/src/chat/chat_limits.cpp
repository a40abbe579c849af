#include "chat/chat_limits.hpp"

#include <algorithm>
#include <cmath>

#include <spdlog/spdlog.h>

#include "blocking.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

std::optional<std::chrono::milliseconds> ChatLimiter::take(std::uint64_t user,
                                                           Clock::time_point now) {
    std::lock_guard lock(mutex_);
    if (buckets_.size() >= forget_at_) forget_full(now);
    auto [it, added] = buckets_.try_emplace(user, Bucket{kBurst, now});
    Bucket& bucket = it->second;
    const double elapsed = std::chrono::duration<double>(now - bucket.at).count();
    bucket.lines = std::min(kBurst, bucket.lines + std::max(0.0, elapsed) * kLinesPerSecond);
    bucket.at = now;
    if (bucket.lines >= 1) {
        bucket.lines -= 1;
        return std::nullopt;
    }
    const double wait = (1 - bucket.lines) / kLinesPerSecond;
    return std::chrono::milliseconds(static_cast<long long>(std::ceil(wait * 1000)));
}

std::size_t ChatLimiter::users_held() const {
    std::lock_guard lock(mutex_);
    return buckets_.size();
}

void ChatLimiter::forget_full(Clock::time_point now) {
    std::erase_if(buckets_, [&](const auto& entry) {
        const Bucket& bucket = entry.second;
        const double elapsed = std::chrono::duration<double>(now - bucket.at).count();
        return bucket.lines + elapsed * kLinesPerSecond >= kBurst;
    });
    // Forgetting again only once the map has doubled: the cost stays constant per line.
    forget_at_ = std::max<std::size_t>(1024, 2 * buckets_.size());
}

void Mutes::connect(std::uint64_t user, boost::asio::any_io_executor answer_on, Done done) {
    run_blocking(
        blocking_, std::move(answer_on),
        [this, user]() -> MutedOrError {
            try {
                return read_connected(user);
            } catch (const StorageFailure& failure) {
                spdlog::error("mutes of user {}: {}", user, failure.what());
                return protocol::Error{protocol::ErrorCode::storage_failed,
                                       "the server could not read its database; try again"};
            }
        },
        std::move(done));
}

std::vector<std::uint64_t> Mutes::read_connected(std::uint64_t user) {
    {
        std::lock_guard lock(mutex_);
        if (auto it = users_.find(user); it != users_.end()) {
            ++it->second.connections;
            return it->second.muted;
        }
    }
    std::vector<std::uint64_t> muted = store_.muted_by(user);
    std::sort(muted.begin(), muted.end());
    std::lock_guard lock(mutex_);
    // Another connection of the user may have read it meanwhile: its list is as new.
    Entry& entry = users_.try_emplace(user, Entry{0, std::move(muted)}).first->second;
    ++entry.connections;
    return entry.muted;
}

void Mutes::disconnect(std::uint64_t user) {
    std::lock_guard lock(mutex_);
    if (auto it = users_.find(user); it != users_.end() && --it->second.connections <= 0)
        users_.erase(it);
}

bool Mutes::muted(std::uint64_t user, std::uint64_t other) const {
    std::lock_guard lock(mutex_);
    const auto it = users_.find(user);
    return it != users_.end() &&
           std::binary_search(it->second.muted.begin(), it->second.muted.end(), other);
}

void Mutes::set(std::uint64_t user, std::uint64_t other, bool muted,
                boost::asio::any_io_executor answer_on, Done done) {
    run_blocking(
        blocking_, std::move(answer_on),
        [this, user, other, muted]() -> MutedOrError {
            try {
                return store_change(user, other, muted);
            } catch (const StorageFailure& failure) {
                spdlog::error("mute for user {}: {}", user, failure.what());
                return protocol::Error{protocol::ErrorCode::storage_failed,
                                       "the server could not save this; try again"};
            }
        },
        std::move(done));
}

Mutes::MutedOrError Mutes::store_change(std::uint64_t user, std::uint64_t other, bool muted) {
    if (other == user)
        return protocol::Error{protocol::ErrorCode::bad_field, "you cannot mute yourself"};
    if (muted && !store_.user_by_id(other))
        return protocol::Error{protocol::ErrorCode::not_found, "no user " + std::to_string(other)};
    {
        std::lock_guard lock(mutex_);
        const auto it = users_.find(user);
        if (muted && it != users_.end() && it->second.muted.size() >= kMaxPerUser &&
            !std::binary_search(it->second.muted.begin(), it->second.muted.end(), other))
            return protocol::Error{protocol::ErrorCode::limit_reached,
                                   "you have muted " + std::to_string(kMaxPerUser) +
                                       " users, the most: unmute one first"};
    }
    store_.set_muted(user, other, muted);  // first: a list in memory is never ahead of the store
    std::lock_guard lock(mutex_);
    auto it = users_.find(user);
    if (it == users_.end()) return store_.muted_by(user);  // every connection closed meanwhile
    std::vector<std::uint64_t>& list = it->second.muted;
    const auto at = std::lower_bound(list.begin(), list.end(), other);
    const bool held = at != list.end() && *at == other;
    if (muted && !held) list.insert(at, other);
    if (!muted && held) list.erase(at);
    return list;
}

}  // namespace gcor::server
