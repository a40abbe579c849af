#include "sql_table_reads.hpp"

#include <map>
#include <string_view>

#include "store_texts.hpp"

namespace gcor::server::table_reads {

namespace {

using store_texts::from_text;
using store_texts::text_of;

// The columns of `tables t` in the order table_from_row reads them.
constexpr std::string_view kTableColumns =
    "t.id, t.created, t.settings, t.players, t.rules, t.public, t.seed, t.nonce, t.commitment, "
    "t.status, t.version, t.to_act, t.deadline, t.result, t.rated <> 0, t.revision, "
    "t.created_by";
constexpr int kTableColumnCount = 17;

std::string select_tables(std::string_view from_where) {
    std::string text("SELECT ");
    text.append(kTableColumns).append(from_where);
    return text;
}

StoredTable table_from_row(const SqlRows& rows, int row) {
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
    table.creator = rows.uint64(row, 16);
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
StoredTable& table_of(TournamentTable& row) {
    return row.table;
}
StoredTable& table_of(StoredInvitation& row) {
    return row.table;
}
StoredTable& table_of(FinishedGame& row) {
    return row.table;
}

// Fills in the seats of every row's table, in one query.
template <typename Row>
void read_seats(Sql& db, std::vector<Row>& rows) {
    if (rows.empty()) return;
    std::vector<std::string> ids;
    std::map<std::string, std::vector<StoredTable*>> by_id;  // a table may come twice
    for (Row& row : rows) {
        StoredTable& table = table_of(row);
        ids.push_back(table.id);
        by_id[table.id].push_back(&table);
    }
    const SqlRows seats = db.query(
        "SELECT table_id, kind, user_id, name, bot, forfeited, invited_by, invited_at "
        "FROM table_seats WHERE " +
            in_text_list(db.dialect(), "table_id", "$1") + " ORDER BY table_id, seat",
        SqlParams{text_list(db.dialect(), ids)});
    for (int i = 0; i < seats.rows(); ++i) {
        const StoredSeat seat{
            from_text<SeatKind>(seats.text(i, 1), store_texts::kSeatKinds, "seat kind"),
            seats.null(i, 2) ? 0 : seats.uint64(i, 2),
            seats.text(i, 3),
            seats.text(i, 4),
            seats.boolean(i, 5),
            seats.null(i, 6) ? 0 : seats.uint64(i, 6),
            seats.null(i, 7) ? 0 : seats.int64(i, 7)};
        for (StoredTable* table : by_id[seats.text(i, 0)])
            table->seats.push_back(seat);
    }
}

// A row per result (a table, maybe with more columns after its own), each with its seats.
template <typename Row, typename MakeRow>
std::vector<Row> rows_with_seats(Sql& db, const SqlRows& result, MakeRow make_row) {
    std::vector<Row> rows;
    for (int i = 0; i < result.rows(); ++i)
        rows.push_back(make_row(result, i));
    read_seats(db, rows);
    return rows;
}

std::vector<std::string> first_column(const SqlRows& result) {
    std::vector<std::string> texts;
    for (int i = 0; i < result.rows(); ++i)
        texts.push_back(result.text(i, 0));
    return texts;
}

}  // namespace

std::optional<StoredTable> select_table(Sql& db, const std::string& id) {
    std::vector<StoredTable> tables = rows_with_seats<StoredTable>(
        db, db.query(select_tables(" FROM tables t WHERE t.id = $1"), sql_params(id)),
        table_from_row);
    if (tables.empty()) return std::nullopt;
    return std::move(tables.front());
}

std::vector<StoredMove> select_moves(Sql& db, const std::string& id, std::uint64_t after) {
    const SqlRows rows = db.query(
        "SELECT seq, seat, move, move_id, at, moved_by FROM moves WHERE table_id = $1 "
        "AND seq > $2 ORDER BY seq",
        sql_params(id, after));
    std::vector<StoredMove> moves;
    moves.reserve(static_cast<std::size_t>(rows.rows()));
    for (int i = 0; i < rows.rows(); ++i)
        moves.push_back(StoredMove{
            rows.uint64(i, 0), rows.int32(i, 1), rows.text(i, 2), rows.text(i, 3), rows.int64(i, 4),
            from_text<MovedBy>(rows.text(i, 5), store_texts::kMovers, "mover")});
    return moves;
}

std::vector<StoredTable> select_listed(Sql& db, const TableFilter& filter) {
    // tables_lobby holds exactly the public unfinished tables, in creation order; SQLite uses it
    // only while this condition is written as in its WHERE (public = 1). The other filters are
    // checked on its rows.
    return rows_with_seats<StoredTable>(
        db,
        db.query(select_tables(
                     " FROM tables t WHERE t.public = " + std::string(true_value(db.dialect())) +
                     " AND t.status <> 'finished' "
                     "AND (CAST($1 AS integer) = 0 OR t.players = CAST($1 AS integer)) "
                     "AND (CAST($2 AS text) = '' OR t.rules = CAST($2 AS text)) "
                     "AND (CAST($3 AS integer) = 0 OR (t.status = 'waiting' AND EXISTS "
                     "(SELECT 1 FROM table_seats s WHERE s.table_id = t.id AND "
                     "s.kind = 'open'))) ORDER BY t.created, t.id LIMIT $4"),
                 sql_params(filter.players, filter.rules, filter.open_only, filter.limit)),
        table_from_row);
}

std::vector<std::string> select_ids(Sql& db, TableStatus status) {
    return first_column(db.query("SELECT id FROM tables WHERE status = $1 ORDER BY created, id",
                                 sql_params(text_of(status, store_texts::kStatuses))));
}

std::vector<std::string> select_due(Sql& db, UnixMs now) {
    return first_column(db.query(
        "SELECT id FROM tables WHERE status <> 'finished' AND deadline <= $1 ORDER BY deadline",
        sql_params(now)));
}

std::vector<std::string> select_deadlines_between(Sql& db, UnixMs from, UnixMs to) {
    return first_column(db.query(
        "SELECT id FROM tables WHERE status = 'playing' AND deadline > $1 AND deadline <= $2 "
        "ORDER BY deadline",
        sql_params(from, to)));
}

std::vector<UserTable> select_tables_of(Sql& db, std::uint64_t user, std::size_t limit) {
    return rows_with_seats<UserTable>(
        db,
        db.query(
            select_tables(", s.seat FROM table_seats s JOIN tables t ON t.id = s.table_id "
                          "WHERE s.user_id = $1 "
                          "ORDER BY t.status = 'finished', t.created DESC, t.id DESC LIMIT $2"),
            sql_params(user, limit)),
        [](const SqlRows& rows, int row) {
            return UserTable{table_from_row(rows, row), rows.int32(row, kTableColumnCount)};
        });
}

std::vector<StoredInvitation> select_invitations_of(Sql& db, std::uint64_t user,
                                                    std::size_t limit) {
    return rows_with_seats<StoredInvitation>(
        db,
        db.query(select_tables(", s.seat, s.invited_by, h.name, s.invited_at "
                               "FROM table_seats s JOIN tables t ON t.id = s.table_id "
                               "JOIN users h ON h.id = s.invited_by "
                               "WHERE s.user_id = $1 AND s.kind = 'reserved' "
                               "AND t.status = 'waiting' "
                               "ORDER BY s.invited_at DESC, t.id DESC LIMIT $2"),
                 sql_params(user, limit)),
        [](const SqlRows& rows, int row) {
            return StoredInvitation{table_from_row(rows, row), rows.int32(row, kTableColumnCount),
                                    rows.uint64(row, kTableColumnCount + 1),
                                    rows.text(row, kTableColumnCount + 2),
                                    rows.int64(row, kTableColumnCount + 3)};
        });
}

std::vector<FinishedGame> select_finished_games(Sql& db, const FinishedGamesQuery& query) {
    // A game finished with its last move, which is the move at the table's version: one lookup
    // in the moves' primary key per game, so no column of its own needs keeping in step with
    // both databases' writes of a move. The user's seats are found by table_seats_user.
    constexpr std::string_view kFinished = "COALESCE(m.at, t.created)";
    std::string text = select_tables(
        ", s.seat, " + std::string(kFinished) +
        " FROM table_seats s JOIN tables t ON t.id = s.table_id "
        "LEFT JOIN moves m ON m.table_id = t.id AND m.seq = t.version "
        "WHERE s.user_id = $1 AND t.status = 'finished' "
        "AND (CAST($2 AS integer) = 1 OR t.public = " +
        std::string(true_value(db.dialect())) +
        ") "
        "AND (CAST($3 AS integer) = 0 OR t.players = CAST($3 AS integer)) "
        "AND (CAST($4 AS text) = '' OR t.rules = CAST($4 AS text)) "
        "AND (CAST($5 AS integer) = 0 OR (t.rated <> 0) = (CAST($5 AS integer) = 1)) ");
    text.append("AND (")
        .append(kFinished)
        .append(" < CAST($6 AS bigint) OR (")
        .append(kFinished)
        .append(" = CAST($6 AS bigint) AND t.id < CAST($7 AS text))) ")
        .append("ORDER BY ")
        .append(kFinished)
        .append(" DESC, t.id DESC LIMIT $8");
    const int rated = !query.rated ? 0 : *query.rated ? 1 : 2;  // $5
    return rows_with_seats<FinishedGame>(
        db,
        db.query(text, sql_params(query.user, query.unlisted, query.players, query.rules, rated,
                                  query.before, query.before_table, query.limit)),
        [](const SqlRows& rows, int row) {
            return FinishedGame{table_from_row(rows, row), rows.int32(row, kTableColumnCount),
                                rows.int64(row, kTableColumnCount + 1)};
        });
}

std::vector<UserResult> select_results(Sql& db, std::uint64_t user) {
    const SqlRows rows = db.query(
        "SELECT t.rules, s.seat, t.result FROM table_seats s JOIN tables t ON t.id = s.table_id "
        "WHERE s.user_id = $1 AND t.status = 'finished'",
        sql_params(user));
    std::vector<UserResult> results;
    results.reserve(static_cast<std::size_t>(rows.rows()));
    for (int i = 0; i < rows.rows(); ++i)
        results.push_back(UserResult{rows.text(i, 0), rows.int32(i, 1), rows.text(i, 2)});
    return results;
}

std::vector<SeasonTable> select_season_tables(Sql& db, std::uint64_t league, int number) {
    return rows_with_seats<SeasonTable>(
        db,
        db.query(
            select_tables(", st.tier FROM season_tables st JOIN tables t ON t.id = st.table_id "
                          "WHERE st.league = $1 AND st.season = $2 "
                          "ORDER BY st.tier, t.created, t.id"),
            sql_params(league, number)),
        [](const SqlRows& rows, int row) {
            return SeasonTable{rows.int32(row, kTableColumnCount), table_from_row(rows, row)};
        });
}

std::vector<TournamentTable> select_tournament_tables(Sql& db, std::uint64_t tournament) {
    return rows_with_seats<TournamentTable>(
        db,
        db.query(select_tables(", tt.round FROM tournament_tables tt JOIN tables t ON "
                               "t.id = tt.table_id WHERE tt.tournament = $1 "
                               "ORDER BY tt.round, t.created, t.id"),
                 sql_params(tournament)),
        [](const SqlRows& rows, int row) {
            return TournamentTable{rows.int32(row, kTableColumnCount), table_from_row(rows, row)};
        });
}

std::uint64_t count_tables(Sql& db) {
    return db.query("SELECT count(*) FROM tables").uint64(0, 0);
}

}  // namespace gcor::server::table_reads
