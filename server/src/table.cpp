#include "table.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include <boost/container/small_vector.hpp>

#include "crypto.hpp"
#include "gcor/protocol/view_json.hpp"
#include "lobby.hpp"
#include "notifier.hpp"
#include "ratings.hpp"

namespace gcor::server {
namespace {

// A new table's creation time: the clock's, but later than every table this process made
// before, so that the lobby's "oldest first" is the order of creation within a millisecond too.
UnixMs next_creation_ms() {
    static std::atomic<UnixMs> last{0};
    const UnixMs now = unix_now_ms();
    UnixMs previous = last.load();
    UnixMs next = 0;
    do
        next = std::max(now, previous + 1);
    while (!last.compare_exchange_weak(previous, next));
    return next;
}

using protocol::ErrorCode;
using protocol::Json;

constexpr std::size_t kRecentEvents = 64;    // log lines a snapshot carries
constexpr std::size_t kAppliedMoveIds = 32;  // per seat, answered again without applying
constexpr std::size_t kSpectators = engine::kMaxPlayers;  // the patch slot of the spectators

const char* status_id(TableStatus status) {
    switch (status) {
        case TableStatus::waiting:
            return "waiting";
        case TableStatus::playing:
            return "playing";
        case TableStatus::finished:
            return "finished";
    }
    return "waiting";
}

const char* seat_kind_id(SeatInfo::Kind kind) {
    switch (kind) {
        case SeatInfo::Kind::open:
            return "open";
        case SeatInfo::Kind::human:
            return "human";
        case SeatInfo::Kind::bot:
            return "bot";
    }
    return "open";
}

std::size_t slot_of(std::optional<engine::Seat> seat) {
    return seat ? *seat : kSpectators;
}

Json turn_json(const std::string& table, int seat, std::uint64_t version,
               std::optional<UnixMs> deadline) {
    return Json{{"type", "your_turn"},
                {"table", table},
                {"seat", seat},
                {"version", version},
                {"deadline", deadline ? Json(*deadline) : Json()}};
}

}  // namespace

Json summary_json(const StoredTable& table) {
    const Json settings = Json::parse(table.settings, nullptr, false);
    auto setting = [&](const char* key) {
        return settings.is_object() && settings.contains(key) ? settings[key] : Json();
    };
    Json seats = Json::array();
    for (const StoredSeat& seat : table.seats) {
        if (seat.kind == "human") {
            Json human{{"kind", "human"}, {"user", seat.user}, {"name", seat.name}};
            if (seat.forfeited) human["forfeited"] = true;
            seats.push_back(std::move(human));
        } else if (seat.kind == "bot") {
            seats.push_back(Json{{"kind", "bot"}, {"bot", seat.bot}});
        } else {
            seats.push_back(Json{{"kind", "open"}});
        }
    }
    Json summary{{"id", table.id},
                 {"options", setting("options")},
                 {"status", table.status},
                 {"seats", std::move(seats)},
                 {"public", table.is_public},
                 {"spectators", setting("spectators")},
                 {"time_control", setting("time_control")},
                 {"version", table.version}};
    if (table.status != "waiting") summary["commitment"] = table.commitment;
    if (table.to_act) summary["to_act"] = *table.to_act;
    if (table.deadline) summary["deadline"] = *table.deadline;
    if (!table.result.empty()) summary["result"] = Json::parse(table.result, nullptr, false);
    if (table.rated) summary["rated"] = true;
    if (const Json league = setting("league"); !league.is_null()) summary["league"] = league;
    return summary;
}

// --- Making and restoring -----------------------------------------------------------------------

namespace {

// A table's settings as stored: a create_table request's fields, and the league a league table
// belongs to.
std::string settings_text(const protocol::Request& settings, const Json& league) {
    Json text{{"options", protocol::options_to_json(settings.options)},
              {"public", settings.is_public},
              {"spectators", settings.spectators},
              {"time_control", protocol::time_control_to_json(settings.clock)}};
    if (settings.rated) text["rated"] = true;
    if (!league.is_null()) text["league"] = league;
    return text.dump();
}

}  // namespace

Table::Table(net::io_context& io, Services& services, std::string id,
             const protocol::Request& settings, std::uint64_t seed, std::string nonce,
             const Json& league)
    : services_(services),
      metrics_(services.metrics),
      strand_(net::make_strand(io)),
      bot_timer_(strand_),
      id_(std::move(id)),
      id_json_(Json(id_).dump()),
      rules_(*engine::Rules::make(settings.options)),
      is_public_(settings.is_public),
      spectators_(settings.spectators),
      rated_(settings.rated),
      clock_(settings.clock),
      seed_(seed),
      nonce_(std::move(nonce)),
      commitment_(protocol::seed_commitment(seed_, nonce_)),
      settings_(settings_text(settings, league)),
      bot_rng_(seed_ ^ 0x9e3779b97f4a7c15ull) {
    metrics_.tables_waiting.fetch_add(1);
}

Table::~Table() {
    gauge(status_).fetch_sub(1);
}

std::shared_ptr<Table> Table::create(net::io_context& io, Services& services, std::string id,
                                     const protocol::Request& request, std::uint64_t seed) {
    std::shared_ptr<Table> table(
        new Table(io, services, std::move(id), request, seed, secure_random_hex(16), Json()));
    table->created_ = next_creation_ms();
    table->committing_ = true;  // nothing reaches the table before save_new stored it
    for (int seat = 0; seat < request.options.players; ++seat)
        if (const auto bot = request.bots[static_cast<std::size_t>(seat)])
            table->seats_[static_cast<std::size_t>(seat)] = SeatInfo{SeatInfo::Kind::bot, {}, *bot};
    return table;
}

StoredTable Table::started_with(net::io_context& io, Services& services, std::string id,
                                const protocol::Request& settings, const std::vector<User>& players,
                                const Json& league, std::uint64_t seed) {
    assert(players.size() == static_cast<std::size_t>(settings.options.players));
    std::shared_ptr<Table> table(
        new Table(io, services, std::move(id), settings, seed, secure_random_hex(16), league));
    table->created_ = next_creation_ms();
    for (std::size_t seat = 0; seat < players.size(); ++seat)
        table->seats_[seat] = SeatInfo{SeatInfo::Kind::human, players[seat], {}, false};
    table->begin_game();
    table->set_status(TableStatus::playing);
    table->set_deadline();
    return table->stored();
}

void Table::tell_turn_of_stored(Services& services, const StoredTable& table) {
    if (!table.to_act || table.status != "playing") return;
    const StoredSeat& seat = table.seats.at(static_cast<std::size_t>(*table.to_act));
    if (seat.kind != "human" || seat.forfeited) return;
    services.notifier.your_turn(seat.user, [&table] {
        return turn_json(table.id, *table.to_act, table.version, table.deadline);
    });
}

std::shared_ptr<Table> Table::restore(net::io_context& io, Services& services,
                                      const LoadedTable& loaded) {
    const StoredTable& stored = loaded.table;
    auto broken = [&](const std::string& why) -> std::shared_ptr<Table> {
        spdlog::error("table {} cannot be loaded: {}", stored.id, why);
        return nullptr;
    };
    // The settings are a create_table request's fields, read by the same strict parser, and
    // the league of a league table.
    Json settings = Json::parse(stored.settings, nullptr, false);
    if (!settings.is_object()) return broken("its settings are not JSON");
    Json league;
    if (const auto it = settings.find("league"); it != settings.end()) {
        league = *it;
        settings.erase(it);
    }
    settings["type"] = "create_table";
    auto parsed = protocol::parse_request(settings.dump(), {});
    if (const auto* error = std::get_if<protocol::RequestError>(&parsed))
        return broken("its settings are refused: " + error->message);
    const protocol::Request& request = std::get<protocol::Request>(parsed);
    if (stored.seats.size() != static_cast<std::size_t>(request.options.players))
        return broken("it has " + std::to_string(stored.seats.size()) + " seats");

    std::shared_ptr<Table> table(
        new Table(io, services, stored.id, request, stored.seed, stored.nonce, league));
    table->created_ = stored.created;
    for (std::size_t seat = 0; seat < stored.seats.size(); ++seat) {
        const StoredSeat& from = stored.seats[seat];
        SeatInfo& info = table->seats_[seat];
        if (from.kind == "human") {
            info = SeatInfo{SeatInfo::Kind::human, User{from.user, from.name}, {}, from.forfeited};
        } else if (from.kind == "bot") {
            const auto bot = engine::bot_from_id(from.bot);
            if (!bot) return broken("unknown bot \"" + from.bot + "\"");
            info = SeatInfo{SeatInfo::Kind::bot, {}, *bot, false};
        }
    }
    if (stored.status == "waiting") return table;

    table->begin_game();
    for (const StoredMove& stored_move : loaded.moves) {
        const auto move = engine::Move::parse(stored_move.move);
        if (!move || stored_move.seat < 0 || stored_move.seat >= request.options.players)
            return broken("move " + std::to_string(stored_move.seq) + " is not a move");
        const auto seat = static_cast<engine::Seat>(stored_move.seat);
        table->scratch_events_.clear();
        if (const auto refused = table->state_.apply(seat, *move, &table->scratch_events_);
            refused != engine::MoveError::none)
            return broken("move " + std::to_string(stored_move.seq) + " (\"" + stored_move.move +
                          "\") is refused: " + std::string(engine::error_message(refused)));
        ++table->version_;
        table->remember_events(table->scratch_events_);
        if (!stored_move.move_id.empty()) table->remember_move_id(seat, stored_move.move_id);
    }
    for (std::size_t seat = 0; seat < stored.seats.size(); ++seat)
        if (table->seats_[seat].forfeited)
            table->state_.forfeited =
                static_cast<std::uint8_t>(table->state_.forfeited | 1u << seat);
    table->set_status(table->state_.over() ? TableStatus::finished : TableStatus::playing);
    table->deadline_ = table->status_ == TableStatus::playing ? stored.deadline : std::nullopt;
    return table;
}

void Table::save_new(std::function<void(bool ok)> done) {
    save(std::move(done));
}

// --- State --------------------------------------------------------------------------------------

StoredTable Table::stored() const {
    StoredTable table;
    table.id = id_;
    table.created = created_;
    table.settings = settings_;
    table.players = rules_.options().players;
    table.rules = std::string(engine::variant_id(rules_.options().variant));
    table.is_public = is_public_;
    table.seed = seed_;
    table.nonce = nonce_;
    table.commitment = commitment_;
    set_progress(table, progress());
    table.rated = rated_;
    table.seats.reserve(static_cast<std::size_t>(rules_.options().players));
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        table.seats.push_back(StoredSeat{seat_kind_id(info.kind), info.user.id,
                                         info.kind == SeatInfo::Kind::bot
                                             ? bot_name(static_cast<engine::Seat>(seat))
                                             : info.user.name,
                                         std::string(engine::bot_id(info.bot)), info.forfeited});
    }
    return table;
}

