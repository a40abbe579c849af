#pragma once
// The SQL of leagues and ratings for the SQLite store (sqlite_store.cpp): reads take the reader's
// connection inside a read transaction, writes the writer's inside its transaction.
#include <SQLiteCpp/Database.h>

#include <optional>
#include <utility>
#include <vector>

#include "gcor/store/store.hpp"

namespace gcor::server::sqlite_leagues {

// Reads.
std::vector<StoredLeague> select_leagues(SQLite::Database& db, std::optional<std::uint64_t> id);
std::vector<StoredSeason> select_seasons(SQLite::Database& db, std::uint64_t league,
                                         std::optional<int> number);
std::vector<SeasonMember> select_members(SQLite::Database& db, std::uint64_t league, int number);
std::vector<UserSeason> select_seasons_of(SQLite::Database& db, std::uint64_t user,
                                          std::size_t limit);
std::vector<std::string> select_unrated(SQLite::Database& db);
std::vector<StoredRating> select_ratings(SQLite::Database& db, std::optional<std::uint64_t> user,
                                         std::size_t limit);
std::vector<RatingChange> select_rating_history(SQLite::Database& db, std::uint64_t user,
                                                std::size_t limit);

// Writes.
std::optional<StoredLeague> insert_league(SQLite::Database& db, const std::string& name,
                                          std::uint64_t organizer, const std::string& settings);
void insert_season(SQLite::Database& db, std::uint64_t league, int number);
bool insert_member(SQLite::Database& db, std::uint64_t league, int number, std::uint64_t user);
bool delete_member(SQLite::Database& db, std::uint64_t league, int number, std::uint64_t user);
// The start's rows besides the tables themselves.
void write_start(SQLite::Database& db, std::uint64_t league, int number,
                 const std::vector<SeasonMember>& members, const std::vector<SeasonTable>& tables);
void write_finish(SQLite::Database& db, std::uint64_t league, int number,
                  const std::string& final_table);
void write_ratings(SQLite::Database& db, const std::vector<RatingChange>& changes);

}  // namespace gcor::server::sqlite_leagues
