#include "tables/commit_pipeline.hpp"

#include <cassert>
#include <utility>

namespace gcor::server {

void CommitPipeline::begin_commit() {
    // Work that begins a commit runs only when the table is ready (when_ready), or it is the
    // first commit of a new table.
    assert(stage_ == Stage::ready || stage_ == Stage::unsaved);
    stage_ = Stage::committing;
    rows_awaited_ = 0;
}

void CommitPipeline::committed() {
    if (stage_ == Stage::committing) stage_ = Stage::ready;
    while (stage_ != Stage::committing && !held_back_.empty()) {
        Work work = std::move(held_back_.front());
        held_back_.pop_front();
        work();
    }
}

void CommitPipeline::retire() {
    stage_ = Stage::retired;
}

bool CommitPipeline::request_read() {
    if (reading_ != Reading::idle) {
        reading_ = Reading::again;
        return false;
    }
    reading_ = Reading::reading;
    return true;
}

bool CommitPipeline::read_finished() {
    const bool again = reading_ == Reading::again;
    reading_ = Reading::idle;
    return again;
}

std::vector<CommitPipeline::Work> CommitPipeline::take_rereads() {
    return std::exchange(rereads_, {});
}

}  // namespace gcor::server
