#pragma once
// A connection's outgoing messages (docs/protocol.md, "Limits"): a bounded queue of shared
// messages, the first of which may be in flight (one write at a time). News (patches, lobby
// updates) to a client that does not read fast enough are dropped, and what it follows is sent
// again once the queue drained; replies are not, which nothing would send again. A value on the
// connection's strand: it decides, the connection writes and closes.
#include <boost/container/devector.hpp>
#include <cstddef>
#include <string>

#include "gcor/protocol/messages.hpp"
#include "gcor/server/config.hpp"
#include "metrics.hpp"
#include "net/peer.hpp"

namespace gcor::server {

class OutgoingQueue {
  public:
    // What became of a message given to the queue.
    enum class Pushed {
        queued,
        dropped,         // news while the client lags: its tables send their state again later
        too_slow,        // the client fell behind too often: it is to be dropped
        unread_replies,  // it lets twice the queue's messages wait: it is to be dropped
    };

    // `config` (its queue_messages, queue_bytes and lagging_limit) and `metrics` (the bytes sent,
    // the replies refused) outlive the queue: every connection holds one, so it copies neither.
    OutgoingQueue(const Config& config, Metrics& metrics) : config_(config), metrics_(metrics) {}

    Pushed push_news(Message message);
    // A reply to a request with this id: when it does not fit, even without the queued news, a
    // large one is answered rate_limited instead, and a small one is queued beyond the bounds.
    Pushed push_reply(Message message, const protocol::Json& id);

    bool empty() const { return queue_.empty(); }
    bool writing() const { return writing_; }
    // The first message, which is in flight from now until end_write.
    const std::string& begin_write();
    // The message in flight was written: true when another is to be written.
    bool end_write();
    // True once after the queue drained behind dropped news: the tables followed are to send
    // their state again.
    bool end_lag();
    // Gives the queue's storage back (a connection at no table would keep it from its welcome on).
    void release_storage();

    std::size_t size() const { return queue_.size(); }
    std::size_t bytes() const { return queued_bytes_; }

  private:
    // Not a std::deque, which allocates about 600 bytes even when empty (on every idle connection).
    struct Queued {
        Message message;
        bool reply = false;  // kept when news are dropped
    };

    bool fits(std::size_t bytes) const;
    // Drops the queued news; false when the client fell behind too often.
    bool fall_behind();
    void push(Message message, bool reply);

    const Config& config_;
    Metrics& metrics_;
    boost::container::devector<Queued> queue_;
    std::size_t queued_bytes_ = 0;
    int lag_count_ = 0;
    bool writing_ = false;
    bool lagging_ = false;  // news were dropped: the tables resend their state once it drained
};

}  // namespace gcor::server
