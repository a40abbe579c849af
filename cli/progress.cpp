#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace gcor::cli {

Progress::Progress(std::string command, std::string unit, long long total)
    : command_(std::move(command)),
      unit_(std::move(unit)),
      total_(total),
      terminal_(isatty(STDERR_FILENO) == 1) {}

void Progress::update(long long done, double seconds) {
    const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
    if (!terminal_) {
        if (done == total_ || seconds - last_ < 10.0) return;
        last_ = seconds;
        std::fprintf(stderr, "%s: %lld/%lld %s in %.0f s, %.2f %s/s\n", command_.c_str(), done,
                     total_, unit_.c_str(), seconds, rate, unit_.c_str());
        return;
    }
    if (done != total_ && seconds - last_ < 0.1) return;
    last_ = seconds;
    constexpr int kWidth = 30;
    const int filled = total_ > 0 ? static_cast<int>(kWidth * done / total_) : kWidth;
    std::fprintf(stderr, "\r[%s%s] %lld/%lld %s, %.1f %s/s ",
                 std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), done, total_,
                 unit_.c_str(), rate, unit_.c_str());
    if (done == total_) std::fputc('\n', stderr);
}

}  // namespace gcor::cli
