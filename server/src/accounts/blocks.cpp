#include "accounts/blocks.hpp"

#include <algorithm>
#include <mutex>
#include <string>

namespace gcor::server {

Blocks::Blocks(Store& store) : store_(store) {
    reload_all();
}

bool Blocks::blocked(std::uint64_t blocker, std::uint64_t user) const {
    std::shared_lock lock(mutex_);
    const auto it = blocked_by_.find(blocker);
    return it != blocked_by_.end() &&
           std::binary_search(it->second.begin(), it->second.end(), user);
}

protocol::Expected<bool> Blocks::set(std::uint64_t blocker, std::uint64_t user, bool blocked) {
    using protocol::ErrorCode;
    if (user == blocker) return protocol::Error{ErrorCode::bad_field, "you cannot block yourself"};
    // One change at a time: the store's order is the memory's.
    std::lock_guard changing(changing_);
    if (blocked) {
        // Guests too: a guest may be the one to keep away.
        if (!store_.user_by_id(user))
            return protocol::Error{ErrorCode::not_found, "no player " + std::to_string(user)};
        if (!store_.add_listed(Relation::blocks, blocker, user, kMaxPerUser))
            return protocol::Error{ErrorCode::limit_reached,
                                   "you have blocked " + std::to_string(kMaxPerUser) +
                                       " players, the most: unblock one first"};
    } else {
        store_.remove_listed(Relation::blocks, blocker, user);
    }
    // Stored first: the list in memory is never ahead of the store.
    std::unique_lock lock(mutex_);
    std::vector<std::uint64_t>& list = blocked_by_[blocker];
    const auto at = std::lower_bound(list.begin(), list.end(), user);
    const bool held = at != list.end() && *at == user;
    if (blocked && !held) list.insert(at, user);
    if (!blocked && held) list.erase(at);
    if (list.empty()) blocked_by_.erase(blocker);
    return blocked;
}

void Blocks::reload(std::uint64_t blocker) {
    std::vector<std::uint64_t> list;
    for (const ListedUser& listed : store_.listed_by(Relation::blocks, blocker))
        list.push_back(listed.user);
    std::sort(list.begin(), list.end());
    std::unique_lock lock(mutex_);
    if (list.empty())
        blocked_by_.erase(blocker);
    else
        blocked_by_[blocker] = std::move(list);
}

void Blocks::reload_all() {
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> loaded;
    for (const StoredBlock& block : store_.all_blocks())  // sorted by blocker, then blocked
        loaded[block.blocker].push_back(block.blocked);
    std::unique_lock lock(mutex_);
    blocked_by_ = std::move(loaded);
}

}  // namespace gcor::server