// What a move changes in the stored row: far less than stored(), which copies the settings and
// the seats.
TableProgress Table::progress() const {
    TableProgress progress;
    progress.id = id_;
    progress.status = status_id(status_);
    progress.version = version_;
    if (status_ == TableStatus::playing) {
        progress.to_act = state_.to_act();
        progress.deadline = deadline_;
    }
    if (status_ == TableStatus::finished) progress.result = result().dump();
    return progress;
}

Json Table::result() const {
    Json result = protocol::result_to_json(state_);
    Json forfeited = Json::array();
    for (int seat = 0; seat < rules_.options().players; ++seat)
        if (seats_[static_cast<std::size_t>(seat)].forfeited) forfeited.push_back(seat);
    result["forfeited"] = std::move(forfeited);
    return result;
}

std::string Table::bot_name(engine::Seat seat) const {
    return "Bot " + std::to_string(seat + 1) + " (" +
           std::string(engine::bot_id(seats_[seat].bot)) + ")";
}

void Table::begin_game() {
    names_.clear();
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        names_.push_back(info.kind == SeatInfo::Kind::human
                             ? info.user.name
                             : bot_name(static_cast<engine::Seat>(seat)));
    }
    scratch_events_.clear();
    state_ = rules_.new_game(seed_, &scratch_events_);
    recent_events_.assign(scratch_events_.begin(), scratch_events_.end());
}

