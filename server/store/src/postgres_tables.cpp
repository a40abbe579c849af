#include "postgres_tables.hpp"

#include "group_writer.hpp"
#include "store_texts.hpp"

namespace gcor::server::postgres_tables {

using store_texts::text_of;

namespace {

constexpr const char* kNotNullViolation = "23502";
constexpr const char* kUniqueViolation = "23505";

}  // namespace

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
    // The seats need no result: in a pipeline they go with the rest of the group.
    db.send("DELETE FROM table_seats WHERE table_id = $1", pg::params(table.id));
    for (std::size_t i = 0; i < table.seats.size(); ++i) {
        const StoredSeat& seat = table.seats[i];
        db.send(
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
    // One statement, sent without waiting for its result (a group commit is one pipeline): the
    // table's row, then the move. So that the transaction fails when the row was not at the
    // revision before this one, the move's table_id is then NULL, which its NOT NULL refuses;
    // the key refuses a second move at one version.
    static const std::string changed_turn =
        "WITH changed AS (UPDATE tables SET version = $9, to_act = $10, revision = $1::bigint "
        "WHERE id = $2 AND ($1::bigint = 0 OR revision = $1::bigint - 1) RETURNING id) ";
    static const std::string changed_row =
        "WITH changed AS (UPDATE tables SET version = $9, to_act = $10, revision = $1::bigint, "
        "status = $11, deadline = $12, result = $13 "
        "WHERE id = $2 AND ($1::bigint = 0 OR revision = $1::bigint - 1) RETURNING id) ";
    static const std::string insert_move =
        "INSERT INTO moves (table_id, seq, seat, move, move_id, at, moved_by) "
        "VALUES ((SELECT id FROM changed), $3::bigint, $4::integer, $5::text, $6::text, "
        "$7::bigint, $8::text)";
    static const std::string with_turn = changed_turn + insert_move;
    static const std::string with_row = changed_row + insert_move;
    pg::Params params =
        pg::params(table.revision, table.id, move.seq, move.seat, move.move, move.move_id, move.at,
                   text_of(move.by, store_texts::kMovers), table.version, table.to_act);
    if (!table.turn_only)
        params.add(text_of(table.status, store_texts::kStatuses))
            .add(table.deadline)
            .add(table.result);
    db.send(table.turn_only ? with_turn : with_row, params,
            [id = table.id, seq = move.seq](const pg::Error& error) {
                // Every other value of the move is a parameter that is never NULL.
                if (error.sqlstate() == kNotNullViolation || error.sqlstate() == kUniqueViolation)
                    throw WriteConflict("table " + id + " is missing or changed before move " +
                                        std::to_string(seq));
            });
}

std::vector<std::string> take_due(pg::Connection& db, UnixMs now, const std::string& node,
                                  UnixMs held_until) {
    // As mails are taken: a due table that another process is taking at this moment is skipped,
    // not waited for; one it took is left to it while its hold lasts, unless the deadline or the
    // table changed (acting on a deadline changes the table: a seat forfeited, and the next one
    // may be due at the same deadline). The upsert's condition decides on the latest committed
    // claim, so that a due table read before another process's claim committed is still taken once.
    // Claims whose hold ended go first: they keep nobody away (a table still due is claimed again
    // below), and a finished table's claim would otherwise stay for ever. One being removed by
    // another process is left to it.
    db.send(
        "DELETE FROM deadline_claims WHERE table_id IN (SELECT table_id FROM deadline_claims "
        "WHERE held_until <= $1 FOR UPDATE SKIP LOCKED)",
        pg::params(now));
    const pg::Result taken = db.query(
        "WITH due AS (SELECT t.id, t.deadline, t.revision FROM tables t "
        "WHERE t.status <> 'finished' AND t.deadline <= $1 AND NOT EXISTS "
        "(SELECT 1 FROM deadline_claims c WHERE c.table_id = t.id AND c.deadline = t.deadline "
        "AND c.revision = t.revision AND c.held_until > $1) FOR UPDATE SKIP LOCKED), "
        "claimed AS (INSERT INTO deadline_claims AS c (table_id, deadline, revision, node, "
        "held_until) SELECT id, deadline, revision, $2, $3 FROM due ON CONFLICT (table_id) DO "
        "UPDATE SET deadline = EXCLUDED.deadline, revision = EXCLUDED.revision, "
        "node = EXCLUDED.node, held_until = EXCLUDED.held_until "
        "WHERE c.deadline <> EXCLUDED.deadline OR c.revision <> EXCLUDED.revision "
        "OR c.held_until <= $1 "
        "RETURNING c.table_id, c.deadline) "
        "SELECT table_id FROM claimed ORDER BY deadline, table_id",
        pg::params(now, node, held_until));
    std::vector<std::string> ids;
    ids.reserve(static_cast<std::size_t>(taken.rows()));
    for (int row = 0; row < taken.rows(); ++row)
        ids.push_back(taken.text(row, 0));
    return ids;
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
        db.send(remove, pg::params(id));
}

}  // namespace gcor::server::postgres_tables
