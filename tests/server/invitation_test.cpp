// Invitations and reserved seats through the real server (docs/protocol.md, "Invitations"):
// create_table's "invite", the seat kept for the invited player only, the invitation on each of
// their connections, accepting by sitting down, declines, withdrawals, expiry after seven days,
// the start when the last invited player sits, GET /api/invitations and a restart.
#include <SQLiteCpp/SQLiteCpp.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>

#include "postgres_support.hpp"
#include "table_support.hpp"

namespace gcor::testing {
namespace {

// A registered player, signed in on one connection (more with `connect`).
struct InvitePlayer {
    std::string name;
    std::string token;
    std::uint64_t id = 0;
    std::unique_ptr<Follower> follower;

    InvitePlayer(const ServerProcess& server, const std::string& who) : name(who) {
        const auto made = server.post("/api/register",
                                      Json{{"name", who}, {"password", "long enough pw"}}.dump());
        REQUIRE(made.first == 201);
        const Json body = Json::parse(made.second);
        token = body["token"];
        id = body["user"]["id"];
        follower = connect(server);
    }
    std::unique_ptr<Follower> connect(const ServerProcess& server) const {
        return std::make_unique<Follower>(server.port(), token, Follower::with_token);
    }
    Follower& operator*() const { return *follower; }
    Follower* operator->() const { return follower.get(); }
};

// The invitations GET /api/invitations lists for `token`.
Json invitations_of(const ServerProcess& server, const std::string& token) {
    const auto [status, body] = server.get("/api/invitations", token);
    REQUIRE(status == 200);
    return Json::parse(body)["invitations"];
}

// `blocker` blocks the user `blocked` (PUT /api/blocks/{id}): its status.
int invite_block(const ServerProcess& server, const InvitePlayer& blocker, std::uint64_t blocked) {
    return server.put("/api/blocks/" + std::to_string(blocked), "", blocker.token).first;
}

// Sends `message`, which carries its own "id", and waits for the reply with that id.
std::optional<Json> invite_ask(Follower& follower, const Json& message) {
    return ask(*follower.client, message, message.at("id"));
}

// Ann's table for `players` inviting `invite`, Ann seated at seat 0.
std::string invite_table(InvitePlayer& host, int players, const Json& invite,
                         const Json& extra = Json::object()) {
    Json more = extra;
    more["invite"] = invite;
    return create(*host, create_request(options(players), {}, more));
}

TEST_CASE(
    "invitations: the kept seat is the invited player's alone; they accept by sitting, and "
    "the table starts with the last of them",
    "[invite]") {
    ServerProcess server(kFast);
    InvitePlayer ann(server, "Ann"), ben(server, "Ben"), cy(server, "Cato");
    const auto ben_again = ben.connect(server);
    const std::string table = invite_table(ann, 3, Json::array({"ben"}));  // names: any case

    // The invitation reaches every connection of Ben's, with the table and who sent it.
    for (Follower* connection : {&*ben, ben_again.get()}) {
        const auto invitation = connection->client->wait_for(of_type("invitation", table));
        REQUIRE(invitation);
        CHECK((*invitation)["from"] == Json{{"user", ann.id}, {"name", "Ann"}});
        CHECK((*invitation)["table"]["seats"][2] ==
              Json{{"kind", "reserved"}, {"user", ben.id}, {"name", "Ben"}});
        CHECK((*invitation)["table"]["start_when_full"] == true);
    }

    // Anyone else is refused the kept seat, by number or when only kept seats are free.
    check_error(invite_ask(*cy, Json{{"type", "sit"}, {"table", table}, {"seat", 2}, {"id", 1}}),
                "seat_reserved", 1, table);
    CHECK(sit(*cy, table) == 1);
    // The invitation went out before the table was created: Cato, not invited, has none.
    for (const std::string& text : cy->client->received_texts)
        CHECK(type_of(Json::parse(text)) != "invitation");
    Follower guest(server.port(), "Dee");
    check_error(invite_ask(guest, Json{{"type", "sit"}, {"table", table}, {"id", 2}}),
                "seat_reserved", 2, table);
    check_error(invite_ask(*ann, Json{{"type", "start"}, {"table", table}, {"id", 3}}), "not_full",
                3, table);

    // Ben accepts by sitting down: his kept seat; every seat is taken, so the game starts.
    CHECK(sit(*ben, table) == 2);
    const auto started = ann->client->wait_for([&](const Json& message) {
        return type_of(message) == "snapshot" && table_of(message) == table;
    });
    REQUIRE(started);
    CHECK((*started)["summary"]["status"] == "playing");
    // (the listing reads the store, which may have the start a moment after the snapshot)
    const auto playing = [](const Json& summary) { return summary["status"] == "playing"; };
    CHECK(listed_when(*cy->client, table, playing)["status"] == "playing");
    CHECK(invitations_of(server, ben.token).empty());
}

TEST_CASE("invitations: whoever cannot be invited gets one same answer", "[invite]") {
    ServerProcess server(kFast);
    InvitePlayer ann(server, "Ann"), ben(server, "Ben"), cy(server, "Cato"), di(server, "Dido");
    Follower guest(server.port(), "Gus");
    const std::uint64_t guest_id = guest.user["id"];
    // Cato blocked Ann; Ann blocked Dido (docs/protocol.md, "Friends and blocks").
    REQUIRE(invite_block(server, cy, ann.id) == 200);
    REQUIRE(invite_block(server, ann, di.id) == 200);
    std::vector<Json> refusals;
    for (const Json& invitee : {Json("Nobody"), Json(999'999), Json(guest_id), Json("Gus"),
                                Json("Cato"), Json(cy.id), Json("Dido"), Json(di.id)}) {
        INFO(invitee.dump());
        // The request's own id, kept (Follower::request would number it anew).
        const auto refused = invite_ask(
            *ann,
            create_request(options(2), {}, Json{{"invite", Json::array({invitee})}, {"id", 7}}));
        check_error(refused, "cannot_invite", 7);
        Json shape = *refused;
        shape.erase("message");
        refusals.push_back(shape);
        // The message names what was asked for, and says nothing of why.
        const std::string message = (*refused)["message"];
        CHECK(message == "\"" +
                             (invitee.is_string() ? invitee.get<std::string>()
                                                  : std::to_string(invitee.get<std::uint64_t>())) +
                             "\" is no registered player you can invite");
    }
    for (const Json& shape : refusals)
        CHECK(shape == refusals.front());
    // Nothing was created meanwhile.
    const auto games = ann->request(Json{{"type", "my_games"}});
    REQUIRE(games);
    CHECK((*games)["games"].empty());

    check_error(
        invite_ask(*ann, create_request(options(2), {},
                                        Json{{"invite", Json::array({ann.id})}, {"id", 8}})),
        "bad_field", 8);
    check_error(
        invite_ask(*ann, create_request(options(3), {},
                                        Json{{"invite", Json::array({"Ben", ben.id})}, {"id", 9}})),
        "bad_field", 9);
    check_error(invite_ask(*ann, create_request(
                                     options(2), {},
                                     Json{{"invite", Json::array({"Ben", "Nobody"})}, {"id", 10}})),
                "bad_field", 10);
    // A guest invites nobody.
    check_error(
        invite_ask(guest, create_request(options(2), {},
                                         Json{{"invite", Json::array({"Ben"})}, {"id", 11}})),
        "registered_only", 11);
}

TEST_CASE(
    "invitations: listed to the invited user only; a decline frees the seat and tells the "
    "host; the host withdraws one",
    "[invite]") {
    ServerProcess server(kFast);
    InvitePlayer ann(server, "Ann"), ben(server, "Ben"), cy(server, "Cato");
    const std::string table = invite_table(ann, 3, Json::array({"Ben", cy.id}));

    const Json bens = invitations_of(server, ben.token);
    REQUIRE(bens.size() == 1);
    CHECK(bens[0]["table"]["id"] == table);
    CHECK(bens[0]["from"] == Json{{"user", ann.id}, {"name", "Ann"}});
    CHECK(bens[0]["seat"] == 2);
    CHECK(bens[0]["expires"].get<std::int64_t>() > 0);
    CHECK(invitations_of(server, cy.token).size() == 1);
    CHECK(invitations_of(server, ann.token).empty());  // a host's own tables are not invitations
    CHECK(server.get("/api/invitations").first == 401);
    CHECK(server.post("/api/invitations", "{}", ben.token).first == 400);
    // My games shows the table too, at the kept seat.
    const auto games = ben->request(Json{{"type", "my_games"}});
    REQUIRE(games);
    REQUIRE((*games)["games"].size() == 1);
    CHECK((*games)["games"][0]["seat"] == 2);

    // Ann withdraws... only her own invitations, and Ben cannot withdraw Cato's.
    check_error(
        invite_ask(*ben, Json{{"type", "withdraw"}, {"table", table}, {"user", cy.id}, {"id", 21}}),
        "forbidden", 21, table);

    // Ben declines: his seat is open again, Ann hears of it with the table as it is now.
    const auto declined = ben->request(Json{{"type", "decline"}, {"table", table}});
    REQUIRE(declined);
    CHECK(type_of(*declined) == "declined");
    const auto told = ann->client->wait_for(of_type("invitation_declined", table));
    REQUIRE(told);
    CHECK((*told)["user"] == Json{{"user", ben.id}, {"name", "Ben"}});
    CHECK((*told)["table"]["seats"][2]["kind"] == "open");
    CHECK(ann->client->wait_for([&](const Json& message) {
        return type_of(message) == "table" && message["table"]["seats"][2]["kind"] == "open";
    }));
    CHECK(invitations_of(server, ben.token).empty());
    check_error(invite_ask(*ben, Json{{"type", "decline"}, {"table", table}, {"id", 22}}),
                "not_found", 22, table);

    // Ann withdraws Cato's: Cato is told, and a guest may now take either seat.
    const auto withdrawn =
        ann->request(Json{{"type", "withdraw"}, {"table", table}, {"user", cy.id}});
    REQUIRE(withdrawn);
    CHECK(type_of(*withdrawn) == "withdrawn");
    CHECK((*withdrawn)["user"] == cy.id);
    CHECK(cy->client->wait_for(of_type("invitation_withdrawn", table)));
    CHECK(invitations_of(server, cy.token).empty());
    check_error(
        invite_ask(*ann, Json{{"type", "withdraw"}, {"table", table}, {"user", cy.id}, {"id", 23}}),
        "not_found", 23, table);
    Follower guest(server.port(), "Gus");
    CHECK(sit(guest, table, 1) == 1);
    CHECK(sit(*ben, table) == 2);
}

TEST_CASE("invitations: kept across a restart, then expired after seven days, the host told",
          "[invite]") {
    Database db;
    const auto args = db.args({"--deadline-sweep-ms", "50"});
    auto server = std::make_unique<ServerProcess>(args);
    std::string table;
    std::uint64_t ben_id = 0;
    std::string ann_token, ben_token;
    {
        InvitePlayer ann(*server, "Ann"), ben(*server, "Ben");
        table = invite_table(ann, 2, Json::array({"Ben"}));
        ben_id = ben.id;
        ann_token = ann.token;
        ben_token = ben.token;
    }
    REQUIRE(server->stop() == 0);
    server = std::make_unique<ServerProcess>(args);
    // The seat is still Ben's: listed for him, refused to others.
    REQUIRE(invitations_of(*server, ben_token).size() == 1);
    Follower guest(server->port(), "Gus");
    check_error(invite_ask(guest, Json{{"type", "sit"}, {"table", table}, {"id", 24}}),
                "seat_reserved", 24, table);
    REQUIRE(server->stop() == 0);

    // Time passes while the server is stopped: the invitation was made almost seven days ago, and
    // expires a few seconds after the start (the host is connected by then).
    {
        SQLite::Database stored(db.dir + "/cor.db", SQLite::OPEN_READWRITE);
        stored.setBusyTimeout(5000);
        const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::system_clock::now().time_since_epoch())
                                     .count();
        const std::int64_t invited = now - 7LL * 24 * 3600 * 1000 + 8000;
        SQLite::Statement seat(stored,
                               "UPDATE table_seats SET invited_at = ? WHERE table_id = ? AND "
                               "kind = 'reserved'");
        seat.bind(1, invited);
        seat.bind(2, table);
        REQUIRE(seat.exec() == 1);
        SQLite::Statement row(stored, "UPDATE tables SET deadline = ? WHERE id = ?");
        row.bind(1, static_cast<std::int64_t>(invited + 7LL * 24 * 3600 * 1000));
        row.bind(2, table);
        REQUIRE(row.exec() == 1);
    }
    server = std::make_unique<ServerProcess>(args);
    Follower ann(server->port(), ann_token, Follower::with_token);
    const auto expired = ann.client->wait_for(of_type("invitation_expired", table), 30s);
    REQUIRE(expired);
    CHECK((*expired)["user"] == Json{{"user", ben_id}, {"name", "Ben"}});
    CHECK((*expired)["table"]["seats"][1]["kind"] == "open");
    CHECK(invitations_of(*server, ben_token).empty());
    Follower gus(server->port(), "Gus");
    CHECK(sit(gus, table) == 1);
}

TEST_CASE("invitations: an erased account's kept seats are open again", "[invite]") {
    ServerProcess server(kFast);
    InvitePlayer ann(server, "Ann"), ben(server, "Ben");
    const std::string table = invite_table(ann, 2, Json::array({"Ben"}));
    REQUIRE(ben->client->wait_for(of_type("invitation", table)));

    const auto erased =
        server.remove("/api/account", ben.token, Json{{"password", "long enough pw"}}.dump());
    REQUIRE(erased.first == 200);
    // Ann's table shows the seat open, and anybody may take it.
    CHECK(ann->client->wait_for([&](const Json& message) {
        return type_of(message) == "table" && table_of(message) == table &&
               message["table"]["seats"][1] == Json{{"kind", "open"}};
    }));
    Follower guest(server.port(), "Gus");
    CHECK(sit(guest, table) == 1);
}

TEST_CASE("invitations: start_when_full false leaves the start to the players", "[invite]") {
    ServerProcess server(kFast);
    InvitePlayer ann(server, "Ann"), ben(server, "Ben");
    const std::string table =
        invite_table(ann, 2, Json::array({"Ben"}), Json{{"start_when_full", false}});
    CHECK(sit(*ben, table) == 1);
    CHECK(listed(*ann->client, table)["status"] == "waiting");
    start(*ann, {&*ann, &*ben});
}

TEST_CASE(
    "invitations: a kept seat keeps a table its host left; the last invitation of a table "
    "nobody sits at closes it",
    "[invite]") {
    ServerProcess server(kFast);
    InvitePlayer ann(server, "Ann"), ben(server, "Ben"), cy(server, "Cato");
    const auto is_closed = [](const std::string& id) {
        return [id](const Json& message) {
            return type_of(message) == "lobby_update" && message["table"]["id"] == id &&
                   message["table"]["status"] == "closed";
        };
    };

    // Ann leaves her table before Ben answers: it waits for him, and he may still sit.
    const std::string left_by_host = invite_table(ann, 2, Json::array({"Ben"}));
    const auto left = ann->request(ann->about_table("leave"));
    REQUIRE(left);
    CHECK(type_of(*left) == "left");
    CHECK(listed(*ben->client, left_by_host)["seats"][1]["kind"] == "reserved");
    CHECK(sit(*ben, left_by_host) == 1);

    // Made without Ann's seat, inviting Ben and Cato: one declines, the table waits for the
    // other; once he declines too nobody is left, and the table closes.
    const auto subscribed = ann->request(Json{{"type", "subscribe_lobby"}});
    REQUIRE(subscribed);
    REQUIRE(type_of(*subscribed) == "tables");
    const std::string unseated = create(
        *ann, create_request(options(2), {}, Json{{"sit", false}, {"invite", {"Ben", "Cato"}}}));
    const auto bens = ben->request(Json{{"type", "decline"}, {"table", unseated}});
    REQUIRE(bens);
    CHECK(type_of(*bens) == "declined");
    CHECK(listed(*ann->client, unseated)["status"] == "waiting");
    const auto cys = cy->request(Json{{"type", "decline"}, {"table", unseated}});
    REQUIRE(cys);
    CHECK(type_of(*cys) == "declined");
    // Ann hears of the last decline with the table as it is now: closed. (Not seated, she does
    // not follow the table: the lobby tells her too.)
    const auto last_told = ann->client->wait_for([&](const Json& message) {
        return type_of(message) == "invitation_declined" && message["table"]["id"] == unseated &&
               message["user"]["user"] == cy.id;
    });
    REQUIRE(last_told);
    CHECK((*last_told)["table"]["status"] == "closed");
    CHECK(ann->client->wait_for(is_closed(unseated)));
    CHECK(listed(*ann->client, unseated).is_null());
    Follower guest(server.port(), "Gus");
    check_error(invite_ask(guest, Json{{"type", "sit"}, {"table", unseated}, {"id", 31}}),
                "not_found", 31, unseated);
}

TEST_CASE(
    "invitations: a seat kept on one node is kept on the other, where the invited player "
    "accepts and the game starts",
    "[invite][cluster][postgres]") {
    const std::string url = PostgresServer::shared().create_database();
    std::vector<std::string> args = kFast;
    args.insert(args.end(), {"--database", url});
    ServerProcess one(args), two(args);
    InvitePlayer ann(one, "Ann"), ben(two, "Ben"), cy(two, "Cato");
    const std::string table = invite_table(ann, 3, Json::array({"Ben"}));
    // Ben's connection is on the other node: the invitation is stored, and listed there.
    const Json listed_there = invitations_of(two, ben.token);
    REQUIRE(listed_there.size() == 1);
    CHECK(listed_there[0]["table"]["id"] == table);
    check_error(invite_ask(*cy, Json{{"type", "sit"}, {"table", table}, {"seat", 2}, {"id", 25}}),
                "seat_reserved", 25, table);
    CHECK(sit(*cy, table) == 1);
    CHECK(sit(*ben, table) == 2);
    const auto started = ann->client->wait_for(
        [&](const Json& message) {
            const std::string type = type_of(message);
            const char* summary = type == "snapshot" ? "summary" : "table";
            return table_of(message) == table && (type == "snapshot" || type == "table") &&
                   message[summary]["status"] == "playing";
        },
        10s);
    CHECK(started);
}

}  // namespace
}  // namespace gcor::testing
