#include "users.hpp"

#include <random>

namespace gcor::server {

std::string random_hex(std::size_t bytes) {
    static thread_local std::random_device device;  // /dev/urandom on Linux
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text;
    text.reserve(bytes * 2);
    for (std::size_t i = 0; i < bytes; i += 4) {
        std::uint32_t word = device();
        for (std::size_t j = 0; j < 4 && i + j < bytes; ++j, word >>= 8) {
            text += kDigits[(word >> 4) & 0xF];
            text += kDigits[word & 0xF];
        }
    }
    return text;
}

std::uint64_t random_seed() {
    static thread_local std::random_device device;
    return (std::uint64_t{device()} << 32) | device();
}

std::pair<User, std::string> Users::create_guest(const std::string& name) {
    std::string token = random_hex(32);
    std::lock_guard lock(mutex_);
    User user{next_id_++, name};
    by_token_.emplace(token, user);
    return {user, token};
}

std::optional<User> Users::resume(const std::string& token) const {
    std::lock_guard lock(mutex_);
    const auto it = by_token_.find(token);
    if (it == by_token_.end()) return std::nullopt;
    return it->second;
}

}  // namespace gcor::server
