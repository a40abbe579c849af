// WebSocket requests (protocol::parse_request): any text is a request or an error value; a move
// request's move has its one canonical text, a create_table request's settings theirs, and a
// chat line is one the rules of chat text accept.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

#include "fuzz_support.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/table_settings.hpp"

using namespace gcor;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = protocol::parse_request(text, protocol::Limits{});
    if (const auto* error = std::get_if<protocol::RequestError>(&parsed)) {
        fuzz::require(error->code <= protocol::kLastErrorCode, "an error code out of range");
        fuzz::require(!error->message.empty(), "an error without a message");
        return 0;
    }
    const auto& request = std::get<protocol::Request>(parsed);
    if (const auto* move = std::get_if<protocol::requests::Move>(&request)) {
        fuzz::require(move->move && move->move->well_formed(),
                      "a parsed move that is not well formed");
        const auto again = engine::Move::parse(move->move->to_string());
        fuzz::require(again && *again == *move->move, "a request's move does not round-trip");
    }
    if (const auto* chat = std::get_if<protocol::requests::Chat>(&request))
        fuzz::require(protocol::valid_chat_text(chat->text), "a parsed chat line that is refused");
    if (const auto* create = std::get_if<protocol::requests::CreateTable>(&request)) {
        const auto settings =
            protocol::parse_table_settings(protocol::table_settings_json(create->settings).dump());
        fuzz::require(settings && *settings == create->settings,
                      "a request's table settings do not round-trip");
    }
    return 0;
}