std::optional<engine::Seat> Table::seat_of(const User& user) const {
    for (int seat = 0; seat < rules_.options().players; ++seat) {
        const SeatInfo& info = seats_[static_cast<std::size_t>(seat)];
        if (info.kind == SeatInfo::Kind::human && info.user.id == user.id)
            return static_cast<engine::Seat>(seat);
    }
    return std::nullopt;
}

bool Table::played_by_bot(engine::Seat seat) const {
    return seats_[seat].kind == SeatInfo::Kind::bot || seats_[seat].forfeited;
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
                  const Json& id, const char* reason) {
    services_.metrics.count_error(code);
    spdlog::debug("table {}: {} ({})", id_, protocol::error_id(code), message);
    Json json = protocol::error_json(code, message, id, id_);
    if (reason) json["reason"] = reason;
    peer->send_reply(make_message(json.dump()), id);
}

void Table::publish() {
    services_.lobby.publish(is_public_, [this] { return summary(); });
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
    services_.store.save_table(
        stored(), [self = shared_from_this(), then = std::move(then)](bool ok) mutable {
            net::post(self->strand_, [self, then = std::move(then), ok] {
                if (!ok) self->retire_after_failure();
                then(ok);
                self->committed();
            });
        });
}

void Table::retire_after_failure() {
    spdlog::error("table {}: a change could not be stored; the table reloads from the store", id_);
    retired_ = true;
    bot_timer_.cancel();
    services_.lobby.forget(id_, this);
    hand_viewers_over();
}

