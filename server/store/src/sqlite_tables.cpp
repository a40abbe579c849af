#include "sqlite_tables.hpp"

#include <sqlite3.h>

#include <array>
#include <string_view>

#include "group_writer.hpp"
#include "sqlite_support.hpp"
#include "store_texts.hpp"

namespace gcor::server::sqlite_tables {
namespace {

// The columns of `tables t` in the order table_from_row reads them.
constexpr std::string_view kTableColumns =
    "t.id, t.created, t.settings, t.players, t.rules, t.public, t.seed, t.nonce, t.commitment, "
    "t.status, t.version, t.to_act, t.deadline, t.result, t.rated <> 0, t.revision";
constexpr int kTableColumnCount = 16;

std::string select_tables(std::string_view from_where) {
    std::string text("SELECT ");
    text.append(kTableColumns).append(from_where);
    return text;
}

using store_texts::from_text;
using store_texts::text_of;
constexpr const auto& kStatusTexts = store_texts::kStatuses;
constexpr const auto& kSeatKindTexts = store_texts::kSeatKinds;
constexpr const auto& kMovedByTexts = store_texts::kMovers;

StoredTable table_from_row(const SQLite::Statement& row) {
    StoredTable table;
    table.id = row.getColumn(0).getString();
    table.created = row.getColumn(1).getInt64();
    table.settings = row.getColumn(2).getString();
    table.players = row.getColumn(3).getInt();
    table.rules = row.getColumn(4).getString();
    table.is_public = row.getColumn(5).getInt() != 0;
    table.seed = from_sql(row.getColumn(6).getInt64());
    table.nonce = row.getColumn(7).getString();
    table.commitment = row.getColumn(8).getString();
    table.status =
        from_text<TableStatus>(row.getColumn(9).getString(), kStatusTexts, "table status");
    table.version = from_sql(row.getColumn(10).getInt64());
    if (!row.isColumnNull(11)) table.to_act = row.getColumn(11).getInt();
    if (!row.isColumnNull(12)) table.deadline = row.getColumn(12).getInt64();
    table.result = row.getColumn(13).getString();
    table.rated = row.getColumn(14).getInt() != 0;
    table.revision = from_sql(row.getColumn(15).getInt64());
    return table;
}

// The table of each kind of row that rows_with_seats reads.
StoredTable& table_of(StoredTable& table) {
    return table;
}
StoredTable& table_of(UserTable& row) {
    return row.table;
}
StoredTable& table_of(SeasonTable& row) {
    return row.table;
}

constexpr const char* kSelectSeats =
    "SELECT kind, user_id, name, bot, forfeited FROM table_seats WHERE table_id = ? ORDER BY seat";

// `seats` is kSelectSeats.
void read_seats(SQLite::Statement& seats, StoredTable& table) {
    seats.reset();
    seats.bind(1, table.id);
    while (seats.executeStep()) {
        table.seats.push_back(StoredSeat{
            from_text<SeatKind>(seats.getColumn(0).getString(), kSeatKindTexts, "seat kind"),
            from_sql(seats.getColumn(1).getInt64()),  // NULL: 0
            seats.getColumn(2).getString(), seats.getColumn(3).getString(),
            seats.getColumn(4).getInt() != 0});
    }
}

// A row per result of `select` (a table, maybe with more columns after its own), each table with
// its seats.
template <typename Row, typename MakeRow>
std::vector<Row> rows_with_seats(SQLite::Database& db, SQLite::Statement& select,
                                 MakeRow make_row) {
    std::vector<Row> rows;
    while (select.executeStep())
        rows.push_back(make_row(select));
    SQLite::Statement seats(db, kSelectSeats);
    for (Row& row : rows)
        read_seats(seats, table_of(row));
    return rows;
}

template <typename Bind>
std::vector<std::string> read_ids(SQLite::Database& db, const char* sql, Bind bind) {
    SQLite::Statement select(db, sql);
    bind(select);
    std::vector<std::string> ids;
    while (select.executeStep())
        ids.push_back(select.getColumn(0).getString());
    return ids;
}

template <typename T>
void bind_optional(SQLite::Statement& statement, int index, const std::optional<T>& value) {
    if (value) {
        statement.bind(index, *value);
    } else {
        statement.bind(index);
    }
}

}  // namespace

std::optional<StoredTable> select_table(SQLite::Database& db, const std::string& id) {
    SQLite::Statement select(db, select_tables(" FROM tables t WHERE t.id = ?"));
    select.bind(1, id);
    if (!select.executeStep()) return std::nullopt;
    StoredTable table = table_from_row(select);
    SQLite::Statement seats(db, kSelectSeats);
    read_seats(seats, table);
    return table;
}

std::vector<StoredMove> select_moves(SQLite::Database& db, const std::string& id,
                                     std::uint64_t after) {
    SQLite::Statement select(db,
                             "SELECT seq, seat, move, move_id, at, moved_by FROM moves "
                             "WHERE table_id = ? AND seq > ? ORDER BY seq");
    select.bind(1, id);
    select.bind(2, to_sql(after));
    std::vector<StoredMove> moves;
    while (select.executeStep()) {
        moves.push_back(StoredMove{
            from_sql(select.getColumn(0).getInt64()), select.getColumn(1).getInt(),
            select.getColumn(2).getString(), select.getColumn(3).getString(),
            select.getColumn(4).getInt64(),
            from_text<MovedBy>(select.getColumn(5).getString(), kMovedByTexts, "mover")});
    }
    return moves;
}

std::vector<StoredTable> select_listed(SQLite::Database& db, const TableFilter& filter) {
    // tables_lobby holds exactly the public unfinished tables, in creation order; SQLite uses it
    // only while this condition is written as in its WHERE. The other filters are checked on its
    // rows.
    SQLite::Statement select(
        db, select_tables(" FROM tables t WHERE t.public = 1 AND t.status <> 'finished' "
                          "AND (?1 = 0 OR t.players = ?1) AND (?2 = '' OR t.rules = ?2) "
                          "AND (?3 = 0 OR (t.status = 'waiting' AND EXISTS (SELECT 1 FROM "
                          "table_seats s WHERE s.table_id = t.id AND s.kind = 'open'))) "
                          "ORDER BY t.created, t.id LIMIT ?4"));
    select.bind(1, filter.players);
    select.bind(2, filter.rules);
    select.bind(3, filter.open_only ? 1 : 0);
    select.bind(4, static_cast<std::int64_t>(filter.limit));
    return rows_with_seats<StoredTable>(db, select, table_from_row);
}

std::vector<std::string> select_ids(SQLite::Database& db, TableStatus status) {
    return read_ids(
        db, "SELECT id FROM tables WHERE status = ? ORDER BY created, id",
        [&](SQLite::Statement& select) { select.bind(1, text_of(status, kStatusTexts)); });
}

std::vector<std::string> select_due(SQLite::Database& db, UnixMs now) {
    return read_ids(
        db, "SELECT id FROM tables WHERE status = 'playing' AND deadline <= ? ORDER BY deadline",
        [&](SQLite::Statement& select) { select.bind(1, now); });
}

std::vector<std::string> select_deadlines_between(SQLite::Database& db, UnixMs from, UnixMs to) {
    return read_ids(db,
                    "SELECT id FROM tables WHERE status = 'playing' AND deadline > ? AND "
                    "deadline <= ? ORDER BY deadline",
                    [&](SQLite::Statement& select) {
                        select.bind(1, from);
                        select.bind(2, to);
                    });
}

std::vector<UserTable> select_tables_of(SQLite::Database& db, std::uint64_t user,
                                        std::size_t limit) {
    SQLite::Statement select(
        db, select_tables(", s.seat FROM table_seats s JOIN tables t ON t.id = s.table_id "
                          "WHERE s.user_id = ? "
                          "ORDER BY t.status = 'finished', t.created DESC, t.id DESC LIMIT ?"));
    select.bind(1, to_sql(user));
    select.bind(2, static_cast<std::int64_t>(limit));
    return rows_with_seats<UserTable>(db, select, [](const SQLite::Statement& row) {
        return UserTable{table_from_row(row), row.getColumn(kTableColumnCount).getInt()};
    });
}

std::vector<SeasonTable> select_season_tables(SQLite::Database& db, std::uint64_t league,
                                              int number) {
    SQLite::Statement select(
        db, select_tables(", st.tier FROM season_tables st JOIN tables t ON t.id = st.table_id "
                          "WHERE st.league = ? AND st.season = ? "
                          "ORDER BY st.tier, t.created, t.id"));
    select.bind(1, to_sql(league));
    select.bind(2, number);
    return rows_with_seats<SeasonTable>(db, select, [](const SQLite::Statement& row) {
        return SeasonTable{row.getColumn(kTableColumnCount).getInt(), table_from_row(row)};
    });
}

std::uint64_t count_tables(SQLite::Database& db) {
    return from_sql(db.execAndGet("SELECT count(*) FROM tables").getInt64());
}

TableWrites::TableWrites(SQLite::Database& db)
    : upsert_table_(db,
                    "INSERT INTO tables (id, created, settings, players, rules, public, seed, "
                    "nonce, commitment, status, version, to_act, deadline, result, rated, "
                    "revision) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                    "?16) "
                    "ON CONFLICT (id) DO UPDATE SET created = ?2, settings = ?3, players = ?4, "
                    "rules = ?5, public = ?6, seed = ?7, nonce = ?8, commitment = ?9, "
                    "status = ?10, version = ?11, to_act = ?12, deadline = ?13, result = ?14, "
                    "rated = CASE WHEN ?15 = 0 THEN 0 ELSE max(rated, 1) END, revision = ?16 "
                    "WHERE ?16 = 0 OR revision = ?16 - 1"),
      update_table_(db,
                    "UPDATE tables SET status = ?2, version = ?3, to_act = ?4, deadline = ?5, "
                    "result = ?6, revision = ?7 WHERE id = ?1 AND (?7 = 0 OR revision = ?7 - 1)"),
      update_turn_(db,
                   "UPDATE tables SET version = ?2, to_act = ?3, revision = ?4 "
                   "WHERE id = ?1 AND (?4 = 0 OR revision = ?4 - 1)"),
      delete_seats_(db, "DELETE FROM table_seats WHERE table_id = ?"),
      insert_seat_(db,
                   "INSERT INTO table_seats (table_id, seat, kind, user_id, name, bot, forfeited) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)"),
      insert_move_(db,
                   "INSERT INTO moves (table_id, seq, seat, move, move_id, at, moved_by) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)"),
      delete_waiting_seats_(db,
                            "DELETE FROM table_seats WHERE table_id = ?1 AND EXISTS (SELECT 1 "
                            "FROM tables WHERE id = ?1 AND status = 'waiting')"),
      delete_waiting_table_(db, "DELETE FROM tables WHERE id = ? AND status = 'waiting'"),
      select_waiting_(db, "SELECT revision FROM tables WHERE id = ? AND status = 'waiting'") {}

