#include "crypto.hpp"

#include <sodium.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "gcor/protocol/game_json.hpp"

namespace gcor::server {
namespace {

// sodium_init is safe to call more than once, but once is enough: the static makes later calls
// free and C++ makes the first one thread-safe (and retried if it threw).
void ensure_sodium() {
    [[maybe_unused]] static const bool ready = [] {
        if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
        return true;
    }();
}

// libsodium declares its pointers non-null even for empty input; an empty string_view may hold one.
const char* data_of(std::string_view text) {
    return text.data() != nullptr ? text.data() : "";
}

std::string to_hex(const unsigned char* bytes, std::size_t size) {
    std::string hex(size * 2 + 1, '\0');  // sodium_bin2hex writes a terminating NUL
    sodium_bin2hex(hex.data(), hex.size(), bytes, size);
    hex.pop_back();
    return hex;
}

}  // namespace

std::string hash_password(std::string_view password) {
    ensure_sodium();
    char hash[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(
            hash, data_of(password), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
            crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
        throw std::runtime_error("out of memory hashing a password");
    return hash;
}

bool verify_password(const std::string& hash, std::string_view password) {
    ensure_sodium();
    return crypto_pwhash_str_verify(hash.c_str(), data_of(password), password.size()) == 0;
}

bool password_needs_rehash(const std::string& hash) {
    ensure_sodium();
    // 1 for other parameters, -1 for a malformed hash or another algorithm.
    return crypto_pwhash_str_needs_rehash(hash.c_str(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                          crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0;
}

std::string new_token() {
    return secure_random_hex(32);
}

std::string token_hash(std::string_view token) {
    return protocol::sha256_hex(token);
}

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
    ensure_sodium();
    // Keys of any length: crypto_auth_hmacsha256's multi-part API takes them as they are.
    crypto_auth_hmacsha256_state state;
    crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(key.data()),
                                key.size());
    crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(message.data()),
                                  message.size());
    std::array<unsigned char, crypto_auth_hmacsha256_BYTES> mac{};
    crypto_auth_hmacsha256_final(&state, mac.data());
    return to_hex(mac.data(), mac.size());
}

bool same_secret(std::string_view a, std::string_view b) {
    ensure_sodium();
    return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string secure_random_hex(std::size_t bytes) {
    if (bytes == 0) return {};  // randombytes_buf's pointer must not be null, even for 0 bytes
    ensure_sodium();
    std::vector<unsigned char> buffer(bytes);
    randombytes_buf(buffer.data(), buffer.size());
    return to_hex(buffer.data(), buffer.size());
}

std::uint64_t secure_random_seed() {
    ensure_sodium();
    std::uint64_t seed = 0;
    randombytes_buf(&seed, sizeof seed);
    return seed;
}

}  // namespace gcor::server
