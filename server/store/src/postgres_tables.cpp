#include "postgres_tables.hpp"

#include <map>
#include <string_view>

#include "group_writer.hpp"
#include "store_texts.hpp"

namespace gcor::server::postgres_tables {

namespace {

using store_texts::from_text;
using store_texts::text_of;

// The columns of `tables t` in the order pg_table_from_row reads them.
constexpr std::string_view kPgTableColumns =
    "t.id, t.created, t.settings, t.players, t.rules, t.public, t.seed, t.nonce, t.commitment, "
    "t.status, t.version, t.to_act, t.deadline, t.result, t.rated <> 0, t.revision";
constexpr int kPgTableColumnCount = 16;

std::string pg_select_tables(std::string_view from_where) {
    std::string text("SELECT ");
    text.append(kPgTableColumns).append(from_where);
    return text;
}

StoredTable pg_table_from_row(const pg::Result& rows, int row) {
    StoredTable table;
    table.id = rows.text(row, 0);
    table.created = rows.int64(row, 1);
    table.settings = rows.text(row, 2);
    table.players = rows.int32(row, 3);
    table.rules = rows.text(row, 4);
    table.is_public = rows.boolean(row, 5);
    table.seed = rows.uint64(row, 6);
    table.nonce = rows.text(row, 7);
    table.commitment = rows.text(row, 8);
    table.status =
        from_text<TableStatus>(rows.text(row, 9), store_texts::kStatuses, "table status");
    table.version = rows.uint64(row, 10);
    table.to_act = rows.optional_int32(row, 11);
    table.deadline = rows.optional_int64(row, 12);
    table.result = rows.text(row, 13);
    table.rated = rows.boolean(row, 14);
    table.revision = rows.uint64(row, 15);
    return table;
}

StoredTable& pg_table_of(StoredTable& table) {
    return table;
}
StoredTable& pg_table_of(UserTable& row) {
    return row.table;
}
StoredTable& pg_table_of(SeasonTable& row) {
    return row.table;
}

// A text[] parameter: every element quoted, its quotes and backslashes escaped.
std::string text_array(const std::vector<std::string>& items) {
    std::string array = "{";
    for (const std::string& item : items) {
        if (array.size() > 1) array += ',';
        array += '"';
        for (char c : item) {
            if (c == '"' || c == '\\') array += '\\';
            array += c;
        }
        array += '"';
    }
    return array + "}";
}

// Fills in the seats of every row's table, in one query.
template <typename Row>
void read_seats(pg::Connection& db, std::vector<Row>& rows) {
    if (rows.empty()) return;
    std::vector<std::string> ids;
    std::map<std::string, std::vector<StoredTable*>> by_id;  // a table may come twice
    for (Row& row : rows) {
        StoredTable& table = pg_table_of(row);
        ids.push_back(table.id);
        by_id[table.id].push_back(&table);
    }
    const pg::Result seats = db.query(
        "SELECT table_id, kind, user_id, name, bot, forfeited FROM table_seats "
        "WHERE table_id = ANY ($1::text[]) ORDER BY table_id, seat",
        pg::params(text_array(ids)));
    for (int i = 0; i < seats.rows(); ++i) {
        const StoredSeat seat{
            from_text<SeatKind>(seats.text(i, 1), store_texts::kSeatKinds, "seat kind"),
            seats.null(i, 2) ? 0 : seats.uint64(i, 2), seats.text(i, 3), seats.text(i, 4),
            seats.boolean(i, 5)};
        for (StoredTable* table : by_id[seats.text(i, 0)])
            table->seats.push_back(seat);
    }
}

// A row per result (a table, maybe with more columns after its own), each with its seats.
template <typename Row, typename MakeRow>
std::vector<Row> rows_with_seats(pg::Connection& db, const pg::Result& result, MakeRow make_row) {
    std::vector<Row> rows;
    for (int i = 0; i < result.rows(); ++i)
        rows.push_back(make_row(result, i));
    read_seats(db, rows);
    return rows;
}

std::vector<std::string> first_column(const pg::Result& result) {
    std::vector<std::string> texts;
    for (int i = 0; i < result.rows(); ++i)
        texts.push_back(result.text(i, 0));
    return texts;
}

}  // namespace

std::optional<StoredTable> select_table(pg::Connection& db, const std::string& id) {
    std::vector<StoredTable> tables = rows_with_seats<StoredTable>(
        db, db.query(pg_select_tables(" FROM tables t WHERE t.id = $1"), pg::params(id)),
        pg_table_from_row);
    if (tables.empty()) return std::nullopt;
    return std::move(tables.front());
}

std::vector<StoredMove> select_moves(pg::Connection& db, const std::string& id,
                                     std::uint64_t after) {
    const pg::Result rows = db.query(
        "SELECT seq, seat, move, move_id, at, moved_by FROM moves WHERE table_id = $1 "
        "AND seq > $2 ORDER BY seq",
        pg::params(id, after));
    std::vector<StoredMove> moves;
    moves.reserve(static_cast<std::size_t>(rows.rows()));
    for (int i = 0; i < rows.rows(); ++i)
        moves.push_back(StoredMove{
            rows.uint64(i, 0), rows.int32(i, 1), rows.text(i, 2), rows.text(i, 3), rows.int64(i, 4),
            from_text<MovedBy>(rows.text(i, 5), store_texts::kMovers, "mover")});
    return moves;
}

std::vector<StoredTable> select_listed(pg::Connection& db, const TableFilter& filter) {
    // tables_lobby holds exactly the public unfinished tables, in creation order.
    return rows_with_seats<StoredTable>(
        db,
        db.query(pg_select_tables(
                     " FROM tables t WHERE t.public AND t.status <> 'finished' "
                     "AND ($1::integer = 0 OR t.players = $1::integer) "
                     "AND ($2::text = '' OR t.rules = $2::text) "
                     "AND (NOT $3::boolean OR (t.status = 'waiting' AND EXISTS (SELECT 1 FROM "
                     "table_seats s WHERE s.table_id = t.id AND s.kind = 'open'))) "
                     "ORDER BY t.created, t.id LIMIT $4::bigint"),
                 pg::params(filter.players, filter.rules, filter.open_only, filter.limit)),
        pg_table_from_row);
}

std::vector<std::string> select_ids(pg::Connection& db, TableStatus status) {
    return first_column(db.query("SELECT id FROM tables WHERE status = $1 ORDER BY created, id",
                                 pg::params(text_of(status, store_texts::kStatuses))));
}

std::vector<std::string> select_due(pg::Connection& db, UnixMs now) {
    return first_column(db.query(
        "SELECT id FROM tables WHERE status = 'playing' AND deadline <= $1 ORDER BY deadline",
        pg::params(now)));
}

std::vector<std::string> select_deadlines_between(pg::Connection& db, UnixMs from, UnixMs to) {
    return first_column(db.query(
        "SELECT id FROM tables WHERE status = 'playing' AND deadline > $1 AND deadline <= $2 "
        "ORDER BY deadline",
        pg::params(from, to)));
}

std::vector<UserTable> select_tables_of(pg::Connection& db, std::uint64_t user, std::size_t limit) {
    return rows_with_seats<UserTable>(
        db,
        db.query(
            pg_select_tables(", s.seat FROM table_seats s JOIN tables t ON t.id = s.table_id "
                             "WHERE s.user_id = $1 "
                             "ORDER BY t.status = 'finished', t.created DESC, t.id DESC LIMIT $2"),
            pg::params(user, limit)),
        [](const pg::Result& rows, int row) {
            return UserTable{pg_table_from_row(rows, row), rows.int32(row, kPgTableColumnCount)};
        });
}

std::vector<SeasonTable> select_season_tables(pg::Connection& db, std::uint64_t league,
                                              int number) {
    return rows_with_seats<SeasonTable>(
        db,
        db.query(
            pg_select_tables(", st.tier FROM season_tables st JOIN tables t ON t.id = st.table_id "
                             "WHERE st.league = $1 AND st.season = $2 "
                             "ORDER BY st.tier, t.created, t.id"),
            pg::params(league, number)),
        [](const pg::Result& rows, int row) {
            return SeasonTable{rows.int32(row, kPgTableColumnCount), pg_table_from_row(rows, row)};
        });
}

std::uint64_t count_tables(pg::Connection& db) {
    return db.query("SELECT count(*) FROM tables").uint64(0, 0);
}

void save(pg::Connection& db, const StoredTable& table) {
    const pg::Result saved = db.query(
        "INSERT INTO tables (id, created, settings, players, rules, public, seed, nonce, "
        "commitment, status, version, to_act, deadline, result, rated, revision) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) "
        "ON CONFLICT (id) DO UPDATE SET created = EXCLUDED.created, "
        "settings = EXCLUDED.settings, players = EXCLUDED.players, rules = EXCLUDED.rules, "
        "public = EXCLUDED.public, seed = EXCLUDED.seed, nonce = EXCLUDED.nonce, "
        "commitment = EXCLUDED.commitment, status = EXCLUDED.status, "
        "version = EXCLUDED.version, to_act = EXCLUDED.to_act, deadline = EXCLUDED.deadline, "
        "result = EXCLUDED.result, "
        "rated = CASE WHEN EXCLUDED.rated = 0 THEN 0 ELSE greatest(tables.rated, 1) END, "
        "revision = EXCLUDED.revision "
        "WHERE EXCLUDED.revision = 0 OR tables.revision = EXCLUDED.revision - 1",
        pg::params(table.id, table.created, table.settings, table.players, table.rules,
                   table.is_public, table.seed, table.nonce, table.commitment,
                   text_of(table.status, store_texts::kStatuses), table.version, table.to_act,
                   table.deadline, table.result, table.rated ? 1 : 0, table.revision));
    if (saved.affected() == 0)
        throw WriteConflict("table " + table.id + " changed before this save");
    db.query("DELETE FROM table_seats WHERE table_id = $1", pg::params(table.id));
    for (std::size_t i = 0; i < table.seats.size(); ++i) {
        const StoredSeat& seat = table.seats[i];
        db.query(
            "INSERT INTO table_seats (table_id, seat, kind, user_id, name, bot, forfeited) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7)",
            pg::params(table.id, static_cast<int>(i), text_of(seat.kind, store_texts::kSeatKinds),
                       seat.user != 0 ? std::optional(seat.user) : std::nullopt, seat.name,
                       seat.bot, seat.forfeited));
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
