#pragma once
// The one way the server answers with a body it holds (the client's files are answered from
// StaticFiles): its name, the body's type, the cache policy, the security headers, the request's
// keep-alive and the length.
#include <boost/beast/http.hpp>
#include <string>
#include <string_view>

namespace gcor::server {

// On every page, file and answer (docs/operations.md, "Headers"): scripts, styles, pictures and
// connections from this origin only (no inline code, so an injected script cannot run and take
// the token in localStorage), in no frame, and no address sent to other sites (mail links carry
// tokens).
constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'self'";

inline void set_security_headers(boost::beast::http::fields& fields) {
    fields.set("Content-Security-Policy", kContentSecurityPolicy);
    fields.set("X-Content-Type-Options", "nosniff");
    fields.set("Referrer-Policy", "same-origin");
}

inline boost::beast::http::response<boost::beast::http::string_body> string_response(
    boost::beast::http::status status, unsigned version, bool keep_alive,
    std::string_view content_type, std::string body, std::string_view cache_control = "no-cache") {
    namespace http = boost::beast::http;
    http::response<http::string_body> response{status, version};
    response.set(http::field::server, "cor-server");
    response.set(http::field::content_type, content_type);
    response.set(http::field::cache_control, cache_control);
    set_security_headers(response);
    response.keep_alive(keep_alive);
    response.body() = std::move(body);
    response.prepare_payload();
    return response;
}

}  // namespace gcor::server
