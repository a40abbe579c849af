#include <catch2/catch.hpp>
#include <string>

#include "gcor/protocol/messages.hpp"

namespace gcor::protocol {
namespace {

// Written after something, to check that what was there stays.
std::string written(std::string_view text) {
    std::string out = "[";
    append_json_string(out, text);
    return out;
}

TEST_CASE("json strings written as text: the same as nlohmann's dump", "[protocol]") {
    std::string every_ascii;
    for (int c = 1; c < 0x80; ++c)
        every_ascii.push_back(static_cast<char>(c));
    const std::string samples[] = {"",
                                   "Ann builds Market at (1,0), gaining 2 coins.",
                                   R"(a "quoted" \ name)",
                                   "tab\there, line\nbreak, \x01 and \x1f",
                                   "Ærøskøbing 東京 🏛️",
                                   std::string("nul \0 inside", 12),
                                   every_ascii};
    for (const std::string& sample : samples) {
        INFO(Json(sample).dump());
        CHECK(written(sample) == "[" + Json(sample).dump());
        CHECK(Json::parse(written(sample).substr(1)) == sample);
    }
}

}  // namespace
}  // namespace gcor::protocol
