#pragma once
// What each user chose about how the game plays for them (docs/protocol.md, "Preferences"), kept
// in memory for the users who changed a default: a table asks at each of a player's moves, on its
// strand, where a store read would hold up the table's other work. Every process loads them at
// start and follows the others' changes through the store's news.
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "gcor/store/store.hpp"

namespace gcor::server {

class Preferences {
  public:
    // Loads the preferences that differ from the defaults. Throws StorageFailure.
    explicit Preferences(Store& store);

    // One lookup under a shared lock, never a store read.
    UserPreferences of(std::uint64_t user) const;
    // Stored, then kept. Blocks on the store: not on an I/O thread; throws StorageFailure.
    void set(std::uint64_t user, const UserPreferences& preferences);
    // Another server process changed `user`'s: they are read again. Blocks on the store; throws
    // StorageFailure.
    void reload(std::uint64_t user);
    // News may have been lost: everybody's are read again. Throws StorageFailure.
    void reload_all();

  private:
    void keep(std::uint64_t user, const UserPreferences& preferences);

    Store& store_;
    std::mutex changing_;  // held through a change's write and its update in memory
    mutable std::shared_mutex mutex_;
    std::unordered_map<std::uint64_t, UserPreferences> changed_;  // only those not the defaults
};

}  // namespace gcor::server
