#pragma once
// Whom each user counts as a friend and whom they blocked (docs/protocol.md, "Friends and
// blocks"). Synchronous: rare, and the caller needs the answer.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gcor/store/store_basics.hpp"

namespace gcor::server {

// Both lists are one-way: `user` keeps a list of others.
enum class Relation : std::uint8_t { friend_of, blocks };

// Another user on one of a user's lists.
struct ListedUser {
    std::uint64_t user = 0;
    std::string name;
    UnixMs added = 0;

    bool operator==(const ListedUser&) const = default;
};

// One block, as every process keeps them all in memory (`blocker` blocked `blocked`).
struct StoredBlock {
    std::uint64_t blocker = 0;
    std::uint64_t blocked = 0;

    bool operator==(const StoredBlock&) const = default;
};

class SocialStore {
  public:
    virtual ~SocialStore() = default;

    // Puts `other` on `user`'s list unless it holds `limit` others already: false then (true
    // when added, or when `other` was on it).
    virtual bool add_listed(Relation list, std::uint64_t user, std::uint64_t other,
                            std::size_t limit) = 0;
    virtual void remove_listed(Relation list, std::uint64_t user, std::uint64_t other) = 0;
    // `user`'s list with the others' names, oldest first.
    virtual std::vector<ListedUser> listed_by(Relation list, std::uint64_t user) = 0;
    // Everybody's blocks (the server keeps them in memory), by blocker.
    virtual std::vector<StoredBlock> all_blocks() = 0;
};

}  // namespace gcor::server