void Table::hand_viewers_over() {
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    if (viewers_.empty()) return;
    std::shared_ptr<Table> reloaded;
    try {
        reloaded = services_.lobby.find(id_);
    } catch (const StorageFailure& failure) {
        spdlog::error("table {}: cannot reload: {}", id_, failure.what());
    }
    // Unreadable too: the followers learn of the table again at their next request to it.
    if (!reloaded) return;
    net::post(reloaded->strand_, [reloaded, viewers = std::move(viewers_)] {
        reloaded->when_ready([reloaded, viewers] {
            for (const Viewer& viewer : viewers)
                if (const auto peer = viewer.peer.lock()) {
                    reloaded->follow(peer, viewer.seat);
                    reloaded->send_state(peer, viewer.seat);
                }
        });
    });
}

void Table::unload_if_idle(Clock::duration idle) {
    if (committing_ || retired_ || Clock::now() - last_used_ < idle) return;
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    if (!viewers_.empty()) return;
    if (status_ == TableStatus::playing && played_by_bot(state_.to_act())) return;  // moving on
    spdlog::debug("table {} unloaded (idle)", id_);
    retired_ = true;
    bot_timer_.cancel();
    services_.lobby.forget(id_, this);
}

// --- Viewers ------------------------------------------------------------------------------------

void Table::follow(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat) {
    for (Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            viewer.seat = seat;
            return;
        }
    viewers_.push_back({peer, seat});
}

void Table::unfollow(const Peer* peer) {
    std::erase_if(viewers_, [&](const Viewer& viewer) {
        const auto locked = viewer.peer.lock();
        return !locked || locked.get() == peer;
    });
}

void Table::broadcast(const Json& json) {
    const Message message = make_message(json.dump());
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    for (const Viewer& viewer : viewers_)
        if (const auto peer = viewer.peer.lock()) peer->send(message);
}

std::vector<std::string> Table::log_lines(const std::vector<engine::Event>& events,
                                          std::optional<engine::Seat> viewer) const {
    std::vector<std::string> lines;
    lines.reserve(events.size());
    for (const engine::Event& event : events)
        lines.push_back(engine::describe(event, viewer, names_));
    return lines;
}

Json Table::snapshot(std::optional<engine::Seat> seat, const Json& summary) const {
    const std::vector<engine::Event> recent(recent_events_.begin(), recent_events_.end());
    return Json{{"type", "snapshot"},
                {"table", id_},
                {"version", version_},
                {"seat", seat ? Json(*seat) : Json()},
                {"summary", summary},
                {"view", protocol::view_to_json(engine::view_for(state_, seat))},
                {"log", log_lines(recent, seat)}};
}

void Table::send_state(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                       const Json& id) {
    Json state = status_ == TableStatus::waiting ? Json{{"type", "table"}, {"table", summary()}}
                                                 : snapshot(seat, summary());
    if (id.is_null()) return peer->send(make_message(state.dump()));
    state["id"] = id;
    peer->send_reply(make_message(state.dump()), id);
}

