#pragma once
// The browser client's files, read once at start and served from memory: each as it is, gzipped
// and in brotli (compressed once, not per request), with its ETag.
//
// Caching (docs/operations.md, "The client's files"): index.html names the other files under a
// versioned prefix, /v/<version>/, where the version is a hash of every file; the client's
// relative imports resolve under the same prefix. Those URLs never change content, so they are
// cached for a year (`immutable`); index.html itself and files asked for without the prefix are
// revalidated by their ETag (304 when unchanged). A change of any file is a new version, read at
// the next start. Thread-safe after load: nothing changes.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gcor::server {

class StaticFiles {
  public:
    struct File {
        std::string_view type;  // its Content-Type
        std::string etag;       // quoted, as the header has it
        std::string plain;
        std::string gzip;    // empty when compression does not make it smaller
        std::string brotli;  // likewise
    };
    struct Found {
        const File* file = nullptr;
        bool immutable = false;  // asked for under this version's prefix
    };

    // A file as it is served: its ETag, and gzip and brotli when they make it smaller (also the
    // API's answers that never change, such as the card catalogue). `type` outlives the file.
    static File prepare(std::string_view type, std::string bytes);

    // Reads every regular file below `root` (not following links to folders); throws
    // std::runtime_error when a file cannot be read. No files when `root` has no index.html
    // (a node that serves only the API and WebSockets).
    static StaticFiles load(const std::filesystem::path& root);
    bool empty() const { return files_.empty(); }

    // The file a request's path names ("/" is index.html); nullopt when there is none. A path
    // under another version's prefix is not found: that version's files are gone.
    std::optional<Found> find(std::string_view path) const;
    const std::string& version() const { return version_; }

  private:
    // Looked up by the request's string_view, without a string made per request.
    struct PathHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view path) const {
            return std::hash<std::string_view>{}(path);
        }
    };
    std::unordered_map<std::string, File, PathHash, std::equal_to<>>
        files_;  // by path from the root, "/app.js"
    std::string version_;
    std::string prefix_;  // "/v/<version>"
};

// Which encoding a request's Accept-Encoding takes: "br", "gzip" or "" (as it is). A coding
// with q=0 is refused (RFC 9110, 12.5.3).
std::string_view accepted_encoding(std::string_view accept_encoding, bool brotli, bool gzip);

}  // namespace gcor::server
