#pragma once
// A table's game in progress: its start (the deal stored, every follower sent its snapshot), each
// move or undo applied, stored and then sent as patches (the mover's acknowledged), the bots'
// moves, and the deadline's timeout policy. It makes the row's progress that each write stores.
//
// Threading: everything on the table's strand; a move's patches are made while its commit is
// under way and leave once it is stored. The ratings are worked out on the blocking pool.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gcor/protocol/messages.hpp"
#include "net/peer.hpp"
#include "tables/counted_status.hpp"
#include "tables/followers.hpp"
#include "tables/stored_game.hpp"
#include "tables/table_bots.hpp"
#include "tables/table_game.hpp"
#include "tables/table_invitations.hpp"
#include "tables/table_refusals.hpp"
#include "tables/table_retirement.hpp"
#include "tables/table_seats.hpp"
#include "tables/table_services.hpp"
#include "tables/table_turn.hpp"
#include "tables/table_views.hpp"
#include "tables/table_writes.hpp"
#include "tables/turn_clock.hpp"

namespace gcor::server {

class TablePlay final : public BotTable {
  public:
    using Clock = std::chrono::steady_clock;
    // The player whose request made a move, to be acknowledged.
    struct Mover {
        std::shared_ptr<Peer> peer;
        protocol::Json request_id;
        Clock::time_point arrived;
        std::string move_id;
    };
    // The parts of the table that the game's progress changes and tells (each outlives this).
    struct Parts {
        CountedStatus& status;
        TableSeats& seats;
        TableGame& game;
        TurnClock& clock;
        TableTurn& turn;
        Followers& followers;
        TableWrites& writes;
        TableViews& views;
        TableBots& bots;
        const TableRefusals& refusals;
        TableRetirement& retirement;
        TableInvitations& invitations;
    };

    // `record` (the table's settings and deal), `id_json` (its id, quoted), `services` and
    // `table` outlive the part.
    TablePlay(const StoredGame& record, const std::string& id_json, const TableServices& services,
              SavingTable& table, Parts parts)
        : record_(record),
          id_json_(id_json),
          services_(services),
          table_(table),
          status_(parts.status),
          seats_(parts.seats),
          game_(parts.game),
          clock_(parts.clock),
          turn_(parts.turn),
          followers_(parts.followers),
          writes_(parts.writes),
          views_(parts.views),
          bots_(parts.bots),
          refusals_(parts.refusals),
          retirement_(parts.retirement),
          invitations_(parts.invitations) {}

    // What the next write stores of the row: far less than the whole row (seats, settings).
    TableProgress progress() const;
    // The game begins as `replayed`: dealt, or restored after its stored `changes`.
    void begin(StoredGame::Replay replayed, const std::vector<StoredMove>& changes = {});
    // Deals and stores the game, then sends every follower its snapshot; `peer`, when a start
    // request began it, is answered `started`.
    void start(const std::shared_ptr<Peer>& peer, const protocol::Json& request_id);
    // Applies a legal move, or takes back the seat's latest move (`move` nullopt), stores the
    // change, then sends its patches (and the ack to a player's request, `mover`).
    void play(engine::Seat seat, const std::optional<engine::Move>& move, MovedBy by,
              const std::string& move_id, std::optional<Mover> mover);
    // The deadline sweep found the table due: applies the timeout policy if the seat to act is
    // still out of time, or before the start ends the invitations that expired.
    void on_deadline();

    // What the bots ask (table_bots.hpp).
    void when_ready(std::function<void()> work) override;
    bool retired() const override { return retirement_.retired(); }
    void play_for(engine::Seat seat, const engine::Move& move, MovedBy by) override;

  private:
    // What a move sends once it is stored.
    struct Outgoing {
        Followers::Patches patches;
        Message acknowledging_patch;  // the mover's seat's patch, with its move_id and request id
        std::weak_ptr<Peer> mover;
        protocol::Json request_id;  // the mover's request's, for the reply when the commit fails
        std::string move_id;
        Clock::time_point arrived;
        engine::Seat seat = 0;  // who moved
        bool status_changed = false;
    };
    void after_move(Written written, const Outgoing& outgoing);

    const StoredGame& record_;
    const std::string& id_json_;
    const TableServices& services_;
    SavingTable& table_;
    CountedStatus& status_;
    TableSeats& seats_;
    TableGame& game_;
    TurnClock& clock_;
    TableTurn& turn_;
    Followers& followers_;
    TableWrites& writes_;
    TableViews& views_;
    TableBots& bots_;
    const TableRefusals& refusals_;
    TableRetirement& retirement_;
    TableInvitations& invitations_;
};

}  // namespace gcor::server
