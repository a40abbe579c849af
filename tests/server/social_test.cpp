// Friends and blocks through the HTTP API and the protocol (docs/protocol.md, "Friends and
// blocks"): the lists and their limits, a block keeping its user from the blocker's tables and
// the blocker's chat, privacy, a restart, and mutes as before.
#include <catch2/catch.hpp>

#include <set>

#include <SQLiteCpp/SQLiteCpp.h>

#include "server_support.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

// A registered user's token and id.
struct SocialUser {
    std::string token;
    std::uint64_t id = 0;
};

SocialUser social_register(ServerProcess& server, const std::string& name) {
    const auto made =
        server.post("/api/register", Json{{"name", name}, {"password", "long enough pw"}}.dump());
    REQUIRE(made.first == 201);
    const Json session = Json::parse(made.second);
    return SocialUser{session["token"], session["user"]["id"]};
}

// An answer's status and JSON body.
std::pair<int, Json> social_answer(const std::pair<int, std::string>& answer) {
    INFO(answer.second);
    return {answer.first, Json::parse(answer.second)};
}

void social_refused(const std::pair<int, std::string>& answer, int status,
                    const std::string& code) {
    INFO(answer.second);
    CHECK(answer.first == status);
    CHECK(Json::parse(answer.second)["code"] == code);
}

std::vector<std::uint64_t> social_ids(const Json& list) {
    std::vector<std::uint64_t> ids;
    for (const Json& listed : list)
        ids.push_back(listed["user"].get<std::uint64_t>());
    return ids;
}

std::string social_path(const char* list, std::uint64_t user) {
    return std::string("/api/") + list + "/" + std::to_string(user);
}

// The next chat line `reader` hears at its table.
Json social_heard(Follower& reader) {
    const auto line = reader.client->wait_for(of_type("chat", reader.table));
    REQUIRE(line);
    return *line;
}

std::uint64_t social_writer(const Json& line) {
    return line["from"]["user"].get<std::uint64_t>();
}

TEST_CASE("social: friends are added, listed with who is online, removed, within limits",
          "[social][store]") {
    Database db;
    auto server = std::make_unique<ServerProcess>(db.args());
    const SocialUser ann = social_register(*server, "Ann");
    const SocialUser ben = social_register(*server, "Ben");
    const SocialUser cleo = social_register(*server, "Cleo");
    Follower guest(server->port(), "Gus");
    const std::uint64_t guest_id = guest.user["id"];

    // Who may ask, and how.
    social_refused(server->get("/api/friends"), 401, "bad_token");
    social_refused(server->get("/api/friends", guest.token), 403, "registered_only");
    social_refused(server->put(social_path("friends", ben.id), "", guest.token), 403,
                   "registered_only");
    social_refused(server->put(social_path("friends", ann.id), "", ann.token), 400, "bad_field");
    social_refused(server->put(social_path("friends", 999'999'999), "", ann.token), 404,
                   "not_found");
    social_refused(server->put(social_path("friends", guest_id), "", ann.token), 404, "not_found");
    social_refused(server->put("/api/friends/Ben", "", ann.token), 404, "not_found");
    social_refused(server->put("/api/friends/0" + std::to_string(ben.id), "", ann.token), 404,
                   "not_found");
    social_refused(server->post("/api/friends", "{}", ann.token), 400, "bad_field");
    social_refused(server->put("/api/friends", "", ann.token), 400, "bad_field");
    social_refused(server->get(social_path("friends", ben.id), ann.token), 400, "bad_field");
    social_refused(server->put(social_path("friends", ben.id), R"({"note":"x"})", ann.token), 400,
                   "bad_field");
    social_refused(server->put(social_path("friends", ben.id), "[1]", ann.token), 400, "bad_json");
    CHECK(social_answer(server->get("/api/friends", ann.token)).second ==
          Json{{"friends", Json::array()}});

    // Added twice is once; offline until a connection says hello.
    auto [status, added] =
        social_answer(server->put(social_path("friends", ben.id), "", ann.token));
    CHECK(status == 200);
    REQUIRE(added["friends"].size() == 1);
    CHECK(added["friends"][0]["user"] == ben.id);
    CHECK(added["friends"][0]["name"] == "Ben");
    CHECK(added["friends"][0]["online"] == false);
    CHECK(added["friends"][0]["added"].get<std::int64_t>() > 1'700'000'000'000);
    social_answer(server->put(social_path("friends", cleo.id), "", ann.token));
    const auto again = social_answer(server->put(social_path("friends", ben.id), "", ann.token));
    CHECK(social_ids(again.second["friends"]) == std::vector<std::uint64_t>{ben.id, cleo.id});
    {
        Follower ben_online(server->port(), ben.token, Follower::with_token);
        const Json friends = social_answer(server->get("/api/friends", ann.token)).second;
        CHECK(friends["friends"][0]["online"] == true);
        CHECK(friends["friends"][1]["online"] == false);
        // One-way: Ben's own list is his, and empty.
        CHECK(social_answer(server->get("/api/friends", ben.token)).second["friends"].empty());
    }

    // Removed; removing again changes nothing.
    const auto removed = social_answer(server->remove(social_path("friends", cleo.id), ann.token));
    CHECK(removed.first == 200);
    CHECK(social_ids(removed.second["friends"]) == std::vector<std::uint64_t>{ben.id});
    CHECK(social_ids(social_answer(server->remove(social_path("friends", cleo.id), ann.token))
                         .second["friends"]) == std::vector<std::uint64_t>{ben.id});

    // At most 500: the store is filled while the server is stopped (500 registrations would
    // hash 500 passwords).
    REQUIRE(server->stop() == 0);
    {
        SQLite::Database stored(db.dir + "/cor.db", SQLite::OPEN_READWRITE);
        stored.setBusyTimeout(5000);
        SQLite::Transaction transaction(stored);
        for (int i = 0; i < 499; ++i) {
            SQLite::Statement user(stored,
                                   "INSERT INTO users (name, name_key, password_hash, created) "
                                   "VALUES (?1, lower(?1), 'x', 1)");
            user.bind(1, "Friend" + std::to_string(i));
            user.exec();
            SQLite::Statement listed(
                stored, "INSERT INTO friends (user_id, friend_id, added) VALUES (?, ?, 2)");
            listed.bind(1, static_cast<std::int64_t>(ann.id));
            listed.bind(2, stored.getLastInsertRowid());
            listed.exec();
        }
        transaction.commit();
    }
    server = std::make_unique<ServerProcess>(db.args());
    CHECK(social_answer(server->get("/api/friends", ann.token)).second["friends"].size() == 500);
    social_refused(server->put(social_path("friends", cleo.id), "", ann.token), 400,
                   "limit_reached");
    // One already there is no new one.
    CHECK(social_answer(server->put(social_path("friends", ben.id), "", ann.token)).first == 200);
    social_answer(server->remove(social_path("friends", ben.id), ann.token));
    CHECK(social_answer(server->put(social_path("friends", cleo.id), "", ann.token)).first == 200);
}

