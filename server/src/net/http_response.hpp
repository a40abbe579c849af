#pragma once
// The one way the server answers with a body it holds (files stream from disk instead): its name,
// the body's type, the cache policy, the request's keep-alive and the length.
#include <boost/beast/http.hpp>
#include <string>
#include <string_view>

namespace gcor::server {

inline boost::beast::http::response<boost::beast::http::string_body> string_response(
    boost::beast::http::status status, unsigned version, bool keep_alive,
    std::string_view content_type, std::string body, std::string_view cache_control = "no-cache") {
    namespace http = boost::beast::http;
    http::response<http::string_body> response{status, version};
    response.set(http::field::server, "cor-server");
    response.set(http::field::content_type, content_type);
    response.set(http::field::cache_control, cache_control);
    response.keep_alive(keep_alive);
    response.body() = std::move(body);
    response.prepare_payload();
    return response;
}

}  // namespace gcor::server
