#pragma once
// What a table asks of the rest of the server, as narrow interfaces (TableHost is what it tells
// its host): the store's calls it makes (its table's, its chat's), the turn notices, the chat's
// guards, the blocks, the players' preferences, the ratings, the vacations it reads, its counters
// and the pools it hands work to. The server implements them over its Services
// (ServerTableServices); a test may implement any of them alone.
//
// Threading: each member may be called from any thread; a table calls them from its strand, and
// the store's reads from the blocking pool only. A write's `done` runs on the store's thread: the
// table posts it back to its strand.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "gcor/protocol/game_json.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"

namespace gcor::server {

class Peer;
class Vacations;
class Metrics;
struct TurnNotice;

// The store's calls a table makes. Reads block (never on a strand or an I/O thread) and throw
// StorageFailure.
class TableStorage {
  public:
    using TableDone = std::function<void(Written)>;
    virtual ~TableStorage() = default;
    virtual void save_table(const StoredTable& table, TableDone done) = 0;
    virtual void remove_table(const std::string& id, std::uint64_t revision, TableDone done) = 0;
    virtual void append_move(const TableProgress& table, const StoredMove& move,
                             TableDone done) = 0;
    virtual std::optional<LoadedTable> load_table(const std::string& id) = 0;
    virtual std::optional<LoadedTable> load_table_since(const std::string& id,
                                                        std::uint64_t after) = 0;
};

// The store's calls a table's chat makes (TableChat); chat_lines blocks and throws as a read.
class ChatStorage {
  public:
    using Done = std::function<void(bool ok)>;
    virtual ~ChatStorage() = default;
    virtual void append_chat(const std::string& table, const StoredChatLine& line, Done done) = 0;
    virtual void delete_chat(const std::string& table, std::uint64_t n, Done done) = 0;
    virtual std::vector<StoredChatLine> chat_lines(const std::string& table,
                                                   std::optional<std::uint64_t> before,
                                                   std::size_t limit) = 0;
};

// Tells a player that their turn began (Notifier: their connections, webhook and mail).
class TurnNotices {
  public:
    using Message = std::function<protocol::Json()>;
    virtual ~TurnNotices() = default;
    // `message()` to the user's connections but those `informed` already; `mail()` for the
    // webhook and the turn mail.
    virtual void your_turn(std::uint64_t user, const Message& message,
                           std::span<const Peer* const> informed,
                           const std::function<TurnNotice()>& mail) = 0;
    // A turn that another server process began (it told the webhook and the mail).
    virtual void your_turn_here(std::uint64_t user, const Message& message,
                                std::span<const Peer* const> informed) = 0;
    // `message` to every connection the user has on this process: an invitation's news (its
    // host told of a decline or an expiry, its invitee of a withdrawal).
    virtual void tell(std::uint64_t user, const protocol::Json& message) = 0;
};

// Who may do what in a table's chat.
class ChatGuards {
  public:
    using Clock = std::chrono::steady_clock;
    virtual ~ChatGuards() = default;
    // Deletes lines at any table.
    virtual bool is_admin(const User& user) const = 0;
    // `user` muted or blocked `other`: `other`'s lines never reach `user`.
    virtual bool muted(std::uint64_t user, std::uint64_t other) const = 0;
    // Takes one line of `user`'s rate: nullopt when allowed, else how long until a line is.
    virtual std::optional<std::chrono::milliseconds> take_line(std::uint64_t user,
                                                               Clock::time_point now) = 0;
};

// Whom users blocked (docs/protocol.md, "Friends and blocks"): a table's creator's blocks keep
// users from its seats and from watching it. Kept in memory: asking never reads the store.
class BlockedUsers {
  public:
    virtual ~BlockedUsers() = default;
    virtual bool blocked(std::uint64_t blocker, std::uint64_t user) const = 0;
};

// What each player chose (docs/protocol.md, "Preferences"): whether the end of their turn waits
// for them. Kept in memory: asking never reads the store.
class PlayerPreferences {
  public:
    virtual ~PlayerPreferences() = default;
    virtual UserPreferences preferences_of(std::uint64_t user) const = 0;
};

// A rated game finished: the ratings of the finished games are worked out. Blocks on the store:
// only on the blocking pool.
class GameRatings {
  public:
    virtual ~GameRatings() = default;
    virtual void rate_pending() = 0;
};

struct TableServices {
    TableStorage& store;
    ChatStorage& chat_store;
    TurnNotices& turns;
    ChatGuards& chat;
    const BlockedUsers& blocks;
    const PlayerPreferences& preferences;
    GameRatings& ratings;
    const Vacations& vacations;  // read only: deadlines and who is away
    Metrics& metrics;            // outlives the tables that the io_context still holds at shutdown
    // For work that blocks (store reads, replays): never on a table's strand.
    boost::asio::io_context& blocking;
    // Bots think here: never on a table's strand or the I/O threads.
    boost::asio::io_context& bots;
    std::chrono::milliseconds bot_delay;  // before a bot's move, so that people can follow it
    std::chrono::milliseconds bot_time;   // the strong bot's thinking time per move
};

}  // namespace gcor::server
