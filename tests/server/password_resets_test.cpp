// PasswordResets over a store of its own, with the time given by the test: a reset link works
// once, until its hour is up (to the millisecond), ends every session of the account, and a newer
// link replaces an older one; the store's guest registration keeps the id and refuses a taken name.
#include "accounts/password_resets.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <random>

#include "accounts/accounts.hpp"
#include "crypto.hpp"
#include "gcor/store/sqlite_store.hpp"
#include "metrics.hpp"
#include "notify/mailer.hpp"

namespace gcor::server {
namespace {

// A store in a fresh temporary folder, removed at the end, and the resets over it (no relay).
class ResetsInStore {
  public:
    ResetsInStore() {
        std::random_device random;
        folder_ = std::filesystem::temp_directory_path() /
                  ("gcor-resets-" + std::to_string(random()) + std::to_string(random()));
        store_ = open_sqlite_store({.path = (folder_ / "store.db").string()});
        mailer_ = std::make_unique<Mailer>(*store_, metrics_, MailSettings{});
        resets_ = std::make_unique<PasswordResets>(*store_, *mailer_, PasswordResets::Limits{});
    }
    ~ResetsInStore() {
        resets_.reset();
        mailer_.reset();
        store_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(folder_, ignored);
    }
    ResetsInStore(const ResetsInStore&) = delete;
    ResetsInStore& operator=(const ResetsInStore&) = delete;

    Store& store() { return *store_; }
    PasswordResets& resets() { return *resets_; }

  private:
    std::filesystem::path folder_;
    Metrics metrics_;
    std::unique_ptr<Store> store_;
    std::unique_ptr<Mailer> mailer_;
    std::unique_ptr<PasswordResets> resets_;
};

}  // namespace

TEST_CASE("password resets: once, within the hour, every session ended", "[accounts]") {
    ResetsInStore fixture;
    Store& store = fixture.store();
    const auto ann = store.create_user("Ann", hash_password("first password"));
    REQUIRE(ann);
    store.add_session(token_hash("laptop"), ann->id, 1LL << 50);
    store.add_session(token_hash("phone"), ann->id, 1LL << 50);
    const UnixMs asked = 1'000'000;
    const std::string older = new_token();
    store.add_password_reset(ann->id, token_hash(older), asked + PasswordResets::kLinkLifetime);
    const std::string token = new_token();
    store.add_password_reset(ann->id, token_hash(token), asked + PasswordResets::kLinkLifetime);

    const UnixMs last = asked + PasswordResets::kLinkLifetime - 1;
    CHECK(fixture.resets().reset(older, "second password", asked).error().code ==
          protocol::ErrorCode::bad_token);  // replaced by the newer link
    CHECK(fixture.resets().reset(token, "second password", last + 1).error().code ==
          protocol::ErrorCode::token_expired);
    CHECK(fixture.resets().reset(token, "short", last).error().code ==
          protocol::ErrorCode::bad_field);
    CHECK(fixture.resets().reset("not a token", "second password", last).error().code ==
          protocol::ErrorCode::bad_token);
    CHECK(verify_password(store.user_by_id(ann->id)->password_hash, "first password"));

    const auto done = fixture.resets().reset(token, "second password", last);
    REQUIRE(done);
    CHECK(done->user == ann->id);
    CHECK(done->ended_sessions.size() == 2);
    CHECK(std::ranges::find(done->ended_sessions, session_key("laptop")) !=
          done->ended_sessions.end());
    CHECK_FALSE(store.session_user(token_hash("laptop"), asked));
    CHECK(verify_password(store.user_by_id(ann->id)->password_hash, "second password"));
    CHECK(fixture.resets().reset(token, "third password", last).error().code ==
          protocol::ErrorCode::bad_token);
}

TEST_CASE("password resets: without a relay no mail, and what is no address is said so",
          "[accounts]") {
    ResetsInStore fixture;
    const auto now = PasswordAttempts::Clock::now();
    const auto no_relay = fixture.resets().forgot("ann@example.org", now);
    REQUIRE(no_relay);
    CHECK(no_relay->first.code == protocol::ErrorCode::mail_unavailable);
    const auto no_address = fixture.resets().forgot("ann at example.org", now);
    REQUIRE(no_address);
    CHECK(no_address->first.code == protocol::ErrorCode::bad_field);
}

TEST_CASE("password resets: a guest registered keeps its id, and a name taken leaves it a guest",
          "[accounts]") {
    ResetsInStore fixture;
    Store& store = fixture.store();
    REQUIRE(store.create_user("Livia", "hash"));
    const StoredUser guest = store.create_guest("Gaius");
    store.add_session(token_hash("guest session"), guest.id, 1LL << 50);
    CHECK_FALSE(store.register_guest(guest.id, "LIVIA", "hash"));
    CHECK(store.user_by_id(guest.id)->guest);
    CHECK(store.session_user(token_hash("guest session"), 0));

    const auto registered = store.register_guest(guest.id, "Gaius", "hash");
    REQUIRE(registered);
    CHECK(registered->user.id == guest.id);
    CHECK(registered->ended_sessions == std::vector<std::string>{token_hash("guest session")});
    CHECK_FALSE(store.user_by_id(guest.id)->guest);
    CHECK(store.user_by_name("gaius")->id == guest.id);
    CHECK_FALSE(store.session_user(token_hash("guest session"), 0));
    // A registered user is no guest to register again.
    CHECK_FALSE(store.register_guest(guest.id, "Gaius2", "hash"));
}

}  // namespace gcor::server
