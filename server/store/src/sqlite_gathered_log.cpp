#include "sqlite_gathered_log.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace gcor::server::sqlite_gathered_log {
namespace {

// Writes are gathered up to this size: the default VFS writes at most 128 KiB in one call (it
// masks the size to 17 bits, and reports a larger write as a full disk). A bigger write goes
// through as it comes.
constexpr std::size_t kLimit = 120 << 10;

sqlite3_vfs* default_vfs = nullptr;

// A log file: the default VFS's file follows this struct in the memory SQLite gave xOpen.
struct GatheredFile {
    sqlite3_file base;  // first: SQLite sees a sqlite3_file
    sqlite3_file* real;
    char* pending;  // the writes not yet made, from `offset` on
    std::size_t size;
    std::size_t capacity;
    sqlite3_int64 offset;
};

GatheredFile& gathered(sqlite3_file* file) {
    return *reinterpret_cast<GatheredFile*>(file);
}

const sqlite3_io_methods& real_methods(sqlite3_file* file) {
    return *gathered(file).real->pMethods;
}

int flush(GatheredFile& file) {
    if (file.size == 0) return SQLITE_OK;
    const int rc = file.real->pMethods->xWrite(file.real, file.pending, static_cast<int>(file.size),
                                               file.offset);
    file.size = 0;  // a failed write is SQLite's to handle (its I/O error fails the commit)
    return rc;
}

int gathered_close(sqlite3_file* file) {
    GatheredFile& self = gathered(file);
    const int flushed = flush(self);
    std::free(self.pending);
    self.pending = nullptr;
    const int closed = self.real->pMethods->xClose(self.real);
    return flushed != SQLITE_OK ? flushed : closed;
}

int gathered_read(sqlite3_file* file, void* into, int amount, sqlite3_int64 offset) {
    if (const int rc = flush(gathered(file)); rc != SQLITE_OK) return rc;
    return real_methods(file).xRead(gathered(file).real, into, amount, offset);
}

int gathered_write(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
    GatheredFile& self = gathered(file);
    const auto bytes = static_cast<std::size_t>(amount);
    const bool follows =
        self.size > 0 && offset == self.offset + static_cast<sqlite3_int64>(self.size);
    if (self.size > 0 && (!follows || self.size + bytes > kLimit))
        if (const int rc = flush(self); rc != SQLITE_OK) return rc;
    if (bytes > kLimit) return self.real->pMethods->xWrite(self.real, data, amount, offset);
    if (self.size + bytes > self.capacity) {
        const std::size_t capacity = std::max(self.size + bytes, 2 * self.capacity);
        void* grown = std::realloc(self.pending, capacity);
        if (!grown) {
            if (const int rc = flush(self); rc != SQLITE_OK) return rc;
            return self.real->pMethods->xWrite(self.real, data, amount, offset);
        }
        self.pending = static_cast<char*>(grown);
        self.capacity = capacity;
    }
    if (self.size == 0) self.offset = offset;
    std::memcpy(self.pending + self.size, data, bytes);
    self.size += bytes;
    return SQLITE_OK;
}

int gathered_truncate(sqlite3_file* file, sqlite3_int64 size) {
    if (const int rc = flush(gathered(file)); rc != SQLITE_OK) return rc;
    return real_methods(file).xTruncate(gathered(file).real, size);
}

int gathered_sync(sqlite3_file* file, int flags) {
    if (const int rc = flush(gathered(file)); rc != SQLITE_OK) return rc;
    return real_methods(file).xSync(gathered(file).real, flags);
}

int gathered_file_size(sqlite3_file* file, sqlite3_int64* size) {
    if (const int rc = flush(gathered(file)); rc != SQLITE_OK) return rc;
    return real_methods(file).xFileSize(gathered(file).real, size);
}

// The rest is the default VFS's own.
int gathered_lock(sqlite3_file* file, int level) {
    return real_methods(file).xLock(gathered(file).real, level);
}
int gathered_unlock(sqlite3_file* file, int level) {
    return real_methods(file).xUnlock(gathered(file).real, level);
}
int gathered_check_reserved_lock(sqlite3_file* file, int* reserved) {
    return real_methods(file).xCheckReservedLock(gathered(file).real, reserved);
}
int gathered_file_control(sqlite3_file* file, int op, void* argument) {
    return real_methods(file).xFileControl(gathered(file).real, op, argument);
}
int gathered_sector_size(sqlite3_file* file) {
    return real_methods(file).xSectorSize(gathered(file).real);
}
int gathered_device_characteristics(sqlite3_file* file) {
    return real_methods(file).xDeviceCharacteristics(gathered(file).real);
}
int gathered_shm_map(sqlite3_file* file, int region, int size, int extend, void volatile** at) {
    return real_methods(file).xShmMap(gathered(file).real, region, size, extend, at);
}
int gathered_shm_lock(sqlite3_file* file, int offset, int n, int flags) {
    return real_methods(file).xShmLock(gathered(file).real, offset, n, flags);
}
void gathered_shm_barrier(sqlite3_file* file) {
    real_methods(file).xShmBarrier(gathered(file).real);
}
int gathered_shm_unmap(sqlite3_file* file, int delete_flag) {
    return real_methods(file).xShmUnmap(gathered(file).real, delete_flag);
}
int gathered_fetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** at) {
    if (const int rc = flush(gathered(file)); rc != SQLITE_OK) return rc;
    return real_methods(file).xFetch(gathered(file).real, offset, amount, at);
}
int gathered_unfetch(sqlite3_file* file, sqlite3_int64 offset, void* at) {
    return real_methods(file).xUnfetch(gathered(file).real, offset, at);
}

