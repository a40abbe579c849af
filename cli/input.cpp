#include "input.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

namespace gcor::cli {
namespace {
constexpr std::size_t kMaxInputBytes = 64u << 20;
}

protocol::Expected<protocol::Json> read_json(const std::string& path) {
    std::ifstream file;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) return protocol::Error{"io", "cannot read " + path};
    }
    std::istream& in = path == "-" ? std::cin : file;
    std::string text;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMaxInputBytes)
            return protocol::Error{"too_large", "the input is larger than 64 MiB"};
    }
    if (in.bad())
        return protocol::Error{"io", "cannot read " + (path == "-" ? "standard input" : path)};
    protocol::Json json = protocol::Json::parse(text, nullptr, false);
    if (json.is_discarded())
        return protocol::Error{"bad_json", (path == "-" ? std::string("standard input") : path) +
                                               " is not valid JSON"};
    return json;
}

void report(const char* command, const std::string& message) {
    std::cerr << "cor " << command << ": " << message << '\n';
}

}  // namespace gcor::cli
