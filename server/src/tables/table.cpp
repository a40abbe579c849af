#include "tables/table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ranges>

#include "crypto.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/view_json.hpp"
#include "ratings/ratings.hpp"

// The table's life: making and restoring it, its state, its commits and its viewers. Its requests
// are in table_requests.cpp, its moves in table_play.cpp.
namespace gcor::server {
namespace {

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kRecentEvents = 64;    // log lines a snapshot carries
constexpr std::size_t kAppliedMoveIds = 32;  // per seat, answered again without applying

}  // namespace

// --- Making and restoring -----------------------------------------------------------------------

Table::Table(net::io_context& io, Services& services, TableHost& host, StoredGame record)
    : services_(services),
      host_(host),
      metrics_(services.metrics),
      strand_(net::make_strand(io)),
      bot_timer_(strand_),
      record_(std::move(record)),
      settings_(record_.settings()),
      id_json_(Json(record_.id()).dump()),
      rules_(record_.rules()),
      game_(engine::State(), settings_.undo),
      bot_rng_(record_.row().seed ^ 0x9e3779b97f4a7c15ull) {
    metrics_.tables_waiting.fetch_add(1);
}

Table::~Table() {
    gauge(status_).fetch_sub(1);
}

std::shared_ptr<Table> Table::create(net::io_context& io, Services& services, TableHost& host,
                                     std::string id, const protocol::TableSettings& settings,
                                     std::uint64_t seed) {
    std::shared_ptr<Table> table(new Table(
        io, services, host, StoredGame(std::move(id), settings, seed, secure_random_hex(16))));
    table->committing_ = true;  // nothing reaches the table before save_new stored it
    for (int seat = 0; seat < settings.options.players; ++seat)
        if (const auto bot = settings.bots[static_cast<std::size_t>(seat)])
            table->seats_[static_cast<std::size_t>(seat)] = SeatInfo{SeatKind::bot, {}, *bot};
    return table;
}

std::shared_ptr<Table> Table::restore(net::io_context& io, Services& services, TableHost& host,
                                      const LoadedTable& loaded) {
    const StoredTable& stored = loaded.table;
    auto broken = [&](const std::string& why) -> std::shared_ptr<Table> {
        spdlog::error("table {} cannot be loaded: {}", stored.id, why);
        return nullptr;
    };
    auto game = StoredGame::read(stored, loaded.moves);
    if (!game) return broken(game.error().message);
    const int players = game->settings().options.players;
    if (stored.seats.size() != static_cast<std::size_t>(players))
        return broken("it has " + std::to_string(stored.seats.size()) + " seats");
    // Replayed before the table keeps the record without its moves.
    auto replayed = game->replay();
    if (!replayed) return broken(replayed.error().message);

    std::shared_ptr<Table> table(new Table(io, services, host, std::move(*game).without_moves()));
    for (std::size_t seat = 0; seat < stored.seats.size(); ++seat) {
        const StoredSeat& from = stored.seats[seat];
        SeatInfo& info = table->seats_[seat];
        if (from.kind == SeatKind::human) {
            info = SeatInfo{SeatKind::human, User{from.user, from.name}, {}, from.forfeited};
        } else if (from.kind == SeatKind::bot) {
            const auto bot = engine::bot_from_id(from.bot);
            if (!bot) return broken("unknown bot \"" + from.bot + "\"");
            info = SeatInfo{SeatKind::bot, {}, *bot, false};
        }
    }
    table->revision_ = stored.revision;
    table->recent_chat_ = loaded.chat;
    table->last_chat_n_ = loaded.chat_lines;
    if (stored.status == TableStatus::waiting) return table;

    table->begin_game(std::move(*replayed));
    for (const StoredMove& stored_move : loaded.moves) {
        ++table->version_;
        if (stored_move.by == MovedBy::player)
            table->last_own_move_[static_cast<std::size_t>(stored_move.seat)] = table->version_;
        if (!stored_move.move_id.empty())
            table->remember_move_id(static_cast<engine::Seat>(stored_move.seat),
                                    stored_move.move_id);
    }
    table->set_status(table->game_.state().over() ? TableStatus::finished : TableStatus::playing);
    table->deadline_ = table->status_ == TableStatus::playing ? stored.deadline : std::nullopt;
    if (table->deadline_) table->turn_started_ = table->restored_turn_start(loaded.moves);
    table->take_over_bot(loaded.moves.empty() ? 0 : loaded.moves.back().at);
    return table;
}

void Table::save_new(std::function<void(bool ok)> done) {
    save(std::move(done));
}

// --- State --------------------------------------------------------------------------------------

StoredTable Table::stored() const {
    StoredTable table = record_.row();
    set_progress(table, progress());
    for (std::size_t seat = 0; seat < table.seats.size(); ++seat) {
        const SeatInfo& info = seats_[seat];
        const bool bot = info.kind == SeatKind::bot;
        table.seats[seat] =
            StoredSeat{info.kind, info.user.id,
                       bot ? bot_name(static_cast<int>(seat), info.bot) : info.user.name,
                       bot ? std::string(engine::bot_id(info.bot)) : std::string(), info.forfeited};
    }
    return table;
}

UnixMs Table::restored_turn_start(const std::vector<StoredMove>& moves) const {
    // Every move starts a turn's clock again, an undo does not.
    const auto last = std::ranges::find_if(
        std::views::reverse(moves), [](const StoredMove& move) { return move.move != kUndoText; });
    if (last != std::views::reverse(moves).end()) return last->at;
    // The game's first turn: its deadline tells when it began.
    if (settings_.clock.kind != protocol::TimeControl::Kind::correspondence)
        return *deadline_ - per_move_ms();
    return services_.vacations.turn_start(seats_[game_.state().to_act()].user.id, *deadline_,
                                          per_move_ms());
}

Json Table::summary() const {
    const StoredTable table = stored();
    return summary_json(table, settings_,
                        services_.vacations.seats_away(table.seats, unix_now_ms()));
}

// What a move changes in the stored row: far less than stored(), which copies the settings and
// the seats.
TableProgress Table::progress() const {
    TableProgress progress;
    progress.id = id();
    progress.revision = revision_;
    progress.status = status_;
    progress.version = version_;
    if (status_ == TableStatus::playing) {
        progress.to_act = game_.state().to_act();
        progress.deadline = deadline_;
    }
    if (status_ == TableStatus::finished) progress.result = result().dump();
    return progress;
}

Json Table::result() const {
    Json result = protocol::result_to_json(game_.state());
    Json forfeited = Json::array();
    for (int seat = 0; seat < rules_.options().players; ++seat)
        if (seats_[static_cast<std::size_t>(seat)].forfeited) forfeited.push_back(seat);
    result["forfeited"] = std::move(forfeited);
    return result;
}

void Table::begin_game(StoredGame::Replay replayed) {
    names_.clear();
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        names_.push_back(info.kind == SeatKind::human ? info.user.name : bot_name(seat, info.bot));
    }
    game_ = std::move(replayed.game);
    recent_events_.clear();
    remember_events(replayed.events);
}

