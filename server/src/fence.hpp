#pragma once
// The last fence between a handler and the process: an exception that leaves a handler ends that
// handler's work, never the threads that run every connection and table.
#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <exception>
#include <thread>
#include <vector>

#include "metrics.hpp"

namespace gcor::server {

// Runs `io` until it stops. Asio lets an exception from a handler leave run(), which may be called
// again at once: the connection or timer whose handler threw is gone with its unwound state
// (its socket closed), and every other one goes on. Each exception is logged and counted.
inline void run_fenced(boost::asio::io_context& io, Metrics& metrics) {
    for (;;) {
        try {
            io.run();
            return;
        } catch (const std::exception& error) {
            metrics.handler_failures.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("a handler failed and its work ended: {}", error.what());
        } catch (...) {
            metrics.handler_failures.fetch_add(1, std::memory_order_relaxed);
            spdlog::error("a handler failed and its work ended (not a std::exception)");
        }
    }
}

// Threads for work that blocks (password hashing, store reads), each behind the fence: a
// boost::asio::thread_pool would end the process on the first exception that left a task.
class WorkerPool {
  public:
    WorkerPool(int threads, Metrics& metrics) {
        for (int i = 0; i < threads; ++i)
            threads_.emplace_back([this, &metrics] { run_fenced(io_, metrics); });
    }
    ~WorkerPool() { join(); }
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    boost::asio::io_context& context() { return io_; }
    // Finishes what was posted, then ends the threads.
    void join() {
        work_.reset();
        for (std::thread& thread : threads_)
            if (thread.joinable()) thread.join();
    }

  private:
    boost::asio::io_context io_;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{
        io_.get_executor()};
    std::vector<std::thread> threads_;
};

}  // namespace gcor::server
