#include <catch2/catch.hpp>

#include "accounts/vacation_time.hpp"
#include "accounts/vacations.hpp"
#include "gcor/engine/state.hpp"
#include "gcor/store/sqlite_store.hpp"
#include "tables/table_record.hpp"
#include "vacation_support.hpp"

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
    VacationsInStore none;
    const std::vector<User> players{{11, "Ann"}, {12, "Bob"}, {13, "Cy"}};
    const protocol::TimeControl days{protocol::TimeControl::Kind::correspondence, 0, 2,
                                     protocol::TimeControl::OnTimeout::forfeit};
    const UnixMs before = unix_now_ms();
    const StoredTable table = started_table_record("t0123456789abcdef", league_settings(days),
                                                   players, 42, none.vacations());
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
    CHECK(*table.deadline >= before + 2 * kDayMs);
    CHECK(*table.deadline <= unix_now_ms() + 2 * kDayMs);
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
    const protocol::Json summary = summary_json(table, SeatsAway{});
    CHECK(summary["status"] == "playing");
    CHECK(summary["league"]["name"] == "Ostia");
    CHECK(summary["seats"][1]["name"] == "Bob");

    const StoredTable untimed = started_table_record("t0123456789abcdee", league_settings({}),
                                                     players, 42, none.vacations());
    CHECK_FALSE(untimed.deadline);
}

TEST_CASE("a tournament round's table: its first deadline is the round's, if sooner",
          "[table record]") {
    VacationsInStore none;
    const std::vector<User> players{{11, "Ann"}, {12, "Bob"}, {13, "Cy"}};
    const protocol::TimeControl days{protocol::TimeControl::Kind::correspondence, 0, 2,
                                     protocol::TimeControl::OnTimeout::forfeit};
    protocol::TableSettings settings = league_settings(days);
    settings.league.reset();
    const UnixMs round_ends = unix_now_ms() + kDayMs;
    settings.tournament = protocol::TableTournament{5, "Cup", 2, round_ends};
    CHECK(latest_deadline(settings) == round_ends);
    const StoredTable table =
        started_table_record("t0123456789abcdef", settings, players, 42, none.vacations());
    CHECK(table.deadline == round_ends);
    // The round's deadline is stored with the table's settings, for the table's clock.
    const auto stored = protocol::parse_table_settings(table.settings);
    REQUIRE(stored);
    CHECK(*stored == settings);
    CHECK(summary_json(table, SeatsAway{})["tournament"]["deadline"] == round_ends);

    settings.tournament->deadline = unix_now_ms() + 3 * kDayMs;  // later than a turn's time
    const StoredTable later =
        started_table_record("t0123456789abcdee", settings, players, 42, none.vacations());
    REQUIRE(later.deadline);
    CHECK(*later.deadline > round_ends);  // a turn's time, two days
    CHECK(*later.deadline <= unix_now_ms() + 2 * kDayMs);
    settings.tournament->deadline.reset();
    CHECK_FALSE(latest_deadline(settings));
}

TEST_CASE("a first player on vacation: the deadline waits, the summary says until when",
          "[table record][vacation]") {
    VacationsInStore with;
    const protocol::TimeControl days{protocol::TimeControl::Kind::correspondence, 0, 2,
                                     protocol::TimeControl::OnTimeout::forfeit};
    const auto rules = engine::Rules::make({3, engine::Variant::yucata, false});
    REQUIRE(rules);
    const int first = static_cast<int>(rules->new_game(42).to_act());
    std::vector<User> players;
    for (const char* name : {"Ann", "Bob", "Cy"})
        players.push_back(User{with.store().create_guest(name).id, name});
    const std::uint64_t away = players[static_cast<std::size_t>(first)].id;
    const UnixMs now = unix_now_ms();
    REQUIRE(with.vacations().declare(away, std::nullopt, now + 3 * kDayMs, now));

    const StoredTable table = started_table_record("t0123456789abcdef", league_settings(days),
                                                   players, 42, with.vacations());
    REQUIRE(table.deadline);
    // The turn starts during the vacation: it counts from its end.
    CHECK(*table.deadline == now + 5 * kDayMs);
    const protocol::Json summary =
        summary_json(table, with.vacations().seats_away(table.seats, unix_now_ms()));
    CHECK(summary["seats"][first]["away_until"] == now + 3 * kDayMs);
    for (int seat = 0; seat < 3; ++seat)
        if (seat != first) CHECK_FALSE(summary["seats"][seat].contains("away_until"));
    // A real-time clock does not wait.
    const protocol::TimeControl minute{protocol::TimeControl::Kind::realtime, 60, 0,
                                       protocol::TimeControl::OnTimeout::bot};
    const StoredTable fast = started_table_record("t0123456789abcdee", league_settings(minute),
                                                  players, 42, with.vacations());
    REQUIRE(fast.deadline);
    CHECK(*fast.deadline <= unix_now_ms() + 60'000);
}

TEST_CASE("turn_of: the seat to act, while playing, unless it forfeited", "[table record]") {
    VacationsInStore none;
    StoredTable table = started_table_record("t0123456789abcdef", league_settings({}),
                                             {{1, "A"}, {2, "B"}, {3, "C"}}, 7, none.vacations());
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
    VacationsInStore none;
    StoredTable table = started_table_record("t0123456789abcdef", league_settings({}),
                                             {{1, "A"}, {2, "B"}, {3, "C"}}, 7, none.vacations());
    for (const TableStatus status :
         {TableStatus::waiting, TableStatus::playing, TableStatus::finished}) {
        table.status = status;
        CHECK(summary_json(table, SeatsAway{})["status"] == status_id(status));
    }
    CHECK(status_id(TableStatus::waiting) == "waiting");
    CHECK(status_id(TableStatus::finished) == "finished");
    table.settings = "not json";
    const protocol::Json summary = summary_json(table, SeatsAway{});
    CHECK(summary["id"] == table.id);
    CHECK(summary["options"].is_null());
}

}  // namespace
}  // namespace gcor::server
