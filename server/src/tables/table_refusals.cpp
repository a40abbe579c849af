#include "tables/table_refusals.hpp"

namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

void TableRefusals::error(const std::shared_ptr<Peer>& peer, ErrorCode code,
                          std::string_view message, const Json& request_id,
                          const char* reason) const {
    send_error(*peer, metrics_, code, message, request_id, table_id_, reason);
}

bool TableRefusals::kept_away(const std::shared_ptr<Peer>& peer, const User& user,
                              const Json& request_id) const {
    if (!blocks_.blocked(creator_, user.id)) return false;
    // The answer to a table that is not there (closed meanwhile): nobody learns who blocked them.
    error(peer, ErrorCode::not_found, "no table \"" + table_id_ + "\"", request_id);
    return true;
}

void TableRefusals::refuse_on_copy(const std::shared_ptr<Peer>& peer, Recheck& recheck,
                                   ErrorCode code, std::string_view message,
                                   const Json& request_id) const {
    if (recheck.read_first()) return;
    error(peer, code, message, request_id);
}

void TableRefusals::not_saved(const std::shared_ptr<Peer>& peer, const Json& request_id) const {
    if (writes_.last() == Written::conflict)
        return error(peer, ErrorCode::stale_version,
                     "the table changed on another server meanwhile; nothing of yours changed, "
                     "look again and retry",
                     request_id);
    error(peer, ErrorCode::storage_failed,
          "the server could not save this change; nothing changed, try again", request_id);
}

}  // namespace gcor::server
