#pragma once
// What every part of the store shares: its failures, how a write ended, its times and its
// completions.
#include <cstdint>
#include <functional>
#include <stdexcept>

namespace gcor::server {

// What a store throws when it cannot read or write (a full disk, an I/O error): the request that
// needed it is refused with storage_failed and nothing has changed.
struct StorageFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// How a table's write ended: committed, failed (the database could not write it), or refused
// because the table's stored row is no longer the one the write was made on (another process
// changed the table first, or removed it).
enum class Written : std::uint8_t { committed, failed, conflict };

// Milliseconds since the Unix epoch: what the store keeps for every time.
using UnixMs = std::int64_t;
UnixMs unix_now_ms();

// A write's completion, on the store's writer thread (so it must only post work elsewhere).
using StoreDone = std::function<void(bool ok)>;
using TableDone = std::function<void(Written)>;

}  // namespace gcor::server
