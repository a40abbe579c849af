#pragma once
// What this server process tells the others sharing its database about its users: which of them
// have a connection here (so that `online` is true across processes), and messages for their
// connections to other processes. Kept in the store (Store::beat, mark_present) by a thread of
// its own, which beats every `beat` and writes only a user's first connection here and their
// last; a process that stops beating is forgotten after three beats. A store no other process
// shares (SQLite) has no PresenceStore: then nothing runs and nothing is written.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "gcor/store/presence_store.hpp"

namespace gcor::server {

class Presence {
  public:
    Presence(Store& store, std::chrono::milliseconds beat);
    ~Presence();
    Presence(const Presence&) = delete;
    Presence& operator=(const Presence&) = delete;

    // Whether other processes share the store (else the rest does nothing).
    bool shared() const { return store_ != nullptr; }
    // The user's first connection here opened, or their last closed.
    void arrived(std::uint64_t user) { change(user, true); }
    void left(std::uint64_t user) { change(user, false); }
    // Whether the user has a connection to another living process: read from the store at most
    // once per beat, for all users at once.
    bool elsewhere(std::uint64_t user);
    // `message` for the user's connections to the other processes, sent from the thread.
    void tell_elsewhere(std::uint64_t user, std::string message);
    // This process stops: the others forget its users now (not three beats later).
    void leave();

  private:
    void change(std::uint64_t user, bool present);
    void run();

    PresenceStore* const store_;  // nullptr: not shared
    const std::chrono::milliseconds beat_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::unordered_set<std::uint64_t> here_;           // users connected here
    std::unordered_map<std::uint64_t, bool> changes_;  // not written yet: present or not
    std::vector<std::pair<std::uint64_t, std::string>> messages_;  // not sent yet
    // The users connected elsewhere, as last read, and when.
    std::mutex elsewhere_mutex_;
    std::unordered_set<std::uint64_t> elsewhere_;
    std::chrono::steady_clock::time_point elsewhere_read_;
    std::thread thread_;  // last: it starts once everything above exists
};

}  // namespace gcor::server
