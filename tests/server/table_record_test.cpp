#include <catch2/catch.hpp>

#include "gcor/engine/state.hpp"
#include "tables/table_record.hpp"

namespace gcor::server {
namespace {

protocol::TableSettings league_settings(protocol::TimeControl clock) {
    protocol::TableSettings settings;
    settings.options = {3, engine::Variant::yucata, false};
    settings.is_public = false;
    settings.rated = true;
    settings.clock = clock;
    settings.league = protocol::TableLeague{4, "Ostia", 2, 1};
    return settings;
}

TEST_CASE("a league's table is stored started, without a table in memory", "[table record]") {
    const std::vector<User> players{{11, "Ann"}, {12, "Bob"}, {13, "Cy"}};
    const protocol::TimeControl days{protocol::TimeControl::Kind::correspondence, 0, 2,
                                     protocol::TimeControl::OnTimeout::forfeit};
    const UnixMs before = unix_now_ms();
    const StoredTable table =
        started_table_record("t0123456789abcdef", league_settings(days), players, 42);
    CHECK(table.status == TableStatus::playing);
    CHECK(table.version == 0);
    CHECK(table.players == 3);
    CHECK(table.rules == "yucata");
    CHECK(table.rated);
    CHECK_FALSE(table.is_public);
    CHECK(table.seed == 42);
    CHECK(table.nonce.size() == 32);
    CHECK(table.commitment == protocol::seed_commitment(42, table.nonce));
    // The first to act is the game's: the same seed deals the same first state.
    const auto rules = engine::Rules::make({3, engine::Variant::yucata, false});
    REQUIRE(rules);
    CHECK(table.to_act == static_cast<int>(rules->new_game(42).to_act()));
    REQUIRE(table.deadline);
    CHECK(*table.deadline >= before + 2 * 24 * 3600 * 1000);
    REQUIRE(table.seats.size() == 3);
    for (std::size_t seat = 0; seat < 3; ++seat) {
        CHECK(table.seats[seat].kind == SeatKind::human);
        CHECK(table.seats[seat].user == players[seat].id);
        CHECK(table.seats[seat].name == players[seat].name);
    }
    // Its settings are stored in their one form, league included, and read back the same.
    const auto settings = protocol::parse_table_settings(table.settings);
    REQUIRE(settings);
    CHECK(*settings == league_settings(days));
    const protocol::Json summary = summary_json(table);
    CHECK(summary["status"] == "playing");
    CHECK(summary["league"]["name"] == "Ostia");
    CHECK(summary["seats"][1]["name"] == "Bob");

    const StoredTable untimed =
        started_table_record("t0123456789abcdee", league_settings({}), players, 42);
    CHECK_FALSE(untimed.deadline);
}

TEST_CASE("turn_of: the seat to act, while playing, unless it forfeited", "[table record]") {
    StoredTable table = started_table_record("t0123456789abcdef", league_settings({}),
                                             {{1, "A"}, {2, "B"}, {3, "C"}}, 7);
    const int first = *table.to_act;
    const int other = (first + 1) % 3;
    CHECK(table.turn_of(first));
    CHECK_FALSE(table.turn_of(other));
    table.seats[static_cast<std::size_t>(first)].forfeited = true;
    CHECK_FALSE(table.turn_of(first));
    table.seats[static_cast<std::size_t>(first)].forfeited = false;
    table.status = TableStatus::finished;
    CHECK_FALSE(table.turn_of(first));
}

TEST_CASE("summaries name statuses in words, and survive unreadable settings", "[table record]") {
    StoredTable table = started_table_record("t0123456789abcdef", league_settings({}),
                                             {{1, "A"}, {2, "B"}, {3, "C"}}, 7);
    for (const TableStatus status :
         {TableStatus::waiting, TableStatus::playing, TableStatus::finished}) {
        table.status = status;
        CHECK(summary_json(table)["status"] == status_id(status));
    }
    CHECK(status_id(TableStatus::waiting) == "waiting");
    CHECK(status_id(TableStatus::finished) == "finished");
    table.settings = "not json";
    const protocol::Json summary = summary_json(table);
    CHECK(summary["id"] == table.id);
    CHECK(summary["options"].is_null());
}

}  // namespace
}  // namespace gcor::server
