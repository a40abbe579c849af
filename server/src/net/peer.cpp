#include "net/peer.hpp"

#include <spdlog/spdlog.h>

#include "metrics.hpp"

namespace gcor::server {

Message error_message(Metrics& metrics, protocol::ErrorCode code, std::string_view message,
                      const protocol::Json& id, std::string_view table, const char* reason) {
    metrics.count_error(code);
    spdlog::debug("{}{}{} ({})", table, table.empty() ? "" : ": ", protocol::error_id(code),
                  message);
    protocol::Json json = protocol::error_json(code, message, id, table);
    if (reason) json["reason"] = reason;
    return make_message(json.dump());
}

}  // namespace gcor::server
