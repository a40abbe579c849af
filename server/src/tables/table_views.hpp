#pragma once
// What a table's viewers are sent whole: the table's state for one viewer (a snapshot as its
// seat or a spectator sees the game, with the chat lines it reads; before the start the table's
// summary), again for a slow reader that missed messages, a message to every follower, and the
// table's summary to its followers and to the lobby's subscribers (through the table's host).
// The patches of a change are Followers'. Used on the table's strand.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "gcor/protocol/messages.hpp"
#include "metrics.hpp"
#include "net/peer.hpp"
#include "tables/chat_lines.hpp"
#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/table_game.hpp"

namespace gcor::server {

class TableHost;

class TableViews {
  public:
    // The table as the lobby lists it, made when a message carries it.
    using Summary = std::function<protocol::Json()>;

    // Every reference outlives the part (the table holds them, or the server does); `is_public`:
    // whether the lobby lists the table to everyone.
    TableViews(const std::string& table_id, TableHost& host, bool is_public, Metrics& metrics,
               const CountedStatus& status, const TableGame& game, const ChatLines& chat,
               Followers& followers, Summary summary)
        : table_id_(table_id),
          host_(host),
          is_public_(is_public),
          metrics_(metrics),
          status_(status),
          game_(game),
          chat_(chat),
          followers_(followers),
          summary_(std::move(summary)) {}

    // The table's state for one viewer (`user`, at `seat`): a snapshot, or the table's summary
    // before the start; `id` answers the request that asked for it.
    void send_state(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                    std::uint64_t user, const protocol::Json& request_id = {}) const;
    // A slow reader missed messages: send it the table's state again.
    void resend_state(const std::shared_ptr<Peer>& peer) const;
    // The snapshot message; `summary` is the table's, made once by callers that send several.
    std::string snapshot(std::optional<engine::Seat> seat, std::uint64_t user,
                         const protocol::Json& summary, const protocol::Json& request_id) const;
    void broadcast(const protocol::Json& message);

    // The table as the lobby lists it, made now.
    protocol::Json summary() const { return summary_(); }
    // Every follower gets the table's summary (a `table` message).
    void broadcast_summary();
    // The lobby's subscribers get the table's summary, made only if somebody is to hear of it.
    void publish();
    // Both, from one summary: what a change of the seats or the status tells.
    void announce();

  private:
    const std::string& table_id_;
    TableHost& host_;
    const bool is_public_;
    Metrics& metrics_;
    const CountedStatus& status_;
    const TableGame& game_;
    const ChatLines& chat_;
    Followers& followers_;
    const Summary summary_;
};

}  // namespace gcor::server
