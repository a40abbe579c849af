#pragma once
// A table's refusals: the error replies to requests it turns down, each naming the table. Some
// wait first: a refusal on what another process may have changed comes only from a copy that has
// read the store (Recheck), and a user whom the table's creator blocked is told the table is not
// there. Used on the table's strand; the replies are thread-safe.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "gcor/protocol/messages.hpp"
#include "metrics.hpp"
#include "net/peer.hpp"
#include "tables/recheck.hpp"
#include "tables/table_services.hpp"
#include "tables/table_writes.hpp"

namespace gcor::server {

class TableRefusals {
  public:
    // Every reference outlives the part (the table holds them, or the server does).
    TableRefusals(const std::string& table_id, std::uint64_t creator, Metrics& metrics,
                  const BlockedUsers& blocks, const TableWrites& writes)
        : table_id_(table_id),
          creator_(creator),
          metrics_(metrics),
          blocks_(blocks),
          writes_(writes) {}

    // Refuses the request `request_id` with `code`; `reason`, when given, says more to clients.
    void error(const std::shared_ptr<Peer>& peer, protocol::ErrorCode code,
               std::string_view message, const protocol::Json& request_id,
               const char* reason = nullptr) const;
    // Whether the table's creator blocked `user` (then refused as a table not there).
    bool kept_away(const std::shared_ptr<Peer>& peer, const User& user,
                   const protocol::Json& request_id) const;
    // A refusal on what another process may have changed (Recheck): none while the request may
    // still have the table read the store first; it then runs again on the table as read.
    void refuse_on_copy(const std::shared_ptr<Peer>& peer, Recheck& recheck,
                        protocol::ErrorCode code, std::string_view message,
                        const protocol::Json& request_id) const;
    // The reply to a request whose change was not stored: storage_failed, or stale_version when
    // another server process had changed the table first (the latest write's outcome).
    void not_saved(const std::shared_ptr<Peer>& peer, const protocol::Json& request_id) const;

  private:
    const std::string& table_id_;
    const std::uint64_t creator_;
    Metrics& metrics_;
    const BlockedUsers& blocks_;
    const TableWrites& writes_;
};

}  // namespace gcor::server
