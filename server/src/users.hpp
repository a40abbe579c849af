#pragma once
// Accounts as the server knows them for now: guests with resume tokens, in memory.
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "peer.hpp"

namespace gcor::server {

class Users {
  public:
    // A new guest and the token that resumes it.
    std::pair<User, std::string> create_guest(const std::string& name);
    std::optional<User> resume(const std::string& token) const;

  private:
    mutable std::mutex mutex_;
    std::uint64_t next_id_ = 1;
    std::unordered_map<std::string, User> by_token_;
};

// `bytes` random bytes from the system's generator, as hex.
std::string random_hex(std::size_t bytes);
// A secret seed for a table's deal.
std::uint64_t random_seed();

}  // namespace gcor::server
