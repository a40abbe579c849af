#pragma once
// What a store's parts written once (accounts, chat, mail, leagues) need of a backend: its reads
// and its writes, each given a connection (Sql) in the right transaction. SQLite and PostgreSQL
// differ in how (one reader under a mutex or a pool of snapshots; the group-commit writer on a
// connection of its own), not in what the parts ask.
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "gcor/store/store.hpp"
#include "sql.hpp"

namespace gcor::server {

class StoreAccess {
  public:
    using Write = std::function<void(Sql&)>;

    virtual ~StoreAccess() = default;
    // Runs `body` in one read snapshot, on any thread; throws StorageFailure.
    virtual void read_in_snapshot(const std::function<void(Sql&)>& body) = 0;
    // Runs `body`, which runs one statement, on any thread: a statement is a snapshot by itself,
    // so that PostgreSQL needs no transaction around it (one round trip, not three); throws
    // StorageFailure.
    virtual void read_statement(const std::function<void(Sql&)>& body) = 0;
    // Queues `write` (run on the writer thread inside a group's transaction) and waits until its
    // transaction ended: true when it committed.
    virtual bool wait_for_write(const Write& write) = 0;
    // Queues `write`; `done` runs on the writer thread once its transaction ended.
    virtual void enqueue(Write write, Store::Done done) = 0;

    // Queues `write` and waits until it committed; throws StorageFailure ("store: could not
    // <what>") when it failed.
    void write_and_wait(const Write& write, const char* what) {
        if (!wait_for_write(write)) throw StorageFailure(std::string("store: could not ") + what);
    }

    // A read's result: of several statements in one snapshot, or of one statement.
    template <typename Body>
    std::invoke_result_t<Body&, Sql&> read(Body body) {
        std::optional<std::invoke_result_t<Body&, Sql&>> result;
        read_in_snapshot([&](Sql& sql) { result.emplace(body(sql)); });
        return std::move(*result);
    }
    template <typename Body>
    std::invoke_result_t<Body&, Sql&> read_one(Body body) {
        std::optional<std::invoke_result_t<Body&, Sql&>> result;
        read_statement([&](Sql& sql) { result.emplace(body(sql)); });
        return std::move(*result);
    }
};

template <typename T>
std::optional<T> first_of(std::vector<T> rows) {
    if (rows.empty()) return std::nullopt;
    return std::move(rows.front());
}

}  // namespace gcor::server
