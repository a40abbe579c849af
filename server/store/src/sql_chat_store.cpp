#include "sql_chat_store.hpp"

#include <algorithm>
#include <limits>

#include "group_writer.hpp"

namespace gcor::server {

std::vector<StoredChatLine> select_chat_lines(Sql& db, const std::string& table,
                                              std::optional<std::uint64_t> before,
                                              std::size_t limit) {
    const SqlRows rows = db.query(
        "SELECT n, user_id, name, seat, text, at FROM chat "
        "WHERE table_id = $1 AND n < $2 AND deleted = false ORDER BY n DESC LIMIT $3",
        sql_params(table, before ? *before : std::numeric_limits<std::int64_t>::max(), limit));
    std::vector<StoredChatLine> lines;
    for (int i = rows.rows() - 1; i >= 0; --i)  // oldest first
        lines.push_back(StoredChatLine{rows.uint64(i, 0), rows.uint64(i, 1), rows.text(i, 2),
                                       rows.optional_int32(i, 3), rows.text(i, 4),
                                       rows.int64(i, 5)});
    return lines;
}

std::uint64_t select_last_chat_line(Sql& db, const std::string& table) {
    return db.query("SELECT coalesce(max(n), 0) FROM chat WHERE table_id = $1", sql_params(table))
        .uint64(0, 0);
}

std::vector<UserChatLine> SqlChatStore::chat_lines_of(std::uint64_t user, std::size_t limit) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            "SELECT table_id, n, user_id, name, seat, text, at FROM chat "
            "WHERE user_id = $1 AND deleted = false ORDER BY at, table_id, n LIMIT $2",
            sql_params(user, limit));
        std::vector<UserChatLine> lines;
        for (int i = 0; i < rows.rows(); ++i)
            lines.push_back(UserChatLine{
                rows.text(i, 0),
                StoredChatLine{rows.uint64(i, 1), rows.uint64(i, 2), rows.text(i, 3),
                               rows.optional_int32(i, 4), rows.text(i, 5), rows.int64(i, 6)}});
        return lines;
    });
}

void SqlChatStore::append_chat(const std::string& table, const StoredChatLine& line, Done done) {
    access_.enqueue(
        [table, line](Sql& db) {
            try {
                db.query(
                    "INSERT INTO chat (table_id, n, user_id, name, seat, text, at) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    sql_params(table, line.n, line.user, line.name, line.seat, line.text, line.at));
            } catch (const SqlError& error) {
                if (!error.unique_violation()) throw;
                throw WriteConflict("chat line " + std::to_string(line.n) + " of table " + table +
                                    " was written first elsewhere");
            }
        },
        std::move(done));
}

void SqlChatStore::delete_chat(const std::string& table, std::uint64_t n, Done done) {
    access_.enqueue(
        [table, n](Sql& db) {
            // The text goes: a deleted line is not kept for anybody.
            db.query("UPDATE chat SET deleted = true, text = '' WHERE table_id = $1 AND n = $2",
                     sql_params(table, n));
        },
        std::move(done));
}

std::vector<StoredChatLine> SqlChatStore::chat_lines(const std::string& table,
                                                     std::optional<std::uint64_t> before,
                                                     std::size_t limit) {
    return access_.read_one([&](Sql& db) { return select_chat_lines(db, table, before, limit); });
}

void SqlChatStore::set_muted(std::uint64_t user, std::uint64_t other, bool muted) {
    access_.write_and_wait(
        [&](Sql& db) {
            db.query(muted ? "INSERT INTO mutes (user_id, muted) VALUES ($1, $2) "
                             "ON CONFLICT DO NOTHING"
                           : "DELETE FROM mutes WHERE user_id = $1 AND muted = $2",
                     sql_params(user, other));
        },
        muted ? "mute a user" : "unmute a user");
}

std::vector<std::uint64_t> SqlChatStore::muted_by(std::uint64_t user) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows =
            db.query("SELECT muted FROM mutes WHERE user_id = $1 ORDER BY muted", sql_params(user));
        std::vector<std::uint64_t> muted;
        for (int i = 0; i < rows.rows(); ++i)
            muted.push_back(rows.uint64(i, 0));
        return muted;
    });
}

}  // namespace gcor::server
