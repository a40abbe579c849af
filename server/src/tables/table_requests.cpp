#include <spdlog/spdlog.h>

#include <algorithm>
#include <span>

#include "gcor/protocol/events.hpp"
#include "tables/stored_game.hpp"
#include "tables/table.hpp"

// A table's requests: sit, leave, start, watch (and sync) and move, each answered on the strand.
namespace gcor::server {

using protocol::ErrorCode;
using protocol::Json;

// --- Requests -----------------------------------------------------------------------------------

namespace {

Json reply_to(Json reply, const Json& id) {
    if (!id.is_null()) reply["id"] = id;
    return reply;
}

}  // namespace

void Table::sit(const std::shared_ptr<Peer>& peer, const User& user,
                const protocol::requests::Sit& request, Recheck& recheck) {
    if (refusals_.kept_away(peer, user, request.id)) return;
    if (status_ != TableStatus::waiting)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::already_started,
                                        "the game has started", request.id);
    if (seats_.seat_of(user))
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::already_seated,
                                        "you already have a seat at this table", request.id);
    if (settings_.rated && user.guest)
        return refusals_.error(peer, ErrorCode::registered_only,
                               "only registered players sit at a rated table: log in first",
                               request.id);
    int seat = -1;
    const auto invited = seats_.reserved_for(user.id);
    if (request.seat) {
        if (*request.seat >= settings_.options.players)
            return refusals_.error(peer, ErrorCode::bad_field, "this table has no such seat",
                                   request.id);
        const auto wanted = static_cast<engine::Seat>(*request.seat);
        if (!seats_.may_take(wanted, user.id)) {
            if (seats_[wanted].kind == SeatKind::reserved)
                return refusals_.refuse_on_copy(peer, recheck, ErrorCode::seat_reserved,
                                                "that seat is kept for an invited player",
                                                request.id);
            return refusals_.refuse_on_copy(peer, recheck, ErrorCode::seat_taken,
                                            "that seat is taken", request.id);
        }
        seat = wanted;
    } else {
        // Accepting an invitation is sitting down: the invited user takes the seat kept for them.
        const auto open = invited ? invited : seats_.first_open();
        if (!open) {
            if (seats_.has_reservations())
                return refusals_.refuse_on_copy(peer, recheck, ErrorCode::seat_reserved,
                                                "every free seat is kept for an invited player",
                                                request.id);
            return refusals_.refuse_on_copy(peer, recheck, ErrorCode::table_full,
                                            "every seat is taken", request.id);
        }
        seat = *open;
    }
    // Sitting anywhere answers the invitation: its seat is no longer kept.
    if (invited && *invited != seat) seats_.free(*invited);
    seats_.seat_person(static_cast<engine::Seat>(seat), user);
    save([this, peer, seat, user_id = user.id, request_id = request.id](bool ok) {
        if (!ok) return refusals_.not_saved(peer, request_id);
        followers_.follow(peer, static_cast<engine::Seat>(seat), user_id);
        peer->send_reply(
            make_message(
                reply_to(Json{{"type", "seated"}, {"table", id()}, {"seat", seat}}, request_id)
                    .dump()),
            request_id);
        views_.announce();
        // The last seat taken at a table that starts when full (the last invitation accepted).
        if (settings_.start_when_full && seats_.full())
            when_ready([this] {
                if (!retired() && status_ == TableStatus::waiting && seats_.full())
                    play_.start(nullptr, Json());
            });
    });
}

void Table::leave(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::requests::Leave& request, Recheck& recheck) {
    // Before the start a seat is freed; after it, the seat stays the player's and only this
    // connection stops following the table. A seat this copy does not know of yet is freed too.
    const auto seat = seats_.seat_of(user);
    if (!seat && status_ == TableStatus::waiting && recheck.read_first()) return;
    followers_.unfollow(peer.get());
    const Message left =
        make_message(reply_to(Json{{"type", "left"}, {"table", id()}}, request.id).dump());
    const Json& request_id = request.id;
    if (!seat || status_ != TableStatus::waiting) return peer->send_reply(left, request_id);
    seats_.free(*seat);
    if (!seats_.has_people())
        return retirement_.close([this, peer, left, request_id](bool closed) {
            if (!closed) return refusals_.not_saved(peer, request_id);
            peer->send_reply(left, request_id);
        });
    save([this, peer, left, request_id](bool ok) {
        if (!ok) return refusals_.not_saved(peer, request_id);
        peer->send_reply(left, request_id);
        views_.announce();
    });
}

void Table::start(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::requests::Start& request, Recheck& recheck) {
    if (!seats_.seat_of(user))
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_seated,
                                        "only a seated player may start the game", request.id);
    if (status_ != TableStatus::waiting)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::already_started,
                                        "the game has started", request.id);
    if (!seats_.full())
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_full,
                                        "every seat must be taken before the start", request.id);
    play_.start(peer, request.id);
}

void Table::watch(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::requests::Watch& request, Recheck& recheck) {
    const auto seat = seats_.seat_of(user);
    if (!seat && refusals_.kept_away(peer, user, request.id)) return;
    if (!seat && !settings_.spectators)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::spectators_not_allowed,
                                        "this table takes no spectators", request.id);
    followers_.follow(peer, seat, user.id);
    views_.send_state(peer, seat, user.id, request.id);
}

