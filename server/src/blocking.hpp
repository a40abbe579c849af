#pragma once
// Work that blocks (the store), run off the I/O threads and answered back where it was asked.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <utility>

namespace gcor::server {

// Runs `work()` on `pool` (Services::blocking), then `done(result)` on `answer_on` (a
// connection's strand). `work` is fenced by the pool; it returns its failures as values.
template <typename Work, typename Done>
void run_blocking(boost::asio::io_context& pool, boost::asio::any_io_executor answer_on, Work work,
                  Done done) {
    boost::asio::post(pool, [answer_on = std::move(answer_on), work = std::move(work),
                             done = std::move(done)]() mutable {
        boost::asio::post(answer_on, [result = work(), done = std::move(done)]() mutable {
            done(std::move(result));
        });
    });
}

}  // namespace gcor::server
