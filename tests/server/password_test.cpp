// Account life through the HTTP API of a real server: changing a password (the old one asked,
// the other sessions ended), a forgotten one's link mailed through a real SMTP relay and followed
// (once, within its hour), their limits, and a guest who registers keeping its id and its seats.
#include <SQLiteCpp/SQLiteCpp.h>

#include "mail_support.hpp"
#include "table_support.hpp"

using namespace gcor::testing;

namespace {

constexpr const char* kPasswordSite = "http://rome.example.org";

Json password_body(const std::string& text) {
    return Json::parse(text);
}

std::string password_credentials(const std::string& name, const std::string& password) {
    return Json{{"name", name}, {"password", password}}.dump();
}

// A registered user's id and session token.
struct PasswordAccount {
    std::uint64_t id = 0;
    std::string token;
};

PasswordAccount password_register(const ServerProcess& server, const std::string& name,
                                  const std::string& password) {
    const auto [status, body] = server.post("/api/register", password_credentials(name, password));
    REQUIRE(status == 201);
    const Json made = password_body(body);
    return PasswordAccount{made["user"]["id"], made["token"]};
}

std::string password_login(const ServerProcess& server, const std::string& name,
                           const std::string& password) {
    const auto [status, body] = server.post("/api/login", password_credentials(name, password));
    REQUIRE(status == 200);
    return password_body(body)["token"];
}

// Whether a session token still works for the HTTP API.
bool session_works(const ServerProcess& server, const std::string& token) {
    return server.get("/api/webhook", token).first == 200;
}

std::pair<int, std::string> change_password(const ServerProcess& server, const std::string& token,
                                            const std::string& old_password,
                                            const std::string& new_password) {
    const auto [status, body] = server.post(
        "/api/password", Json{{"old", old_password}, {"new", new_password}}.dump(), token);
    return {status, password_body(body).value("code", "")};
}

std::pair<int, std::string> forgot(const ServerProcess& server, const std::string& email) {
    const auto [status, body] = server.post("/api/password/forgot", Json{{"email", email}}.dump());
    return {status, password_body(body).value("code", "")};
}

std::pair<int, Json> reset(const ServerProcess& server, const std::string& token,
                           const std::string& password) {
    const auto [status, body] =
        server.post("/api/password/reset", Json{{"token", token}, {"password", password}}.dump());
    return {status, password_body(body)};
}

std::vector<std::string> password_mail_args(const SmtpRelay& relay) {
    std::vector<std::string> args{
        "--smtp-url",   relay.url(),   "--smtp-from",  "Rome <noreply@rome.example.org>",
        "--public-url", kPasswordSite, "--mail-delay", "0"};
    args.insert(args.end(), kFast.begin(), kFast.end());
    return args;
}

// Gives the account a confirmed address (the confirmation link mailed and opened).
void password_confirmed_address(const ServerProcess& server, const SmtpRelay& relay,
                                const PasswordAccount& account, const std::string& address) {
    const std::size_t before = relay.mails().size();
    REQUIRE(server.post("/api/email", Json{{"email", address}}.dump(), account.token).first == 200);
    const auto mails = relay.wait_for(before + 1);
    REQUIRE(mails.size() == before + 1);
    const std::string link =
        link_in(mails.back().text, std::string(kPasswordSite) + "/api/email/confirm?token=");
    REQUIRE(server.get(link.substr(std::string(kPasswordSite).size())).first == 200);
}

// The reset mails the relay received, oldest first.
std::vector<Mail> reset_mails(const SmtpRelay& relay) {
    std::vector<Mail> found;
    for (const Mail& mail : relay.mails())
        if (mail.header("Subject") == "A new password for The Great City of Rome")
            found.push_back(mail);
    return found;
}

// The token of the reset link in `mail`, and the link's form checked.
std::string reset_token(const Mail& mail) {
    const std::string prefix = std::string(kPasswordSite) + "/#/reset?token=";
    const std::string link = link_in(mail.text, prefix);
    CHECK(mail.html.find(link) != std::string::npos);
    CHECK(mail.header("List-Unsubscribe").empty());  // asked for, not a list
    const std::string token = link.substr(prefix.size());
    REQUIRE(token.size() == 64);
    return token;
}

}  // namespace