void TableWrites::save(const StoredTable& table) {
    SQLite::Statement& upsert = upsert_table_;
    upsert.tryReset();
    upsert.bind(1, table.id);
    upsert.bind(2, table.created);
    upsert.bind(3, table.settings);
    upsert.bind(4, table.players);
    upsert.bind(5, table.rules);
    upsert.bind(6, table.is_public ? 1 : 0);
    upsert.bind(7, to_sql(table.seed));
    upsert.bind(8, table.nonce);
    upsert.bind(9, table.commitment);
    upsert.bind(10, text_of(table.status, kStatusTexts));
    upsert.bind(11, to_sql(table.version));
    bind_optional(upsert, 12, table.to_act);
    bind_optional(upsert, 13, table.deadline);
    upsert.bind(14, table.result);
    upsert.bind(15, table.rated ? 1 : 0);
    upsert.bind(16, to_sql(table.revision));
    if (upsert.exec() == 0) throw WriteConflict("table " + table.id + " changed before this save");
    save_seats(table);
}

void TableWrites::append(const TableProgress& table, const StoredMove& move) {
    // The row first: its revision decides whether this move was made on the stored table.
    SQLite::Statement& update = table.turn_only ? update_turn_ : update_table_;
    update.tryReset();
    update.bind(1, table.id);
    if (table.turn_only) {
        update.bind(2, to_sql(table.version));
        bind_optional(update, 3, table.to_act);
        update.bind(4, to_sql(table.revision));
    } else {
        update.bind(2, text_of(table.status, kStatusTexts));
        update.bind(3, to_sql(table.version));
        bind_optional(update, 4, table.to_act);
        bind_optional(update, 5, table.deadline);
        update.bind(6, table.result);
        update.bind(7, to_sql(table.revision));
    }
    if (update.exec() == 0)
        throw WriteConflict("table " + table.id + " is missing or changed before this move");

    SQLite::Statement& insert = insert_move_;
    insert.tryReset();
    insert.bind(1, table.id);
    insert.bind(2, to_sql(move.seq));
    insert.bind(3, move.seat);
    insert.bind(4, move.move);
    insert.bind(5, move.move_id);
    insert.bind(6, move.at);
    insert.bind(7, text_of(move.by, kMovedByTexts));
    try {
        insert.exec();
    } catch (const SQLite::Exception& error) {
        if (error.getExtendedErrorCode() != SQLITE_CONSTRAINT_PRIMARYKEY) throw;
        throw WriteConflict("table " + table.id + " has a move " + std::to_string(move.seq) +
                            " already");
    }
}

