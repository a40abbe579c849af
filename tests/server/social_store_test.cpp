// The store's friends and blocks, on both databases: the lists one-way, their limit, their
// names, everybody's blocks at once, a table's creator kept, and PostgreSQL's news of a block.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <mutex>

#include "fresh_store.hpp"

using namespace gcor::server;
using gcor::testing::FreshBackend;
using gcor::testing::FreshStore;

namespace {

std::vector<std::uint64_t> social_store_ids(const std::vector<ListedUser>& listed) {
    std::vector<std::uint64_t> ids;
    for (const ListedUser& user : listed)
        ids.push_back(user.user);
    return ids;
}

TEST_CASE("social store: one-way lists with names and a limit, every block, a table's creator",
          "[social][store]") {
    const FreshBackend backend = GENERATE(FreshBackend::sqlite, FreshBackend::postgres);
    INFO("backend: " << gcor::testing::backend_name(backend));
    FreshStore place(backend);
    Store& store = place.store();
    const auto ann = store.create_user("Ann", "hash");
    const auto ben = store.create_user("Ben", "hash");
    const auto cleo = store.create_user("Cleo", "hash");
    REQUIRE((ann && ben && cleo));

    CHECK(store.add_listed(Relation::friend_of, ann->id, ben->id, 2));
    CHECK(store.add_listed(Relation::friend_of, ann->id, ben->id, 2));  // once
    CHECK(store.add_listed(Relation::friend_of, ann->id, cleo->id, 2));
    const auto friends = store.listed_by(Relation::friend_of, ann->id);
    CHECK(social_store_ids(friends) == std::vector<std::uint64_t>{ben->id, cleo->id});
    CHECK(friends[0].name == "Ben");
    CHECK(friends[0].added > 1'700'000'000'000);
    // One-way, and apart from blocks.
    CHECK(store.listed_by(Relation::friend_of, ben->id).empty());
    CHECK(store.listed_by(Relation::blocks, ann->id).empty());
    // Full: no third, but one already there still is.
    const auto dan = store.create_user("Dan", "hash");
    REQUIRE(dan);
    CHECK_FALSE(store.add_listed(Relation::friend_of, ann->id, dan->id, 2));
    CHECK(store.add_listed(Relation::friend_of, ann->id, cleo->id, 2));
    store.remove_listed(Relation::friend_of, ann->id, ben->id);
    store.remove_listed(Relation::friend_of, ann->id, ben->id);
    CHECK(social_store_ids(store.listed_by(Relation::friend_of, ann->id)) ==
          std::vector<std::uint64_t>{cleo->id});

    CHECK(store.add_listed(Relation::blocks, ben->id, ann->id, 500));
    CHECK(store.add_listed(Relation::blocks, ann->id, dan->id, 500));
    CHECK(store.add_listed(Relation::blocks, ann->id, ben->id, 500));
    CHECK(store.all_blocks() ==
          std::vector<StoredBlock>{{ann->id, ben->id}, {ann->id, dan->id}, {ben->id, ann->id}});
    store.remove_listed(Relation::blocks, ann->id, dan->id);
    CHECK(social_store_ids(store.listed_by(Relation::blocks, ann->id)) ==
          std::vector<std::uint64_t>{ben->id});

    // The creator is kept with the table's row.
    StoredTable table;
    table.id = "t-social";
    table.created = 1;
    table.settings = "{}";
    table.players = 2;
    table.rules = "yucata";
    table.seats.resize(2);
    table.creator = ann->id;
    std::promise<Written> saved;
    store.save_table(table, [&](Written written) { saved.set_value(written); });
    REQUIRE(saved.get_future().get() == Written::committed);
    const auto found = store.find_table("t-social");
    REQUIRE(found);
    CHECK(found->creator == ann->id);
}

TEST_CASE("social store: PostgreSQL announces a change of a user's blocks to the others",
          "[social][store]") {
    const std::string url = gcor::testing::PostgresServer::shared().create_database();
    auto one = open_postgres_store({.url = url});
    auto other = open_postgres_store({.url = url});
    std::mutex mutex;
    std::condition_variable heard_one;
    std::vector<StoreNews> heard;
    other->listen([&](const StoreNews& news) {
        std::lock_guard lock(mutex);
        heard.push_back(news);
        heard_one.notify_all();
    });
    const auto ann = one->create_user("Ann", "hash");
    const auto ben = one->create_user("Ben", "hash");
    REQUIRE((ann && ben));
    REQUIRE(one->add_listed(Relation::blocks, ann->id, ben->id, 500));
    one->remove_listed(Relation::blocks, ann->id, ben->id);
    std::unique_lock lock(mutex);
    heard_one.wait_for(lock, std::chrono::seconds(5), [&] { return heard.size() >= 2; });
    REQUIRE(heard.size() == 2);
    for (const StoreNews& news : heard) {
        CHECK(news.kind == StoreNews::Kind::blocks);
        CHECK(news.user == ann->id);
    }
    lock.unlock();
    other->listen({});
}

}  // namespace
