#include "net/requests.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "gcor/protocol/json_text.hpp"
#include "gcor/store/store.hpp"
#include "net/invitations.hpp"
#include "tables/lobby.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kMyGamesListed = 100;

namespace requests = protocol::requests;

// Each request to a table, on the table's strand, by its kind.
void act(Table& table, const Asker& asker, const requests::Sit& request, Recheck& recheck) {
    table.sit(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Leave& request, Recheck& recheck) {
    table.leave(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Start& request, Recheck& recheck) {
    table.start(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Decline& request, Recheck& recheck) {
    table.invitations().decline(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Withdraw& request, Recheck& recheck) {
    table.invitations().withdraw(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Watch& request,  // and Sync
         Recheck& recheck) {
    table.watch(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Change& request,  // Move and Undo
         Recheck& recheck) {
    table.move(asker.peer, asker.user, request, asker.arrived, recheck);
}
void act(Table& table, const Asker& asker, const requests::Log& request, Recheck& recheck) {
    table.log(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::Chat& request, Recheck& recheck) {
    table.chat().write(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::ChatHistory& request, Recheck& recheck) {
    table.chat().history(asker.peer, asker.user, request, recheck);
}
void act(Table& table, const Asker& asker, const requests::DeleteChat& request, Recheck&) {
    table.chat().remove(asker.peer, asker.user, request);
}

template <typename Kind>
void find_and_run(Services& services, Asker asker, Kind request, int attempts, bool may_reread);

// Runs the request on the table's strand once the table is ready. A table may retire (unloaded,
// or its commit failed) between the lobby's answer and then; the request then asks the lobby
// again, which loads the table from the store. A failure answers `internal`. While `may_reread`,
// a refusal on what another process may have changed waits for the table to read the store, and
// the request runs again (Recheck).
template <typename Kind>
void run_on_table(Services& services, std::shared_ptr<Table> table, Asker asker, Kind request,
                  int attempts, bool may_reread) {
    // The request and the asker are moved along, not copied at each step of the hand-off.
    auto& strand = table->strand();
    boost::asio::post(strand, [&services, table = std::move(table), asker = std::move(asker),
                               request = std::move(request), attempts, may_reread]() mutable {
        auto run = [&services, table, asker = std::move(asker), request = std::move(request),
                    attempts, may_reread] {
            if (table->retired()) {
                if (attempts > 0)
                    return find_and_run(services, asker, request, attempts - 1, may_reread);
                return send_error(*asker.peer, services.metrics, ErrorCode::not_found,
                                  "no table \"" + table->id() + "\"", request.id, table->id());
            }
            try {
                Recheck recheck{.allowed = may_reread};
                act(*table, asker, request, recheck);
                if (recheck.wanted)
                    table->reread([&services, table, asker, request, attempts] {
                        run_on_table(services, table, asker, request, attempts, false);
                    });
            } catch (const std::exception& error) {
                spdlog::error("table {}: {}", table->id(), error.what());
                send_error(*asker.peer, services.metrics, ErrorCode::internal,
                           "the server failed to handle this request", request.id, table->id());
            }
        };
        table->when_ready(std::move(run));
    });
}

// Asks the lobby for the request's table (which may load it), then runs the request there.
template <typename Kind>
void find_and_run(Services& services, Asker asker, Kind request, int attempts, bool may_reread) {
    // A table in memory (every move's) is run at once: no callback to wrap, no id to copy.
    if (auto table = services.lobby.in_memory(request.table)) {
        if (asker.found) std::exchange(asker.found, nullptr)();
        return run_on_table(services, std::move(table), std::move(asker), std::move(request),
                            attempts, may_reread);
    }
    const std::string id = request.table;
    services.lobby.find(id, [&services, asker = std::move(asker), request = std::move(request),
                             attempts, may_reread](FoundTable found) mutable {
        if (!found.table) {
            if (found.unreadable)
                return send_error(*asker.peer, services.metrics, ErrorCode::storage_failed,
                                  "the server could not read its database; try again", request.id,
                                  request.table);
            return send_error(*asker.peer, services.metrics, ErrorCode::not_found,
                              "no table \"" + request.table + "\"", request.id, request.table);
        }
        if (asker.found) std::exchange(asker.found, nullptr)();
        run_on_table(services, std::move(found.table), std::move(asker), std::move(request),
                     attempts, may_reread);
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
                    const requests::ListTables& request, bool subscribe) {
    const auto page = services.lobby.list(request);
    if (!page)
        return send_error(*peer, services.metrics, ErrorCode::not_found,
                          "no table \"" + request.after + "\" to list after", request.id);
    if (subscribe) services.lobby.subscribe(peer);
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

namespace {

// create_table once its invited users are known (none: nobody is invited).
void create_with(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                 const requests::CreateTable& request, const std::vector<User>& invitees,
                 const std::function<void(std::string)>& created) {
    auto made = services.lobby.create(request.settings, user.id);
    if (const auto* code = std::get_if<ErrorCode>(&made))
        return send_error(*peer, services.metrics, *code,
                          "the server holds as many tables as it can", request.id);
    const auto& table = std::get<std::shared_ptr<Table>>(made);
    spdlog::info("user {} created table {}", user.id, table->id());
    created(table->id());
    // The table holds every request back until it is stored.
    boost::asio::post(table->strand(), [&services, table, peer, user, request, invitees] {
        table->invitations().reserve(user.id, invitees);
        table->save([&services, table, peer, user, request, invitees](bool ok) {
            if (!ok)
                return send_error(*peer, services.metrics, ErrorCode::storage_failed,
                                  "the server could not save the new table", request.id);
            const Json summary = table->summary();
            send_json_reply(*peer, Json{{"type", "table_created"}, {"table", summary}}, request.id);
            table->publish();
            if (!invitees.empty()) send_invitations(services, user, invitees, summary);
            if (!request.sit) return;
            requests::Sit sit;
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
}

}  // namespace

void create_table(Services& services, const std::shared_ptr<Peer>& peer, const User& user,
                  const requests::CreateTable& request, std::function<void(std::string)> created) {
    if (request.settings.rated && user.guest)
        return send_error(*peer, services.metrics, ErrorCode::registered_only,
                          "only registered players play rated tables: log in first", request.id);
    if (request.invite.empty()) return create_with(services, peer, user, request, {}, created);
    if (user.guest)
        return send_error(*peer, services.metrics, ErrorCode::registered_only,
                          "only registered players invite others: log in first", request.id);
    // Finding the invited users reads the store: on the blocking pool.
    boost::asio::post(services.blocking, [&services, peer, user, request,
                                          created = std::move(created)] {
        try {
            auto invitees = resolve_invitees(services.store, services.blocks, user, request.invite);
            if (!invitees)
                return send_error(*peer, services.metrics, invitees.error().code,
                                  invitees.error().message, request.id);
            create_with(services, peer, user, request, *invitees, created);
        } catch (const StorageFailure& failure) {
            spdlog::error("create_table: {}", failure.what());
            send_error(*peer, services.metrics, ErrorCode::storage_failed,
                       "the server could not read its database; try again", request.id);
        }
    });
}

template <typename Kind>
void table_request(Services& services, Asker asker, Kind request) {
    find_and_run(services, std::move(asker), std::move(request), 3, services.store.shared());
}

template void table_request(Services&, Asker, requests::Sit);
template void table_request(Services&, Asker, requests::Leave);
template void table_request(Services&, Asker, requests::Start);
template void table_request(Services&, Asker, requests::Watch);
template void table_request(Services&, Asker, requests::Sync);
template void table_request(Services&, Asker, requests::Move);
template void table_request(Services&, Asker, requests::Undo);
template void table_request(Services&, Asker, requests::Log);
template void table_request(Services&, Asker, requests::Chat);
template void table_request(Services&, Asker, requests::ChatHistory);
template void table_request(Services&, Asker, requests::DeleteChat);
template void table_request(Services&, Asker, requests::Decline);
template void table_request(Services&, Asker, requests::Withdraw);

}  // namespace gcor::server
