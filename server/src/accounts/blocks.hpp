#pragma once
// Whom each user blocked (docs/protocol.md, "Friends and blocks"), every user's kept in memory:
// blocks are few, and a table asks whether its creator blocked a user at each sit and watch, on
// its strand, where a store read would hold up the table's other work. Every process loads them
// at start and follows the others' changes through the store's news.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "gcor/protocol/expected.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

class Blocks {
  public:
    static constexpr std::size_t kMaxPerUser = 500;

    // Loads everybody's blocks. Throws StorageFailure.
    explicit Blocks(Store& store);

    // Whether `blocker` blocked `user`: one lookup under a shared lock, never a store read. The
    // one question the rest of the server asks (tables at sit and watch, chat, invitations).
    bool blocked(std::uint64_t blocker, std::uint64_t user) const;
    // `blocker` blocks `user`, or no longer (`blocked` false): stored, then kept. Refused with
    // bad_field (oneself), not_found (no such user) or limit_reached (kMaxPerUser).
    // Blocks on the store: not on an I/O thread; throws StorageFailure.
    protocol::Expected<bool> set(std::uint64_t blocker, std::uint64_t user, bool blocked);
    // Another server process changed `blocker`'s blocks: they are read again. Blocks on the
    // store; throws StorageFailure.
    void reload(std::uint64_t blocker);
    // News may have been lost: everybody's are read again. Throws StorageFailure.
    void reload_all();

  private:
    Store& store_;
    std::mutex changing_;  // held through a change's write and its update in memory
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> blocked_by_;  // each sorted
};

}  // namespace gcor::server
