#pragma once
// The tables of the server and the connections following the lobby. The lobby keeps the last
// summary each table published, so listing tables never waits for a table's strand.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "table.hpp"

namespace gcor::server {

class Lobby {
  public:
    Lobby(net::io_context& io, Services& services) : io_(io), services_(services) {}

    std::variant<std::shared_ptr<Table>, protocol::ErrorCode> create(
        const protocol::Request& request);
    std::shared_ptr<Table> find(const std::string& id) const;

    // Public tables matching the request's filter, oldest first.
    protocol::Json list(const protocol::Request& filter) const;
    void subscribe(const std::shared_ptr<Peer>& peer);
    void unsubscribe(const Peer* peer);
    // Called by a table (on its strand) whenever its summary changed.
    void publish(const std::string& id, protocol::Json summary, bool is_public);

  private:
    struct Entry {
        std::shared_ptr<Table> table;
        protocol::Json summary;
        bool is_public;
        std::uint64_t order;
    };

    net::io_context& io_;
    Services& services_;
    mutable std::mutex mutex_;
    std::map<std::string, Entry> tables_;
    std::uint64_t next_order_ = 0;
    std::vector<std::weak_ptr<Peer>> subscribers_;
};

}  // namespace gcor::server
