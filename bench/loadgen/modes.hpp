#pragma once
// The modes of cor-loadgen, each measuring into the report it is given and returning it.
#include "loadgen/common.hpp"

namespace gcor::loadgen {

// game and calibration: tables of four connections, in a closed loop or at --rate.
Json run_tables(const Options& options, const Target& target, Json report);
// idle: connections that only say hello, held open.
Json run_idle(const Options& options, const Target& target, Json report);
// dormant: stored tables written through the store, then the server's memory on them.
Json run_dormant(const Options& options, Json report);
// One line (and the problems) for people, from a report.
void print_summary(const Json& report);

}  // namespace gcor::loadgen
