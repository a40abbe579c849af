#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/table_settings.hpp"

namespace gcor::protocol {
namespace {

TableSettings every_setting() {
    TableSettings settings;
    settings.options = {3, engine::Variant::publisher, true};
    settings.bots[1] = engine::BotKind::greedy;
    settings.is_public = false;
    settings.spectators = false;
    settings.undo = false;
    settings.chat = ChatSetting::players;
    settings.clock = {TimeControl::Kind::correspondence, 0, 3, TimeControl::OnTimeout::forfeit};
    settings.league = TableLeague{7, "Forum \"Romanum\"", 2, 1};
    settings.name = "Vendredi à \"Rome\"";
    return settings;
}

TEST_CASE("table settings: the JSON form reads back as the same settings", "[protocol]") {
    TableSettings rated;
    rated.options = {4, engine::Variant::yucata, false};
    rated.rated = true;
    rated.clock = {TimeControl::Kind::realtime, 90, 0, TimeControl::OnTimeout::bot};
    for (const TableSettings& settings : {TableSettings{}, every_setting(), rated}) {
        const std::string text = table_settings_json(settings).dump();
        INFO(text);
        const auto parsed = parse_table_settings(text);
        REQUIRE(parsed);
        CHECK(*parsed == settings);
    }
}

TEST_CASE("table settings: chat is all, players or off, always written", "[protocol]") {
    for (const ChatSetting chat : {ChatSetting::all, ChatSetting::players, ChatSetting::off}) {
        TableSettings settings;
        settings.chat = chat;
        const Json json = table_settings_json(settings);
        CHECK(json.at("chat") == chat_setting_id(chat));
        CHECK(chat_setting_from_id(chat_setting_id(chat)) == chat);
        CHECK(parse_table_settings(json.dump())->chat == chat);
    }
    CHECK_FALSE(chat_setting_from_id("loud"));
    CHECK_FALSE(chat_setting_from_id(""));
    for (const char* bad : {R"("loud")", "true", "1", R"("ALL")"}) {
        INFO(bad);
        const auto parsed =
            parse_table_settings(std::string(R"({"options":{"players":2},"chat":)") + bad + "}");
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().code == ErrorCode::bad_field);
    }
}

TEST_CASE("table settings: the form says only what is set", "[protocol]") {
    const Json plain = table_settings_json(TableSettings{});
    CHECK_FALSE(plain.contains("rated"));
    CHECK_FALSE(plain.contains("bots"));
    CHECK_FALSE(plain.contains("league"));
    CHECK_FALSE(plain.contains("name"));
    CHECK(plain.at("time_control") == Json{{"kind", "none"}});
    const Json full = table_settings_json(every_setting());
    CHECK(full.at("bots") == Json::parse(R"([null,"greedy",null])"));
    CHECK(full.at("league") ==
          Json::parse(R"({"id":7,"name":"Forum \"Romanum\"","season":2,"division":1})"));
}

TEST_CASE("table settings: what earlier servers stored still reads", "[protocol]") {
    // A league table's settings as the server wrote them before TableSettings (nlohmann's order).
    const auto parsed = parse_table_settings(
        R"({"league":{"division":2,"id":3,"name":"Via Appia","season":1},)"
        R"("options":{"players":2,"rules":"yucata","shrine":false},"public":false,"rated":true,)"
        R"("spectators":true,"time_control":{"days":3,"kind":"correspondence","on_timeout":"bot"}})");
    REQUIRE(parsed);
    CHECK(parsed->options.players == 2);
    CHECK(parsed->rated);
    CHECK_FALSE(parsed->is_public);
    CHECK(parsed->clock.days == 3);
    // Stored before undo and chat: both as they were then, allowed and open to all.
    CHECK(parsed->undo);
    CHECK(parsed->chat == ChatSetting::all);
    REQUIRE(parsed->league);
    CHECK(*parsed->league == TableLeague{3, "Via Appia", 1, 2});
}

TEST_CASE("table settings: a broken stored form is refused with a reason", "[protocol]") {
    const char* broken[] = {
        "",
        "[]",
        "{",
        R"({"public":true})",                                    // no options
        R"({"options":{"players":9}})",                          // no such game
        R"({"options":{"players":2},"colour":"red"})",           // unknown member
        R"({"options":{"players":2},"public":1})",               // wrong type
        R"({"options":{"players":2},"options":{"players":3}})",  // given twice
        R"({"options":{"players":2},"league":{"id":0,"name":"L","season":1,"division":1}})",
        R"({"options":{"players":2},"league":{"id":1,"season":1,"division":1}})",
        R"({"options":{"players":2},"time_control":{"kind":"correspondence","days":61}})",
        R"({"options":{"players":2},"rated":true,"bots":["greedy"]})",  // rated with a bot
        R"({"options":{"players":2},"x":[[[[[[[[[1]]]]]]]]]})",         // too deep
    };
    for (const char* text : broken) {
        INFO(text);
        const auto parsed = parse_table_settings(text);
        REQUIRE_FALSE(parsed);
        CHECK_FALSE(parsed.error().message.empty());
    }
}

TEST_CASE("table settings: a client may not name a league", "[protocol]") {
    const auto parsed = parse_request(R"({"type":"create_table","options":{"players":2},)"
                                      R"("league":{"id":1,"name":"L","season":1,"division":1}})",
                                      {});
    const auto* error = std::get_if<RequestError>(&parsed);
    REQUIRE(error);
    CHECK(error->code == ErrorCode::bad_field);
}

}  // namespace
}  // namespace gcor::protocol

