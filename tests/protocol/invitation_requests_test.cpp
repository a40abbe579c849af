#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "gcor/protocol/requests.hpp"
#include "gcor/protocol/table_settings.hpp"

// Invitations (docs/protocol.md, "Invitations"): create_table's "invite" and "start_when_full",
// decline and withdraw.
namespace gcor::protocol {
namespace {

template <typename Kind>
Kind invitation_parsed(const std::string& text) {
    const auto parsed = parse_request(text, {});
    if (const auto* error = std::get_if<RequestError>(&parsed)) FAIL(error->message);
    return std::get<Kind>(std::get<Request>(parsed));
}

std::string invitation_refusal(const std::string& text) {
    const auto parsed = parse_request(text, {});
    REQUIRE(std::holds_alternative<RequestError>(parsed));
    CHECK(std::get<RequestError>(parsed).code == ErrorCode::bad_field);
    return std::get<RequestError>(parsed).message;
}

TEST_CASE("invitations: create_table invites names and ids, and starts when full by default",
          "[protocol][invite]") {
    const auto create = invitation_parsed<requests::CreateTable>(
        R"({"type":"create_table","options":{"players":3},"invite":["Ben",17]})");
    REQUIRE(create.invite.size() == 2);
    CHECK(create.invite[0] == requests::Invitee{0, "Ben"});
    CHECK(create.invite[1] == requests::Invitee{17, ""});
    CHECK(create.settings.start_when_full);
    // Said otherwise, it is not on; without invitations it is off unless asked for.
    CHECK_FALSE(invitation_parsed<requests::CreateTable>(
                    R"({"type":"create_table","options":{"players":2},"invite":["Ben"],)"
                    R"("start_when_full":false})")
                    .settings.start_when_full);
    const auto plain = invitation_parsed<requests::CreateTable>(
        R"({"type":"create_table","options":{"players":2}})");
    CHECK(plain.invite.empty());
    CHECK_FALSE(plain.settings.start_when_full);
    CHECK(invitation_parsed<requests::CreateTable>(
              R"({"type":"create_table","options":{"players":2},"start_when_full":true})")
              .settings.start_when_full);
    // A creator who does not sit may invite every seat.
    CHECK(invitation_parsed<requests::CreateTable>(
              R"({"type":"create_table","options":{"players":2},"sit":false,"invite":[4,5]})")
              .invite.size() == 2);
}

TEST_CASE("invitations: create_table refuses too many, repeated or malformed invitees",
          "[protocol][invite]") {
    CHECK(invitation_refusal(
              R"({"type":"create_table","options":{"players":2},"invite":["Ben","Cy"]})") ==
          R"("invite" names more players than the table has free seats (1))");
    CHECK(invitation_refusal(R"({"type":"create_table","options":{"players":3},)"
                             R"("bots":[null,"greedy"],"invite":["Ben","Cy"]})") ==
          R"("invite" names more players than the table has free seats (1))");
    CHECK(invitation_refusal(
              R"({"type":"create_table","options":{"players":3},"invite":["Ben","Ben"]})") ==
          R"("invite" names a player twice)");
    CHECK(invitation_refusal(R"({"type":"create_table","options":{"players":3},"invite":[7,7]})") ==
          R"("invite" names a player twice)");
    for (const char* bad :
         {R"("Ben")", R"([0])", R"([-3])", R"([""])", R"([1.5])", R"([null])", R"([["Ben"]])",
          R"(["\u0001x"])", R"(["a name that is far longer than thirty-two characters"])"}) {
        INFO(bad);
        const std::string message = invitation_refusal(
            std::string(R"({"type":"create_table","options":{"players":4},"invite":)") + bad + "}");
        CHECK(message.starts_with("\"invite\""));
    }
    CHECK(invitation_refusal(
              R"({"type":"create_table","options":{"players":2},"start_when_full":1})") ==
          R"("start_when_full" must be true or false)");
}

TEST_CASE("invitations: decline names a table, withdraw a table and a user", "[protocol][invite]") {
    CHECK(invitation_parsed<requests::Decline>(R"({"type":"decline","table":"t0123456789abcdef"})")
              .table == "t0123456789abcdef");
    const auto withdraw = invitation_parsed<requests::Withdraw>(
        R"({"type":"withdraw","table":"t0123456789abcdef","user":9,"id":3})");
    CHECK(withdraw.table == "t0123456789abcdef");
    CHECK(withdraw.user == 9);
    CHECK(withdraw.id == 3);
    CHECK(invitation_refusal(R"({"type":"decline"})") == R"("table" is required)");
    CHECK(invitation_refusal(R"({"type":"decline","table":"t0123456789abcdef","user":2})") ==
          R"(unknown field "user")");
    CHECK(invitation_refusal(R"({"type":"withdraw","table":"t0123456789abcdef"})") ==
          R"("user" is required)");
    CHECK(invitation_refusal(R"({"type":"withdraw","table":"t0123456789abcdef","user":0})") ==
          R"("user" must be a whole number from 1 to 9223372036854775807)");
}

TEST_CASE("invitations: start_when_full is kept in the settings' stored form",
          "[protocol][invite]") {
    TableSettings settings;
    settings.options.players = 2;
    settings.start_when_full = true;
    const auto json = table_settings_json(settings);
    CHECK(json["start_when_full"] == true);
    const auto back = parse_table_settings(json.dump());
    REQUIRE(back);
    CHECK(*back == settings);
    settings.start_when_full = false;
    CHECK_FALSE(table_settings_json(settings).contains("start_when_full"));
}

}  // namespace
}  // namespace gcor::protocol
