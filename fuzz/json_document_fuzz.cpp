// HTTP API and file bodies (protocol::parse_json_document), and league and tournament bodies
// (server::parse_settings, parse_tournament_settings) when the document is an object: a document is
// JSON or an error value; its values are those of the text; settings that are read come back from
// their stored form.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "fuzz_support.hpp"
#include "gcor/protocol/messages.hpp"
#include "leagues/league_settings.hpp"
#include "tournaments/tournament_settings.hpp"

using namespace gcor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto json = protocol::parse_json_document(text, 16);
    if (!json) {
        const auto& code = json.error().code;
        fuzz::require(code == protocol::ErrorCode::too_deep ||
                          code == protocol::ErrorCode::bad_json ||
                          code == protocol::ErrorCode::bad_field,
                      "an unexpected error code");
        return 0;
    }
    fuzz::require(!json->is_discarded(), "a document accepted as JSON that nlohmann discarded");
    // Read by simdjson, handed on through its minified text: the values must be those of the
    // text itself, as nlohmann reads it directly (when it does: it may refuse what simdjson
    // takes, and simdjson refuses numbers nlohmann would round).
    if (const auto direct = protocol::Json::parse(text, nullptr, false); !direct.is_discarded())
        fuzz::require(direct == *json, "a document whose values changed on the way");
    if (!json->is_object()) return 0;
    const auto settings = server::parse_settings(*json);
    if (const auto* read = settings ? &*settings : nullptr) {
        const auto stored = server::settings_json(*read).dump();
        fuzz::require(server::settings_from_json(protocol::Json::parse(stored)) == *read,
                      "league settings do not round-trip through their stored form");
    }
    const auto tournament = server::parse_tournament_settings(*json);
    if (const auto* read = tournament ? &*tournament : nullptr) {
        const auto stored = server::tournament_settings_json(*read).dump();
        auto back = server::tournament_settings_from_json(protocol::Json::parse(stored));
        back.name = read->name;  // stored in a column of its own, not in the settings
        fuzz::require(back == *read,
                      "tournament settings do not round-trip through their stored form");
    } else {
        fuzz::require(tournament.error().code == protocol::ErrorCode::bad_field,
                      "a tournament body refused with another code than bad_field");
    }
    return 0;
}
