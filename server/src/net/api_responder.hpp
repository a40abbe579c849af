#pragma once
// What the endpoints of the HTTP API (api.cpp, settings_api.cpp) share: the answers, and the
// reading of a request's body, path and query.
#include <boost/beast/http.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "accounts/accounts.hpp"
#include "gcor/protocol/messages.hpp"
#include "leagues/leagues.hpp"
#include "net/api.hpp"
#include "net/http_response.hpp"
#include "services.hpp"

namespace gcor::server::api {

using protocol::ErrorCode;
using protocol::Expected;
using protocol::Json;

constexpr std::size_t kMaxApiBody = 4096;  // a name, a password, a URL

inline http::status status_of(ErrorCode code) {
    switch (code) {
        case ErrorCode::bad_credentials:
        case ErrorCode::bad_token:
            return http::status::unauthorized;
        case ErrorCode::name_taken:
        case ErrorCode::wrong_state:
        case ErrorCode::not_finished:
            return http::status::conflict;
        case ErrorCode::forbidden:
        case ErrorCode::registered_only:
            return http::status::forbidden;
        case ErrorCode::not_found:
            return http::status::not_found;
        case ErrorCode::token_expired:
            return http::status::gone;
        case ErrorCode::rate_limited:
        case ErrorCode::analysis_busy:
            return http::status::too_many_requests;
        case ErrorCode::storage_failed:
        case ErrorCode::mail_unavailable:
            return http::status::service_unavailable;
        case ErrorCode::internal:
            return http::status::internal_server_error;
        default:
            return http::status::bad_request;
    }
}

class Responder {
  public:
    Responder(Services& services, const http::request<http::string_body>& request)
        : services_(services), request_(request) {}

    http::response<http::string_body> json(http::status status, const Json& body) const {
        // A message may quote the target, whose bytes need not be UTF-8.
        return string_response(
            status, request_.version(), request_.keep_alive(), "application/json",
            body.dump(-1, ' ', false, Json::error_handler_t::replace), "no-store");
    }
    // A small page for a link opened from a mail: a heading, a paragraph, maybe a form.
    http::response<http::string_body> page(http::status status, std::string_view title,
                                           std::string_view html_body) const {
        // In the client's style and top bar, so that it reads as a page of the site.
        std::string html =
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\">"
            "<link rel=\"stylesheet\" href=\"/style.css\"><title>";
        html.append(title).append(
            " — The Great City of Rome</title></head><body><header class=\"top\"><a "
            "class=\"brand\" href=\"/\">The Great City of Rome</a></header><main><section "
            "class=\"panel mail-link\"><h1>");
        html.append(title).append("</h1>\n").append(html_body);
        html += "\n</section></main></body></html>\n";
        return string_response(status, request_.version(), request_.keep_alive(),
                               "text/html; charset=utf-8", std::move(html), "no-store");
    }
    http::response<http::string_body> error(ErrorCode code, std::string_view message) const {
        services_.metrics.count_error(code);
        return json(status_of(code), protocol::error_json(code, message, Json()));
    }
    http::response<http::string_body> reply(http::status status, const Reply& reply) const {
        if (!reply) return error(reply.error());
        return json(status, *reply);
    }
    // The body as a JSON object (an empty body is an empty object); errors as the WebSocket
    // protocol gives them (bad_json, too_deep, bad_field for a member given twice).
    Expected<Json> object_body() const {
        if (request_.body().empty()) return Json::object();
        if (request_.body().size() > kMaxApiBody)
            return protocol::Error{protocol::ErrorCode::bad_json,
                                   "the request body is larger than 4096 bytes"};
        auto parsed = protocol::parse_json_document(request_.body(), protocol::Limits{}.max_depth);
        if (parsed && !parsed->is_object())
            return protocol::Error{protocol::ErrorCode::bad_json,
                                   "the request body must be a JSON object"};
        return parsed;
    }
    http::response<http::string_body> session(http::status status, const SessionOrError& made) {
        if (!made) return error(made.error());
        const Session& session = *made;
        return json(status, Json{{"user", account_json(services_, session.user)},
                                 {"token", session.token},
                                 {"expires", session.expires}});
    }
    // The body as a JSON object with only string members among `allowed`.
    Expected<Json> body(std::initializer_list<std::string_view> allowed) const {
        auto parsed = object_body();
        if (!parsed) return parsed;
        return only_texts(std::move(*parsed), allowed);
    }
    // `parsed` if its members are strings among `allowed`.
    static Expected<Json> only_texts(Json parsed, std::initializer_list<std::string_view> allowed) {
        for (const auto& [key, value] : parsed.items()) {
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
                return protocol::Error{protocol::ErrorCode::bad_field,
                                       "unknown field \"" + key + "\""};
            if (!value.is_string())
                return protocol::Error{protocol::ErrorCode::bad_field,
                                       "\"" + key + "\" must be a string"};
        }
        return parsed;
    }
    http::response<http::string_body> error(const protocol::Error& refused) const {
        return error(refused.code, refused.message);
    }
    // "Authorization: Bearer <token>".
    std::string bearer_token() const {
        const std::string_view header = request_[http::field::authorization];
        constexpr std::string_view kBearer = "Bearer ";
        return header.starts_with(kBearer) ? std::string(header.substr(kBearer.size()))
                                           : std::string();
    }

  private:
    Services& services_;
    const http::request<http::string_body>& request_;
};

inline std::string text_of(const Json& body, const char* key) {
    const auto it = body.find(key);
    return it == body.end() ? std::string() : it->get<std::string>();
}

// A positive decimal number of at most 18 digits.
inline std::optional<std::uint64_t> number_of(std::string_view text) {
    std::uint64_t value = 0;
    if (text.empty() || text.size() > 18 || text.front() == '0') return std::nullopt;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// What follows the '?' of a target; empty without one.
inline std::string_view query_of(std::string_view target) {
    const auto query = target.find('?');
    return query == std::string_view::npos ? std::string_view() : target.substr(query + 1);
}

}  // namespace gcor::server::api
