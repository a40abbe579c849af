#pragma once
// How a table follows what other server processes sharing the database changed: which news is
// the next move and is applied at once, when the row's news (which carries a move) puts the
// table in step again, when the table reads what it lacks from the store, and when it must
// reload. It remembers the table as it was before the moves applied from their news whose row is
// awaited, so that what follows them (the lobby, the player whose turn began, a bot) compares
// with the right state. It decides; the table reads, applies and sends, through `NewsTarget`.
// Used on the table's strand only.
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/store/store.hpp"
#include "tables/commit_pipeline.hpp"

namespace gcor::server {

// What the news reader asks of its table. Called on the table's strand; the work and the reads'
// answers it is given refer to the reader, so the table that holds the reader runs them only
// while it lives.
class NewsTarget {
  public:
    // The table's copy as the news are compared with it.
    struct Copy {
        std::uint64_t version = 0;
        std::uint64_t revision = 0;
        TableStatus status = TableStatus::waiting;
        engine::Seat to_act = 0;  // while playing
    };
    // The table in step with its stored row again, after others' changes.
    struct InStep {
        std::uint64_t revision = 0;
        std::optional<UnixMs> deadline;  // the row's
        TableStatus status_before = TableStatus::waiting;
        engine::Seat to_act_before = 0;
        UnixMs last_move_at = 0;  // of the latest move (not undo) applied from the news
    };
    using OnRead = std::function<void(bool read, const std::optional<LoadedTable>& stored)>;

    virtual ~NewsTarget() = default;
    virtual Copy news_copy() const = 0;
    virtual bool seated_as(const std::vector<StoredSeat>& seats) const = 0;
    // Runs `work` now, or once the table's own change being committed is stored.
    virtual void when_ready(std::function<void()> work) = 0;
    // Reads the table's changes after `version` (off the strand), then `done` on the strand once
    // the table is ready; `read` false when the store could not be read, `stored` empty when the
    // table is gone.
    virtual void read_since(std::uint64_t version, OnRead done) = 0;
    // Applies a stored move made elsewhere (one revision of its row) and sends its patches;
    // false when it does not apply here, and the table has retired.
    virtual bool apply_stored_change(const StoredMove& change) = 0;
    // Its deadline, and what follows others' moves: the lobby, the player to act, a bot.
    virtual void in_step(const InStep& row) = 0;
    // More than moves changed: the table reloads from `row`'s store.
    virtual void reload(const StoredTable& row) = 0;
    // The table is gone from the store.
    virtual void retire_closed() = 0;
};

// What the news reader tells a table's chat of another process's chat: line `n` was written (to
// read and send, unless known here already), or deleted. On the table's strand.
class ChatNews {
  public:
    virtual ~ChatNews() = default;
    virtual void read_chat_line(std::uint64_t n) = 0;
    virtual void on_chat_deleted(std::uint64_t n) = 0;
};

class NewsReader {
  public:
    using Work = CommitPipeline::Work;

    // `table_id` (for the log), `pipeline`, `target` and `chat` outlive the reader; the pipeline
    // is the table's, which orders the reads and counts the rows awaited.
    NewsReader(std::string_view table_id, CommitPipeline& pipeline, NewsTarget& target,
               ChatNews& chat)
        : table_id_(table_id), pipeline_(pipeline), target_(target), chat_(chat) {}

    void on_news(const StoreNews& news);
    // Reads the store, then runs `then` (the table ready; retired, perhaps, as it reloaded).
    void reread(Work then);

  private:
    struct Before {
        TableStatus status = TableStatus::waiting;
        engine::Seat to_act = 0;
    };

    // A store read, one at a time; one asked for meanwhile follows it.
    void read();
    void catch_up(const std::optional<LoadedTable>& stored);
    // A move another process stored, from its row's news (StoreNews::move): applied at once when
    // it is the next one. True when the row is to be looked at (the move applied, or known);
    // false when the store is read instead, or the table retired.
    bool on_move(std::string_view news);
    // The row's news (after its move): true when it is that move's and nothing else changed.
    bool on_row(const StoreNews& news);
    void accept_row(std::uint64_t revision, std::optional<UnixMs> deadline, Before before);
    bool apply(const StoredMove& change);

    const std::string_view table_id_;
    CommitPipeline& pipeline_;
    NewsTarget& target_;
    ChatNews& chat_;
    // The table before the moves applied from their news whose row is awaited.
    Before before_news_;
    UnixMs last_move_at_ = 0;
};

}  // namespace gcor::server