TEST_CASE("passwords: a change asks for the old one and ends every other session", "[accounts]") {
    ServerProcess server(kFast);
    const PasswordAccount livia = password_register(server, "Livia", "aqueducts-forever");
    const std::string laptop = password_login(server, "Livia", "aqueducts-forever");
    const std::string phone = password_login(server, "Livia", "aqueducts-forever");
    Client at_laptop(server.port()), here(server.port());
    REQUIRE(at_laptop.request(Json{{"type", "hello"}, {"token", laptop}}));
    REQUIRE(here.request(Json{{"type", "hello"}, {"token", livia.token}}));

    // Refused, and nothing changes: no session, a guest, bad bodies, a wrong old password, a new
    // one against the rules.
    CHECK(change_password(server, "", "aqueducts-forever", "temples-forever") ==
          std::pair<int, std::string>{401, "bad_token"});
    Follower guest(server.port(), "Gaius");
    CHECK(change_password(server, guest.token, "whatever", "temples-forever") ==
          std::pair<int, std::string>{403, "registered_only"});
    for (const char* bad : {R"({"old":"aqueducts-forever"})", R"({"new":"temples-forever"})",
                            R"({"old":"aqueducts-forever","new":7})",
                            R"({"old":"aqueducts-forever","new":"temples-forever","x":"y"})",
                            R"(["aqueducts-forever"])", "{"}) {
        INFO(bad);
        const auto [status, body] = server.post("/api/password", bad, livia.token);
        CHECK(status == 400);
    }
    CHECK(change_password(server, livia.token, "wrong guess", "temples-forever") ==
          std::pair<int, std::string>{401, "bad_credentials"});
    CHECK(change_password(server, livia.token, "aqueducts-forever", "short") ==
          std::pair<int, std::string>{400, "bad_field"});
    CHECK(session_works(server, laptop));
    CHECK(session_works(server, phone));

    const auto [changed, body] = server.post(
        "/api/password", Json{{"old", "aqueducts-forever"}, {"new", "temples-forever"}}.dump(),
        livia.token);
    REQUIRE(changed == 200);
    CHECK(password_body(body)["sessions_ended"] == 2);
    // The other sessions end, and their connections close; this one goes on.
    CHECK_FALSE(session_works(server, laptop));
    CHECK_FALSE(session_works(server, phone));
    CHECK(session_works(server, livia.token));
    CHECK_FALSE(at_laptop.receive(5s));
    CHECK(at_laptop.closed());
    CHECK(at_laptop.close_code() == 1008);
    const auto created =
        here.request(Json{{"type", "create_table"}, {"options", Json{{"players", 2}}}});
    REQUIRE(created);
    CHECK(type_of(*created) == "table_created");
    // Only the new password logs in.
    CHECK(server.post("/api/login", password_credentials("Livia", "aqueducts-forever")).first ==
          401);
    CHECK_FALSE(password_login(server, "livia", "temples-forever").empty());
}

TEST_CASE("passwords: wrong old passwords count as wrong logins of the account", "[accounts]") {
    ServerProcess server(kFast);
    const PasswordAccount marcus = password_register(server, "Marcus", "roads-forever");
    for (int guess = 0; guess < 5; ++guess)
        CHECK(
            change_password(server, marcus.token, "guess " + std::to_string(guess), "new password")
                .first == 401);
    // The account has no attempt left: a change and a login wait, even with the right password.
    CHECK(change_password(server, marcus.token, "roads-forever", "new password") ==
          std::pair<int, std::string>{429, "rate_limited"});
    const auto locked = server.post("/api/login", password_credentials("Marcus", "roads-forever"));
    CHECK(locked.first == 429);
    CHECK(session_works(server, marcus.token));
}

