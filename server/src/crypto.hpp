#pragma once
// Passwords, tokens and secrets, from libsodium. Every function is thread-safe and throws
// std::runtime_error if libsodium cannot be initialised.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gcor::server {

// An argon2id hash in libsodium's self-describing string form ("$argon2id$v=19$m=...").
// Costs about 64 MiB and a tenth of a second of one core: keep it off the network threads.
// Throws std::runtime_error when the memory cannot be had.
std::string hash_password(std::string_view password);
// False for a wrong password and for anything that is not a hash from hash_password.
bool verify_password(const std::string& hash, std::string_view password);
// True when `hash` was made with other parameters than hash_password's (or is malformed): hash
// the password again after a successful verify_password.
bool password_needs_rehash(const std::string& hash);

// A session token: 32 random bytes as 64 lowercase hex digits.
std::string new_token();
// What is stored of a token: its SHA-256, so a leaked database resumes no one.
std::string token_hash(std::string_view token);

// HMAC-SHA256 of `message` under `key`, as 64 lowercase hex digits: links the server signs.
std::string hmac_sha256_hex(std::string_view key, std::string_view message);
// Compares two secrets in a time that does not depend on where they differ.
bool same_secret(std::string_view a, std::string_view b);

// `bytes` random bytes from the system's generator, as lowercase hex.
std::string secure_random_hex(std::size_t bytes);
// A secret seed for a table's deal.
std::uint64_t secure_random_seed();

}  // namespace gcor::server
