#pragma once
#include <cstdint>
#include <string>

namespace gcor::server {

// What registered names are compared by (they are unique without regard to case). ASCII lower
// case only: names beyond ASCII compare exactly.
inline std::string name_key(std::string name) {
    for (char& c : name)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return name;
}

struct User {
    std::uint64_t id = 0;
    std::string name;
    bool guest = false;  // a guest may not sign up for leagues or sit at rated tables
};

}  // namespace gcor::server
