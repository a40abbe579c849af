// The client's files as StaticFiles serves them: the versioned page, what each path finds, the
// encodings (each decoding to the file), and how Accept-Encoding is read.
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "net/static_files.hpp"

namespace gcor::server {
namespace {

namespace fs = std::filesystem;

// A web root in a fresh temporary folder, removed afterwards.
struct StaticRoot {
    fs::path dir = fs::temp_directory_path() / ("gcor-static-" + std::to_string(::getpid()));
    StaticRoot() { fs::create_directories(dir / "i18n"); }
    ~StaticRoot() { fs::remove_all(dir); }
    void write(const std::string& path, const std::string& text) const {
        std::ofstream(dir / path, std::ios::binary) << text;
    }
};

std::string gunzipped(const std::string& packed) {
    z_stream stream{};
    REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);
    std::string out(1 << 20, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    stream.avail_in = static_cast<uInt>(packed.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    REQUIRE(inflate(&stream, Z_FINISH) == Z_STREAM_END);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    return out;
}

const std::string kStaticIndexPage =
    "<!doctype html><link rel=\"stylesheet\" href=\"/style.css\">"
    "<script type=\"module\" src=\"/app.js\"></script><a href=\"/elsewhere.js\">x</a>";

}  // namespace

TEST_CASE("static files: index.html names the others under the version's prefix", "[static]") {
    StaticRoot root;
    root.write("index.html", kStaticIndexPage);
    root.write("app.js", std::string(2000, 'a') + "import './i18n/en.js';");
    root.write("style.css", "body { color: red; }");
    root.write("i18n/en.js", "export default {};");
    const StaticFiles files = StaticFiles::load(root.dir);
    REQUIRE_FALSE(files.empty());
    REQUIRE(files.version().size() == 16);
    const std::string prefix = "/v/" + files.version();

    const auto page = files.find("/");
    REQUIRE(page);
    CHECK_FALSE(page->immutable);
    CHECK(page->file->type == "text/html; charset=utf-8");
    CHECK(page->file->plain.find("href=\"" + prefix + "/style.css\"") != std::string::npos);
    CHECK(page->file->plain.find("src=\"" + prefix + "/app.js\"") != std::string::npos);
    // Only files that exist are versioned.
    CHECK(page->file->plain.find("href=\"/elsewhere.js\"") != std::string::npos);
    CHECK(files.find("/index.html")->file == page->file);

    const auto versioned = files.find(prefix + "/i18n/en.js");
    REQUIRE(versioned);
    CHECK(versioned->immutable);
    CHECK(versioned->file->plain == "export default {};");
    const auto plain = files.find("/i18n/en.js");
    REQUIRE(plain);
    CHECK_FALSE(plain->immutable);
    CHECK(plain->file == versioned->file);

    // Another version, a bare prefix, a missing file: nothing.
    CHECK_FALSE(files.find("/v/0000000000000000/app.js"));
    CHECK_FALSE(files.find(prefix));
    CHECK_FALSE(files.find(prefix + "x/app.js"));
    CHECK_FALSE(files.find("/missing.js"));

    // Compressed once, each encoding the same bytes; the ETag quoted.
    const StaticFiles::File& app = *files.find("/app.js")->file;
    REQUIRE_FALSE(app.gzip.empty());
    CHECK(app.gzip.size() < app.plain.size());
    CHECK(gunzipped(app.gzip) == app.plain);
    REQUIRE_FALSE(app.brotli.empty());
    CHECK(app.brotli.size() < app.plain.size());
    CHECK(app.etag.front() == '"');
    CHECK(app.etag.back() == '"');
    // A tiny file is not worth compressing.
    CHECK(files.find("/style.css")->file->gzip.empty());
}

TEST_CASE("static files: the version changes with any file, and only then", "[static]") {
    StaticRoot root;
    root.write("index.html", kStaticIndexPage);
    root.write("app.js", "one");
    const std::string first = StaticFiles::load(root.dir).version();
    CHECK(StaticFiles::load(root.dir).version() == first);
    root.write("i18n/de.js", "zwei");
    const std::string second = StaticFiles::load(root.dir).version();
    CHECK(second != first);
    root.write("i18n/de.js", "drei");
    CHECK(StaticFiles::load(root.dir).version() != second);
}

TEST_CASE("static files: a folder without index.html serves nothing", "[static]") {
    StaticRoot root;
    root.write("app.js", "alone");
    const StaticFiles files = StaticFiles::load(root.dir);
    CHECK(files.empty());
    CHECK_FALSE(files.find("/app.js"));
    CHECK(StaticFiles::load(root.dir / "missing").empty());
}

TEST_CASE("static files: Accept-Encoding, q=0 refusing a coding", "[static]") {
    CHECK(accepted_encoding("gzip, deflate, br", true, true) == "br");
    CHECK(accepted_encoding("gzip, deflate, br", false, true) == "gzip");
    CHECK(accepted_encoding("gzip, deflate, br", false, false) == "");
    CHECK(accepted_encoding("", true, true) == "");
    CHECK(accepted_encoding("identity", true, true) == "");
    CHECK(accepted_encoding("br;q=0, gzip", true, true) == "gzip");
    CHECK(accepted_encoding("br;q=0.000, gzip;q=0", true, true) == "");
    CHECK(accepted_encoding("BR;Q=0.5", true, true) == "br");
    CHECK(accepted_encoding("*", true, true) == "br");
    CHECK(accepted_encoding("*;q=0, gzip", true, true) == "gzip");
    CHECK(accepted_encoding(" x-gzip ", false, true) == "gzip");
    CHECK(accepted_encoding(",,;;q=,", true, true) == "");
}

}  // namespace gcor::server
