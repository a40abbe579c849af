#pragma once
#include <cstdint>
#include <string>

namespace gcor::server {

struct User {
    std::uint64_t id = 0;
    std::string name;
    bool guest = false;  // a guest may not sign up for leagues or sit at rated tables
};

}  // namespace gcor::server
