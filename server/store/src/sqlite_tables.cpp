#include "sqlite_tables.hpp"

#include <sqlite3.h>

#include "group_writer.hpp"
#include "sqlite_support.hpp"
#include "store_texts.hpp"

namespace gcor::server::sqlite_tables {
namespace {

using store_texts::text_of;
constexpr const auto& kStatusTexts = store_texts::kStatuses;
constexpr const auto& kSeatKindTexts = store_texts::kSeatKinds;
constexpr const auto& kMovedByTexts = store_texts::kMovers;

template <typename T>
void bind_optional(SQLite::Statement& statement, int index, const std::optional<T>& value) {
    if (value) {
        statement.bind(index, *value);
    } else {
        statement.bind(index);
    }
}

}  // namespace

TableWrites::TableWrites(SQLite::Database& db)
    : upsert_table_(db,
                    "INSERT INTO tables (id, created, settings, players, rules, public, seed, "
                    "nonce, commitment, status, version, to_act, deadline, result, rated, "
                    "revision, created_by) "
                    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                    "?16, ?17) "
                    "ON CONFLICT (id) DO UPDATE SET created = ?2, settings = ?3, players = ?4, "
                    "rules = ?5, public = ?6, seed = ?7, nonce = ?8, commitment = ?9, "
                    "status = ?10, version = ?11, to_act = ?12, deadline = ?13, result = ?14, "
                    "rated = CASE WHEN ?15 = 0 THEN 0 ELSE max(rated, 1) END, revision = ?16, "
                    "created_by = ?17 "
                    "WHERE ?16 = 0 OR revision = ?16 - 1"),
      update_table_(db,
                    "UPDATE tables SET status = ?2, version = ?3, to_act = ?4, deadline = ?5, "
                    "result = ?6, revision = ?7 WHERE id = ?1 AND (?7 = 0 OR revision = ?7 - 1)"),
      update_turn_(db,
                   "UPDATE tables SET version = ?2, to_act = ?3, revision = ?4 "
                   "WHERE id = ?1 AND (?4 = 0 OR revision = ?4 - 1)"),
      delete_seats_(db, "DELETE FROM table_seats WHERE table_id = ?"),
      insert_seat_(db,
                   "INSERT INTO table_seats (table_id, seat, kind, user_id, name, bot, forfeited, "
                   "invited_by, invited_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
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
    upsert.bind(17, to_sql(table.creator));
    if (upsert.exec() == 0) throw WriteConflict("table " + table.id + " changed before this save");
    save_seats(table);
}

void TableWrites::append(const TableProgress& table, const StoredMove& move) {
    // The table's id and the move's texts are bound without SQLite's copy of each (a heap block,
    // freed at the next bind): they outlive the statements' steps here, and every parameter is
    // bound again before the next step.
    // The row first: its revision decides whether this move was made on the stored table.
    SQLite::Statement& update = table.turn_only ? update_turn_ : update_table_;
    update.tryReset();
    update.bindNoCopy(1, table.id);
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
    const std::string moved_by = text_of(move.by, kMovedByTexts);
    insert.tryReset();
    insert.bindNoCopy(1, table.id);
    insert.bind(2, to_sql(move.seq));
    insert.bind(3, move.seat);
    insert.bindNoCopy(4, move.move);
    insert.bindNoCopy(5, move.move_id);
    insert.bind(6, move.at);
    insert.bindNoCopy(7, moved_by);
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
        if (seat.invited_by != 0) {
            insert.bind(8, to_sql(seat.invited_by));
            insert.bind(9, seat.invited_at);
        } else {
            insert.bind(8);
            insert.bind(9);
        }
        insert.exec();
    }
}

}  // namespace gcor::server::sqlite_tables
