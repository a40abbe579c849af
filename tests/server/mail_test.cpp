// Turn mails through a real SMTP server on loopback (Debian's python3-aiosmtpd, which keeps each
// mail it receives as a file of a Maildir): confirmation, each-turn and digest mails with their
// headers, unsubscribe, a relay that is down and comes back, and a kill -9 with mails queued.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include <SQLiteCpp/SQLiteCpp.h>

#include "mail_support.hpp"
#include "table_support.hpp"

using namespace gcor::testing;

namespace {

struct Account {
    std::string token;
    std::uint64_t id = 0;
};

Account register_account(const ServerProcess& server, const std::string& name) {
    const auto made =
        server.post("/api/register", Json{{"name", name}, {"password", "long enough pw"}}.dump());
    REQUIRE(made.first == 201);
    const Json body = Json::parse(made.second);
    return Account{body["token"], body["user"]["id"]};
}

Json email_state(const ServerProcess& server, const Account& account) {
    const auto [status, body] = server.get("/api/email", account.token);
    REQUIRE(status == 200);
    return Json::parse(body);
}

std::pair<int, Json> post_email(const ServerProcess& server, const Account& account,
                                const Json& body) {
    const auto [status, text] = server.post("/api/email", body.dump(), account.token);
    return {status, Json::parse(text)};
}

// The mails the server counts as sent, once they reach `expected` or 5 s have passed: the relay
// has a mail a moment before the server, which counts it when the relay's answer arrives.
double sent_mails(const ServerProcess& server, double expected) {
    const auto until = std::chrono::steady_clock::now() + 5s;
    double sent = metric(server, "gcor_mails_total{outcome=\"sent\"}");
    while (sent < expected && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(50ms);
        sent = metric(server, "gcor_mails_total{outcome=\"sent\"}");
    }
    return sent;
}

std::string path_of(const std::string& link, const std::string& site) {
    REQUIRE(link.starts_with(site));
    return link.substr(site.size());
}

std::vector<Mail> with_subject(const std::vector<Mail>& mails, const std::string& words) {
    std::vector<Mail> found;
    for (const Mail& mail : mails)
        if (mail.header("Subject").find(words) != std::string::npos) found.push_back(mail);
    return found;
}

constexpr const char* kSite = "http://games.example.org";

// Gives `account` the address and opens the link mailed to it (the relay's mails count one more).
void confirmed_address(const ServerProcess& server, const SmtpRelay& relay, const Account& account,
                       const std::string& address) {
    const std::size_t before = relay.mails().size();
    REQUIRE(post_email(server, account, Json{{"email", address}}).first == 200);
    const auto mails = relay.wait_for(before + 1);
    REQUIRE(mails.size() == before + 1);
    REQUIRE(mails.back().header("To") == address);
    const std::string link =
        link_in(mails.back().text, std::string(kSite) + "/api/email/confirm?token=");
    REQUIRE(server.get(link.substr(std::string(kSite).size())).first == 200);
}

std::vector<std::string> mail_args(const SmtpRelay& relay, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{
        "--smtp-url",   relay.url(), "--smtp-from",  "Rome <noreply@games.example.org>",
        "--public-url", kSite,       "--mail-delay", "0",
        "--mail-retry", "1"};
    args.insert(args.end(), kFast.begin(), kFast.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// Two registered players at a 2-player table; Ann does not follow it (so her turns are mailed),
// and plays each of her moves from a connection of its own that closes at once.
struct MailGame {
    const ServerProcess& server;
    Account ann_account;
    Follower bob;
    std::string table;
    int ann_seat = 0;

    MailGame(const ServerProcess& server_, Account ann, const Account& bob_account,
             const Json& settings = Json::object())
        : server(server_),
          ann_account(std::move(ann)),
          bob(server_.port(), bob_account.token, Follower::with_token) {
        const double connections = metric(server, "gcor_connections");
        {
            Follower ann_follower(server.port(), ann_account.token, Follower::with_token);
            table = create(ann_follower, create_request(options(2), {}, settings));
            sit(bob, table);
            start(ann_follower, {&ann_follower, &bob});
            ann_seat = *ann_follower.seat;
        }
        let_go(connections);
    }

    // Waits until the server has closed the connections opened since it had `connections`: the
    // closed ones follow the table no more.
    void let_go(double connections) const {
        for (int i = 0; i < 500 && metric(server, "gcor_connections") != connections; ++i)
            std::this_thread::sleep_for(10ms);
        REQUIRE(metric(server, "gcor_connections") == connections);
    }

    bool ann_to_act() const { return bob.view["to_act"] == ann_seat; }

    // Bob plays until it is Ann's turn.
    void until_ann() {
        Rng rng{7};
        while (!ann_to_act()) {
            const Json& legal = bob.view["moves"];
            REQUIRE_FALSE(legal.empty());
            const std::string id = "b" + std::to_string(bob.moves_sent++);
            const auto patch = bob.request(move_request(bob, legal[rng.below(legal.size())], id));
            REQUIRE(patch);
            REQUIRE(acknowledges(*patch, id));
            bob.absorb(*patch);
        }
    }

    // Ann makes one move from a short-lived connection; Bob sees it. Returns once the server has
    // let that connection go (it no longer follows the table).
    void ann_moves() {
        REQUIRE(ann_to_act());
        const double connections = metric(server, "gcor_connections");
        {
            Follower ann(server.port(), ann_account.token, Follower::with_token);
            ann.follow(table);
            ann.seat = ann_seat;
            ann.absorb(sync(ann));
            const std::string move = ann.view["moves"][0];
            const auto patch =
                ann.request(move_request(ann, move, "a" + std::to_string(bob.version)));
            REQUIRE(patch);
            REQUIRE(type_of(*patch) == "patch");
            bob.catch_up((*patch)["to"]);
        }
        let_go(connections);
    }

    // Bob plays until Ann's turn comes after a move of hers (a new turn, a new mail).
    void next_ann_turn() {
        while (ann_to_act())
            ann_moves();
        until_ann();
    }
};

}  // namespace

TEST_CASE("turn mails: a confirmed address, each turn, its headers, and one-click unsubscribe",
          "[mail]") {
    SmtpRelay relay;
    ServerProcess server(mail_args(relay));
    const Account ann = register_account(server, "Ann");
    const Account bob = register_account(server, "Bob");

    // Before an address: offered, none set. Guests and bad bodies are refused; nothing changes.
    Json state = email_state(server, ann);
    CHECK(state["available"] == true);
    CHECK(state["email"].is_null());
    CHECK(state["confirmed"] == false);
    CHECK(state["frequency"] == "each_turn");
    Follower guest(server.port(), "Guest");
    const auto [guest_status, guest_body] =
        server.post("/api/email", R"({"email":"g@example.org"})", guest.token);
    CHECK(guest_status == 403);
    CHECK(Json::parse(guest_body)["code"] == "registered_only");
    for (const char* bad :
         {R"({"email":"no-at-sign"})", R"({"email":"a@b"})", R"({"email":"a b@example.org"})",
          R"({"email":7})", R"({"frequency":"hourly"})", R"({"mail":"a@example.org"})", R"([1])"}) {
        INFO(bad);
        const auto [status, body] = server.post("/api/email", bad, ann.token);
        CHECK(status == 400);
        CHECK(email_state(server, ann)["email"].is_null());
    }
    const auto [early, early_body] = post_email(server, ann, Json{{"frequency", "daily"}});
    CHECK(early == 404);
    CHECK(early_body["code"] == "not_found");
    CHECK(server.get("/api/email").first == 401);

    // The address: a confirmation link is mailed to it, and nothing else before it is opened.
    const auto [set, set_body] = post_email(server, ann, Json{{"email", "ann@example.org"}});
    REQUIRE(set == 200);
    CHECK(set_body["email"] == "ann@example.org");
    CHECK(set_body["confirmed"] == false);
    auto mails = relay.wait_for(1);
    REQUIRE(mails.size() == 1);
    const Mail& confirmation = mails[0];
    CHECK(confirmation.header("To") == "ann@example.org");
    CHECK(confirmation.header("X-RcptTo") == "ann@example.org");
    CHECK(confirmation.header("From") == "Rome <noreply@games.example.org>");
    CHECK(confirmation.header("Subject") == "Confirm your address for The Great City of Rome");
    CHECK(confirmation.header("List-Unsubscribe").empty());  // not a list
    const std::string confirm_link =
        link_in(confirmation.text, std::string(kSite) + "/api/email/confirm?token=");
    CHECK(confirmation.html.find(confirm_link) != std::string::npos);

    MailGame game(server, ann, bob);
    game.until_ann();
    std::this_thread::sleep_for(500ms);
    CHECK(relay.mails().size() == 1);  // a turn, but the address is not confirmed

    const auto [confirmed, page] = server.get(path_of(confirm_link, kSite));
    CHECK(confirmed == 200);
    CHECK(page.find("Your address is confirmed") != std::string::npos);
    CHECK(server.get(path_of(confirm_link, kSite)).first == 404);  // once only
    CHECK(server.get("/api/email/confirm?token=" + std::string(64, 'a')).first == 404);
    CHECK(email_state(server, ann)["confirmed"] == true);

    // Each turn: one mail, with the table's link, both parts, and the unsubscribe headers.
    game.next_ann_turn();
    mails = relay.wait_for(2);
    REQUIRE(mails.size() == 2);
    const Mail& turn = mails[1];
    CHECK(turn.header("To") == "ann@example.org");
    // The table is named by its players (it has no name of its own); its id is only in the link.
    CHECK(turn.header("Subject").starts_with("=?utf-8?Q?Your_turn=3A_"));
    CHECK(turn.header("Subject").find("Ann") != std::string::npos);
    CHECK(turn.header("Subject").find("Bob") != std::string::npos);
    CHECK(turn.header("Subject").find(game.table) == std::string::npos);
    CHECK_FALSE(turn.header("Date").empty());
    CHECK(std::regex_match(turn.header("Message-ID"),
                           std::regex("<[0-9a-f]{32}@games\\.example\\.org>")));
    CHECK(turn.header("Auto-Submitted") == "auto-generated");
    CHECK(turn.header("MIME-Version") == "1.0");
    CHECK(turn.header("Content-Type").starts_with("multipart/alternative"));
    CHECK(turn.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
    const std::string unsubscribe = turn.header("List-Unsubscribe");
    REQUIRE(unsubscribe.starts_with(std::string("<") + kSite + "/api/email/unsubscribe?user="));
    const std::string table_link = std::string(kSite) + "/#/table/" + game.table;
    CHECK(turn.text.find("It is your turn at this table:") != std::string::npos);
    CHECK(turn.text.find(table_link) != std::string::npos);
    CHECK(turn.text.find("Ann and Bob") != std::string::npos);
    CHECK(turn.html.find("href=\"" + table_link + "\"") != std::string::npos);
    // No hidden information: nothing of the game but its table, players and deadline.
    CHECK(turn.text.find("hand") == std::string::npos);
    CHECK(turn.raw.find("seed") == std::string::npos);

    // Following the table in a browser: the turn is seen there, and not mailed.
    const double connections = metric(server, "gcor_connections");
    {
        Follower ann_at_table(server.port(), ann.token, Follower::with_token);
        ann_at_table.follow(game.table);
        ann_at_table.absorb(sync(ann_at_table));
        game.ann_moves();
        game.until_ann();
        std::this_thread::sleep_for(500ms);
        CHECK(relay.mails().size() == 2);
    }
    game.let_go(connections);

    // One-click unsubscribe: a GET shows a button and changes nothing; a forged signature does
    // nothing; the POST stops the mails.
    const std::string unsubscribe_path =
        path_of(unsubscribe.substr(1, unsubscribe.size() - 2), kSite);
    const auto [shown, button] = server.get(unsubscribe_path);
    CHECK(shown == 200);
    CHECK(button.find("<form method=\"post\">") != std::string::npos);
    CHECK(email_state(server, ann)["frequency"] == "each_turn");
    std::string forged = unsubscribe_path;
    forged.back() = forged.back() == '0' ? '1' : '0';
    CHECK(server.post(forged, "List-Unsubscribe=One-Click").first == 404);
    CHECK(email_state(server, ann)["frequency"] == "each_turn");
    const auto [stopped, stopped_page] =
        server.post(unsubscribe_path, "List-Unsubscribe=One-Click");
    CHECK(stopped == 200);
    CHECK(stopped_page.find("No more turn mails") != std::string::npos);
    CHECK(email_state(server, ann)["frequency"] == "off");
    game.next_ann_turn();
    std::this_thread::sleep_for(500ms);
    CHECK(relay.mails().size() == 2);
    CHECK(sent_mails(server, 2) == 2);
}

TEST_CASE("turn mails: none again for a table until the player has moved there", "[mail]") {
    SmtpRelay relay;
    ServerProcess server(mail_args(relay));
    const Account ann = register_account(server, "Ann");
    const Account bob = register_account(server, "Bob");
    confirmed_address(server, relay, ann, "ann@example.org");
    // Three seconds a move; a bot moves for a seat out of time.
    MailGame game(
        server, ann, bob,
        Json{{"time_control", {{"kind", "realtime"}, {"seconds", 3}, {"on_timeout", "bot"}}}});
    game.until_ann();
    REQUIRE(with_subject(relay.wait_for(2), "Your_turn=3A_").size() == 1);

    // Ann lets her turns run out twice: bots move for her, her turn comes back, no mail.
    for (int returns = 0; returns < 2;) {
        if (game.ann_to_act()) {
            REQUIRE(game.bob.next(10s));  // the stand-in's move
            continue;
        }
        game.until_ann();
        ++returns;
    }
    std::this_thread::sleep_for(300ms);
    CHECK(with_subject(relay.mails(), "Your_turn=3A_").size() == 1);

    // Once she has moved, her next turn is mailed again.
    game.next_ann_turn();
    CHECK(with_subject(relay.wait_for(3), "Your_turn=3A_").size() == 2);
}

TEST_CASE("turn mails: a daily digest lists the tables where it is the player's turn, in German",
          "[mail]") {
    SmtpRelay relay;
    ServerProcess server(mail_args(relay, {"--mail-digest-every", "3"}));
    const Account ann = register_account(server, "Ann");
    const Account bob = register_account(server, "Bob");
    REQUIRE(post_email(server, ann, Json{{"email", "ann@example.org"}}).first == 200);
    const auto mails = relay.wait_for(1);
    REQUIRE(mails.size() == 1);
    REQUIRE(
        server
            .get(path_of(link_in(mails[0].text, std::string(kSite) + "/api/email/confirm"), kSite))
            .first == 200);
    CHECK(email_state(server, ann)["language"] == "en");
    const auto [refused, error] = post_email(server, ann, Json{{"language", "fr"}});
    CHECK(refused == 400);
    CHECK(error["code"] == "bad_field");
    // Removing the address while choosing a language is refused whole: the address stays.
    CHECK(post_email(server, ann, Json{{"email", ""}, {"language", "de"}}).first == 404);
    CHECK(email_state(server, ann)["email"] == "ann@example.org");
    const auto [chosen, state] =
        post_email(server, ann, Json{{"frequency", "daily"}, {"language", "de"}});
    REQUIRE(chosen == 200);
    CHECK(state["frequency"] == "daily");
    CHECK(state["language"] == "de");

    MailGame first(server, ann, bob);
    MailGame second(server, ann, bob);
    first.next_ann_turn();
    second.next_ann_turn();
    const auto all = relay.wait_for(2, 15s);
    REQUIRE(all.size() >= 2);
    // No turn mail for a daily reader: the next mail is the digest, listing both tables.
    const Mail& digest = all[1];
    CHECK(digest.header("Subject") ==
          "=?utf-8?Q?Am_Zug_an_2_Tischen_=E2=80=94_The_Great_City_of_Rome?=");
    CHECK(digest.header("Content-Language") == "de");
    CHECK(digest.text.find("Du bist an 2 Tischen am Zug:") != std::string::npos);
    for (const std::string& table : {first.table, second.table})
        CHECK(digest.text.find(std::string(kSite) + "/#/table/" + table) != std::string::npos);
    CHECK(digest.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click");
    CHECK(with_subject(all, "Your_turn=3A_").empty());
}

TEST_CASE("turn mails: a relay that is down, then a kill -9 with mails queued: each arrives once",
          "[mail]") {
    SmtpRelay relay(false);  // down
    Database db;
    const auto args = mail_args(relay, {"--database", db.dir + "/cor.db"});
    auto server = std::make_unique<ServerProcess>(args);
    const Account ann = register_account(*server, "Ann");
    const Account bob = register_account(*server, "Bob");
    const Account cid = register_account(*server, "Cid");

    // Down, then up: the confirmation is tried again, and arrives once.
    REQUIRE(post_email(*server, ann, Json{{"email", "ann@example.org"}}).first == 200);
    std::this_thread::sleep_for(1500ms);
    CHECK(metric(*server, "gcor_mails_total{outcome=\"sent\"}") == 0);
    relay.start();
    auto mails = relay.wait_for(1, 15s);
    REQUIRE(mails.size() == 1);
    const std::string confirm = link_in(mails[0].text, std::string(kSite) + "/api/email/confirm");
    std::this_thread::sleep_for(2s);
    CHECK(relay.mails().size() == 1);

    // Down again: a turn mail and another user's confirmation wait in the store; the server is
    // killed; the relay comes back; the restarted server sends each once.
    relay.stop();
    REQUIRE(server->get(path_of(confirm, kSite)).first == 200);
    std::string table;
    {
        MailGame game(*server, ann, bob);
        game.next_ann_turn();
        table = game.table;
    }
    REQUIRE(post_email(*server, cid, Json{{"email", "cid@example.org"}}).first == 200);
    std::this_thread::sleep_for(1500ms);  // both queued (committed), and tried
    server->kill_hard();
    relay.start();
    server = std::make_unique<ServerProcess>(args);
    mails = relay.wait_for(3, 15s);
    std::this_thread::sleep_for(2s);
    mails = relay.mails();
    REQUIRE(mails.size() == 3);
    CHECK(with_subject(mails, "Confirm").size() == 2);
    const auto turns = with_subject(mails, "Your_turn=3A_");
    REQUIRE(turns.size() == 1);
    CHECK(turns[0].header("To") == "ann@example.org");
    const auto to_cid = std::count_if(mails.begin(), mails.end(), [](const Mail& mail) {
        return mail.header("To") == "cid@example.org";
    });
    CHECK(to_cid == 1);
}

TEST_CASE("turn mails: a server without a relay offers none", "[mail]") {
    ServerProcess server(kFast);
    const Account ann = register_account(server, "Ann");
    CHECK(email_state(server, ann)["available"] == false);
    const auto [status, body] = post_email(server, ann, Json{{"email", "ann@example.org"}});
    CHECK(status == 503);
    CHECK(body["code"] == "mail_unavailable");
    CHECK(email_state(server, ann)["email"].is_null());
}

TEST_CASE("turn mails: a league season's start, and a correspondence deadline within a day",
          "[mail][league]") {
    SmtpRelay relay;
    Database db;
    // Digests every 4 s make the mailer look for deadlines every second.
    const auto args =
        mail_args(relay, {"--database", db.dir + "/cor.db", "--mail-digest-every", "4"});
    auto running = std::make_unique<ServerProcess>(args);
    const ServerProcess& server = *running;
    const Account ann = register_account(server, "Ann");
    const Account bob = register_account(server, "Bob");
    confirmed_address(server, relay, ann, "ann@example.org");
    confirmed_address(server, relay, bob, "bob@example.org");

    // A season starts: each member gets one mail listing their table; the first to move is told.
    const auto made = server.post(
        "/api/leagues",
        Json{{"name", "Forum"}, {"options", options(2)}, {"division_size", 2}}.dump(), ann.token);
    REQUIRE(made.first == 201);
    const std::string league =
        "/api/leagues/" + std::to_string(Json::parse(made.second)["id"].get<int>());
    REQUIRE(server.post(league + "/seasons", "{}", ann.token).first == 201);
    for (const Account* member : {&ann, &bob})
        REQUIRE(server.post(league + "/signup", "{}", member->token).first == 200);
    const auto started = server.post(league + "/seasons/1/start", "{}", ann.token);
    REQUIRE(started.first == 200);
    auto mails = relay.wait_for(4);
    REQUIRE(mails.size() == 4);
    const auto season = with_subject(mails, "Season_1_of_Forum_has_started");
    REQUIRE(season.size() == 2);
    int told_to_move = 0;
    for (const Mail& mail : season) {
        CHECK(mail.text.find("You play in division 1, at this table:") != std::string::npos);
        CHECK(mail.text.find(std::string(kSite) + "/#/table/t") != std::string::npos);
        told_to_move += mail.text.find(": your turn") != std::string::npos ? 1 : 0;
    }
    CHECK(told_to_move == 1);
    CHECK(season[0].header("To") != season[1].header("To"));

    // A correspondence table of two days a move, where it is Ann's turn: its turn mail, then,
    // when less than a day is left, one reminder. Time passes while the server is stopped: the
    // test moves the stored deadline.
    std::string table;
    {
        MailGame game(server, ann, bob,
                      Json{{"time_control", {{"kind", "correspondence"}, {"days", 2}}},
                           {"name", "Forum Ünter"}});
        game.next_ann_turn();
        table = game.table;
    }
    // Mails call the table by its given name (kept in its settings across the restart below).
    mails = relay.wait_for(5);
    REQUIRE(with_subject(mails, "Your_turn=3A_Forum_=C3=9Cnter").size() == 1);
    REQUIRE(running->stop() == 0);
    {
        SQLite::Database stored(db.dir + "/cor.db", SQLite::OPEN_READWRITE);
        stored.setBusyTimeout(5000);
        SQLite::Statement soon(stored, "UPDATE tables SET deadline = ? WHERE id = ?");
        soon.bind(1, static_cast<std::int64_t>(
                         std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch() + 20h)
                             .count()));
        soon.bind(2, table);
        REQUIRE(soon.exec() == 1);
    }
    running = std::make_unique<ServerProcess>(args);
    mails = relay.wait_for(6);
    const auto reminders = with_subject(mails, "Less_than_a_day_left=3A_Forum_=C3=9Cnter");
    REQUIRE(reminders.size() == 1);
    CHECK(reminders[0].header("To") == "ann@example.org");
    CHECK(reminders[0].text.find("runs out within a day") != std::string::npos);
    std::this_thread::sleep_for(2500ms);  // more sweeps: no second reminder
    CHECK(with_subject(relay.mails(), "Less_than_a_day_left").size() == 1);
}

TEST_CASE("turn mails: STARTTLS, required by the relay, with the relay's own certificate authority",
          "[mail]") {
    SmtpRelay relay(true, true);
    // Without STARTTLS the relay takes nothing; without its CA the server does not trust it.
    for (const std::vector<std::string>& tls :
         {std::vector<std::string>{}, std::vector<std::string>{"--smtp-starttls"}}) {
        ServerProcess server(mail_args(relay, tls));
        const Account ann = register_account(server, "Ann");
        REQUIRE(post_email(server, ann, Json{{"email", "ann@example.org"}}).first == 200);
        std::this_thread::sleep_for(1500ms);
        CHECK(relay.mails().empty());
        CHECK(metric(server, "gcor_mails_total{outcome=\"sent\"}") == 0);
    }
    ServerProcess server(
        mail_args(relay, {"--smtp-starttls", "--smtp-ca-file", relay.cert_file()}));
    const Account ann = register_account(server, "Ann");
    REQUIRE(post_email(server, ann, Json{{"email", "ann@example.org"}}).first == 200);
    const auto mails = relay.wait_for(1);
    REQUIRE(mails.size() == 1);
    CHECK(mails[0].header("To") == "ann@example.org");
    CHECK(sent_mails(server, 1) == 1);
}

TEST_CASE("invitation mails: mailed to a confirmed address, in its language, unless turned off",
          "[mail][invite]") {
    SmtpRelay relay;
    ServerProcess server(mail_args(relay));
    const Account ann = register_account(server, "Ann");
    const Account ben = register_account(server, "Ben");
    const Account cy = register_account(server, "Cato");
    confirmed_address(server, relay, ben, "ben@example.org");
    CHECK(email_state(server, ben)["invitations"] == true);
    Follower host(server.port(), ann.token, Follower::with_token);

    // Ann invites Ben: one mail, naming her and linking the table.
    const std::string first =
        create(host, create_request(options(2), {}, Json{{"invite", Json::array({"Ben"})}}));
    auto mails = relay.wait_for(2);
    REQUIRE(mails.size() == 2);
    const auto invited = with_subject(mails, "Ann_invites_you_to_a_game");
    REQUIRE(invited.size() == 1);
    CHECK(invited[0].header("To") == "ben@example.org");
    CHECK(invited[0].text.find("Ann invites you to a game at this table:") != std::string::npos);
    CHECK(invited[0].text.find(std::string(kSite) + "/#/table/" + first) != std::string::npos);

    // In German once Ben's mails are German.
    REQUIRE(post_email(server, ben, Json{{"language", "de"}}).first == 200);
    create(host, create_request(options(2), {}, Json{{"invite", Json::array({ben.id})}}));
    mails = relay.wait_for(3);
    REQUIRE(mails.size() == 3);
    CHECK(mails.back().text.find("Ann lädt dich zu einer Partie an diesem Tisch ein:") !=
          std::string::npos);

    // The setting: refused without an address or as a non-boolean; turned off, no more mails.
    CHECK(post_email(server, cy, Json{{"invitations", false}}).first == 404);
    CHECK(post_email(server, ben, Json{{"invitations", "no"}}).first == 400);
    const auto [set, state] = post_email(server, ben, Json{{"invitations", false}});
    REQUIRE(set == 200);
    CHECK(state["invitations"] == false);
    create(host, create_request(options(2), {}, Json{{"invite", Json::array({"Ben"})}}));
    // A mail queued after the invitation (Cato's confirmation) arrives, and no invitation before.
    REQUIRE(post_email(server, cy, Json{{"email", "cy@example.org"}}).first == 200);
    mails = relay.wait_for(4);
    REQUIRE(mails.size() == 4);
    CHECK(mails.back().header("To") == "cy@example.org");
    CHECK(with_subject(relay.mails(), "invites_you").size() == 1);
}