void Table::resend_state(const std::shared_ptr<Peer>& peer) {
    for (const Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            services_.metrics.snapshots_for_slow_readers.fetch_add(1);
            return send_state(peer, viewer.seat);
        }
}

// --- Requests -----------------------------------------------------------------------------------

namespace {

Json reply_to(Json reply, const Json& id) {
    if (!id.is_null()) reply["id"] = id;
    return reply;
}

constexpr std::string_view kNotStored =
    "the server could not save this change; nothing changed, try again";

}  // namespace

void Table::sit(const std::shared_ptr<Peer>& peer, const User& user,
                const protocol::Request& request) {
    if (status_ != TableStatus::waiting)
        return error(peer, ErrorCode::already_started, "the game has started", request.id);
    if (seat_of(user))
        return error(peer, ErrorCode::already_seated, "you already have a seat at this table",
                     request.id);
    if (rated_ && user.guest)
        return error(peer, ErrorCode::registered_only,
                     "only registered players sit at a rated table: log in first", request.id);
    int seat = -1;
    if (request.seat) {
        if (*request.seat >= rules_.options().players)
            return error(peer, ErrorCode::bad_field, "this table has no such seat", request.id);
        if (seats_[static_cast<std::size_t>(*request.seat)].kind != SeatInfo::Kind::open)
            return error(peer, ErrorCode::seat_taken, "that seat is taken", request.id);
        seat = *request.seat;
    } else {
        for (int s = 0; s < rules_.options().players && seat < 0; ++s)
            if (seats_[static_cast<std::size_t>(s)].kind == SeatInfo::Kind::open) seat = s;
        if (seat < 0) return error(peer, ErrorCode::table_full, "every seat is taken", request.id);
    }
    seats_[static_cast<std::size_t>(seat)] = SeatInfo{SeatInfo::Kind::human, user, {}, false};
    save([this, peer, seat, id = request.id](bool ok) {
        if (!ok) return error(peer, ErrorCode::storage_failed, kNotStored, id);
        follow(peer, static_cast<engine::Seat>(seat));
        peer->send_reply(
            make_message(
                reply_to(Json{{"type", "seated"}, {"table", id_}, {"seat", seat}}, id).dump()),
            id);
        broadcast(Json{{"type", "table"}, {"table", summary()}});
        publish();
    });
}

void Table::leave(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::Request& request) {
    unfollow(peer.get());
    const Message left =
        make_message(reply_to(Json{{"type", "left"}, {"table", id_}}, request.id).dump());
    const Json& id = request.id;
    // Before the start a seat is freed; after it, the seat stays the player's and only this
    // connection stops following the table.
    const auto seat = seat_of(user);
    if (!seat || status_ != TableStatus::waiting) return peer->send_reply(left, id);
    seats_[*seat] = SeatInfo{};
    save([this, peer, left, id](bool ok) {
        if (!ok) return error(peer, ErrorCode::storage_failed, kNotStored, id);
        peer->send_reply(left, id);
        broadcast(Json{{"type", "table"}, {"table", summary()}});
        publish();
    });
}

void Table::start(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::Request& request) {
    if (!seat_of(user))
        return error(peer, ErrorCode::not_seated, "only a seated player may start the game",
                     request.id);
    if (status_ != TableStatus::waiting)
        return error(peer, ErrorCode::already_started, "the game has started", request.id);
    for (int seat = 0; seat < rules_.options().players; ++seat)
        if (seats_[static_cast<std::size_t>(seat)].kind == SeatInfo::Kind::open)
            return error(peer, ErrorCode::not_full, "every seat must be taken before the start",
                         request.id);
    begin_game();
    set_status(TableStatus::playing);
    set_deadline();
    save([this, peer, id = request.id](bool ok) {
        if (!ok) return error(peer, ErrorCode::storage_failed, kNotStored, id);
        peer->send_reply(
            make_message(
                reply_to(Json{{"type", "started"}, {"table", id_}, {"commitment", commitment_}}, id)
                    .dump()),
            id);
        std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
        const Json summary_now = summary();
        for (const Viewer& viewer : viewers_)
            if (const auto follower = viewer.peer.lock())
                follower->send(make_message(snapshot(viewer.seat, summary_now).dump()));
        publish();
        tell_turn();
        schedule_bot();
    });
}

