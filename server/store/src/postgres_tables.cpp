#include "postgres_tables.hpp"

#include "group_writer.hpp"
#include "store_texts.hpp"

namespace gcor::server::postgres_tables {

using store_texts::text_of;

void save(pg::Connection& db, const StoredTable& table) {
    const pg::Result saved = db.query(
        "INSERT INTO tables (id, created, settings, players, rules, public, seed, nonce, "
        "commitment, status, version, to_act, deadline, result, rated, revision, created_by) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) "
        "ON CONFLICT (id) DO UPDATE SET created = EXCLUDED.created, "
        "settings = EXCLUDED.settings, players = EXCLUDED.players, rules = EXCLUDED.rules, "
        "public = EXCLUDED.public, seed = EXCLUDED.seed, nonce = EXCLUDED.nonce, "
        "commitment = EXCLUDED.commitment, status = EXCLUDED.status, "
        "version = EXCLUDED.version, to_act = EXCLUDED.to_act, deadline = EXCLUDED.deadline, "
        "result = EXCLUDED.result, "
        "rated = CASE WHEN EXCLUDED.rated = 0 THEN 0 ELSE greatest(tables.rated, 1) END, "
        "revision = EXCLUDED.revision, created_by = EXCLUDED.created_by "
        "WHERE EXCLUDED.revision = 0 OR tables.revision = EXCLUDED.revision - 1",
        pg::params(table.id, table.created, table.settings, table.players, table.rules,
                   table.is_public, table.seed, table.nonce, table.commitment,
                   text_of(table.status, store_texts::kStatuses), table.version, table.to_act,
                   table.deadline, table.result, table.rated ? 1 : 0, table.revision,
                   table.creator));
    if (saved.affected() == 0)
        throw WriteConflict("table " + table.id + " changed before this save");
    db.query("DELETE FROM table_seats WHERE table_id = $1", pg::params(table.id));
    for (std::size_t i = 0; i < table.seats.size(); ++i) {
        const StoredSeat& seat = table.seats[i];
        db.query(
            "INSERT INTO table_seats (table_id, seat, kind, user_id, name, bot, forfeited, "
            "invited_by, invited_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            pg::params(table.id, static_cast<int>(i), text_of(seat.kind, store_texts::kSeatKinds),
                       seat.user != 0 ? std::optional(seat.user) : std::nullopt, seat.name,
                       seat.bot, seat.forfeited,
                       seat.invited_by != 0 ? std::optional(seat.invited_by) : std::nullopt,
                       seat.invited_by != 0 ? std::optional(seat.invited_at) : std::nullopt));
    }
}

void append(pg::Connection& db, const TableProgress& table, const StoredMove& move) {
    // One statement, so one round trip: the table's row, then the move, which is inserted only
    // when the row was at the revision before this one. The key refuses a second move at one
    // version.
    static const std::string changed_turn =
        "WITH changed AS (UPDATE tables SET version = $9, to_act = $10, revision = $1::bigint "
        "WHERE id = $2 AND ($1::bigint = 0 OR revision = $1::bigint - 1) RETURNING id) ";
    static const std::string changed_row =
        "WITH changed AS (UPDATE tables SET version = $9, to_act = $10, revision = $1::bigint, "
        "status = $11, deadline = $12, result = $13 "
        "WHERE id = $2 AND ($1::bigint = 0 OR revision = $1::bigint - 1) RETURNING id) ";
    static const std::string insert_move =
        "INSERT INTO moves (table_id, seq, seat, move, move_id, at, moved_by) "
        "SELECT id, $3::bigint, $4::integer, $5::text, $6::text, $7::bigint, $8::text "
        "FROM changed";
    static const std::string with_turn = changed_turn + insert_move;
    static const std::string with_row = changed_row + insert_move;
    pg::Params params =
        pg::params(table.revision, table.id, move.seq, move.seat, move.move, move.move_id, move.at,
                   text_of(move.by, store_texts::kMovers), table.version, table.to_act);
    if (!table.turn_only)
        params.add(text_of(table.status, store_texts::kStatuses))
            .add(table.deadline)
            .add(table.result);
    try {
        if (db.query(table.turn_only ? with_turn : with_row, params).affected() == 1) return;
    } catch (const pg::Error& error) {
        if (error.sqlstate() != "23505") throw;  // unique_violation: a move at this version
    }
    throw WriteConflict("table " + table.id + " is missing or changed before move " +
                        std::to_string(move.seq));
}

void remove_waiting(pg::Connection& db, const std::string& id, std::uint64_t revision) {
    const pg::Result waiting =
        db.query("SELECT revision FROM tables WHERE id = $1 AND status = 'waiting' FOR UPDATE",
                 pg::params(id));
    if (waiting.empty()) return;  // started, or gone
    if (revision != 0 && waiting.uint64(0, 0) != revision)
        throw WriteConflict("table " + id + " changed before its removal");
    for (const char* remove :
         {"DELETE FROM chat WHERE table_id = $1", "DELETE FROM table_seats WHERE table_id = $1",
          "DELETE FROM tables WHERE id = $1"})
        db.query(remove, pg::params(id));
}

}  // namespace gcor::server::postgres_tables
