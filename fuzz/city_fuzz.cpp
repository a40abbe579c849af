// Cities as `cor score` reads them (protocol::parse_city): a city that is read can be scored,
// and its total is the sum of its parts.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "gcor/engine/score.hpp"
#include "gcor/protocol/messages.hpp"

using namespace gcor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // As cli/input.cpp reads a file.
    const auto json = protocol::parse_json_document({reinterpret_cast<const char*>(data), size},
                                                    protocol::kMaxFileJsonDepth);
    if (!json) return 0;
    const auto city = protocol::parse_city(*json);
    if (!city) return 0;
    const engine::ScoreBreakdown score = engine::score(city->city, city->holdings);
    fuzz::require(score.total == score.residential_2 + score.residential_3 + score.residential_4 +
                                     score.aqueducts + score.temples + score.shrine + score.coins +
                                     score.influence_tokens + score.influence_cards,
                  "a total that is not the sum of its parts");
    (void)protocol::score_to_json(score).dump();
    return 0;
}
