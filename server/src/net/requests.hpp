#pragma once
// The requests that a connection forwards once its user said hello: a WebSocket session parses a
// message and hands it here, and the lobby and the tables decide. Replies go to the peer, which
// queues them on its own strand. A store read may throw StorageFailure before anything changed;
// the caller answers it.
#include <chrono>
#include <memory>
#include <string>

#include "gcor/protocol/messages.hpp"
#include "net/peer.hpp"
#include "services.hpp"

namespace gcor::server {

// "my games": the user's tables, unfinished first.
void answer_my_games(Services& services, Peer& peer, const User& user, const protocol::Json& id);

// list_tables, and subscribe_lobby (which subscribes the peer too).
void answer_listing(Services& services, const std::shared_ptr<Peer>& peer,
                    const protocol::Request& request);

// create_table: stores the new table, answers table_created, then seats the creator when asked.
// Returns the new table's id, or an empty string when it was refused.
std::string create_table(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                         const protocol::Request& request);

// sit, leave, start, watch, sync and move, run on the named table's strand once it is ready
// (loaded from the store if needed). False, answered not_found, when there is no such table.
bool table_request(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                   protocol::Request&& request, std::chrono::steady_clock::time_point arrived);

}  // namespace gcor::server
