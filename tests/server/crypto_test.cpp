#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "crypto.hpp"
#include "gcor/protocol/game_json.hpp"

using namespace gcor::server;
namespace protocol = gcor::protocol;

namespace {

bool lower_hex(const std::string& text) {
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

TEST_CASE("a password hash verifies its password and nothing else", "[crypto]") {
    const std::string hash = hash_password("correct horse");
    CHECK(verify_password(hash, "correct horse"));
    CHECK_FALSE(verify_password(hash, "correct horsE"));
    CHECK_FALSE(verify_password(hash, "correct horse "));
    CHECK_FALSE(verify_password(hash, ""));
    CHECK_FALSE(password_needs_rehash(hash));
}

TEST_CASE("an empty password hashes and verifies like any other", "[crypto]") {
    const std::string hash = hash_password("");
    CHECK(verify_password(hash, ""));
    CHECK_FALSE(verify_password(hash, "x"));
    CHECK(verify_password(hash_password(std::string_view()), std::string_view()));
}

TEST_CASE("password hashes are argon2id and salted", "[crypto]") {
    const std::string first = hash_password("secret");
    const std::string second = hash_password("secret");
    CHECK(first.starts_with("$argon2id$"));
    CHECK(second.starts_with("$argon2id$"));
    CHECK(first != second);
    CHECK(verify_password(second, "secret"));
}

TEST_CASE("a malformed hash verifies nothing", "[crypto]") {
    const std::string hash = hash_password("secret");
    CHECK_FALSE(verify_password("", "secret"));
    CHECK_FALSE(verify_password("secret", "secret"));
    CHECK_FALSE(verify_password("$argon2id$", "secret"));
    CHECK_FALSE(verify_password(hash.substr(0, hash.size() - 4), "secret"));
    CHECK_FALSE(verify_password(hash + "x", "secret"));
    CHECK(password_needs_rehash("not a hash"));
}

TEST_CASE("a hash with weaker parameters needs a rehash", "[crypto]") {
    // needs_rehash reads only the parameters in the string, so editing the memory cost will do.
    std::string changed = hash_password("secret");
    const auto memory = changed.find("m=");
    REQUIRE(memory != std::string::npos);
    changed.replace(memory, changed.find(',', memory) - memory, "m=1024");
    CHECK(password_needs_rehash(changed));
}

TEST_CASE("tokens are 64 lowercase hex digits and differ", "[crypto]") {
    const std::string first = new_token();
    const std::string second = new_token();
    CHECK(first.size() == 64);
    CHECK(lower_hex(first));
    CHECK(first != second);
}

TEST_CASE("token_hash is SHA-256 in lowercase hex", "[crypto]") {
    CHECK(token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(protocol::sha256_hex("") ==
          "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const std::string token = new_token();
    CHECK(token_hash(token) == protocol::sha256_hex(token));
    CHECK(token_hash(token) != token);
}

TEST_CASE("secure_random_hex gives two digits a byte", "[crypto]") {
    CHECK(secure_random_hex(0).empty());
    CHECK(secure_random_hex(1).size() == 2);
    CHECK(secure_random_hex(8).size() == 16);
    CHECK(lower_hex(secure_random_hex(33)));
    CHECK(secure_random_hex(16) != secure_random_hex(16));
    CHECK(secure_random_seed() != secure_random_seed());
}
