#pragma once
// Tables' chat and whom each user muted (docs/protocol.md, "Chat").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store_basics.hpp"

namespace gcor::server {

// A line of a table's chat. Numbers count from 1 per table; a deleted line keeps its number.
struct StoredChatLine {
    std::uint64_t n = 0;
    std::uint64_t user = 0;
    std::string name;         // the user's name when they wrote it
    std::optional<int> seat;  // the writer's seat then; nullopt: a spectator
    std::string text;
    UnixMs at = 0;

    bool operator==(const StoredChatLine&) const = default;
};

// A line a user wrote, with its table (an account's export).
struct UserChatLine {
    std::string table;
    StoredChatLine line;
};

// The chat lines a loaded table keeps at hand: what a snapshot carries.
constexpr std::size_t kRecentChatLines = 50;

class ChatStore {
  public:
    using Done = StoreDone;
    virtual ~ChatStore() = default;

    // A new line of a table's chat (grouped like moves).
    virtual void append_chat(const std::string& table, const StoredChatLine& line, Done done) = 0;
    // Deletes a line's text for everyone; its number stays taken. `done(false)` also when the
    // write failed; a line that does not exist changes nothing.
    virtual void delete_chat(const std::string& table, std::uint64_t n, Done done) = 0;
    // Up to `limit` lines not deleted, numbered below `before` (nullopt: the newest), oldest
    // first.
    virtual std::vector<StoredChatLine> chat_lines(const std::string& table,
                                                   std::optional<std::uint64_t> before,
                                                   std::size_t limit) = 0;
    // Synchronous: up to `limit` lines not deleted that `user` wrote, at any table, oldest first.
    virtual std::vector<UserChatLine> chat_lines_of(std::uint64_t user, std::size_t limit) = 0;
    // Synchronous: whom a user muted (their lines never reach the user), by user id.
    virtual void set_muted(std::uint64_t user, std::uint64_t other, bool muted) = 0;
    virtual std::vector<std::uint64_t> muted_by(std::uint64_t user) = 0;
};
}  // namespace gcor::server
