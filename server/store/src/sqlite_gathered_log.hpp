#pragma once
// A SQLite VFS over the system's default one that gathers the writes of the write-ahead log.
//
// SQLite writes each log frame as two system calls (its 24-byte header, then its page), frame
// after frame, and syncs the log at each commit: a group commit of 400 moves was about 800
// `pwrite` calls. This VFS keeps the log's consecutive writes in one buffer and writes them in
// calls of up to 120 KiB when SQLite syncs (or reads, truncates, asks the size, or writes
// elsewhere). Every other file, and every other call, goes straight to the default VFS.
//
// Only for a connection that syncs the log at every commit (`PRAGMA synchronous = FULL`): the
// sync is what makes the frames reach the file before the commit is published to readers
// through the shared-memory index. Other connections of the same database (readers) may use the
// default VFS: they share its locks and index, and never write the log.
namespace gcor::server::sqlite_gathered_log {

// The VFS's name, for sqlite3_open_v2 (registered on the first call; thread-safe).
const char* vfs_name();

}  // namespace gcor::server::sqlite_gathered_log
