#pragma once
// The modes of cor-loadgen, each measuring into the report it is given and returning it.
#include <cstddef>
#include <string>

#include "loadgen/common.hpp"

namespace gcor::loadgen {

// game and calibration: tables of four connections, in a closed loop or at --rate.
Json run_tables(const Options& options, const Target& target, Json report);
// idle: connections that only say hello, held open.
Json run_idle(const Options& options, const Target& target, Json report);
// dormant: stored tables written through the store, then the server's memory on them.
Json run_dormant(const Options& options, Json report);
// lobby: a lobby request's round trips while stored tables are being loaded.
Json run_lobby(const Options& options, Json report);
// `count` stored tables, playing and private, each with `moves` moves (dormant_mode.cpp), and
// their ids.
void create_dormant_tables(const std::string& database, int count, int moves);
std::string dormant_table_id(std::size_t index);
// One line (and the problems) for people, from a report.
void print_summary(const Json& report);

}  // namespace gcor::loadgen