bool TableWrites::removable(const std::string& id, std::uint64_t revision) {
    select_waiting_.tryReset();
    select_waiting_.bind(1, id);
    if (!select_waiting_.executeStep()) return false;  // started, or gone
    if (revision != 0 && from_sql(select_waiting_.getColumn(0).getInt64()) != revision)
        throw WriteConflict("table " + id + " changed before its removal");
    return true;
}

void TableWrites::remove(const std::string& id) {
    for (SQLite::Statement* remove : {&delete_waiting_seats_, &delete_waiting_table_}) {
        remove->tryReset();
        remove->bind(1, id);
        remove->exec();
    }
}

void TableWrites::save_seats(const StoredTable& table) {
    delete_seats_.tryReset();
    delete_seats_.bind(1, table.id);
    delete_seats_.exec();
    SQLite::Statement& insert = insert_seat_;
    for (std::size_t i = 0; i < table.seats.size(); ++i) {
        const StoredSeat& seat = table.seats[i];
        insert.tryReset();
        insert.bind(1, table.id);
        insert.bind(2, static_cast<int>(i));
        insert.bind(3, text_of(seat.kind, kSeatKindTexts));
        if (seat.user != 0) {
            insert.bind(4, to_sql(seat.user));
        } else {
            insert.bind(4);
        }
        insert.bind(5, seat.name);
        insert.bind(6, seat.bot);
        insert.bind(7, seat.forfeited ? 1 : 0);
        insert.exec();
    }
}

}  // namespace gcor::server::sqlite_tables
