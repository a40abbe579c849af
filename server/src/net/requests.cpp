#include "net/requests.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "gcor/protocol/json_text.hpp"
#include "gcor/store/store.hpp"
#include "tables/lobby.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;
using protocol::RequestType;

constexpr std::size_t kMyGamesListed = 100;

// One table request, on the table's strand.
void dispatch(Table& table, const std::shared_ptr<Peer>& peer, const User& user,
              const protocol::Request& request, std::chrono::steady_clock::time_point arrived,
              Recheck& recheck) {
    switch (request.type) {
        case RequestType::sit:
            return table.sit(peer, user, request, recheck);
        case RequestType::leave:
            return table.leave(peer, user, request, recheck);
        case RequestType::start:
            return table.start(peer, user, request, recheck);
        case RequestType::watch:
        case RequestType::sync:
            return table.watch(peer, user, request, recheck);
        case RequestType::move:
        case RequestType::undo:
            return table.move(peer, user, request, arrived, recheck);
        case RequestType::log:
            return table.log(peer, user, request, recheck);
        case RequestType::chat:
            return table.chat(peer, user, request, recheck);
        case RequestType::chat_history:
            return table.chat_history(peer, user, request, recheck);
        case RequestType::delete_chat:
            return table.delete_chat(peer, user, request);
        default:
            assert(false && "not a table's request");
    }
}

// Runs the request on the table's strand once the table is ready. A table may retire (unloaded,
// or its commit failed) between the lobby's answer and then; the request then asks the lobby
// again, which loads the table from the store. A failure answers `internal`. While `may_reread`,
// a refusal on what another process may have changed waits for the table to read the store, and
// the request runs again (Recheck).
void run_on_table(Services& services, std::shared_ptr<Table> table, std::shared_ptr<Peer> peer,
                  User user, protocol::Request request,
                  std::chrono::steady_clock::time_point arrived, int attempts, bool may_reread) {
    // The request and the user are moved along, not copied at each step of the hand-off.
    auto& strand = table->strand();
    boost::asio::post(strand, [&services, table = std::move(table), peer = std::move(peer),
                               user = std::move(user), request = std::move(request), arrived,
                               attempts, may_reread]() mutable {
        auto act = [&services, table, peer = std::move(peer), user = std::move(user),
                    request = std::move(request), arrived, attempts, may_reread] {
            if (table->retired()) {
                std::shared_ptr<Table> again;
                try {
                    again = services.lobby.find(table->id());
                } catch (const StorageFailure& failure) {
                    spdlog::error("table {}: cannot reload: {}", table->id(), failure.what());
                }
                if (again && attempts > 0)
                    return run_on_table(services, again, peer, user, request, arrived, attempts - 1,
                                        may_reread);
                return send_error(*peer, services.metrics, ErrorCode::not_found,
                                  "no table \"" + table->id() + "\"", request.id, table->id());
            }
            try {
                Recheck recheck{.allowed = may_reread};
                dispatch(*table, peer, user, request, arrived, recheck);
                if (recheck.wanted)
                    table->reread([&services, table, peer, user, request, arrived, attempts] {
                        run_on_table(services, table, peer, user, request, arrived, attempts,
                                     false);
                    });
            } catch (const std::exception& error) {
                spdlog::error("table {}: {}", table->id(), error.what());
                send_error(*peer, services.metrics, ErrorCode::internal,
                           "the server failed to handle this request", request.id, table->id());
            }
        };
        table->when_ready(std::move(act));
    });
}

}  // namespace

void answer_my_games(Services& services, Peer& peer, const User& user, const Json& id) {
    Json games = Json::array();
    const UnixMs now = unix_now_ms();
    for (const UserTable& mine : services.store.tables_of(user.id, kMyGamesListed)) {
        Json game = summary_json(mine.table, services.vacations.seats_away(mine.table.seats, now));
        game["seat"] = mine.seat;
        game["your_turn"] = mine.table.turn_of(mine.seat);
        games.push_back(std::move(game));
    }
    send_json_reply(peer, Json{{"type", "my_games"}, {"games", std::move(games)}}, id);
}

void answer_listing(Services& services, const std::shared_ptr<Peer>& peer,
                    const protocol::Request& request) {
    const auto page = services.lobby.list(request);
    if (!page)
        return send_error(*peer, services.metrics, ErrorCode::not_found,
                          "no table \"" + request.after + "\" to list after", request.id);
    if (request.type == RequestType::subscribe_lobby) services.lobby.subscribe(peer);
    // Written as text: the summaries are JSON text already.
    std::string tables = R"({"type":"tables","tables":)" + page->tables;
    if (!page->next.empty()) {
        tables += R"(,"next":)";
        protocol::append_json_string(tables, page->next);
    }
    if (!request.id.is_null()) {
        tables += R"(,"id":)";
        tables += request.id.dump();
    }
    tables += '}';
    peer->send_reply(make_message(std::move(tables)), request.id);
}

std::string create_table(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                         const protocol::Request& request) {
    if (request.settings.rated && user.guest) {
        send_error(*peer, services.metrics, ErrorCode::registered_only,
                   "only registered players play rated tables: log in first", request.id);
        return {};
    }
    auto created = services.lobby.create(request.settings);
    if (const auto* code = std::get_if<ErrorCode>(&created)) {
        send_error(*peer, services.metrics, *code, "the server holds as many tables as it can",
                   request.id);
        return {};
    }
    const auto& table = std::get<std::shared_ptr<Table>>(created);
    spdlog::info("user {} created table {}", user.id, table->id());
    // The table holds every request back until it is stored.
    boost::asio::post(table->strand(), [&services, table, peer, user, request] {
        table->save_new([&services, table, peer, user, request](bool ok) {
            if (!ok)
                return send_error(*peer, services.metrics, ErrorCode::storage_failed,
                                  "the server could not save the new table", request.id);
            send_json_reply(*peer, Json{{"type", "table_created"}, {"table", table->summary()}},
                            request.id);
            table->publish();
            if (!request.sit) return;
            protocol::Request sit = request;
            sit.id = Json();
            sit.table = table->id();
            // After this commit's callback: the sit is the next change.
            boost::asio::post(table->strand(), [table, peer, user, sit] {
                // The table is this process's own, just stored: nothing to read again.
                table->when_ready([table, peer, user, sit] {
                    Recheck fresh;
                    table->sit(peer, user, sit, fresh);
                });
            });
        });
    });
    return table->id();
}

bool table_request(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                   protocol::Request&& request, std::chrono::steady_clock::time_point arrived) {
    auto table = services.lobby.find(request.table);
    if (!table) {
        send_error(*peer, services.metrics, ErrorCode::not_found,
                   "no table \"" + request.table + "\"", request.id, request.table);
        return false;
    }
    run_on_table(services, std::move(table), peer, user, std::move(request), arrived, 3,
                 services.store.shared());
    return true;
}

}  // namespace gcor::server