std::optional<engine::Seat> Table::seat_of(const User& user) const {
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind == SeatKind::human && info.user.id == user.id)
            return static_cast<engine::Seat>(seat);
    }
    return std::nullopt;
}

bool Table::played_by_bot(engine::Seat seat) const {
    return seats_[seat].kind == SeatKind::bot || seats_[seat].forfeited;
}

std::atomic<std::int64_t>& Table::gauge(TableStatus status) {
    return status == TableStatus::waiting   ? metrics_.tables_waiting
           : status == TableStatus::playing ? metrics_.tables_playing
                                            : metrics_.tables_finished;
}

void Table::set_status(TableStatus status) {
    gauge(status_).fetch_sub(1);
    gauge(status).fetch_add(1);
    status_ = status;
}

void Table::remember_events(const std::vector<engine::Event>& events) {
    for (const engine::Event& event : events) {
        recent_events_.push_back(event);
        if (recent_events_.size() > kRecentEvents) recent_events_.pop_front();
    }
}

void Table::remember_move_id(engine::Seat seat, const std::string& move_id) {
    auto& applied = applied_[seat];
    applied.push_back({move_id, version_});
    if (applied.size() > kAppliedMoveIds) applied.erase(applied.begin());
}

void Table::error(const std::shared_ptr<Peer>& peer, ErrorCode code, std::string_view message,
                  const Json& request_id, const char* reason) {
    send_error(*peer, services_.metrics, code, message, request_id, id(), reason);
}

void Table::refuse_on_copy(const std::shared_ptr<Peer>& peer, Recheck& recheck, ErrorCode code,
                           std::string_view message, const Json& request_id) {
    if (recheck.read_first()) return;
    error(peer, code, message, request_id);
}

void Table::publish() {
    host_.publish(settings_.is_public, [this] { return summary(); });
}

// --- Commits ------------------------------------------------------------------------------------

void Table::when_ready(std::function<void()> work) {
    touch();
    if (committing_)
        deferred_.push_back(std::move(work));
    else
        work();
}

void Table::committed() {
    committing_ = false;
    while (!committing_ && !deferred_.empty()) {
        auto work = std::move(deferred_.front());
        deferred_.erase(deferred_.begin());
        work();
    }
}

