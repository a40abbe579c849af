// The I/O loop's fence (server/src/fence.hpp): a handler's exception ends its own work only.
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <catch2/catch.hpp>
#include <stdexcept>

#include "fence.hpp"

namespace gcor::server {

TEST_CASE("fence: a throwing handler or timer ends its own work, the loop goes on", "[fence]") {
    boost::asio::io_context io;
    Metrics metrics;
    int ran = 0;
    boost::asio::post(io, [] { throw std::runtime_error("a bug in a request's handler"); });
    boost::asio::post(io, [&] { ++ran; });
    boost::asio::steady_timer timer(io, std::chrono::milliseconds(1));
    timer.async_wait(
        [](const boost::system::error_code&) { throw std::length_error("a timer's"); });
    boost::asio::steady_timer later(io, std::chrono::milliseconds(5));
    later.async_wait([&](const boost::system::error_code&) { ++ran; });
    boost::asio::post(io, [] { throw 42; });  // not even a std::exception
    run_fenced(io, metrics);
    CHECK(ran == 2);
    CHECK(metrics.handler_failures.load() == 3);
    CHECK(metrics.render().find("gcor_handler_failures_total 3\n") != std::string::npos);
}

TEST_CASE("fence: a worker pool's task that throws leaves the pool working", "[fence]") {
    Metrics metrics;
    std::atomic<int> ran{0};
    {
        WorkerPool pool(2, metrics);
        boost::asio::post(pool.context(), [] { throw std::runtime_error("a store read failed"); });
        for (int i = 0; i < 10; ++i)
            boost::asio::post(pool.context(), [&] { ++ran; });
        pool.join();
    }
    CHECK(ran.load() == 10);
    CHECK(metrics.handler_failures.load() == 1);
}

}  // namespace gcor::server
