#pragma once
// A table as the store keeps it, and the JSON forms made from that record: the summary (a row of
// the lobby, "my games", a league's page) and the your_turn notice. A table in memory writes its
// record here; so does a league's start, which stores tables that nobody has loaded yet.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "accounts/vacations.hpp"
#include "gcor/engine/bot.hpp"
#include "gcor/protocol/table_settings.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"

namespace gcor::server {

// A new table's creation time: the clock's, but later than every table this process made
// before, so that the lobby's "oldest first" is the order of creation within a millisecond too.
UnixMs next_creation_ms();

// What a bot is called at a table: "Bot 2 (greedy)".
std::string bot_name(int seat, engine::BotKind kind);

// When `user`'s turn that starts at `start` runs out of time; nullopt without a time control. A
// correspondence clock stops while the user is on vacation; a real-time one never does. Never
// after `latest` (a tournament round's deadline): a turn that starts later is out of time at once.
std::optional<UnixMs> deadline_from(const protocol::TimeControl& clock, UnixMs start,
                                    std::uint64_t user, const Vacations& vacations,
                                    std::optional<UnixMs> latest = std::nullopt);

// The moment no turn's time runs past at a table with these settings: its tournament round's
// deadline, if any.
std::optional<UnixMs> latest_deadline(const protocol::TableSettings& settings);

// What never changes in a table's record: id, settings, seed, nonce, commitment and creator (0:
// nobody's); waiting, created now, with open seats.
StoredTable new_table_record(std::string id, const protocol::TableSettings& settings,
                             std::uint64_t seed, std::string nonce, std::uint64_t creator);

// A league's table: started with `players` seated in order, as it will be stored (the first
// player's deadline as `vacations` make it). The table is loaded into memory when somebody first
// uses it. It has no creator: nobody's blocks change a league's pairings.
StoredTable started_table_record(std::string id, const protocol::TableSettings& settings,
                                 const std::vector<User>& players, std::uint64_t seed,
                                 const Vacations& vacations);

// A status as the protocol names it: "waiting", "playing" or "finished".
std::string_view status_id(TableStatus status);

// A table's summary (a row of the lobby and of "my games"), its settings read from the row's text,
// or given by a table that holds them already; `away` marks the seats whose players are on
// vacation (Vacations::seats_away).
// A seat as summaries and replays show it: {"kind":"human","user","name"[,"forfeited"]},
// {"kind":"bot","bot"} or {"kind":"open"}.
protocol::Json seat_json(const StoredSeat& seat);
protocol::Json summary_json(const StoredTable& table, const SeatsAway& away);
protocol::Json summary_json(const StoredTable& table, const protocol::TableSettings& settings,
                            const SeatsAway& away);

protocol::Json your_turn_json(const std::string& table, int seat, std::uint64_t version,
                              std::optional<UnixMs> deadline);

}  // namespace gcor::server
