#pragma once
// Progress of a long run on standard error.
#include <string>

namespace gcor::cli {

// On a terminal, a bar redrawn in place; otherwise (a log, a pipe) a line every ten seconds, so
// that a long run is seen to progress.
class Progress {
  public:
    // `command` names the run in the lines; `unit` what is counted ("games").
    Progress(std::string command, std::string unit, long long total);

    void update(long long done, double seconds);

  private:
    std::string command_;
    std::string unit_;
    long long total_;
    bool terminal_;
    double last_ = 0.0;
};

}  // namespace gcor::cli
