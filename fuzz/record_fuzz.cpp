// Game records as `cor replay` reads them (protocol::parse_record, then protocol::replay): a
// record that is read replays without crashing, and comes back from the JSON it is written as.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "gcor/protocol/messages.hpp"

using namespace gcor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // As cli/input.cpp reads a file.
    const auto json = protocol::parse_json_document({reinterpret_cast<const char*>(data), size},
                                                    protocol::kMaxFileJsonDepth);
    if (!json) return 0;
    const auto record = protocol::parse_record(*json);
    if (!record) return 0;
    (void)protocol::commitment_holds(*record);
    const protocol::Replay replayed = protocol::replay(*record);
    fuzz::require(!replayed.refused_index || *replayed.refused_index < record->moves.size(),
                  "a refused move that is not in the record");
    (void)protocol::result_to_json(replayed.state).dump();

    const auto again = protocol::parse_record(protocol::record_to_json(*record, nullptr));
    fuzz::require(again.has_value(), "a written record that does not read back");
    fuzz::require(again->options == record->options && again->seed == record->seed &&
                      again->moves == record->moves && again->waited == record->waited &&
                      again->forfeited == record->forfeited &&
                      again->commitment == record->commitment && again->nonce == record->nonce,
                  "a record that does not round-trip");
    return 0;
}