void Table::watch(const std::shared_ptr<Peer>& peer, const User& user,
                  const protocol::Request& request) {
    const auto seat = seat_of(user);
    if (!seat && !spectators_)
        return error(peer, ErrorCode::spectators_not_allowed, "this table takes no spectators",
                     request.id);
    follow(peer, seat);
    send_state(peer, seat, request.id);
}

void Table::move(const std::shared_ptr<Peer>& peer, const User& user,
                 const protocol::Request& request, Clock::time_point arrived) {
    const auto seat = seat_of(user);
    if (!seat)
        return error(peer, ErrorCode::not_seated, "you have no seat at this table", request.id);
    if (status_ == TableStatus::waiting)
        return error(peer, ErrorCode::not_started, "the game has not started", request.id);
    // The same move id again (a client retrying after a lost connection): the same answer.
    for (const AppliedMove& done : applied_[*seat])
        if (done.move_id == request.move_id)
            return peer->send_reply(make_message(reply_to(Json{{"type", "ack"},
                                                               {"table", id_},
                                                               {"move_id", request.move_id},
                                                               {"version", done.version}},
                                                          request.id)
                                                     .dump()),
                                    request.id);
    if (status_ == TableStatus::finished)
        return error(peer, ErrorCode::game_over, "the game is over", request.id);
    if (request.version != version_) {
        error(peer, ErrorCode::stale_version,
              "the move was made on version " + std::to_string(request.version) +
                  "; the table is at " + std::to_string(version_) + " (a snapshot follows)",
              request.id);
        follow(peer, seat);
        return send_state(peer, seat);
    }
    if (seats_[*seat].forfeited)
        return error(peer, ErrorCode::not_your_turn,
                     "you forfeited this game: a bot plays your seat", request.id);
    if (const engine::MoveError refused = state_.check(*seat, request.move);
        refused != engine::MoveError::none) {
        const bool turn = refused == engine::MoveError::not_your_turn;
        return error(peer, turn ? ErrorCode::not_your_turn : ErrorCode::illegal_move,
                     engine::error_message(refused), request.id,
                     std::string(engine::error_code(refused)).c_str());
    }
    follow(peer, seat);
    play(*seat, request.move, "player", request.move_id,
         Mover{peer, request.id, arrived, request.move_id});
}

// --- Playing ------------------------------------------------------------------------------------

void Table::play(engine::Seat seat, const engine::Move& move, std::string_view by,
                 const std::string& move_id, std::optional<Mover> mover) {
    const engine::State before = state_;
    const TableStatus status_before = status_;
    const std::optional<UnixMs> deadline_before = deadline_;
    scratch_events_.clear();
    const engine::MoveError refused = state_.apply(seat, move, &scratch_events_);
    assert(refused == engine::MoveError::none);
    (void)refused;
    ++version_;
    remember_events(scratch_events_);
    if (!move_id.empty()) remember_move_id(seat, move_id);
    if (state_.over()) set_status(TableStatus::finished);
    set_deadline();

    // The patches are made while the commit is under way; they leave once it is done.
    Outgoing outgoing = patches_for(before, scratch_events_);
    if (mover) {
        // The patch is the acknowledgement: one message to the mover, not a patch and an ack.
        assert(outgoing.patches[seat]);  // move() made the mover a follower of its seat
        const std::string& patch = *outgoing.patches[seat];
        std::string text = patch.substr(0, patch.size() - 1);
        text += R"(,"move_id":)";
        protocol::append_json_string(text, mover->move_id);
        if (!mover->request_id.is_null()) {
            text += R"(,"id":)";
            text += mover->request_id.dump();
        }
        text.push_back('}');
        outgoing.acknowledging_patch = make_message(std::move(text));
        outgoing.mover = mover->peer;
        outgoing.request_id = std::move(mover->request_id);
        outgoing.move_id = std::move(mover->move_id);
        outgoing.arrived = mover->arrived;
    }
    outgoing.seat = seat;
    outgoing.status_changed = status_ != status_before;
    const StoredMove stored_move{version_, seat,          move.to_string(),
                                 move_id,  unix_now_ms(), std::string(by)};
    TableProgress progress = this->progress();
    progress.turn_only = !outgoing.status_changed && deadline_ == deadline_before;
    committing_ = true;
    services_.store.append_move(
        std::move(progress), stored_move,
        [self = shared_from_this(), outgoing = std::move(outgoing)](bool ok) mutable {
            net::post(self->strand_, [self, outgoing = std::move(outgoing), ok] {
                self->after_move(ok, outgoing);
                self->committed();
            });
        });
}

