#pragma once
// Shared by the fuzz targets: what a target reports as a bug. An input that is merely invalid is
// refused by the code under test, which is correct; a broken promise (a round trip that does not
// come back, a patch that does not give the new view) is a bug, reported by aborting so that
// libFuzzer saves the input.
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gcor::fuzz {

[[noreturn]] inline void fail(std::string_view what) {
    std::fprintf(stderr, "fuzz: %.*s\n", static_cast<int>(what.size()), what.data());
    std::abort();
}

inline void require(bool holds, std::string_view what) {
    if (!holds) fail(what);
}

}  // namespace gcor::fuzz
