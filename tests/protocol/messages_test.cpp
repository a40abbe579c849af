#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/json_text.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/view_json.hpp"

namespace gcor::protocol {
namespace {

// Written after something, to check that what was there stays.
std::string written(std::string_view text) {
    std::string out = "[";
    append_json_string(out, text);
    return out;
}

TEST_CASE("json strings written as text: the same as nlohmann's dump", "[protocol]") {
    std::string every_ascii;
    for (int c = 1; c < 0x80; ++c)
        every_ascii.push_back(static_cast<char>(c));
    const std::string samples[] = {"",
                                   "Ann builds Market at (1,0), gaining 2 coins.",
                                   R"(a "quoted" \ name)",
                                   "tab\there, line\nbreak, \x01 and \x1f",
                                   "Ærøskøbing 東京 🏛️",
                                   std::string("nul \0 inside", 12),
                                   every_ascii};
    for (const std::string& sample : samples) {
        INFO(Json(sample).dump());
        CHECK(written(sample) == "[" + Json(sample).dump());
        CHECK(Json::parse(written(sample).substr(1)) == sample);
    }
}

TEST_CASE("json values written as text: the same as nlohmann's dump", "[protocol]") {
    const Json value =
        Json::parse(R"({"n":-12,"u":18446744073709551615,"b":[true,false,null],"s":"a \"q\"\n",)"
                    R"("o":{},"a":[],"nested":{"x":[1,{"y":"z"}]}})");
    std::string out = "[";
    append_json(out, value);
    CHECK(out == "[" + value.dump());
    out.clear();
    append_json_number(out, -9223372036854775807LL - 1);
    CHECK(out == "-9223372036854775808");
}

TEST_CASE("patch messages: the envelope, and the mover's copy that acknowledges its move",
          "[protocol]") {
    std::string text;
    open_patch_message(text, R"("t00000000000000a1")", 12);
    text += R"([{"op":"replace","path":"/round","value":2}])";
    close_patch_message(text, R"([{"e":"take","seat":0,"card":3},{"e":"end","seat":0}])");
    const Json patch = Json::parse(text);
    CHECK(patch == Json::parse(R"({"type":"patch","table":"t00000000000000a1","from":11,"to":12,)"
                               R"("ops":[{"op":"replace","path":"/round","value":2}],)"
                               R"("log":[{"e":"take","seat":0,"card":3},{"e":"end","seat":0}]})"));

    Json expected = patch;
    expected["move_id"] = "c-\"7\"";
    CHECK(Json::parse(acknowledging_patch(text, "c-\"7\"", nullptr)) == expected);
    for (const Json& id : {Json(42), Json("r-1"), Json::parse(R"({"n":[1,2]})")}) {
        expected["id"] = id;
        CHECK(Json::parse(acknowledging_patch(text, "c-\"7\"", id)) == expected);
    }
    std::string empty_log;
    open_patch_message(empty_log, R"("t1")", 1);
    empty_log += "[]";
    close_patch_message(empty_log, "[]");
    CHECK(Json::parse(empty_log)["log"] == Json::array());
    CHECK(Json::parse(empty_log)["from"] == 0);
}

// The request parsed, which must be of kind `Kind`.
template <typename Kind>
Kind accepted(const std::variant<Request, RequestError>& parsed) {
    if (const auto* error = std::get_if<RequestError>(&parsed)) FAIL(error->message);
    REQUIRE(std::holds_alternative<Kind>(std::get<Request>(parsed)));
    return std::get<Kind>(std::get<Request>(parsed));
}

ErrorCode refused(const std::variant<Request, RequestError>& parsed) {
    REQUIRE(std::holds_alternative<RequestError>(parsed));
    return std::get<RequestError>(parsed).code;
}

// Each type of message is parsed into its own kind of request, once: a kind the server mixed up
// (a sync read as a watch's base, an undo as a move) would be dispatched to the wrong handler.
TEST_CASE("requests: each type is its own kind of request", "[protocol]") {
    const std::pair<const char*, Request> kinds[] = {
        {R"({"type":"hello","token":"abc"})", requests::Hello{}},
        {R"({"type":"list_tables"})", requests::ListTables{}},
        {R"({"type":"subscribe_lobby"})", requests::SubscribeLobby{}},
        {R"({"type":"unsubscribe_lobby"})", requests::UnsubscribeLobby{}},
        {R"({"type":"create_table","options":{"players":2}})", requests::CreateTable{}},
        {R"({"type":"my_games"})", requests::MyGames{}},
        {R"({"type":"sit","table":"t0123456789abcdef"})", requests::Sit{}},
        {R"({"type":"leave","table":"t0123456789abcdef"})", requests::Leave{}},
        {R"({"type":"start","table":"t0123456789abcdef"})", requests::Start{}},
        {R"({"type":"watch","table":"t0123456789abcdef"})", requests::Watch{}},
        {R"({"type":"sync","table":"t0123456789abcdef"})", requests::Sync{}},
        {R"({"type":"move","table":"t0123456789abcdef","version":0,"move_id":"m","move":"end"})",
         requests::Move{}},
        {R"({"type":"undo","table":"t0123456789abcdef","version":0,"move_id":"m"})",
         requests::Undo{}},
        {R"({"type":"log","table":"t0123456789abcdef"})", requests::Log{}},
        {R"({"type":"chat","table":"t0123456789abcdef","text":"hi"})", requests::Chat{}},
        {R"({"type":"chat_history","table":"t0123456789abcdef"})", requests::ChatHistory{}},
        {R"({"type":"delete_chat","table":"t0123456789abcdef","n":1})", requests::DeleteChat{}},
        {R"({"type":"mute","user":2})", requests::Mute{}},
        {R"({"type":"unmute","user":2})", requests::Unmute{}},
        {R"({"type":"decline","table":"t0123456789abcdef"})", requests::Decline{}},
        {R"({"type":"withdraw","table":"t0123456789abcdef","user":2})", requests::Withdraw{}},
    };
    STATIC_REQUIRE(std::size(kinds) == std::variant_size_v<Request>);
    for (const auto& [text, kind] : kinds) {
        INFO(text);
        const auto parsed = parse_request(text, {});
        REQUIRE(std::holds_alternative<Request>(parsed));
        CHECK(std::get<Request>(parsed).index() == kind.index());
        // A table's request names its table, the others none.
        CHECK(request_table(std::get<Request>(parsed)) ==
              (std::string_view(text).find("t0123456789abcdef") != std::string_view::npos
                   ? "t0123456789abcdef"
                   : ""));
    }
}

TEST_CASE("requests: the members of each kind, and their defaults", "[protocol]") {
    const auto hello =
        accepted<requests::Hello>(parse_request(R"({"type":"hello","token":"abc","id":"h"})", {}));
    CHECK(hello.token == "abc");
    CHECK(hello.name.empty());
    CHECK(request_id(Request(hello)) == "h");

    const auto first =
        accepted<requests::ListTables>(parse_request(R"({"type":"list_tables"})", {}));
    CHECK_FALSE(first.open_only);
    CHECK(first.players == 0);
    CHECK_FALSE(first.rules);
    CHECK(first.limit == kListPageMax);
    CHECK(first.after.empty());
    const auto filtered = accepted<requests::ListTables>(parse_request(
        R"({"type":"list_tables","open":true,"players":3,"rules":"publisher","limit":7,)"
        R"("after":"t00000000000000ff"})",
        {}));
    CHECK(filtered.open_only);
    CHECK(filtered.players == 3);
    CHECK(filtered.rules == engine::Variant::publisher);
    CHECK(filtered.limit == 7);
    CHECK(filtered.after == "t00000000000000ff");

    CHECK(accepted<requests::CreateTable>(
              parse_request(R"({"type":"create_table","options":{"players":2},"sit":false})", {}))
              .sit == false);
    CHECK(accepted<requests::CreateTable>(
              parse_request(R"({"type":"create_table","options":{"players":2}})", {}))
              .sit);
    CHECK(accepted<requests::Sit>(
              parse_request(R"({"type":"sit","table":"t0123456789abcdef","seat":3})", {}))
              .seat == 3);
    CHECK_FALSE(
        accepted<requests::Sit>(parse_request(R"({"type":"sit","table":"t0123456789abcdef"})", {}))
            .seat);
    CHECK(accepted<requests::Sync>(
              parse_request(R"({"type":"sync","table":"t0123456789abcdef","id":3})", {}))
              .id == 3);

    const auto undo = accepted<requests::Undo>(parse_request(
        R"({"type":"undo","table":"t0123456789abcdef","version":4,"move_id":"u-1"})", {}));
    CHECK(undo.version == 4);
    CHECK(undo.move_id == "u-1");
    CHECK_FALSE(undo.move);  // an undo names no move

    const auto newest =
        accepted<requests::Log>(parse_request(R"({"type":"log","table":"t0123456789abcdef"})", {}));
    CHECK_FALSE(newest.before);
    CHECK(newest.limit == kLogPageDefault);
    const auto page = accepted<requests::Log>(
        parse_request(R"({"type":"log","table":"t0123456789abcdef","before":0,"limit":200})", {}));
    CHECK(page.before == 0);  // a log's lines count from 0, a chat's from 1
    CHECK(page.limit == kLogPageMax);
}

TEST_CASE("requests: what each kind refuses, with its message", "[protocol]") {
    const std::pair<const char*, const char*> refusals[] = {
        {R"({"type":"hello"})",
         R"(hello takes a "name" (a new guest) or a "token" (to resume), not both)"},
        {R"({"type":"list_tables","after":"x"})", R"("after" is not a table id)"},
        {R"({"type":"list_tables","rules":"chess"})", R"("rules" must be "yucata" or "publisher")"},
        {R"({"type":"list_tables","limit":51})", R"("limit" must be a whole number from 1 to 50)"},
        {R"({"type":"subscribe_lobby","open":true})", R"(unknown field "open")"},
        {R"({"type":"sit","table":"t0123456789abcdef","seat":5})",
         R"("seat" must be a whole number from 0 to 3)"},
        {R"({"type":"leave"})", R"("table" is required)"},
        {R"({"type":"sync","table":"t0"})", R"("table" is not a table id)"},
        {R"({"type":"move","table":"t0123456789abcdef","version":0,"move_id":"m","move":"fly"})",
         R"("move" is not a move: "fly" (see the moves listed in your view))"},
        {R"({"type":"undo","table":"t0123456789abcdef","version":0,"move_id":""})",
         R"("move_id" must not be empty)"},
        {R"({"type":"undo","table":"t0123456789abcdef","version":0,"move_id":"m","move":"end"})",
         R"(unknown field "move")"},
        {R"({"type":"log","table":"t0123456789abcdef","limit":201})",
         R"("limit" must be a whole number from 1 to 200)"},
        {R"({"type":"delete_chat","table":"t0123456789abcdef"})", R"("n" is required)"},
        {R"({"type":"unmute","user":0})",
         R"("user" must be a whole number from 1 to 9223372036854775807)"},
    };
    for (const auto& [text, message] : refusals) {
        INFO(text);
        const auto parsed = parse_request(text, {});
        REQUIRE(std::holds_alternative<RequestError>(parsed));
        CHECK(std::get<RequestError>(parsed).code == ErrorCode::bad_field);
        CHECK(std::get<RequestError>(parsed).message == message);
    }
    const auto unknown = parse_request(R"({"type":"dance","id":4})", {});
    REQUIRE(std::holds_alternative<RequestError>(unknown));
    CHECK(std::get<RequestError>(unknown).code == ErrorCode::unknown_type);
    CHECK(std::get<RequestError>(unknown).message == R"(unknown message type "dance")");
    CHECK(std::get<RequestError>(unknown).id == 4);
    const auto untyped = parse_request(R"({"id":5})", {});
    REQUIRE(std::holds_alternative<RequestError>(untyped));
    CHECK(std::get<RequestError>(untyped).message == R"(a message needs a "type")");
    CHECK(std::get<RequestError>(untyped).id == 5);
}

TEST_CASE("requests: a move's fields, whatever the order of the members", "[protocol]") {
    const auto parsed = parse_request(
        R"({"move":"build 17 1,0","move_id":"c-17","version":12,"table":"t0123456789abcdef","type":"move","id":5})",
        {});
    const auto move = accepted<requests::Move>(parsed);
    CHECK(std::holds_alternative<requests::Move>(std::get<Request>(parsed)));
    CHECK(move.table == "t0123456789abcdef");
    CHECK(move.version == 12);
    CHECK(move.move_id == "c-17");
    CHECK(move.move->to_string() == "build 17 1,0");
    CHECK(move.id == 5);
}

// docs/protocol.md, "Errors": `table` whenever the request named a table, whatever was wrong.
TEST_CASE("requests: chat, its history, deletion and mutes", "[protocol]") {
    const auto parsed_chat =
        parse_request(R"({"type":"chat","table":"t0123456789abcdef","text":"gl hf <b>!</b>"})", {});
    const auto chat = accepted<requests::Chat>(parsed_chat);
    CHECK(std::holds_alternative<requests::Chat>(std::get<Request>(parsed_chat)));
    CHECK(chat.table == "t0123456789abcdef");
    CHECK(chat.text == "gl hf <b>!</b>");
    const auto page = accepted<requests::ChatHistory>(parse_request(
        R"({"type":"chat_history","table":"t0123456789abcdef","before":40,"limit":10})", {}));
    CHECK(page.before == 40);
    CHECK(page.limit == 10);
    const auto newest = accepted<requests::ChatHistory>(
        parse_request(R"({"type":"chat_history","table":"t0123456789abcdef"})", {}));
    CHECK_FALSE(newest.before);
    CHECK(newest.limit == kChatPageDefault);
    CHECK(accepted<requests::DeleteChat>(
              parse_request(R"({"type":"delete_chat","table":"t0123456789abcdef","n":12})", {}))
              .line == 12);
    CHECK(accepted<requests::Mute>(parse_request(R"({"type":"mute","user":9})", {})).user == 9);
    CHECK(std::holds_alternative<requests::Unmute>(
        std::get<Request>(parse_request(R"({"type":"unmute","user":9})", {}))));
    for (const char* text : {
             R"({"type":"chat","table":"t0123456789abcdef"})",
             R"({"type":"chat","table":"t0123456789abcdef","text":""})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"  "})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"a\u0000b"})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"a\u0085b"})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"a\u2029b"})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"a\u202Eb"})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"a\u2068b"})",
             R"({"type":"chat","table":"t0123456789abcdef","text":"hi","seat":0})",
             R"({"type":"chat","text":"hi"})",
             R"({"type":"chat_history","table":"t0123456789abcdef","limit":201})",
             R"({"type":"chat_history","table":"t0123456789abcdef","before":0})",
             R"({"type":"delete_chat","table":"t0123456789abcdef"})",
             R"({"type":"delete_chat","table":"t0123456789abcdef","n":-1})",
             R"({"type":"mute","user":0})",
             R"({"type":"mute","user":"9"})",
             R"({"type":"unmute"})",
         }) {
        INFO(text);
        CHECK(refused(parse_request(text, {})) == ErrorCode::bad_field);
    }
}

TEST_CASE("chat text: 1 to 500 characters of text", "[protocol]") {
    std::string longest;
    for (int i = 0; i < kChatMaxCharacters; ++i)
        longest += "\xc3\xa9";  // é: two bytes, one character
    CHECK(valid_chat_text(longest));
    CHECK_FALSE(valid_chat_text(longest + "e"));
    CHECK(valid_chat_text("x"));
    CHECK(valid_chat_text("Ave, Caesar! \xe2\x80\x94 \xf0\x9f\x8f\x9b"));  // a dash, an emoji
    CHECK(valid_chat_text("\xe2\x80\xa7 \xe2\x81\xa5"));  // U+2027 and U+2065 are not refused
    for (const std::string& bad :
         {std::string(), std::string(" "), std::string("a\tb"), std::string("a\x7f"),
          std::string("a\xc2\x80"), std::string("a\xc2\x9f"), std::string("\xe2\x80\xa8"),
          std::string("\xe2\x80\xaa"), std::string("\xe2\x81\xa9")}) {
        INFO(bad);
        CHECK_FALSE(valid_chat_text(bad));
    }
}

TEST_CASE("requests: a refused request that named a table gives its table", "[protocol]") {
    const std::string table = "t0123456789abcdef";
    for (
        const char* text :
        {R"({"type":"move","table":"t0123456789abcdef","version":1,"move_id":"m","move":"end","x":1})",
         R"({"type":"move","table":"t0123456789abcdef","version":-1,"move_id":"m","move":"end"})",
         R"({"move":"place 01","table":"t0123456789abcdef","version":1,"move_id":"m","type":"move"})",
         R"({"type":"sit","table":"t0123456789abcdef","seat":"two"})",
         R"({"type":"watch","seat":0,"table":"t0123456789abcdef"})"}) {
        INFO(text);
        const auto parsed = parse_request(text, {});
        REQUIRE(std::holds_alternative<RequestError>(parsed));
        CHECK(std::get<RequestError>(parsed).code == ErrorCode::bad_field);
        CHECK(std::get<RequestError>(parsed).table == table);
        CHECK(error_json(ErrorCode::bad_field, "x", Json(), table)["table"] == table);
    }
    // A table member that is no table id names no table: nothing to echo.
    for (const char* text :
         {R"({"type":"watch","table":"t/../x"})", R"({"type":"watch","table":17})",
          R"({"type":"watch","table":"T0123456789ABCDEF"})", R"({"type":"watch","table":"t0a"})",
          R"({"type":"watch"})"}) {
        INFO(text);
        const auto parsed = parse_request(text, {});
        REQUIRE(std::holds_alternative<RequestError>(parsed));
        CHECK(std::get<RequestError>(parsed).table.empty());
    }
    CHECK_FALSE(error_json(ErrorCode::bad_field, "x", Json()).contains("table"));
}

TEST_CASE("requests: ids are echoed as given, up to unsigned 64-bit numbers", "[protocol]") {
    CHECK(accepted<requests::MyGames>(parse_request(R"({"type":"my_games","id":"a"})", {})).id ==
          "a");
    CHECK(accepted<requests::MyGames>(parse_request(R"({"type":"my_games","id":-3})", {})).id ==
          -3);
    CHECK(accepted<requests::MyGames>(
              parse_request(R"({"type":"my_games","id":18446744073709551615})", {}))
              .id == 18446744073709551615ull);
    CHECK(accepted<requests::MyGames>(parse_request(R"({"type":"my_games"})", {})).id.is_null());
}

TEST_CASE("requests: a member given twice is refused, whichever it is", "[protocol]") {
    for (const char* text :
         {R"({"type":"hello","name":"Ann","name":"Bob"})",
          R"({"type":"hello","type":"hello","name":"Ann"})", R"({"type":"my_games","id":1,"id":2})",
          R"({"type":"create_table","options":{"players":2,"players":4}})",
          R"({"type":"create_table","options":{"players":2},)"
          R"("time_control":{"kind":"none","kind":"none"}})"}) {
        INFO(text);
        CHECK(refused(parse_request(text, {})) == ErrorCode::bad_field);
    }
}

TEST_CASE("requests: text that is not UTF-8 or not JSON is bad_json", "[protocol]") {
    for (const std::string& text : {std::string("{\"type\":\"hello\",\"name\":\"\xff\"}"),
                                    std::string("{\"type\":\"hello\",\"name\":\"\xc3\"}"),
                                    std::string(R"({"type":"hello",})"), std::string(),
                                    std::string(R"({"type":"my_games","id":1e999})")}) {
        INFO(text);
        CHECK(refused(parse_request(text, {})) == ErrorCode::bad_json);
    }
    // An empty WebSocket message reaches the parser as a view without storage.
    CHECK(refused(parse_request(std::string_view(), {})) == ErrorCode::bad_json);
}

TEST_CASE("requests: a message larger than the reused parser's is read all the same",
          "[protocol]") {
    // Padding of 100 KiB takes the parser of its own; the next message, the thread's again.
    const std::string large =
        R"({"type":"hello","name":"Ann")" + std::string(100 * 1024, ' ') + "}";
    CHECK(accepted<requests::Hello>(parse_request(large, {})).name == "Ann");
    CHECK(accepted<requests::Hello>(parse_request(R"({"type":"hello","name":"Bob"})", {})).name ==
          "Bob");
}

TEST_CASE("requests: create_table's nested members are read", "[protocol]") {
    const auto create = accepted<requests::CreateTable>(parse_request(
        R"({"type":"create_table","options":{"players":3,"rules":"publisher"},)"
        R"("bots":[null,"greedy","strong"],"time_control":{"kind":"realtime","seconds":30,"on_timeout":"forfeit"}})",
        {}));
    CHECK(create.settings.options.players == 3);
    CHECK(create.settings.options.variant == engine::Variant::publisher);
    CHECK(!create.settings.bots[0]);
    CHECK(create.settings.bots[1] == engine::BotKind::greedy);
    CHECK(create.settings.bots[2] == engine::BotKind::strong);
    CHECK(create.settings.clock.kind == TimeControl::Kind::realtime);
    CHECK(create.settings.clock.seconds == 30);
    CHECK(create.settings.clock.on_timeout == TimeControl::OnTimeout::forfeit);
}

TEST_CASE("requests: a bot is random, greedy or strong, and any other name is refused, saying so",
          "[protocol]") {
    const auto parsed = parse_request(
        R"({"type":"create_table","options":{"players":2},"bots":[null,"clever"]})", {});
    REQUIRE(std::holds_alternative<RequestError>(parsed));
    CHECK(std::get<RequestError>(parsed).code == ErrorCode::bad_field);
    CHECK_THAT(std::get<RequestError>(parsed).message, Catch::Contains("\"strong\""));
}

TEST_CASE("snapshot message: its parts as JSON, in order, the id only when asked", "[protocol]") {
    std::vector<engine::Event> events;
    engine::State state =
        engine::Rules::make({3, engine::Variant::yucata, true})->new_game(5, &events);
    engine::Rng rng(5);
    for (int i = 0; i < 40; ++i) {
        const auto legal = state.legal_moves(state.to_act());
        state.apply(state.to_act(), legal[rng.below(static_cast<std::uint32_t>(legal.size()))],
                    &events);
    }
    const Json summary = {{"id", "t0123456789abcdef"}, {"name", "Ann's \"table\""}};
    const Json chat = Json::array({{{"user", 7}, {"text", "hi"}}});
    for (const std::optional<engine::Seat> seat :
         {std::optional<engine::Seat>(), std::optional<engine::Seat>(1)}) {
        const engine::View view = engine::view_for(state, seat);
        const Snapshot snapshot{"t0123456789abcdef", 41, seat, summary, view, events, chat};
        for (const Json& id : {Json(), Json("watch-1")}) {
            const std::string text = snapshot_message(snapshot, id);
            const Json message = Json::parse(text);
            CHECK(message.dump() == text);  // compact, no member twice
            std::vector<std::string> keys;
            for (const auto& [key, value] : message.items())
                keys.push_back(key);
            std::vector<std::string> expected{"type",    "table", "version", "seat",
                                              "summary", "view",  "log",     "chat"};
            if (!id.is_null()) expected.push_back("id");
            CHECK(keys == expected);
            CHECK(message["type"] == "snapshot");
            CHECK(message["table"] == "t0123456789abcdef");
            CHECK(message["version"] == 41);
            CHECK(message["seat"] == (seat ? Json(*seat) : Json()));
            CHECK(message["summary"] == summary);
            CHECK(message["view"] == view_to_json(view));
            CHECK(message["log"] == events_json(events, seat));
            CHECK(message["chat"] == chat);
            if (!id.is_null()) CHECK(message["id"] == id);
        }
    }
}

}  // namespace
}  // namespace gcor::protocol
