#pragma once
// The last fence between a handler and the process: an exception that leaves a handler ends that
// handler's work, never the threads that run every connection and table.
#include <spdlog/spdlog.h>

#include <boost/asio/io_context.hpp>
#include <exception>

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

}  // namespace gcor::server
