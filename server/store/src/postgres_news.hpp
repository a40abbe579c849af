#pragma once
// How server processes sharing a PostgreSQL database hear of each other's changes: the schema's
// triggers announce every committed change of a table or its chat on the channel gcor
// (postgres_schema.cpp, versions 2 and 9: a move comes with its row's news), and a listener
// thread per store hears them on a connection of its own.
#include <atomic>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "gcor/store/store.hpp"

namespace gcor::server {

// The channel's name, and the setting of a writer connection that names its process.
constexpr const char* kNewsChannel = "gcor";
constexpr const char* kNodeSetting = "gcor.node";

// A notification's payload as news; nullopt when this process wrote it (`own_node`) or it is not
// a payload the triggers write (logged by the caller).
struct ParsedNews {
    bool own = false;
    std::optional<StoreNews> news;
};
ParsedNews parse_news(std::string_view payload, std::string_view own_node);

// LISTENs on its own connection from a thread of its own (gcor-news) and hands every other
// process's news to `on_news`; made, it has tried to listen once (so that a change committed
// after it was made is heard, unless the database was out of reach). When the connection is lost it
// connects again (every second until it can) and then reports `StoreNews::Kind::missed`, since
// changes made meanwhile went unheard.
class NewsListener {
  public:
    NewsListener(std::string url, std::string own_node,
                 std::function<void(const StoreNews&)> on_news);
    ~NewsListener();
    NewsListener(const NewsListener&) = delete;
    NewsListener& operator=(const NewsListener&) = delete;

  private:
    void run();

    const std::string url_;
    const std::string own_node_;
    const std::function<void(const StoreNews&)> on_news_;
    std::atomic<bool> stopping_ = false;
    std::promise<void> tried_;  // the first attempt to listen ended
    std::thread thread_;        // last: it starts once everything above exists
};

}  // namespace gcor::server
