// What users chose for their mail, over a store of its own: the choices reach the store, each one
// forgets what was remembered of the user, and what is remembered answers without the store (a
// change the store made by itself shows only once forgotten).
#include "notify/mail_choices.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <random>

#include "crypto.hpp"
#include "gcor/store/sqlite_store.hpp"

namespace gcor::server {
namespace {

using namespace std::chrono_literals;

// A store in a fresh temporary folder, removed at the end, and the choices over it.
class ChoicesInStore {
  public:
    ChoicesInStore() {
        std::random_device random;
        folder_ = std::filesystem::temp_directory_path() /
                  ("gcor-choices-" + std::to_string(random()) + std::to_string(random()));
        store_ = open_sqlite_store({.path = (folder_ / "store.db").string()});
        choices_ = std::make_unique<MailChoices>(*store_, 1h);
    }
    ~ChoicesInStore() {
        choices_.reset();
        store_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(folder_, ignored);
    }
    ChoicesInStore(const ChoicesInStore&) = delete;
    ChoicesInStore& operator=(const ChoicesInStore&) = delete;

    Store& store() { return *store_; }
    MailChoices& choices() { return *choices_; }

  private:
    std::filesystem::path folder_;
    std::unique_ptr<Store> store_;
    std::unique_ptr<MailChoices> choices_;
};

}  // namespace

TEST_CASE("mail choices: an address confirmed by its token, in its language", "[server]") {
    ChoicesInStore place;
    const auto ann = place.store().create_user("Ann", "hash")->id;
    CHECK_FALSE(place.choices().cached(ann));

    const std::string token = new_token();
    place.choices().set_address(ann, "ann@example.org", token_hash(token), unix_now_ms() + 60'000,
                                protocol::Language::de);
    auto email = place.choices().cached(ann);  // forgotten by set_address: read again
    REQUIRE(email);
    CHECK(email->address == "ann@example.org");
    CHECK(email->language == "de");
    CHECK_FALSE(email->confirmed);

    CHECK_FALSE(place.choices().confirm(new_token()));
    CHECK(place.choices().confirm(token) == ann);
    CHECK(place.choices().cached(ann)->confirmed);
    CHECK_FALSE(place.choices().confirm(token));  // used up
}

TEST_CASE("mail choices: each choice reaches the store and what was remembered", "[server]") {
    ChoicesInStore place;
    const auto ann = place.store().create_user("Ann", "hash")->id;
    place.choices().set_address(ann, "ann@example.org", "h", unix_now_ms() + 60'000,
                                protocol::Language::en);
    REQUIRE(place.choices().cached(ann));

    const UnixMs before = unix_now_ms();
    place.choices().set_frequency(ann, MailFrequency::daily);
    const auto daily = place.choices().cached(ann);
    REQUIRE(daily);
    CHECK(daily->frequency == MailFrequency::daily);
    // A digest is due one `digest_every` (an hour here) after it was chosen.
    REQUIRE(daily->digest_due);
    CHECK(*daily->digest_due >= before + 3'600'000);
    CHECK(*daily->digest_due <= unix_now_ms() + 3'600'000);
    CHECK(place.store().email_of(ann)->frequency == MailFrequency::daily);

    place.choices().set_frequency(ann, MailFrequency::each_turn);
    CHECK_FALSE(place.choices().cached(ann)->digest_due);

    place.choices().set_language(ann, protocol::Language::de);
    CHECK(place.choices().cached(ann)->language == "de");
    place.choices().set_invitation_mails(ann, false);
    CHECK_FALSE(place.choices().cached(ann)->invitation_mails);
    CHECK(place.choices().email_of(ann)->language == "de");

    place.choices().remove_address(ann);
    CHECK_FALSE(place.choices().cached(ann));
    CHECK_FALSE(place.store().email_of(ann));
}

TEST_CASE("mail choices: what is remembered stays until the user is forgotten", "[server]") {
    ChoicesInStore place;
    const auto ann = place.store().create_user("Ann", "hash")->id;
    place.choices().set_address(ann, "ann@example.org", "h", unix_now_ms() + 60'000,
                                protocol::Language::en);
    REQUIRE(place.choices().cached(ann));
    // The store changes by itself (as an erased account's): the remembered address stays ...
    place.store().remove_email(ann);
    CHECK(place.choices().cached(ann));
    CHECK_FALSE(place.choices().email_of(ann));  // which the store no longer has
    // ... until it is forgotten.
    place.choices().forget(ann);
    CHECK_FALSE(place.choices().cached(ann));
}

}  // namespace gcor::server
