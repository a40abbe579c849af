// What a table remembers of its changes, on its own: the latest events, bounded; move ids
// answered again, the last 32 per seat; each seat's player's last own move.
#include <catch2/catch.hpp>

#include "tables/move_memory.hpp"

namespace gcor::server {

TEST_CASE("move memory: move ids per seat, the last ones only", "[server]") {
    MoveMemory memory;
    memory.record(0, 1, MovedBy::player, "a", {});
    memory.record(1, 2, MovedBy::player, "a", {});
    memory.record(1, 3, MovedBy::bot, "", {});
    CHECK(memory.version_of(0, "a") == 1u);
    CHECK(memory.version_of(1, "a") == 2u);
    CHECK_FALSE(memory.version_of(0, "b"));
    CHECK_FALSE(memory.version_of(1, ""));  // bots' moves have no id
    for (std::uint64_t v = 4; v < 4 + MoveMemory::kAppliedMoveIds; ++v)
        memory.record(0, v, MovedBy::player, "m" + std::to_string(v), {});
    CHECK_FALSE(memory.version_of(0, "a"));  // pushed out by the 32 after it
    CHECK(memory.version_of(0, "m4") == 4u);
}

TEST_CASE("move memory: a player's own moves, not a bot's or a timeout's for them", "[server]") {
    MoveMemory memory;
    memory.record(0, 1, MovedBy::player, "a", {});
    memory.record(0, 2, MovedBy::timeout, "", {});
    memory.record(1, 3, MovedBy::bot, "", {});
    CHECK(memory.last_own_move(0) == 1u);
    CHECK(memory.last_own_move(1) == 0u);
}

TEST_CASE("move memory: the latest events, at most kRecentEvents", "[server]") {
    MoveMemory memory;
    std::vector<engine::Event> start(3);
    memory.begin(start);
    CHECK(memory.recent_events().size() == 3);
    std::vector<engine::Event> many(MoveMemory::kRecentEvents);
    memory.record(0, 1, MovedBy::player, "a", many);
    CHECK(memory.recent_events().size() == MoveMemory::kRecentEvents);
    std::vector<engine::Event> replayed(MoveMemory::kRecentEvents + 10);
    memory.begin(replayed);  // a restored game's: the latest only
    CHECK(memory.recent_events().size() == MoveMemory::kRecentEvents);
    memory.begin({});
    CHECK(memory.recent_events().empty());
}

}  // namespace gcor::server
