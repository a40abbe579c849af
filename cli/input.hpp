#pragma once
#include <optional>
#include <string>

#include "gcor/protocol/game_json.hpp"

namespace gcor::cli {

// Reads a JSON document from a file, or standard input for "-", refusing oversized input.
protocol::Expected<protocol::Json> read_json(const std::string& path);

// Prints "cor COMMAND: message" on standard error.
void report(const char* command, const std::string& message);

// Reads a game record from `path` (as read_json) whose seed matches its commitment; otherwise
// reports why for `command` and sets `exit_code`: kExitBadInput for a malformed record,
// kExitIllegal for another deal than the one committed to.
std::optional<protocol::GameRecord> read_record(const char* command, const std::string& path,
                                                int& exit_code);

// Why a replay stopped: "move 7 ("build 0 3,3") is illegal: <message> [<code>]".
std::string refused_move(const protocol::GameRecord& record, const protocol::Replay& replayed);

}  // namespace gcor::cli
