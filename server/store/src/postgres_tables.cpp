#include "postgres_tables.hpp"

#include "group_writer.hpp"
#include "postgres_news.hpp"
#include "store_texts.hpp"

namespace gcor::server::postgres_tables {

using store_texts::text_of;

namespace {

constexpr const char* kNotNullViolation = "23502";
constexpr const char* kUniqueViolation = "23505";

// The row, then its seats; false, and nothing more sent, when the row is not at the revision
// before this one.
bool save_row(pg::Connection& db, const StoredTable& table) {
    // The row is updated only when this transaction can lock it at once: one locked by another
    // process's write in flight is about to change, so this save is refused rather than made to
    // wait for that commit (two groups each waiting for a row the other locked would deadlock,
    // which PostgreSQL breaks only after deadlock_timeout). A new row is inserted.
    const pg::Result saved = db.query(
        "WITH mine AS (SELECT id FROM tables WHERE id = $1 FOR UPDATE SKIP LOCKED), "
        "updated AS (UPDATE tables SET created = $2::bigint, settings = $3::text, "
        "players = $4::integer, rules = $5::text, public = $6::boolean, seed = $7::bigint, "
        "nonce = $8::text, commitment = $9::text, status = $10::text, version = $11::bigint, "
        "to_act = $12::integer, deadline = $13::bigint, result = $14::text, "
        "rated = CASE WHEN $15::smallint = 0 THEN 0 ELSE greatest(tables.rated, 1) END, "
        "revision = $16::bigint, created_by = $17::bigint FROM mine "
        "WHERE tables.id = mine.id AND ($16::bigint = 0 OR tables.revision = $16::bigint - 1) "
        "RETURNING 1), "
        "inserted AS (INSERT INTO tables (id, created, settings, players, rules, public, seed, "
        "nonce, commitment, status, version, to_act, deadline, result, rated, revision, "
        "created_by) SELECT $1::text, $2::bigint, $3::text, $4::integer, $5::text, $6::boolean, "
        "$7::bigint, $8::text, $9::text, $10::text, $11::bigint, $12::integer, $13::bigint, "
        "$14::text, $15::smallint, $16::bigint, $17::bigint "
        "WHERE NOT EXISTS (SELECT 1 FROM tables WHERE id = $1::text) "
        "ON CONFLICT (id) DO NOTHING RETURNING 1) "
        "SELECT (SELECT count(*) FROM updated) + (SELECT count(*) FROM inserted)",
        pg::params(table.id, table.created, table.settings, table.players, table.rules,
                   table.is_public, table.seed, table.nonce, table.commitment,
                   text_of(table.status, store_texts::kStatuses), table.version, table.to_act,
                   table.deadline, table.result, table.rated ? 1 : 0, table.revision,
                   table.creator));
    if (saved.int64(0, 0) == 0) return false;
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
    return true;
}

std::string refused_save(const StoredTable& table) {
    return "table " + table.id + " changed before this save";
}

}  // namespace

void save(pg::Connection& db, const StoredTable& table) {
    if (!save_row(db, table)) throw WriteConflict(refused_save(table));
}

void save_on_its_own(pg::Connection& db, const StoredTable& table) {
    // Refused, it is undone to its savepoint: the rest of the group goes on without holding the
    // row it locked, which another process waiting to write it would otherwise wait for until
    // this group's commit (or deadlock with it).
    db.send("SAVEPOINT save", {});
    if (!save_row(db, table)) {
        db.send("ROLLBACK TO SAVEPOINT save", {});
        throw WriteConflict(refused_save(table), true);
    }
    db.send("RELEASE SAVEPOINT save", {});
}

void append(pg::Connection& db, const TableProgress& table, const StoredMove& move) {
    // One statement, sent without waiting for its result (a group commit is one pipeline): the
    // table's row, then the move. So that the transaction fails when the row was not at the
    // revision before this one, the move's table_id is then NULL, which its NOT NULL refuses;
    // the key refuses a second move at one version. It sends the row's news itself, as the
    // row's trigger would have (postgres_schema.cpp, versions 9 and 14), with the move it has in
    // hand rather than read back: flipping move_news tells the trigger that it was sent.
    static const std::string before =
        "WITH before AS (SELECT status, to_act FROM tables WHERE id = $2), ";
    static const std::string changed_turn =
        "changed AS (UPDATE tables SET version = $9, to_act = $10, revision = $1::bigint, "
        "move_news = NOT move_news "
        "WHERE id = $2 AND ($1::bigint = 0 OR revision = $1::bigint - 1) "
        "RETURNING id, revision, version, status, public, to_act, deadline), ";
    static const std::string changed_row =
        "changed AS (UPDATE tables SET version = $9, to_act = $10, revision = $1::bigint, "
        "move_news = NOT move_news, status = $11, deadline = $12, result = $13 "
        "WHERE id = $2 AND ($1::bigint = 0 OR revision = $1::bigint - 1) "
        "RETURNING id, revision, version, status, public, to_act, deadline), ";
    // The news: t node revision version status public listed turn to_act to_act_user deadline
    // id, a newline, the move as JSON (postgres_news.cpp reads it).
    static const std::string insert_and_tell =
        std::string(
            "moved AS (INSERT INTO moves (table_id, seq, seat, move, move_id, at, moved_by) "
            "VALUES ((SELECT id FROM changed), $3::bigint, $4::integer, $5::text, $6::text, "
            "$7::bigint, $8::text)) "
            "SELECT pg_notify('") +
        kNewsChannel +
        "', concat_ws(' ', 't', gcor_node(), c.revision, "
        "c.version, c.status, c.public::integer, (c.status <> b.status)::integer, "
        "(c.to_act IS DISTINCT FROM b.to_act OR c.status <> b.status)::integer, "
        "coalesce(c.to_act::text, '-'), coalesce((SELECT s.user_id FROM table_seats s "
        "WHERE s.table_id = c.id AND s.seat = c.to_act AND s.kind = 'human'), 0), "
        "coalesce(c.deadline::text, '-'), c.id) || E'\\n' || json_build_object('seq', "
        "$3::bigint, 'seat', $4::integer, 'move', $5::text, 'move_id', $6::text, 'at', "
        "$7::bigint, 'by', $8::text)::text) FROM changed c, before b";
    static const std::string with_turn = before + changed_turn + insert_and_tell;
    static const std::string with_row = before + changed_row + insert_and_tell;
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
