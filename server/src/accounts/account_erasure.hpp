#pragma once
// Erasing a user's account (docs/operations.md, "Your data"): what the server keeps of them goes,
// what other players' games need stays under a new name.
#include <cstdint>
#include <string>

#include "gcor/store/user.hpp"
#include "services.hpp"

namespace gcor::server {

// What an erased user is called from then on.
std::string erased_name(std::uint64_t user);

// DELETE /api/account, its password checked: the account is erased in the store in one
// transaction, its sessions and connections end, and its tables forget it (a running game's seat
// forfeits, a waiting table's seat is freed). Returns the new name. Blocks on the store and the
// tables: never on an I/O thread. Throws StorageFailure when the store cannot erase it (then
// nothing changed).
std::string erase_account(Services& services, const User& user);

}  // namespace gcor::server
