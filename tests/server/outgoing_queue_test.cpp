// A connection's write queue on its own: its bounds, news dropped for a slow reader and the
// state sent again once it drained, replies kept (a large one that does not fit answered
// rate_limited), and the readers that are dropped.
#include "net/outgoing_queue.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "net/message_rate.hpp"

namespace gcor::server {
namespace {

Config queue_config_of(std::size_t messages, std::size_t bytes, int lagging_limit) {
    Config config;
    config.queue_messages = messages;
    config.queue_bytes = bytes;
    config.lagging_limit = lagging_limit;
    return config;
}

Message queue_message_of(std::size_t bytes, char fill = 'x') {
    return make_message(std::string(bytes, fill));
}

// Writes every queued message; what they were, in order.
std::vector<std::string> queue_drain(OutgoingQueue& queue) {
    std::vector<std::string> written;
    if (queue.empty()) return written;
    do
        written.push_back(queue.begin_write());
    while (queue.end_write());
    return written;
}

}  // namespace

TEST_CASE("outgoing queue: messages leave in order, one in flight, and are counted", "[server]") {
    const Config config = queue_config_of(4, 1000, 2);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    CHECK(queue.push_news(queue_message_of(10, 'a')) == OutgoingQueue::Pushed::queued);
    CHECK(queue.push_reply(queue_message_of(20, 'b'), 1) == OutgoingQueue::Pushed::queued);
    CHECK_FALSE(queue.writing());
    CHECK(queue.bytes() == 30);
    CHECK(metrics.bytes_sent == 30);

    CHECK(queue.begin_write() == std::string(10, 'a'));
    CHECK(queue.writing());
    CHECK(queue.end_write());  // another one to write
    CHECK(queue.begin_write() == std::string(20, 'b'));
    CHECK_FALSE(queue.end_write());
    CHECK_FALSE(queue.writing());
    CHECK(queue.empty());
    CHECK(queue.bytes() == 0);
    CHECK_FALSE(queue.end_lag());  // nothing was dropped
}

TEST_CASE("outgoing queue: an empty queue takes a message of any size", "[server]") {
    const Config config = queue_config_of(4, 100, 2);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    CHECK(queue.push_news(queue_message_of(5000)) == OutgoingQueue::Pushed::queued);
    CHECK(queue.push_news(queue_message_of(1)) == OutgoingQueue::Pushed::dropped);
}

TEST_CASE("outgoing queue: news to a slow reader are dropped, replies and the write kept",
          "[server]") {
    const Config config = queue_config_of(3, 1000, 2);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    REQUIRE(queue.push_news(queue_message_of(10, 'a')) == OutgoingQueue::Pushed::queued);
    REQUIRE(queue.begin_write() == std::string(10, 'a'));  // in flight: it stays
    REQUIRE(queue.push_reply(queue_message_of(10, 'r'), 1) == OutgoingQueue::Pushed::queued);
    REQUIRE(queue.push_news(queue_message_of(10, 'b')) == OutgoingQueue::Pushed::queued);
    // The fourth message does not fit: the news queued are dropped, and so is this one.
    CHECK(queue.push_news(queue_message_of(10, 'c')) == OutgoingQueue::Pushed::dropped);
    CHECK(queue.size() == 2);
    CHECK(queue.bytes() == 20);
    // While it lags, no news are queued even where they fit; replies are.
    CHECK(queue.push_news(queue_message_of(10, 'd')) == OutgoingQueue::Pushed::dropped);
    CHECK(queue.push_reply(queue_message_of(10, 's'), 2) == OutgoingQueue::Pushed::queued);

    CHECK(queue.end_write());
    const auto rest = queue_drain(queue);
    CHECK(rest == std::vector<std::string>{std::string(10, 'r'), std::string(10, 's')});
    CHECK(queue.end_lag());  // once: the tables send their state again
    CHECK_FALSE(queue.end_lag());
    CHECK(queue.push_news(queue_message_of(10, 'e')) == OutgoingQueue::Pushed::queued);
}

TEST_CASE("outgoing queue: a reader that falls behind too often is too slow", "[server]") {
    const Config config = queue_config_of(1, 1000, 2);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    for (int lag = 1; lag <= 2; ++lag) {
        REQUIRE(queue.push_news(queue_message_of(10)) == OutgoingQueue::Pushed::queued);
        REQUIRE(queue.push_news(queue_message_of(10)) == OutgoingQueue::Pushed::dropped);
        REQUIRE(queue.end_lag());
    }
    REQUIRE(queue.push_news(queue_message_of(10)) == OutgoingQueue::Pushed::queued);
    CHECK(queue.push_news(queue_message_of(10)) == OutgoingQueue::Pushed::too_slow);
    CHECK(queue.size() == 1);  // nothing more changed: the connection is dropped
}

TEST_CASE("outgoing queue: a reply that does not fit drops the news first", "[server]") {
    const Config config = queue_config_of(2, 1000, 4);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    REQUIRE(queue.push_news(queue_message_of(10, 'a')) == OutgoingQueue::Pushed::queued);
    REQUIRE(queue.push_news(queue_message_of(10, 'b')) == OutgoingQueue::Pushed::queued);
    const std::string large(3000, 'r');
    CHECK(queue.push_reply(make_message(large), 7) == OutgoingQueue::Pushed::queued);
    // Without the news the queue was empty: the large reply went in whole.
    CHECK(queue_drain(queue) == std::vector<std::string>{large});
    CHECK(queue.end_lag());
}

TEST_CASE("outgoing queue: a large reply beside unread replies is answered rate_limited",
          "[server]") {
    const Config config = queue_config_of(2, 100, 4);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    REQUIRE(queue.push_reply(queue_message_of(60), 1) == OutgoingQueue::Pushed::queued);
    CHECK(queue.push_reply(queue_message_of(2000), 9) == OutgoingQueue::Pushed::queued);
    const auto written = queue_drain(queue);
    REQUIRE(written.size() == 2);
    const auto refusal = protocol::Json::parse(written[1]);
    CHECK(refusal["type"] == "error");
    CHECK(refusal["code"] == "rate_limited");
    CHECK(refusal["id"] == 9);
    CHECK(metrics.render().find("gcor_errors_total{code=\"rate_limited\"} 1\n") !=
          std::string::npos);
}

TEST_CASE("outgoing queue: small replies go beyond the bounds up to twice the messages",
          "[server]") {
    const Config config = queue_config_of(2, 100, 4);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    REQUIRE(queue.push_reply(queue_message_of(90), 1) == OutgoingQueue::Pushed::queued);
    REQUIRE(queue.push_reply(queue_message_of(90), 2) == OutgoingQueue::Pushed::queued);
    REQUIRE(queue.push_reply(queue_message_of(90), 3) == OutgoingQueue::Pushed::queued);
    REQUIRE(queue.push_reply(queue_message_of(90), 4) == OutgoingQueue::Pushed::queued);
    CHECK(queue.size() == 4);
    CHECK(queue.push_reply(queue_message_of(90), 5) == OutgoingQueue::Pushed::unread_replies);
    CHECK(queue.size() == 4);
}

TEST_CASE("outgoing queue: released storage leaves an empty queue that works", "[server]") {
    const Config config = queue_config_of(4, 1000, 2);
    Metrics metrics;
    OutgoingQueue queue(config, metrics);
    REQUIRE(queue.push_news(queue_message_of(10)) == OutgoingQueue::Pushed::queued);
    queue_drain(queue);
    queue.release_storage();
    CHECK(queue.empty());
    CHECK(queue.push_news(queue_message_of(10, 'z')) == OutgoingQueue::Pushed::queued);
    CHECK(queue_drain(queue) == std::vector<std::string>{std::string(10, 'z')});
}

TEST_CASE("message rate: a burst, then the refill's pace, and costlier requests take more",
          "[server]") {
    const auto start = MessageRate::Clock::time_point{};
    MessageRate rate(3, start);
    for (int i = 0; i < 3; ++i)
        CHECK(rate.allow(start, 1.0, 3));
    CHECK_FALSE(rate.allow(start, 1.0, 3));
    CHECK(rate.allow(start + std::chrono::seconds(1), 1.0, 3));  // one token refilled
    CHECK_FALSE(rate.allow(start + std::chrono::seconds(1), 1.0, 3));
    // Refilling stops at the burst.
    const auto later = start + std::chrono::seconds(100);
    CHECK(rate.allow(later, 1.0, 3));
    CHECK_FALSE(rate.take(3));  // two left: none taken
    CHECK(rate.take(2));
    CHECK_FALSE(rate.allow(later, 1.0, 3));
}

}  // namespace gcor::server
