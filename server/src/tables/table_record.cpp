#include "tables/table_record.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <algorithm>
#include <atomic>
#include <cassert>

#include "crypto.hpp"
#include "gcor/engine/state.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {

using protocol::Json;

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

std::string bot_name(int seat, engine::BotKind kind) {
    return "Bot " + std::to_string(seat + 1) + " (" + std::string(engine::bot_id(kind)) + ")";
}

std::optional<UnixMs> deadline_from(const protocol::TimeControl& clock, UnixMs start,
                                    std::uint64_t user, const Vacations& vacations,
                                    std::optional<UnixMs> latest) {
    if (clock.kind == protocol::TimeControl::Kind::none) return std::nullopt;
    const UnixMs per_move =
        std::chrono::duration_cast<std::chrono::milliseconds>(clock.per_move()).count();
    const UnixMs deadline = clock.kind == protocol::TimeControl::Kind::correspondence
                                ? vacations.deadline(user, start, per_move)
                                : start + per_move;
    return latest ? std::min(deadline, *latest) : deadline;
}

std::optional<UnixMs> latest_deadline(const protocol::TableSettings& settings) {
    if (!settings.tournament) return std::nullopt;
    return settings.tournament->deadline;
}

StoredTable new_table_record(std::string id, const protocol::TableSettings& settings,
                             std::uint64_t seed, std::string nonce, std::uint64_t creator) {
    StoredTable table;
    table.id = std::move(id);
    table.created = next_creation_ms();
    table.settings = table_settings_json(settings).dump();
    table.players = settings.options.players;
    table.rules = std::string(engine::variant_id(settings.options.variant));
    table.is_public = settings.is_public;
    table.seed = seed;
    table.commitment = protocol::seed_commitment(seed, nonce);
    table.nonce = std::move(nonce);
    table.rated = settings.rated;
    table.creator = creator;
    table.seats.resize(static_cast<std::size_t>(settings.options.players));
    return table;
}

StoredTable started_table_record(std::string id, const protocol::TableSettings& settings,
                                 const std::vector<User>& players, std::uint64_t seed,
                                 const Vacations& vacations) {
    assert(players.size() == static_cast<std::size_t>(settings.options.players));
    StoredTable table = new_table_record(std::move(id), settings, seed, secure_random_hex(16), 0);
    for (std::size_t seat = 0; seat < players.size(); ++seat)
        table.seats[seat] = StoredSeat{SeatKind::human, players[seat].id, players[seat].name, {}};
    // Who acts first is dealt by the seed: the game's first state says.
    const auto rules = engine::Rules::make(settings.options);
    assert(rules);
    table.status = TableStatus::playing;
    table.to_act = rules->new_game(seed).to_act();
    table.deadline = deadline_from(settings.clock, unix_now_ms(),
                                   players.at(static_cast<std::size_t>(*table.to_act)).id,
                                   vacations, latest_deadline(settings));
    return table;
}

std::string_view status_id(TableStatus status) {
    static constexpr std::array<std::string_view, 3> kIds{"waiting", "playing", "finished"};
    return kIds.at(static_cast<std::size_t>(status));
}

Json seat_json(const StoredSeat& seat) {
    switch (seat.kind) {
        case SeatKind::human: {
            Json human{{"kind", "human"}, {"user", seat.user}, {"name", seat.name}};
            if (seat.forfeited) human["forfeited"] = true;
            return human;
        }
        case SeatKind::bot:
            return Json{{"kind", "bot"}, {"bot", seat.bot}};
        case SeatKind::reserved:
            return Json{{"kind", "reserved"}, {"user", seat.user}, {"name", seat.name}};
        case SeatKind::open:
            break;
    }
    return Json{{"kind", "open"}};
}

namespace {

// The summary with the settings' members from `settings_json` (`fallback` where it has none: a
// table stored before the setting existed has what it then meant).
Json summary_with(const StoredTable& table, const Json& settings_json, const SeatsAway& away) {
    auto setting = [&](const char* key, Json fallback = Json()) {
        const auto it = settings_json.find(key);
        return it == settings_json.end() ? fallback : *it;
    };
    Json seats = Json::array();
    for (std::size_t index = 0; index < table.seats.size(); ++index) {
        Json seat = seat_json(table.seats[index]);
        if (index < away.size() && away[index] && table.seats[index].kind == SeatKind::human)
            seat["away_until"] = *away[index];
        seats.push_back(std::move(seat));
    }
    Json summary{{"id", table.id},
                 {"options", setting("options")},
                 {"status", status_id(table.status)},
                 {"seats", std::move(seats)},
                 {"public", table.is_public},
                 {"spectators", setting("spectators")},
                 {"time_control", setting("time_control")},
                 {"undo", setting("undo", true)},
                 {"chat", setting("chat", "all")},
                 {"version", table.version}};
    if (table.status != TableStatus::waiting) summary["commitment"] = table.commitment;
    if (table.to_act) summary["to_act"] = *table.to_act;
    // A waiting table's deadline is its first invitation's expiry, no seat's clock.
    if (table.deadline && table.status != TableStatus::waiting)
        summary["deadline"] = *table.deadline;
    if (!table.result.empty()) summary["result"] = Json::parse(table.result, nullptr, false);
    if (table.rated) summary["rated"] = true;
    if (setting("start_when_full") == true) summary["start_when_full"] = true;
    if (const Json name = setting("name"); !name.is_null()) summary["name"] = name;
    if (const Json league = setting("league"); !league.is_null()) summary["league"] = league;
    if (const Json tournament = setting("tournament"); !tournament.is_null())
        summary["tournament"] = tournament;
    return summary;
}

}  // namespace

Json summary_json(const StoredTable& table, const SeatsAway& away) {
    const auto settings = StoredGame::read_settings(table);
    if (settings) return summary_json(table, *settings, away);
    spdlog::warn("table {}: {}", table.id, settings.error().message);
    return summary_with(table, Json::object(), away);
}

Json summary_json(const StoredTable& table, const protocol::TableSettings& settings,
                  const SeatsAway& away) {
    return summary_with(table, table_settings_json(settings), away);
}

Json your_turn_json(const std::string& table, int seat, std::uint64_t version,
                    std::optional<UnixMs> deadline) {
    return Json{{"type", "your_turn"},
                {"table", table},
                {"seat", seat},
                {"version", version},
                {"deadline", deadline ? Json(*deadline) : Json()}};
}

}  // namespace gcor::server
