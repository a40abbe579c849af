// Table options (protocol::parse_options) from any JSON: options that are read make a game, and
// come back from their JSON form.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "gcor/protocol/game_json.hpp"

using namespace gcor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto json = protocol::Json::parse(data, data + size, nullptr, false);
    if (json.is_discarded()) return 0;
    const auto options = protocol::parse_options(json);
    if (!options) {
        fuzz::require(!options.error().message.empty(), "an error without a message");
        return 0;
    }
    fuzz::require(engine::Rules::make(*options).has_value(), "options that make no game");
    const auto again = protocol::parse_options(protocol::options_to_json(*options));
    fuzz::require(again && *again == *options, "options do not round-trip");
    return 0;
}
