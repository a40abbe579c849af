#pragma once
// A request's one reading of the store before a refusal (docs/operations.md, "Several nodes on
// one database"). With other processes on the database, a table's copy may not have heard yet of
// their latest change, so a refusal on what they may have changed (a seat, the start, a version,
// a chat line) comes only from a copy read again after the request came. While `allowed`, the
// table marks the request `wanted` instead of refusing it, and the caller runs it again once the
// table has read the store (Table::reread), no longer allowed.

namespace gcor::server {

struct Recheck {
    bool allowed = false;
    bool wanted = false;
    // true: the store is to be read before this refusal; the request returns without an answer.
    bool read_first() {
        wanted = allowed;
        return wanted;
    }
};

}  // namespace gcor::server