TEST_CASE("passwords: a forgotten one's mailed link sets a new one, once, and ends every session",
          "[accounts]") {
    SmtpRelay relay;
    ServerProcess server(password_mail_args(relay));
    const PasswordAccount ann = password_register(server, "Ann", "first password");
    const PasswordAccount bob = password_register(server, "Bob", "bobs password");
    password_confirmed_address(server, relay, ann, "ann@example.org");
    // Bob's address is not confirmed: nothing but its confirmation goes to it.
    REQUIRE(server.post("/api/email", Json{{"email", "bob@example.org"}}.dump(), bob.token).first ==
            200);
    REQUIRE(relay.wait_for(2).size() == 2);
    Client ann_playing(server.port());
    REQUIRE(ann_playing.request(Json{{"type", "hello"}, {"token", ann.token}}));

    // The same answer for a known address (in another case), an unknown one and an unconfirmed
    // one; a mail goes to the known one only.
    CHECK(forgot(server, "Ann@Example.org") == std::pair<int, std::string>{202, ""});
    CHECK(forgot(server, "nobody@example.org") == std::pair<int, std::string>{202, ""});
    CHECK(forgot(server, "bob@example.org") == std::pair<int, std::string>{202, ""});
    relay.wait_for(3);
    std::this_thread::sleep_for(500ms);  // time for mails that must not come
    const auto mails = reset_mails(relay);
    REQUIRE(mails.size() == 1);
    CHECK(mails[0].header("To") == "ann@example.org");
    CHECK(mails[0].text.find("Ann") != std::string::npos);
    const std::string token = reset_token(mails[0]);
    CHECK(relay.mails().size() == 3);

    // Bad requests change nothing; the token stays usable.
    for (const char* bad : {R"({"token":"x"})", R"({"password":"new password"})",
                            R"({"token":7,"password":"new password"})", R"({"email":"a@b.org"})"}) {
        INFO(bad);
        CHECK(server.post("/api/password/reset", bad).first == 400);
    }
    CHECK(reset(server, std::string(64, 'a'), "new password").first == 401);
    CHECK(reset(server, "not hex", "new password").second["code"] == "bad_token");
    CHECK(reset(server, token, "short").second["code"] == "bad_field");
    CHECK(session_works(server, ann.token));

    const auto [status, done] = reset(server, token, "second password");
    REQUIRE(status == 200);
    CHECK(done["user"]["id"] == ann.id);
    CHECK(done["user"]["name"] == "Ann");
    // Every session ended, connections closed; the new password logs in, the old does not.
    CHECK_FALSE(session_works(server, ann.token));
    CHECK_FALSE(ann_playing.receive(5s));
    CHECK(ann_playing.closed());
    CHECK(server.post("/api/login", password_credentials("Ann", "first password")).first == 401);
    CHECK_FALSE(password_login(server, "Ann", "second password").empty());
    CHECK(session_works(server, bob.token));
    // Once only.
    const auto [again, again_body] = reset(server, token, "third password");
    CHECK(again == 401);
    CHECK(again_body["code"] == "bad_token");
    CHECK_FALSE(password_login(server, "Ann", "second password").empty());
}

TEST_CASE("passwords: a reset link works for an hour, and only the latest one", "[accounts]") {
    SmtpRelay relay;
    ServerProcess server(password_mail_args(relay));
    const PasswordAccount ann = password_register(server, "Ann", "first password");
    password_confirmed_address(server, relay, ann, "ann@example.org");

    REQUIRE(forgot(server, "ann@example.org").first == 202);
    REQUIRE(relay.wait_for(2).size() == 2);
    const std::string older = reset_token(reset_mails(relay).at(0));
    REQUIRE(forgot(server, "ann@example.org").first == 202);
    REQUIRE(relay.wait_for(3).size() == 3);
    const std::string latest = reset_token(reset_mails(relay).at(1));
    CHECK(older != latest);
    CHECK(reset(server, older, "second password").second["code"] == "bad_token");

    // An hour passes, as the database sees it.
    {
        SQLite::Database db(server.dir() + "/cor.db", SQLite::OPEN_READWRITE);
        db.setBusyTimeout(5000);
        REQUIRE(db.exec("UPDATE password_resets SET expires = expires - 3600 * 1000") == 1);
    }
    const auto [expired, body] = reset(server, latest, "second password");
    CHECK(expired == 410);
    CHECK(body["code"] == "token_expired");
    CHECK_FALSE(password_login(server, "Ann", "first password").empty());
}

TEST_CASE("passwords: forgotten-password mails and resets are limited", "[accounts]") {
    SmtpRelay relay;
    std::vector<std::string> args = password_mail_args(relay);
    ServerProcess server(args);
    // Three mails an address, whether it is known or not, then one every 20 minutes.
    for (int asked = 0; asked < 3; ++asked)
        CHECK(forgot(server, "victim@example.org").first == 202);
    CHECK(forgot(server, "VICTIM@example.org") == std::pair<int, std::string>{429, "rate_limited"});
    CHECK(forgot(server, "other@example.org").first == 202);
    // Not an address, or no relay: said so (which tells nothing of any account).
    CHECK(forgot(server, "not an address") == std::pair<int, std::string>{400, "bad_field"});
    CHECK(server.post("/api/password/forgot", R"({"email":"a@example.org","x":"y"})").first == 400);
    ServerProcess mailless(kFast);
    CHECK(forgot(mailless, "a@example.org") ==
          std::pair<int, std::string>{503, "mail_unavailable"});

    // Guessing tokens is limited per address as logins are.
    ServerProcess guarded({"--password-attempts", "3"});
    for (int guess = 0; guess < 3; ++guess)
        CHECK(
            reset(guarded, std::string(64, static_cast<char>('a' + guess)), "new password").first ==
            401);
    const auto [limited, body] = reset(guarded, std::string(64, 'e'), "new password");
    CHECK(limited == 429);
    CHECK(body["code"] == "rate_limited");
}