void Table::save(std::function<void(bool ok)> then) {
    committing_ = true;
    ++revision_;
    rows_awaited_ = 0;
    services_.store.save_table(
        stored(), [self = shared_from_this(), then = std::move(then)](Written written) mutable {
            net::post(self->strand_, [self, then = std::move(then), written] {
                self->last_write_ = written;
                if (written != Written::committed)
                    self->retire_after_failure(written == Written::conflict);
                then(written == Written::committed);
                self->committed();
            });
        });
}

void Table::not_saved(const std::shared_ptr<Peer>& peer, const Json& request_id) {
    if (last_write_ == Written::conflict)
        return error(peer, ErrorCode::stale_version,
                     "the table changed on another server meanwhile; nothing of yours changed, "
                     "look again and retry",
                     request_id);
    error(peer, ErrorCode::storage_failed,
          "the server could not save this change; nothing changed, try again", request_id);
}

void Table::retire_after_failure(bool conflict) {
    if (conflict) {
        spdlog::info("table {}: another server changed it first; it reloads from the store", id());
    } else {
        spdlog::error("table {}: a change could not be stored; the table reloads from the store",
                      id());
    }
    retired_ = true;
    bot_timer_.cancel();
    host_.forget(id(), this);
    hand_viewers_over();
}

void Table::retire_closed() {
    retired_ = true;
    bot_timer_.cancel();
    host_.forget(id(), this);
    Json summary = this->summary();
    summary["status"] = "closed";
    broadcast(Json{{"type", "table"}, {"table", summary}});
    viewers_.clear();
    host_.publish(settings_.is_public, [&] { return summary; });
}

void Table::hand_viewers_over() {
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    if (viewers_.empty()) return;
    host_.find(id(), [viewers = std::move(viewers_)](FoundTable found) {
        // Unreadable too: the followers learn of the table again at their next request to it.
        const std::shared_ptr<Table> reloaded = std::move(found.table);
        if (!reloaded) return;
        net::post(reloaded->strand_, [reloaded, viewers] {
            reloaded->when_ready([reloaded, viewers] {
                for (const Viewer& viewer : viewers)
                    if (const auto peer = viewer.peer.lock()) {
                        reloaded->follow(peer, viewer.seat, viewer.user);
                        reloaded->send_state(peer, viewer.seat, viewer.user);
                    }
            });
        });
    });
}

void Table::unload_if_idle(Clock::duration idle) {
    if (committing_ || retired_ || Clock::now() - last_used_ < idle) return;
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    if (!viewers_.empty()) return;
    if (status_ == TableStatus::playing && played_by_bot(game_.state().to_act()))
        return;  // moving on
    spdlog::debug("table {} unloaded (idle)", id());
    retired_ = true;
    bot_timer_.cancel();
    host_.forget(id(), this);
}

// --- Viewers ------------------------------------------------------------------------------------

void Table::follow(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                   std::uint64_t user) {
    for (Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            viewer.seat = seat;
            viewer.user = user;
            return;
        }
    viewers_.push_back({peer, seat, user});
}

void Table::unfollow(const Peer* peer) {
    std::erase_if(viewers_, [&](const Viewer& viewer) {
        const auto locked = viewer.peer.lock();
        return !locked || locked.get() == peer;
    });
}

void Table::broadcast(const Json& json) {
    send_to_viewers(make_message(json.dump()), [](const Viewer&, const Peer&) { return true; });
}

std::string Table::snapshot(std::optional<engine::Seat> seat, std::uint64_t user,
                            const Json& summary, const Json& request_id) const {
    const std::vector<engine::Event> recent(recent_events_.begin(), recent_events_.end());
    engine::View view;
    engine::view_for(game_, seat, view);
    return protocol::snapshot_message(
        {id(), version_, seat, summary, view, recent, recent_chat_for(user)}, request_id);
}

void Table::send_state(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                       std::uint64_t user, const Json& request_id) {
    std::string text;
    if (status_ != TableStatus::waiting) {
        text = snapshot(seat, user, summary(), request_id);
    } else {
        Json state{{"type", "table"}, {"table", summary()}};
        if (!request_id.is_null()) state["id"] = request_id;
        text = state.dump();
    }
    Message message = make_message(std::move(text));
    if (request_id.is_null()) return peer->send(std::move(message));
    peer->send_reply(std::move(message), request_id);
}

void Table::resend_state(const std::shared_ptr<Peer>& peer) {
    for (const Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            services_.metrics.snapshots_for_slow_readers.fetch_add(1);
            return send_state(peer, viewer.seat, viewer.user);
        }
}

}  // namespace gcor::server
