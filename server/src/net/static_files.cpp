#include "net/static_files.hpp"

#include <brotli/encode.h>
#include <sodium.h>
#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace gcor::server {
namespace {

namespace fs = std::filesystem;

std::string_view mime_type(std::string_view path) {
    const auto dot = path.rfind('.');
    const std::string_view ext = dot == std::string_view::npos ? "" : path.substr(dot);
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".json") return "application/json";
    if (ext == ".svg") return "image/svg+xml";
    if (ext == ".png") return "image/png";
    if (ext == ".ico") return "image/x-icon";
    if (ext == ".woff2") return "font/woff2";
    return "application/octet-stream";
}

// Text and SVG shrink; pictures and fonts are compressed already.
bool compressible(std::string_view type) {
    return type.starts_with("text/") || type == "application/json" || type == "image/svg+xml";
}

std::string sha256_hex(std::string_view bytes) {
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (const unsigned char byte : digest) {
        hex += kHex[byte >> 4];
        hex += kHex[byte & 15];
    }
    return hex;
}

std::string gzipped(std::string_view plain) {
    z_stream stream{};
    // 15 + 16: a gzip wrapper around the deflate stream, as Content-Encoding: gzip means.
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) !=
        Z_OK)
        throw std::runtime_error("zlib cannot start");
    std::string out(deflateBound(&stream, plain.size()), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
    stream.avail_in = static_cast<uInt>(plain.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int result = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    if (result != Z_STREAM_END) throw std::runtime_error("zlib cannot compress");
    return out;
}

std::string brotli(std::string_view plain) {
    std::string out(BrotliEncoderMaxCompressedSize(plain.size()), '\0');
    std::size_t size = out.size();
    if (!BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
                               plain.size(), reinterpret_cast<const uint8_t*>(plain.data()), &size,
                               reinterpret_cast<uint8_t*>(out.data())))
        throw std::runtime_error("brotli cannot compress");
    out.resize(size);
    return out;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in && !in.eof()) throw std::runtime_error("cannot read " + path.string());
    return std::move(bytes).str();
}

// Every `"/file"` that index.html names, as `"/v/<version>/file"`.
std::string versioned_page(std::string page, const std::map<std::string, std::string>& files,
                           const std::string& prefix) {
    for (const auto& [path, bytes] : files) {
        const std::string quoted = '"' + path + '"';
        const std::string replacement = '"' + prefix + path + '"';
        for (auto at = page.find(quoted); at != std::string::npos;
             at = page.find(quoted, at + replacement.size()))
            page.replace(at, quoted.size(), replacement);
    }
    return page;
}

std::string lowercase(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

}  // namespace

StaticFiles StaticFiles::load(const fs::path& root) {
    if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
    std::error_code error;
    if (!fs::is_regular_file(root / "index.html", error)) return {};
    // Sorted, so that the version depends on the files alone.
    std::map<std::string, std::string> read;
    for (fs::recursive_directory_iterator it(root), end; it != end; ++it) {
        if (!it->is_regular_file()) continue;
        read.emplace("/" + fs::relative(it->path(), root).generic_string(), read_file(it->path()));
    }

    std::string all;
    for (const auto& [path, bytes] : read)
        all.append(path).append(1, '\0').append(sha256_hex(bytes));
    StaticFiles files;
    files.version_ = sha256_hex(all).substr(0, 16);
    files.prefix_ = "/v/" + files.version_;
    read["/index.html"] = versioned_page(read["/index.html"], read, files.prefix_);

    for (auto& [path, bytes] : read)
        files.files_.emplace(path, prepare(mime_type(path), std::move(bytes)));
    return files;
}

StaticFiles::File StaticFiles::prepare(std::string_view type, std::string bytes) {
    File file;
    file.type = type;
    file.etag = '"' + sha256_hex(bytes).substr(0, 24) + '"';
    if (compressible(file.type)) {
        if (std::string packed = gzipped(bytes); packed.size() < bytes.size())
            file.gzip = std::move(packed);
        if (std::string packed = brotli(bytes); packed.size() < bytes.size())
            file.brotli = std::move(packed);
    }
    file.plain = std::move(bytes);
    return file;
}

std::optional<StaticFiles::Found> StaticFiles::find(std::string_view path) const {
    bool immutable = false;
    if (path.starts_with("/v/")) {
        if (!path.starts_with(prefix_) || path.size() == prefix_.size() ||
            path[prefix_.size()] != '/')
            return std::nullopt;
        path.remove_prefix(prefix_.size());
        immutable = true;
    }
    const auto it = files_.find(path == "/" ? std::string_view("/index.html") : path);
    if (it == files_.end()) return std::nullopt;
    return Found{&it->second, immutable};
}

std::string_view accepted_encoding(std::string_view accept_encoding, bool brotli, bool gzip) {
    // The q-value each coding is given; "*" stands for those not named.
    std::optional<double> br_q, gzip_q, any_q;
    while (!accept_encoding.empty()) {
        const auto comma = accept_encoding.find(',');
        std::string_view item = accept_encoding.substr(0, comma);
        accept_encoding.remove_prefix(comma == std::string_view::npos ? accept_encoding.size()
                                                                      : comma + 1);
        double q = 1;
        if (const auto semicolon = item.find(';'); semicolon != std::string_view::npos) {
            const std::string parameter = lowercase(trimmed(item.substr(semicolon + 1)));
            item = item.substr(0, semicolon);
            if (parameter.starts_with("q=")) {
                // "q=0", "q=0.0", "q=0.000" refuse; anything else accepts.
                const std::string_view value = std::string_view(parameter).substr(2);
                q = !value.empty() && value.find_first_not_of("0.") == std::string_view::npos &&
                            value[0] == '0'
                        ? 0
                        : 1;
            }
        }
        const std::string coding = lowercase(trimmed(item));
        if (coding == "br") br_q = q;
        if (coding == "gzip" || coding == "x-gzip") gzip_q = q;
        if (coding == "*") any_q = q;
    }
    const auto takes = [&](const std::optional<double>& named) {
        return named ? *named > 0 : any_q && *any_q > 0;
    };
    if (brotli && takes(br_q)) return "br";
    if (gzip && takes(gzip_q)) return "gzip";
    return "";
}

}  // namespace gcor::server