const sqlite3_io_methods gathered_methods = {
    3,
    gathered_close,
    gathered_read,
    gathered_write,
    gathered_truncate,
    gathered_sync,
    gathered_file_size,
    gathered_lock,
    gathered_unlock,
    gathered_check_reserved_lock,
    gathered_file_control,
    gathered_sector_size,
    gathered_device_characteristics,
    gathered_shm_map,
    gathered_shm_lock,
    gathered_shm_barrier,
    gathered_shm_unmap,
    gathered_fetch,
    gathered_unfetch,
};

constexpr int kRealOffset = (sizeof(GatheredFile) + 15) / 16 * 16;

int gathered_open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags,
                  int* out_flags) {
    // Every file but the log is the default VFS's, in the same memory (it is large enough).
    if (!(flags & SQLITE_OPEN_WAL))
        return default_vfs->xOpen(default_vfs, name, file, flags, out_flags);
    auto* real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kRealOffset);
    const int rc = default_vfs->xOpen(default_vfs, name, real, flags, out_flags);
    if (rc != SQLITE_OK || !real->pMethods || real->pMethods->iVersion < 3) {
        if (rc == SQLITE_OK && real->pMethods) real->pMethods->xClose(real);
        file->pMethods = nullptr;  // SQLite then does not close it
        return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
    }
    GatheredFile& self = gathered(file);
    self.base.pMethods = &gathered_methods;
    self.real = real;
    self.pending = nullptr;
    self.size = self.capacity = 0;
    self.offset = 0;
    return SQLITE_OK;
}

sqlite3_vfs gathered_vfs;

}  // namespace

const char* vfs_name() {
    static std::once_flag registered;
    std::call_once(registered, [] {
        default_vfs = sqlite3_vfs_find(nullptr);
        if (!default_vfs) throw std::runtime_error("SQLite has no default VFS");
        // The default's other calls (delete, access, full path, time…) are this VFS's too; given
        // this VFS they find in it what they would find in theirs (it is a copy).
        gathered_vfs = *default_vfs;
        gathered_vfs.zName = "gcor-gathered-log";
        gathered_vfs.szOsFile = kRealOffset + default_vfs->szOsFile;
        gathered_vfs.pNext = nullptr;
        gathered_vfs.xOpen = gathered_open;
        if (const int rc = sqlite3_vfs_register(&gathered_vfs, 0); rc != SQLITE_OK)
            throw std::runtime_error(std::string("cannot register a SQLite VFS: ") +
                                     sqlite3_errstr(rc));
    });
    return gathered_vfs.zName;
}

}  // namespace gcor::server::sqlite_gathered_log
