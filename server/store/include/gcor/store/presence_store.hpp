#pragma once
// Users connected to several server processes sharing one database (PostgreSQL): which process
// each user has a connection to, and messages for a user's connections to the other processes.
// A store that no other process can share (SQLite) has none of it (presence_store_of).
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server {

// What another process said about a user, heard once it committed (PresenceStore::listen_users).
struct UserNews {
    enum class Kind : std::uint8_t {
        renamed,  // the user's name changed (a guest registered, an account erased)
        message,  // `message` (JSON) for the user's connections (PresenceStore::tell_elsewhere)
    };
    Kind kind = Kind::renamed;
    std::uint64_t user = 0;
    std::string message;
};

class PresenceStore {
  public:
    virtual ~PresenceStore() = default;
    // This process is alive (its heartbeat row); processes silent for `forget_after` are
    // forgotten with their users. True when its row was made anew: the users it had marked were
    // forgotten with it (or none were marked yet), and are to be marked again.
    virtual bool beat(std::chrono::milliseconds forget_after) = 0;
    // Users whose first connection to this process opened (`present`), or whose last closed.
    virtual void mark_present(const std::vector<std::uint64_t>& users, bool present) = 0;
    // This process stops: none of its users is connected to it any more.
    virtual void leave() = 0;
    // The users connected to another process whose heartbeat is younger than `forget_after`.
    virtual std::vector<std::uint64_t> users_elsewhere(std::chrono::milliseconds forget_after) = 0;
    // `message` (JSON) for the user's connections to the other processes.
    virtual void tell_elsewhere(std::uint64_t user, const std::string& message) = 0;
    // From now on, `on_news` hears what other processes said about users, while the store
    // listens (Store::listen), on its thread (so it must only post work elsewhere, or be quick);
    // an empty one hears nothing more.
    virtual void listen_users(std::function<void(const UserNews&)> on_news) = 0;
};

// The store's presence part; nullptr for a store no other process shares.
inline PresenceStore* presence_store_of(Store& store) {
    return dynamic_cast<PresenceStore*>(&store);
}

}  // namespace gcor::server
