#include "sqlite_chat.hpp"

#include <algorithm>
#include <limits>

#include "sqlite_support.hpp"

namespace gcor::server::sqlite_chat {

std::vector<StoredChatLine> select_lines(SQLite::Database& db, const std::string& table,
                                         std::optional<std::uint64_t> before, std::size_t limit) {
    SQLite::Statement select(db,
                             "SELECT n, user, name, seat, text, at FROM chat "
                             "WHERE table_id = ? AND n < ? AND deleted = 0 "
                             "ORDER BY n DESC LIMIT ?");
    select.bind(1, table);
    select.bind(2, before ? to_sql(*before) : std::numeric_limits<std::int64_t>::max());
    select.bind(3, static_cast<std::int64_t>(limit));
    std::vector<StoredChatLine> lines;
    while (select.executeStep()) {
        StoredChatLine line;
        line.n = from_sql(select.getColumn(0).getInt64());
        line.user = from_sql(select.getColumn(1).getInt64());
        line.name = select.getColumn(2).getString();
        if (!select.isColumnNull(3)) line.seat = select.getColumn(3).getInt();
        line.text = select.getColumn(4).getString();
        line.at = select.getColumn(5).getInt64();
        lines.push_back(std::move(line));
    }
    std::reverse(lines.begin(), lines.end());
    return lines;
}

std::uint64_t select_last_number(SQLite::Database& db, const std::string& table) {
    SQLite::Statement select(db, "SELECT coalesce(max(n), 0) FROM chat WHERE table_id = ?");
    select.bind(1, table);
    select.executeStep();
    return from_sql(select.getColumn(0).getInt64());
}

std::vector<std::uint64_t> select_muted(SQLite::Database& db, std::uint64_t user) {
    SQLite::Statement select(db, "SELECT muted FROM mutes WHERE user = ? ORDER BY muted");
    select.bind(1, to_sql(user));
    std::vector<std::uint64_t> muted;
    while (select.executeStep())
        muted.push_back(from_sql(select.getColumn(0).getInt64()));
    return muted;
}

void insert_line(SQLite::Database& db, const std::string& table, const StoredChatLine& line) {
    SQLite::Statement insert(db,
                             "INSERT INTO chat (table_id, n, user, name, seat, text, at) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, table);
    insert.bind(2, to_sql(line.n));
    insert.bind(3, to_sql(line.user));
    insert.bind(4, line.name);
    if (line.seat)
        insert.bind(5, *line.seat);
    else
        insert.bind(5);
    insert.bind(6, line.text);
    insert.bind(7, line.at);
    insert.exec();
}

void delete_line(SQLite::Database& db, const std::string& table, std::uint64_t n) {
    // The text goes: a deleted line is not kept for anybody.
    SQLite::Statement update(db,
                             "UPDATE chat SET deleted = 1, text = '' WHERE table_id = ? AND n = ?");
    update.bind(1, table);
    update.bind(2, to_sql(n));
    update.exec();
}

void delete_waiting_table_lines(SQLite::Database& db, const std::string& table) {
    SQLite::Statement remove(db,
                             "DELETE FROM chat WHERE table_id = ?1 AND EXISTS "
                             "(SELECT 1 FROM tables WHERE id = ?1 AND status = 'waiting')");
    remove.bind(1, table);
    remove.exec();
}

void write_mute(SQLite::Database& db, std::uint64_t user, std::uint64_t other, bool muted) {
    SQLite::Statement write(db, muted ? "INSERT OR IGNORE INTO mutes (user, muted) VALUES (?, ?)"
                                      : "DELETE FROM mutes WHERE user = ? AND muted = ?");
    write.bind(1, to_sql(user));
    write.bind(2, to_sql(other));
    write.exec();
}

}  // namespace gcor::server::sqlite_chat
