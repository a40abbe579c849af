#pragma once
// The SQL of tables' chat lines and of users' mutes for the SQLite store (sqlite_store.cpp):
// reads on the reader's connection inside its read transaction, writes on the writer's inside its
// transaction.
#include <SQLiteCpp/SQLiteCpp.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server::sqlite_chat {

// Up to `limit` lines not deleted, numbered below `before` (nullopt: any), oldest first.
std::vector<StoredChatLine> select_lines(SQLite::Database& db, const std::string& table,
                                         std::optional<std::uint64_t> before, std::size_t limit);
// The highest line number a table gave; 0 when it has none.
std::uint64_t select_last_number(SQLite::Database& db, const std::string& table);
std::vector<std::uint64_t> select_muted(SQLite::Database& db, std::uint64_t user);

void insert_line(SQLite::Database& db, const std::string& table, const StoredChatLine& line);
void delete_line(SQLite::Database& db, const std::string& table, std::uint64_t n);
// Every line of a table if it is waiting (it is being removed; a started table never is).
void delete_waiting_table_lines(SQLite::Database& db, const std::string& table);
void write_mute(SQLite::Database& db, std::uint64_t user, std::uint64_t other, bool muted);

}  // namespace gcor::server::sqlite_chat
