#pragma once
// The requests that a connection forwards once its user said hello: a WebSocket session parses a
// message and hands it here, and the lobby and the tables decide. Replies go to the peer, which
// queues them on its own strand. A store read may throw StorageFailure before anything changed;
// the caller answers it.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "gcor/protocol/messages.hpp"
#include "net/peer.hpp"
#include "services.hpp"

namespace gcor::server {

// "my games": the user's tables, unfinished first.
void answer_my_games(Services& services, Peer& peer, const User& user, const protocol::Json& id);

// list_tables, and with `subscribe` subscribe_lobby (the first page, and the peer subscribed).
void answer_listing(Services& services, const std::shared_ptr<Peer>& peer,
                    const protocol::requests::ListTables& request, bool subscribe);

// create_table: finds the invited users (on the blocking pool), stores the new table with their
// seats kept, answers table_created, invites them, then seats the creator when asked.
// `created(id)` is called (any thread) with the new table's id unless it was refused.
void create_table(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::requests::CreateTable& request,
                  std::function<void(std::string)> created);

// Who asks a table, and when.
struct Asker {
    std::shared_ptr<Peer> peer;
    User user;
    std::chrono::steady_clock::time_point arrived;
    // Called (any thread) once the table is found, before the request runs; none: nobody asks.
    std::function<void()> found;
};

// A request to one table (sit, leave, start, watch, sync, move, undo, log, chat, chat_history,
// delete_chat): run on the table's strand once it is ready, loaded from the store on the blocking
// pool if needed; answered not_found when there is no such table, storage_failed when it could
// not be read.
template <typename Kind>
void table_request(Services& services, Asker asker, Kind request);

}  // namespace gcor::server