TEST_CASE("passwords: a guest registers keeping the user id, the table and the seat",
          "[accounts]") {
    ServerProcess server(kFast);
    Follower gaius(server.port(), "Gaius");
    const std::uint64_t guest_id = gaius.user["id"];
    const std::string table = create(gaius, create_request(options(2)));
    const int seat = *gaius.seat;
    const PasswordAccount livia = password_register(server, "Livia", "aqueducts-forever");

    // Refused, and the guest stays a guest: a name taken (in another case), bad fields, a
    // registered user's token, an unknown token.
    const auto as_guest = [&](const std::string& name, const std::string& password,
                              const std::string& token) {
        const auto [status, body] =
            server.post("/api/register", password_credentials(name, password), token);
        return std::pair<int, std::string>{status, password_body(body).value("code", "")};
    };
    CHECK(as_guest("LIVIA", "long enough pw", gaius.token) ==
          std::pair<int, std::string>{409, "name_taken"});
    CHECK(as_guest("no spaces", "long enough pw", gaius.token) ==
          std::pair<int, std::string>{400, "bad_field"});
    CHECK(as_guest("Gaius", "short", gaius.token) == std::pair<int, std::string>{400, "bad_field"});
    CHECK(as_guest("Gaius", "long enough pw", livia.token) ==
          std::pair<int, std::string>{409, "wrong_state"});
    CHECK(as_guest("Gaius", "long enough pw", std::string(64, 'f')) ==
          std::pair<int, std::string>{401, "bad_token"});
    CHECK(session_works(server, gaius.token));

    const auto [status, body] =
        server.post("/api/register", password_credentials("Gaius", "long enough pw"), gaius.token);
    REQUIRE(status == 201);
    const Json made = password_body(body);
    CHECK(made["user"]["id"] == guest_id);
    CHECK(made["user"]["name"] == "Gaius");
    CHECK(made["user"]["guest"] == false);
    // The guest's sessions ended (its connection closes); the new one carries on as the account.
    CHECK_FALSE(session_works(server, gaius.token));
    // (what its table sent before may come first)
    for (int messages = 0; messages < 20 && gaius.client->receive(5s); ++messages) {
    }
    CHECK(gaius.client->closed());
    CHECK(gaius.client->close_code() == 1008);
    Follower registered(server.port(), made["token"].get<std::string>(), Follower::with_token);
    CHECK(registered.user["id"] == guest_id);
    CHECK(registered.user["guest"] == false);
    const auto mine = registered.request(Json{{"type", "my_games"}});
    REQUIRE(mine);
    REQUIRE(type_of(*mine) == "my_games");
    bool found = false;
    for (const Json& game : (*mine)["games"])
        if (game["id"] == table) {
            found = true;
            CHECK(game["seat"] == seat);
        }
    CHECK(found);
    // The seat is still the user's: sitting again there is refused as already seated.
    registered.follow(table);
    const auto again = registered.request(Json{{"type", "sit"}, {"table", table}});
    REQUIRE(again);
    CHECK((*again)["code"] == "already_seated");
    // The account logs in by its name; the name is taken now.
    CHECK_FALSE(password_login(server, "gaius", "long enough pw").empty());
    CHECK(server.post("/api/register", password_credentials("Gaius", "long enough pw")).first ==
          409);
    // The profile shows the account.
    const auto [profile_status, profile] = server.get("/api/users/" + std::to_string(guest_id));
    CHECK(profile_status == 200);
    CHECK(password_body(profile)["user"]["name"] == "Gaius");
    CHECK(password_body(profile)["guest"] == false);
}

TEST_CASE("passwords: a guest who registers under another name is called by it at their tables",
          "[accounts]") {
    ServerProcess server(kFast);
    Follower guest(server.port(), "Wanderer");
    const std::string table = create(guest, create_request(options(2)));
    // Another player watches the table, which the lobby lists from the store.
    Follower livia(server.port(), "Livia");
    livia.follow(table);
    REQUIRE(livia.request(livia.about_table("watch")));
    const auto seat_names = [](const Json& summary) {
        std::vector<std::string> names;
        for (const Json& seat : summary["seats"])
            if (seat.contains("name")) names.push_back(seat["name"]);
        return names;
    };

    const auto [status, body] =
        server.post("/api/register", password_credentials("Caesar", "long enough pw"), guest.token);
    REQUIRE(status == 201);
    // The table in memory tells its followers...
    const auto told = livia.client->wait_for([&](const Json& message) {
        return type_of(message) == "table" && message["table"]["id"] == table;
    });
    REQUIRE(told);
    CHECK(seat_names((*told)["table"]) == std::vector<std::string>{"Caesar"});
    // ...and the store has the name: the lobby's listing reads it from there.
    const auto listing = livia.request(Json{{"type", "list_tables"}});
    REQUIRE(listing);
    bool listed = false;
    for (const Json& summary : (*listing)["tables"])
        if (summary["id"] == table) {
            listed = true;
            CHECK(seat_names(summary) == std::vector<std::string>{"Caesar"});
        }
    CHECK(listed);
}
