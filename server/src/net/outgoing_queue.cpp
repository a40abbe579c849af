#include "net/outgoing_queue.hpp"

#include <algorithm>

namespace gcor::server {
namespace {

using protocol::ErrorCode;

// Replies up to this size (errors, short answers) are queued even beyond the queue's bounds; a
// larger one that does not fit is answered rate_limited instead.
constexpr std::size_t kSmallReply = 1024;

}  // namespace

bool OutgoingQueue::fits(std::size_t bytes) const {
    // An empty queue takes any message, so that one large reply cannot stall a reading client.
    return queue_.empty() ||
           (queue_.size() < config_.queue_messages && queued_bytes_ + bytes <= config_.queue_bytes);
}

bool OutgoingQueue::fall_behind() {
    if (++lag_count_ > config_.lagging_limit) return false;
    // The message being written stays, and so do replies, which nothing would send again.
    const auto first = queue_.begin() + (writing_ ? 1 : 0);
    for (auto it = first; it != queue_.end(); ++it)
        if (!it->reply) queued_bytes_ -= it->message->size();
    queue_.erase(
        std::remove_if(first, queue_.end(), [](const Queued& queued) { return !queued.reply; }),
        queue_.end());
    lagging_ = true;  // its tables send their state again once the queue drained
    return true;
}

OutgoingQueue::Pushed OutgoingQueue::push_news(Message message) {
    if (lagging_) return Pushed::dropped;
    if (!fits(message->size())) return fall_behind() ? Pushed::dropped : Pushed::too_slow;
    push(std::move(message), false);
    return Pushed::queued;
}

OutgoingQueue::Pushed OutgoingQueue::push_reply(Message message, const protocol::Json& id) {
    if (!fits(message->size())) {
        const bool news_queued = std::any_of(queue_.begin() + (writing_ ? 1 : 0), queue_.end(),
                                             [](const Queued& queued) { return !queued.reply; });
        if (news_queued && !fall_behind()) return Pushed::too_slow;
    }
    if (!fits(message->size())) {
        if (message->size() > kSmallReply) {
            metrics_.count_error(ErrorCode::rate_limited);
            message = make_message(
                protocol::error_json(ErrorCode::rate_limited,
                                     "the reply does not fit beside the replies you have not read "
                                     "yet: read them, then ask again",
                                     id)
                    .dump());
        }
        // Beyond the bounds only small replies, one per (rate-limited) request at most: a client
        // that lets twice the queue's messages wait does not read its replies.
        if (queue_.size() >= 2 * config_.queue_messages) return Pushed::unread_replies;
    }
    push(std::move(message), true);
    return Pushed::queued;
}

void OutgoingQueue::push(Message message, bool reply) {
    metrics_.bytes_sent.fetch_add(message->size(), std::memory_order_relaxed);
    queued_bytes_ += message->size();
    queue_.push_back(Queued{std::move(message), reply});
}

const std::string& OutgoingQueue::begin_write() {
    writing_ = true;
    return *queue_.front().message;
}

bool OutgoingQueue::end_write() {
    queued_bytes_ -= queue_.front().message->size();
    queue_.pop_front();
    writing_ = !queue_.empty();
    return writing_;
}

bool OutgoingQueue::end_lag() {
    const bool lagged = lagging_;
    lagging_ = false;
    return lagged;
}

void OutgoingQueue::release_storage() {
    queue_ = decltype(queue_)();
}

}  // namespace gcor::server
