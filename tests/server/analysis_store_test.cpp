// The store's game reviews on both databases: one claim per table, a user's one running review
// and daily starts, a claim that lapses and is taken over, a dropped claim that its taker finds
// lost; and on PostgreSQL, two processes claiming the same review (docs/protocol.md, "Game
// review").
#include <catch2/catch.hpp>

#include <filesystem>
#include <future>

#include "fresh_store.hpp"

using namespace gcor::server;
using gcor::testing::FreshBackend;
using gcor::testing::FreshStore;

namespace {

// A finished table's row named `id`, for the reviews' foreign key.
void review_table(Store& store, const std::string& id) {
    StoredTable table;
    table.id = id;
    table.created = 1;
    table.settings = "{}";
    table.players = 2;
    table.rules = "yucata";
    table.seats.resize(2);
    table.status = TableStatus::finished;
    std::promise<Written> saved;
    store.save_table(table, [&](Written written) { saved.set_value(written); });
    REQUIRE(saved.get_future().get() == Written::committed);
}

using Outcome = AnalysisClaim::Outcome;
constexpr UnixMs kReviewNow = 1'800'000'000'000;
constexpr UnixMs kReviewHour = 3600 * 1000;

}  // namespace

TEST_CASE("review store: one claim per table, one running review per user, starts per day",
          "[analysis][store]") {
    const FreshBackend backend = GENERATE(FreshBackend::sqlite, FreshBackend::postgres);
    INFO("backend: " << gcor::testing::backend_name(backend));
    FreshStore place(backend);
    Store& store = place.store();
    for (const char* id : {"t-one", "t-two", "t-three"})
        review_table(store, id);
    const UnixMs now = kReviewNow;

    CHECK_FALSE(store.find_analysis("t-one"));
    const AnalysisClaim first = store.claim_analysis("t-one", 7, 101, now, now + 1000, 2);
    CHECK(first.outcome == Outcome::claimed);
    // Held: another claim finds it running, with its progress.
    CHECK(store.hold_analysis("t-one", 101, 3, 40, now + 2000));
    const AnalysisClaim second = store.claim_analysis("t-one", 8, 102, now + 10, now + 1000, 2);
    REQUIRE(second.outcome == Outcome::exists);
    CHECK(second.analysis.user == 7);
    CHECK(second.analysis.claim == 101);
    CHECK(second.analysis.done == 3);
    CHECK(second.analysis.total == 40);
    CHECK_FALSE(second.analysis.result);
    // The same user's review of another game waits for this one.
    CHECK(store.claim_analysis("t-two", 7, 103, now + 10, now + 1000, 2).outcome == Outcome::busy);
    // Another claim's hold or result is refused.
    CHECK_FALSE(store.hold_analysis("t-one", 102, 4, 40, now + 3000));
    CHECK_FALSE(store.finish_analysis("t-one", 102, "{}"));

    // Done: kept, and found by every claim after it.
    CHECK(store.finish_analysis("t-one", 101, R"({"review":1})"));
    const auto kept = store.find_analysis("t-one");
    REQUIRE(kept);
    CHECK(kept->result == std::optional<std::string>(R"({"review":1})"));
    CHECK(kept->done == 40);
    const AnalysisClaim later =
        store.claim_analysis("t-one", 8, 104, now + kReviewHour * 48, now + kReviewHour * 49, 2);
    REQUIRE(later.outcome == Outcome::exists);
    CHECK(later.analysis.result == kept->result);
    CHECK_FALSE(store.drop_analysis("t-one", 101));  // done: nothing to cancel

    // A second start today, then none: cancelled ones count.
    CHECK(store.claim_analysis("t-two", 7, 105, now + 20, now + 1000, 2).outcome ==
          Outcome::claimed);
    CHECK(store.drop_analysis("t-two", 105));
    CHECK_FALSE(store.find_analysis("t-two"));
    CHECK_FALSE(store.hold_analysis("t-two", 105, 1, 10, now + 2000));  // its taker stops
    CHECK(store.claim_analysis("t-two", 7, 106, now + 30, now + 1000, 2).outcome ==
          Outcome::limit_reached);
    CHECK_FALSE(store.find_analysis("t-two"));
    // A day after the first start one may start again.
    CHECK(
        store.claim_analysis("t-two", 7, 107, now + 24 * kReviewHour + 1, now + 25 * kReviewHour, 2)
            .outcome == Outcome::claimed);

    // A claim whose holder went silent lapses: another takes it, and the first finds it lost.
    const UnixMs after = now + 24 * kReviewHour + 2;
    CHECK(store.claim_analysis("t-three", 8, 108, after, after + 1000, 2).outcome ==
          Outcome::claimed);
    CHECK(store.claim_analysis("t-three", 9, 109, after + 1001, after + 2000, 2).outcome ==
          Outcome::claimed);
    CHECK_FALSE(store.hold_analysis("t-three", 108, 5, 10, after + 3000));
    CHECK(store.find_analysis("t-three")->claim == 109);
}

TEST_CASE("review store: of two PostgreSQL processes claiming one review, one computes it",
          "[analysis][store]") {
    const std::string url = gcor::testing::PostgresServer::shared().create_database();
    auto one = open_postgres_store({.url = url});
    auto other = open_postgres_store({.url = url});
    review_table(*one, "t-shared");
    const UnixMs now = kReviewNow;
    auto first = std::async(std::launch::async, [&] {
        return one->claim_analysis("t-shared", 1, 201, now, now + 30'000, 5);
    });
    auto second = std::async(std::launch::async, [&] {
        return other->claim_analysis("t-shared", 2, 202, now, now + 30'000, 5);
    });
    const AnalysisClaim a = first.get();
    const AnalysisClaim b = second.get();
    CHECK((a.outcome == Outcome::claimed) != (b.outcome == Outcome::claimed));
    const AnalysisClaim& lost = a.outcome == Outcome::claimed ? b : a;
    REQUIRE(lost.outcome == Outcome::exists);
    const std::uint64_t holder = a.outcome == Outcome::claimed ? 201 : 202;
    CHECK(lost.analysis.claim == holder);
    // Cancelled on the other process: the holder's next renewal finds it gone.
    Store& cancelling = holder == 201 ? *other : *one;
    Store& holding = holder == 201 ? *one : *other;
    CHECK(cancelling.drop_analysis("t-shared", holder));
    CHECK_FALSE(holding.hold_analysis("t-shared", holder, 1, 10, now + 40'000));
}