void Table::move(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::requests::Change& request, Clock::time_point arrived,
                 Recheck& recheck) {
    const auto seat = seats_.seat_of(user);
    if (!seat)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_seated,
                                        "you have no seat at this table", request.id);
    if (status_ == TableStatus::waiting)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_started,
                                        "the game has not started", request.id);
    // The same move id again (a client retrying after a lost connection): the same answer.
    if (const auto done = game_.moves().version_of(*seat, request.move_id))
        return peer->send_reply(make_message(reply_to(Json{{"type", "ack"},
                                                           {"table", id()},
                                                           {"move_id", request.move_id},
                                                           {"version", *done}},
                                                      request.id)
                                                 .dump()),
                                request.id);
    if (status_ == TableStatus::finished)
        return refusals_.error(peer, ErrorCode::game_over, "the game is over", request.id);
    if (request.version != game_.version()) {
        // A version past this copy's: the player saw a change this copy has not heard of yet.
        if (request.version > game_.version() && recheck.read_first()) return;
        refusals_.error(peer, ErrorCode::stale_version,
                        "the move was made on version " + std::to_string(request.version) +
                            "; the table is at " + std::to_string(game_.version()) +
                            " (a snapshot follows)",
                        request.id);
        followers_.follow(peer, seat, user.id);
        return views_.send_state(peer, seat, user.id);
    }
    if (seats_[*seat].forfeited)
        return refusals_.error(peer, ErrorCode::not_your_turn,
                               "you forfeited this game: a bot plays your seat", request.id);
    if (!request.move) {  // an undo
        if (const engine::UndoError refused = game_.game().can_undo(*seat);
            refused != engine::UndoError::none)
            return refusals_.error(peer,
                                   refused == engine::UndoError::not_your_turn
                                       ? ErrorCode::not_your_turn
                                       : ErrorCode::cannot_undo,
                                   engine::undo_error_message(refused), request.id);
        followers_.follow(peer, seat, user.id);
        return play_.play(*seat, std::nullopt, MovedBy::player, request.move_id,
                          TablePlay::Mover{peer, request.id, arrived, request.move_id});
    }
    if (const engine::MoveError refused = game_.state().check(*seat, *request.move);
        refused != engine::MoveError::none) {
        const bool turn = refused == engine::MoveError::not_your_turn;
        return refusals_.error(peer, turn ? ErrorCode::not_your_turn : ErrorCode::illegal_move,
                               engine::error_message(refused), request.id,
                               std::string(engine::error_code(refused)).c_str());
    }
    followers_.follow(peer, seat, user.id);
    const MovedBy by = services_.preferences.preferences_of(user.id).confirm_turn
                           ? MovedBy::player_waiting
                           : MovedBy::player;
    play_.play(*seat, request.move, by, request.move_id,
               TablePlay::Mover{peer, request.id, arrived, request.move_id});
}

void Table::log(const std::shared_ptr<Peer>& peer, const User& user,
                const protocol::requests::Log& request, Recheck& recheck) {
    const auto seat = seats_.seat_of(user);
    if (!seat && refusals_.kept_away(peer, user, request.id)) return;
    if (!seat && !settings_.spectators)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::spectators_not_allowed,
                                        "this table takes no spectators", request.id);
    if (status_ == TableStatus::waiting)
        return refusals_.refuse_on_copy(peer, recheck, ErrorCode::not_started,
                                        "the game has not started", request.id);
    // No commit is under way (when_ready), so the store has every move applied here. Reading
    // and replaying them waits for the disk: on the blocking pool, never on the table's strand.
    net::post(services_.blocking, [self = shared_from_this(), peer, seat, moves = game_.version(),
                                   before = request.before, limit = request.limit,
                                   request_id = request.id] {
        std::optional<LoadedTable> loaded;
        try {
            loaded = self->services_.store.load_table(self->id());
        } catch (const StorageFailure& failure) {
            spdlog::error("table {}: cannot read its moves: {}", self->id(), failure.what());
            return self->refusals_.error(peer, ErrorCode::storage_failed,
                                         "the server could not read this game's log", request_id);
        }
        const auto game = loaded
                              ? StoredGame::read(std::move(loaded->table), std::move(loaded->moves))
                              : protocol::Error{ErrorCode::internal, "it is not in the store"};
        const auto replay = game ? game->replay(moves) : game.error();
        if (!replay) {
            spdlog::error("table {}: {}", self->id(), replay.error().message);
            return self->refusals_.error(peer, ErrorCode::internal,
                                         "the server could not replay this game", request_id);
        }
        const std::uint64_t total = replay->events.size();
        const std::uint64_t last = before.value_or(total);
        if (last > total)
            return self->refusals_.error(
                peer, ErrorCode::bad_field,
                "\"before\" is past the end of the log (" + std::to_string(total) + " lines)",
                request_id);
        const std::uint64_t first = last - std::min<std::uint64_t>(last, limit);
        const auto page = std::span(replay->events).subspan(first, last - first);
        peer->send_reply(make_message(reply_to(Json{{"type", "log"},
                                                    {"table", self->id()},
                                                    {"first", first},
                                                    {"total", total},
                                                    {"lines", protocol::events_json(page, seat)}},
                                               request_id)
                                          .dump()),
                         request_id);
    });
}

}  // namespace gcor::server