TEST_CASE("social: a block keeps its user from the blocker's tables and chat, privately",
          "[social][store]") {
    Database db;
    auto server = std::make_unique<ServerProcess>(db.args());
    const SocialUser ann_user = social_register(*server, "Ann");
    const SocialUser bob_user = social_register(*server, "Bob");
    const SocialUser cleo_user = social_register(*server, "Cleo");
    Follower ann(server->port(), ann_user.token, Follower::with_token);
    Follower bob(server->port(), bob_user.token, Follower::with_token);
    Follower cleo(server->port(), cleo_user.token, Follower::with_token);
    Follower guest(server->port(), "Gus");

    // Refusals change nothing.
    social_refused(server->put(social_path("blocks", bob_user.id), "", guest.token), 403,
                   "registered_only");
    social_refused(server->get("/api/blocks", guest.token), 403, "registered_only");
    social_refused(server->put(social_path("blocks", ann_user.id), "", ann.token), 400,
                   "bad_field");
    social_refused(server->put(social_path("blocks", 999'999'999), "", ann.token), 404,
                   "not_found");
    social_refused(server->post("/api/blocks", "{}", ann.token), 400, "bad_field");

    const std::string anns = create(ann, create_request(options(3)));
    const auto blocked =
        social_answer(server->put(social_path("blocks", bob_user.id), "", ann.token));
    CHECK(blocked.first == 200);
    REQUIRE(blocked.second["blocks"].size() == 1);
    CHECK(blocked.second["blocks"][0]["user"] == bob_user.id);
    CHECK(blocked.second["blocks"][0]["name"] == "Bob");

    // At Ann's table Bob is answered as at a table that is not there, for a seat and to watch.
    auto refused_as_missing = [&](Follower& who, const std::string& type, const std::string& table,
                                  int id) {
        const auto reply = ask(*who.client, Json{{"type", type}, {"table", table}}, id);
        check_error(reply, "not_found", id, table);
        return (*reply)["message"].get<std::string>();
    };
    const std::string missing = "t0123456789abcdef";
    auto without_id = [](std::string message, const std::string& id) {
        return message.replace(message.find(id), id.size(), "ID");
    };
    CHECK(without_id(refused_as_missing(bob, "sit", anns, 1), anns) ==
          without_id(refused_as_missing(bob, "sit", missing, 2), missing));
    CHECK(without_id(refused_as_missing(bob, "watch", anns, 3), anns) ==
          without_id(refused_as_missing(bob, "watch", missing, 4), missing));
    // Others sit there; Bob sits elsewhere, with Ann.
    sit(cleo, anns);
    Follower cleo_at_home(server->port(), cleo_user.token, Follower::with_token);
    const std::string cleos = create(cleo_at_home, create_request(options(3)));
    sit(bob, cleos);
    Follower ann_at_cleos(server->port(), ann_user.token, Follower::with_token);
    sit(ann_at_cleos, cleos);

    // Bob's lines reach Cleo, not Ann; Ann's reach Bob (a block is one-way).
    const auto said = bob.request(Json{{"type", "chat"}, {"table", cleos}, {"text", "hi all"}});
    REQUIRE(said);
    REQUIRE(type_of(*said) == "chat");
    CHECK(social_writer(social_heard(cleo_at_home)) == bob_user.id);
    const auto answered =
        cleo_at_home.request(Json{{"type", "chat"}, {"table", cleos}, {"text", "hello Bob"}});
    REQUIRE(answered);
    CHECK(social_writer(social_heard(ann_at_cleos)) == cleo_user.id);
    const auto anns_line =
        ann_at_cleos.request(Json{{"type", "chat"}, {"table", cleos}, {"text", "hi"}});
    REQUIRE(anns_line);
    CHECK(social_writer(social_heard(bob)) == cleo_user.id);
    CHECK(social_writer(social_heard(bob)) == ann_user.id);
    auto writers = [&](Follower& reader) {
        const auto page = reader.request(Json{{"type", "chat_history"}, {"table", cleos}});
        REQUIRE(page);
        REQUIRE(type_of(*page) == "chat_history");
        std::set<std::uint64_t> users;
        for (const Json& line : (*page)["lines"])
            users.insert(social_writer(line));
        return users;
    };
    CHECK(writers(ann_at_cleos) == std::set<std::uint64_t>{ann_user.id, cleo_user.id});
    CHECK(writers(cleo_at_home) == std::set<std::uint64_t>{ann_user.id, bob_user.id, cleo_user.id});

    // Private: nothing that Bob can read tells of it.
    CHECK(social_answer(server->get("/api/blocks", bob_user.token)).second["blocks"].empty());
    CHECK(social_answer(server->get("/api/blocks", cleo_user.token)).second["blocks"].empty());
    for (const auto& path : {"/api/users/" + std::to_string(ann_user.id),
                             "/api/users/" + std::to_string(bob_user.id)}) {
        const auto profile = server->get(path, bob_user.token);
        CHECK(profile.second.find("block") == std::string::npos);
    }
    // Ann is Bob's friend, and shows offline to him even while connected.
    const auto bobs_friends =
        social_answer(server->put(social_path("friends", ann_user.id), "", bob_user.token));
    CHECK(bobs_friends.second["friends"][0]["online"] == false);
    social_answer(server->put(social_path("friends", ann_user.id), "", cleo_user.token));
    CHECK(social_answer(server->get("/api/friends", cleo_user.token))
              .second["friends"][0]["online"] == true);

    // A mute works as before, beside blocks: Cleo mutes Bob, and his next line reaches nobody
    // who muted or blocked him.
    const auto muted = cleo_at_home.request(Json{{"type", "mute"}, {"user", bob_user.id}});
    REQUIRE(muted);
    CHECK(type_of(*muted) == "muted");
    CHECK((*muted)["users"] == Json::array({bob_user.id}));
    REQUIRE(bob.request(Json{{"type", "chat"}, {"table", cleos}, {"text", "anyone?"}}));
    REQUIRE(ann_at_cleos.request(Json{{"type", "chat"}, {"table", cleos}, {"text", "still here"}}));
    CHECK(social_writer(social_heard(cleo_at_home)) == ann_user.id);
    const auto unmuted = cleo_at_home.request(Json{{"type", "unmute"}, {"user", bob_user.id}});
    REQUIRE(unmuted);
    CHECK((*unmuted)["users"] == Json::array());

    // Kept across a restart.
    server->kill_hard();
    server = std::make_unique<ServerProcess>(db.args());
    Follower bob_back(server->port(), bob_user.token, Follower::with_token);
    const auto after = ask(*bob_back.client, Json{{"type", "sit"}, {"table", anns}}, 5);
    check_error(after, "not_found", 5, anns);
    CHECK(social_ids(social_answer(server->get("/api/blocks", ann_user.token)).second["blocks"]) ==
          std::vector<std::uint64_t>{bob_user.id});

    // Unblocked: Bob takes the seat.
    const auto unblocked =
        social_answer(server->remove(social_path("blocks", bob_user.id), ann_user.token));
    CHECK(unblocked.first == 200);
    CHECK(unblocked.second["blocks"].empty());
    sit(bob_back, anns);
}

}  // namespace
}  // namespace gcor::testing
