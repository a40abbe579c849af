#pragma once
// The order of a table's work, as one small state machine with no server behind it: every change
// is stored before anybody hears of it, so while a write is in flight the table holds later work
// back; reads of what other server processes changed happen one at a time; a table that gave up
// its state (retired) does nothing more of its own. Used on the table's strand only.
//
//   stage:   unsaved --begin_commit--> committing --committed--> ready --begin_commit--> committing
//            any --retire--> retired (still drains the work held back when its commit ends)
//   reading: idle --request_read--> reading --request_read--> again
//            reading/again --read_finished--> idle (again: the caller reads once more)
#include <concepts>
#include <cstddef>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

namespace gcor::server {

class CommitPipeline {
  public:
    using Work = std::function<void()>;
    enum class Stage {
        unsaved,     // a new table: nothing reaches it before its first commit stores it
        ready,       // work runs at once
        committing,  // a write is in flight: work waits for it
        retired,     // the table gave up its state; work runs at once and finds it retired
    };
    enum class Reading { idle, reading, again };

    explicit CommitPipeline(Stage stage = Stage::ready) : stage_(stage) {}

    Stage stage() const { return stage_; }
    bool retired() const { return stage_ == Stage::retired; }

    // Runs `work` now, or once the write in flight is stored. Work that runs now is not made a
    // Work (a std::function, which allocates for a request's many captures) first.
    template <std::invocable Callable>
    void when_ready(Callable&& work) {
        if (stage_ == Stage::unsaved || stage_ == Stage::committing)
            held_back_.emplace_back(std::forward<Callable>(work));
        else
            work();
    }
    // A change of the table's own goes to the store: later work waits, and the row is the
    // table's own again (no row of a move heard from the news is awaited any more).
    void begin_commit();
    // The write ended (stored or not): the work held back runs, in order, until one of them
    // begins a commit of its own.
    void committed();
    // The table's state is given up (a failed or refused write, a reload, an unload, a close).
    void retire();

    // Moves applied from other processes' news whose row's news has not come yet.
    void move_heard() { ++rows_awaited_; }
    void row_heard() { rows_awaited_ = 0; }
    std::size_t rows_awaited() const { return rows_awaited_; }

    // A read of the store is wanted: true when the caller is to start it now; false when one is
    // under way (it is then read again once that one ends, as it may be older than the news).
    bool request_read();
    bool reading() const { return reading_ != Reading::idle; }
    // The read ended: true when another one was asked for meanwhile and is to start now.
    bool read_finished();
    // Work to run after the next read that starts (a request that a copy behind the store may
    // have refused wrongly), and taking it when that read starts or the table retires.
    void after_next_read(Work work) { rereads_.push_back(std::move(work)); }
    std::vector<Work> take_rereads();

  private:
    Stage stage_;
    std::deque<Work> held_back_;
    std::size_t rows_awaited_ = 0;
    Reading reading_ = Reading::idle;
    std::vector<Work> rereads_;
};

}  // namespace gcor::server
