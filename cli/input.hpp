#pragma once
#include <string>

#include "gcor/protocol/game_json.hpp"

namespace gcor::cli {

// Reads a JSON document from a file, or standard input for "-", refusing oversized input.
protocol::Expected<protocol::Json> read_json(const std::string& path);

// Prints "cor COMMAND: message" on standard error.
void report(const char* command, const std::string& message);

}  // namespace gcor::cli
