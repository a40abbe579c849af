#pragma once
// A table's chat at work: a line from a seat or a spectator, stored, then sent to every follower
// who has not muted its writer; a page of older lines read from the store; an admin's deletion;
// and what the news reader tells it of other server processes' lines and deletions (ChatNews).
// It keeps the lines (ChatLines) and asks the table's seats and followers.
//
// Threading: everything on the table's strand. The store's reads run on the blocking pool, and
// its writes' answers come back to the strand; each of them keeps the table alive (`owner`).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "gcor/protocol/messages.hpp"
#include "gcor/store/user.hpp"
#include "net/peer.hpp"
#include "tables/chat_lines.hpp"
#include "tables/followers.hpp"
#include "tables/news_reader.hpp"
#include "tables/recheck.hpp"
#include "tables/table_refusals.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_services.hpp"

namespace gcor::server {

class TableChat final : public ChatNews {
  public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;
    // The table that holds the chat, kept alive by each piece of work that outlives a call.
    using Owner = std::function<std::shared_ptr<void>()>;

    // Every reference outlives the chat (the table holds them, or the server does).
    TableChat(const std::string& table_id, const protocol::TableSettings& settings,
              ChatStorage& store, ChatGuards& guards, const TableRefusals& refusals,
              boost::asio::io_context& blocking, Strand& strand, const TableSeats& seats,
              Followers& followers, Owner owner)
        : table_id_(table_id),
          spectators_(settings.spectators),
          store_(store),
          guards_(guards),
          refusals_(refusals),
          blocking_(blocking),
          strand_(strand),
          seats_(seats),
          followers_(followers),
          owner_(std::move(owner)),
          lines_(settings, guards) {}

    ChatLines& lines() { return lines_; }
    const ChatLines& lines() const { return lines_; }

    // Requests; replies go to `peer`. A refusal on a seat taken on another server waits for a
    // read of the store while `recheck` allows.
    void write(const std::shared_ptr<Peer>& peer, const User& user,
               const protocol::requests::Chat& request, Recheck& recheck);
    void history(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::requests::ChatHistory& request, Recheck& recheck);
    // A line this copy has not heard of is not_found: reading the table does not read its chat.
    void remove(const std::shared_ptr<Peer>& peer, const User& user,
                const protocol::requests::DeleteChat& request);

    void read_chat_line(std::uint64_t n) override;
    void on_chat_deleted(std::uint64_t n) override;

  private:
    // {"type":…,"table":…} followed by `members`.
    protocol::Json message(const char* type, const protocol::Json& members) const;

    const std::string& table_id_;
    const bool spectators_;
    ChatStorage& store_;
    ChatGuards& guards_;
    const TableRefusals& refusals_;  // the error replies
    boost::asio::io_context& blocking_;
    Strand& strand_;
    const TableSeats& seats_;
    Followers& followers_;
    const Owner owner_;
    ChatLines lines_;
};

}  // namespace gcor::server