void Table::after_move(bool ok, const Outgoing& outgoing) {
    const auto mover = outgoing.mover.lock();
    if (!ok) {
        if (mover) {
            services_.metrics.count_error(ErrorCode::storage_failed);
            Json json = protocol::error_json(ErrorCode::storage_failed,
                                             "the server could not save the move; the table goes "
                                             "back to its last saved state (a snapshot follows)",
                                             outgoing.request_id, id_);
            json["move_id"] = outgoing.move_id;
            mover->send_reply(make_message(json.dump()), outgoing.request_id);
        }
        return retire_after_failure();
    }
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    for (const Viewer& viewer : viewers_)
        if (const Message& patch = outgoing.patches[slot_of(viewer.seat)])
            if (const auto peer = viewer.peer.lock(); peer && peer != mover) peer->send(patch);
    if (mover && outgoing.acknowledging_patch) {
        // The mover's reply: kept when news are dropped (a slow reader still learns its move
        // was stored; the snapshot that follows a lag brings the rest).
        mover->send_reply(outgoing.acknowledging_patch, outgoing.request_id);
        services_.metrics.move_seconds.observe(Clock::now() - outgoing.arrived);
    }
    services_.metrics.moves.fetch_add(1, std::memory_order_relaxed);
    if (outgoing.status_changed) publish();
    if (outgoing.status_changed && rated_ && status_ == TableStatus::finished)
        net::post(services_.blocking, [&ratings = services_.ratings] { ratings.rate_pending(); });
    if (status_ == TableStatus::playing && state_.to_act() != outgoing.seat) tell_turn();
    schedule_bot();
}

// Each distinct viewer (a seat, or the spectators) gets one patch, serialized once and shared by
// every connection of that viewer.
Table::Outgoing Table::patches_for(const engine::State& before,
                                   const std::vector<engine::Event>& events) {
    Outgoing outgoing;
    // The views after the previous move are this move's views before: kept, not built again.
    if (!views_) views_ = std::make_unique<std::array<std::optional<engine::View>, kSlots>>();
    std::array<std::optional<engine::View>, kSlots>& views = *views_;
    const bool cached = views_version_ == version_ - 1;
    std::array<bool, kSlots> fresh{};
    // Each view after the move is made in this thread's scratch view, which then trades places
    // with the slot's view before: the lists keep their storage, so views stop allocating.
    thread_local engine::View after_view;
    // Likewise the shared parts of the messages, written into this thread's strings.
    thread_local std::string public_ops;
    thread_local std::string log;
    public_ops.clear();
    bool public_written = false;
    // The log lines differ between viewers only where they name a card that some may not see.
    const bool log_for_all = std::ranges::all_of(
        events, [](const engine::Event& event) { return event.known_to == engine::kEveryone; });
    bool log_written = false;
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    for (const Viewer& viewer : viewers_) {
        const std::size_t slot = slot_of(viewer.seat);
        Message& patch = outgoing.patches[slot];
        if (patch) continue;
        // A view not kept from the last move is built again, into whatever storage it had.
        const bool kept = cached && views[slot];
        if (!views[slot]) views[slot].emplace();
        if (!kept) engine::view_for(before, viewer.seat, *views[slot]);
        engine::view_for(state_, viewer.seat, after_view);
        // What every viewer sees alike is the same text for all: written once.
        if (!public_written) {
            protocol::append_public_ops(public_ops, *views[slot], after_view);
            public_written = true;
        }
        if (!log_for_all || !log_written) {
            log.clear();
            for (const engine::Event& event : events) {
                if (&event != events.data()) log.push_back(',');
                protocol::append_json_string(log, engine::describe(event, viewer.seat, names_));
            }
            log_written = true;
        }
        // Written as text: no JSON tree to build and dump. The viewer's own operations (its
        // hand, and its moves when it is to act) are mostly under 256 bytes.
        std::string text;
        text.reserve(128 + public_ops.size() + log.size() + 256);
        text += R"({"type":"patch","table":)";
        text += id_json_;
        text += R"(,"from":)";
        text += std::to_string(version_ - 1);
        text += R"(,"to":)";
        text += std::to_string(version_);
        text += R"(,"ops":)";
        protocol::append_view_patch(text, public_ops, *views[slot], after_view);
        text += R"(,"log":[)";
        text += log;
        text += "]}";
        patch = make_message(std::move(text));
        std::swap(*views[slot], after_view);
        fresh[slot] = true;
    }
    for (std::size_t slot = 0; slot < kSlots; ++slot)
        if (!fresh[slot]) views[slot].reset();
    views_version_ = version_;
    return outgoing;
}

