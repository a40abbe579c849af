#pragma once
// The SQL of leagues and ratings for the PostgreSQL store (postgres_store.cpp): reads on a
// reader's connection inside its read transaction, writes on the writer's inside its transaction.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gcor/store/store.hpp"
#include "postgres_connection.hpp"

namespace gcor::server::postgres_leagues {

// Reads.
std::vector<StoredLeague> select_leagues(pg::Connection& db, std::optional<std::uint64_t> id);
std::vector<StoredSeason> select_seasons(pg::Connection& db, std::uint64_t league,
                                         std::optional<int> number);
std::vector<SeasonMember> select_members(pg::Connection& db, std::uint64_t league, int number);
std::vector<UserSeason> select_seasons_of(pg::Connection& db, std::uint64_t user,
                                          std::size_t limit);
std::vector<std::string> select_unrated(pg::Connection& db);
std::vector<StoredRating> select_ratings(pg::Connection& db, std::optional<std::uint64_t> user,
                                         std::size_t limit);
std::vector<RatingChange> select_rating_history(pg::Connection& db, std::uint64_t user,
                                                std::size_t limit);

// Writes.
std::optional<StoredLeague> insert_league(pg::Connection& db, const std::string& name,
                                          std::uint64_t organizer, const std::string& settings);
void insert_season(pg::Connection& db, std::uint64_t league, int number);
bool insert_member(pg::Connection& db, std::uint64_t league, int number, std::uint64_t user);
bool delete_member(pg::Connection& db, std::uint64_t league, int number, std::uint64_t user);
// The start's rows besides the tables themselves.
void write_start(pg::Connection& db, std::uint64_t league, int number,
                 const std::vector<SeasonMember>& members, const std::vector<SeasonTable>& tables);
void write_finish(pg::Connection& db, std::uint64_t league, int number,
                  const std::string& final_table);
void write_ratings(pg::Connection& db, const std::vector<RatingChange>& changes);

}  // namespace gcor::server::postgres_leagues
