#include "input.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

#include "commands.hpp"
#include "gcor/protocol/messages.hpp"

namespace gcor::cli {
namespace {
constexpr std::size_t kMaxInputBytes = 64u << 20;
}  // namespace

protocol::Expected<protocol::Json> read_json(const std::string& path) {
    std::ifstream file;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) return protocol::Error{protocol::ErrorCode::not_found, "cannot read " + path};
    }
    std::istream& in = path == "-" ? std::cin : file;
    std::string text;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxInputBytes)
            return protocol::Error{protocol::ErrorCode::bad_json,
                                   "the input is larger than 64 MiB"};
    }
    if (in.bad())
        return protocol::Error{protocol::ErrorCode::not_found,
                               "cannot read " + (path == "-" ? "standard input" : path)};
    auto json = protocol::parse_json_document(text, protocol::kMaxFileJsonDepth);
    if (!json) {
        const std::string name = path == "-" ? std::string("standard input") : path;
        return protocol::Error{json.error().code, name + ": " + json.error().message};
    }
    return json;
}

void report(const char* command, const std::string& message) {
    std::cerr << "cor " << command << ": " << message << '\n';
}

std::optional<protocol::GameRecord> read_record(const char* command, const std::string& path,
                                                int& exit_code) {
    exit_code = kExitBadInput;
    const auto json = read_json(path);
    if (!json) return report(command, json.error().message), std::nullopt;
    auto record = protocol::parse_record(*json);
    if (!record) return report(command, record.error().message), std::nullopt;
    if (!protocol::commitment_holds(*record)) {
        report(command,
               "the seed and nonce do not match the record's commitment: this is not the deal the "
               "table committed to");
        exit_code = kExitIllegal;
        return std::nullopt;
    }
    exit_code = kExitOk;
    return std::move(*record);
}

std::string refused_move(const protocol::GameRecord& record, const protocol::Replay& replayed) {
    const std::size_t i = *replayed.refused_index;
    return "move " + std::to_string(i) + " (\"" + record.moves[i].to_string() +
           "\") is illegal: " + std::string(engine::error_message(replayed.refused_error)) + " [" +
           std::string(engine::error_code(replayed.refused_error)) + "]";
}

}  // namespace gcor::cli
