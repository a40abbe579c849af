#pragma once
// What the SQLite store's files share.
#include <cstdint>
#include <string>

namespace gcor::server {

// How long a connection waits for a lock another process holds (a backup, the sqlite3 shell).
constexpr int kBusyTimeoutMs = 5000;

// Seeds, versions and user ids are uint64; SQLite integers are int64: keep the bit pattern.
inline std::int64_t to_sql(std::uint64_t value) {
    return static_cast<std::int64_t>(value);
}
inline std::uint64_t from_sql(std::int64_t value) {
    return static_cast<std::uint64_t>(value);
}

}  // namespace gcor::server
