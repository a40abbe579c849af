#include "input.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

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

}  // namespace gcor::cli