void Table::set_deadline() {
    deadline_.reset();
    if (status_ != TableStatus::playing || clock_.kind == protocol::TimeControl::Kind::none ||
        played_by_bot(state_.to_act()))
        return;
    deadline_ = unix_now_ms() +
                std::chrono::duration_cast<std::chrono::milliseconds>(clock_.per_move()).count();
}

void Table::tell_turn() {
    if (status_ != TableStatus::playing) return;
    const engine::Seat seat = state_.to_act();
    const SeatInfo& info = seats_[seat];
    if (info.kind != SeatInfo::Kind::human || info.forfeited) return;
    // A connection that follows the table as this seat already knows from its patch or snapshot.
    boost::container::small_vector<const Peer*, 4> following;
    for (const Viewer& viewer : viewers_)
        if (viewer.seat == seat)
            if (const auto peer = viewer.peer.lock()) following.push_back(peer.get());
    services_.notifier.your_turn(
        info.user.id, [this, seat] { return turn_json(id_, seat, version_, deadline_); },
        std::span(following.data(), following.size()));
}

void Table::on_deadline() {
    if (retired_ || status_ != TableStatus::playing || !deadline_ || *deadline_ > unix_now_ms())
        return;
    const engine::Seat seat = state_.to_act();
    if (played_by_bot(seat)) return;
    if (clock_.on_timeout == protocol::TimeControl::OnTimeout::bot) {
        spdlog::info("table {}: seat {} is out of time; a bot makes this move", id_, seat);
        const engine::Move move =
            engine::choose_move(engine::BotKind::greedy, engine::view_for(state_, seat), bot_rng_);
        return play(seat, move, "timeout", {}, std::nullopt);
    }
    spdlog::info("table {}: seat {} is out of time and forfeits", id_, seat);
    seats_[seat].forfeited = true;
    state_.forfeited = static_cast<std::uint8_t>(state_.forfeited | 1u << seat);
    views_version_ = kNoViews;  // the state changed without a move
    deadline_.reset();
    save([this, seat](bool ok) {
        if (!ok) return;
        broadcast(Json{{"type", "forfeited"}, {"table", id_}, {"seat", seat}});
        broadcast(Json{{"type", "table"}, {"table", summary()}});
        publish();
        schedule_bot();
    });
}

void Table::schedule_bot() {
    if (status_ != TableStatus::playing || retired_) return;
    if (!played_by_bot(state_.to_act())) return;
    bot_timer_.expires_after(services_.config.bot_delay);
    bot_timer_.async_wait(
        [self = shared_from_this(), version = version_](const boost::system::error_code& ec) {
            if (ec) return;
            self->when_ready([self, version] {
                if (self->retired_ || self->version_ != version ||
                    self->status_ != TableStatus::playing)
                    return;
                const engine::Seat seat = self->state_.to_act();
                if (!self->played_by_bot(seat)) return;
                // A forfeited seat is played by the greedy bot.
                const SeatInfo& info = self->seats_[seat];
                const engine::BotKind kind =
                    info.kind == SeatInfo::Kind::bot ? info.bot : engine::BotKind::greedy;
                const engine::Move move =
                    engine::choose_move(kind, engine::view_for(self->state_, seat), self->bot_rng_);
                self->play(seat, move, "bot", {}, std::nullopt);
            });
        });
}

}  // namespace gcor::server
