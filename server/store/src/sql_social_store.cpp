#include "sql_social_store.hpp"

#include <string>

namespace gcor::server {
namespace {

// The table of a list and its column of the others: friends (friend_id) or blocks (blocked_id).
struct ListTable {
    const char* table;
    const char* other;
};

ListTable table_of(Relation list) {
    return list == Relation::friend_of ? ListTable{"friends", "friend_id"}
                                       : ListTable{"blocks", "blocked_id"};
}

}  // namespace

bool SqlSocialStore::add_listed(Relation list, std::uint64_t user, std::uint64_t other,
                                std::size_t limit) {
    const ListTable names = table_of(list);
    const std::string count = std::string("SELECT count(*), coalesce(sum(CASE WHEN ") +
                              names.other + " = $2 THEN 1 ELSE 0 END), 0) FROM " + names.table +
                              " WHERE user_id = $1";
    const std::string insert = std::string("INSERT INTO ") + names.table + " (user_id, " +
                               names.other + ", added) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING";
    bool listed = false;
    access_.write_and_wait(
        [&](Sql& db) {
            const SqlRows held = db.query(count, sql_params(user, other));
            listed = held.int64(0, 1) > 0;
            if (listed || static_cast<std::size_t>(held.int64(0, 0)) >= limit) return;
            db.query(insert, sql_params(user, other, unix_now_ms()));
            listed = true;
        },
        list == Relation::friend_of ? "add a friend" : "block a user");
    return listed;
}

void SqlSocialStore::remove_listed(Relation list, std::uint64_t user, std::uint64_t other) {
    const ListTable names = table_of(list);
    const std::string remove = std::string("DELETE FROM ") + names.table +
                               " WHERE user_id = $1 AND " + names.other + " = $2";
    access_.write_and_wait([&](Sql& db) { db.query(remove, sql_params(user, other)); },
                           list == Relation::friend_of ? "remove a friend" : "unblock a user");
}

std::vector<ListedUser> SqlSocialStore::listed_by(Relation list, std::uint64_t user) {
    const ListTable names = table_of(list);
    const std::string select = std::string("SELECT u.id, u.name, l.added FROM ") + names.table +
                               " l JOIN users u ON u.id = l." + names.other +
                               " WHERE l.user_id = $1 ORDER BY l.added, u.id";
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(select, sql_params(user));
        std::vector<ListedUser> listed;
        for (int i = 0; i < rows.rows(); ++i)
            listed.push_back(ListedUser{rows.uint64(i, 0), rows.text(i, 1), rows.int64(i, 2)});
        return listed;
    });
}

std::vector<StoredBlock> SqlSocialStore::all_blocks() {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows =
            db.query("SELECT user_id, blocked_id FROM blocks ORDER BY user_id, blocked_id", {});
        std::vector<StoredBlock> blocks;
        for (int i = 0; i < rows.rows(); ++i)
            blocks.push_back(StoredBlock{rows.uint64(i, 0), rows.uint64(i, 1)});
        return blocks;
    });
}

}  // namespace gcor::server