namespace gcor::protocol {
namespace {

// The settings' text with a "name" member given as JSON.
Expected<TableSettings> settings_named(const std::string& name_json) {
    return parse_table_settings(R"({"options":{"players":2},"name":)" + name_json + "}");
}

}  // namespace

TEST_CASE("table settings: a name has 1 to 60 characters by the chat's rules", "[protocol]") {
    CHECK(settings_named(R"("Friday game")")->name == "Friday game");
    CHECK(settings_named(R"("  Friday game ")")->name == "Friday game");  // trimmed
    // 60 characters of two bytes each are 60 characters, not 120.
    std::string longest;
    for (int i = 0; i < kMaxTableNameCharacters; ++i)
        longest += "ä";
    CHECK(settings_named("\"" + longest + "\"")->name == longest);
    for (const std::string& bad :
         {std::string(R"("")"), std::string(R"("   ")"), "\"" + longest + "a\"",
          "\"" + std::string(61, 'x') + "\"", std::string(R"("tab\there")"),
          std::string(R"("line\nbreak")"), std::string("\"bidi \xE2\x80\xAE over\""),
          std::string("\"C1 \xC2\x85 next line\""), std::string("17"), std::string("null"),
          std::string(R"(["a"])")}) {
        INFO(bad);
        const auto parsed = settings_named(bad);
        REQUIRE_FALSE(parsed);
        CHECK(parsed.error().code == ErrorCode::bad_field);
    }
}

TEST_CASE("requests: create_table takes a name into the settings", "[protocol]") {
    const auto parsed = parse_request(
        R"({"type":"create_table","options":{"players":2},"name":" Ann's game "})", {});
    REQUIRE(std::holds_alternative<Request>(parsed));
    const auto& create = std::get<requests::CreateTable>(std::get<Request>(parsed));
    CHECK(create.settings.name == "Ann's game");
    const auto refused =
        parse_request(R"({"type":"create_table","options":{"players":2},"name":"a\u0007b"})", {});
    REQUIRE(std::holds_alternative<RequestError>(refused));
    CHECK(std::get<RequestError>(refused).code == ErrorCode::bad_field);
}

}  // namespace gcor::protocol
