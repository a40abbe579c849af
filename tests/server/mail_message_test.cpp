#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "notify/mail_message.hpp"

using namespace gcor::server;

namespace {

std::string decoded(const std::string& quoted) {
    std::string out;
    for (std::size_t i = 0; i < quoted.size(); ++i) {
        if (quoted[i] == '\r') continue;
        if (quoted[i] != '=') {
            out += quoted[i];
        } else if (quoted[i + 1] == '\r') {
            i += 2;  // a soft line break
        } else {
            out += static_cast<char>(std::stoi(quoted.substr(i + 1, 2), nullptr, 16));
            i += 2;
        }
    }
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find("\r\n", start)) != std::string::npos; start = end + 2)
        lines.push_back(text.substr(start, end - start));
    lines.push_back(text.substr(start));
    return lines;
}

}  // namespace

TEST_CASE("quoted-printable keeps lines short and round-trips any text", "[mail]") {
    CHECK(quoted_printable("plain text") == "plain text");
    CHECK(quoted_printable("a=b") == "a=3Db");
    CHECK(quoted_printable("Straße — ok\n") == "Stra=C3=9Fe =E2=80=94 ok\r\n");
    CHECK(quoted_printable("trailing \nx") == "trailing=20\r\nx");  // a space before a line's end
    CHECK(quoted_printable(".\n") == "=2E\r\n");                    // a dot alone ends SMTP data
    const std::string long_text = std::string(200, 'x') + "=" + std::string(100, "é"[0]) + "\n" +
                                  "http://example.org/#/table/t0123456789abcdef?x=1&y=2\n";
    const std::string quoted = quoted_printable(long_text);
    for (const std::string& line : lines_of(quoted))
        CHECK(line.size() <= 76);
    CHECK(decoded(quoted) == long_text);
}

TEST_CASE("a subject beyond ASCII is encoded in words of at most 75 characters", "[mail]") {
    CHECK(encoded_subject("Your turn at table t1") == "Your turn at table t1");
    CHECK(encoded_subject("Dein Zug — Tisch t1") == "=?utf-8?Q?Dein_Zug_=E2=80=94_Tisch_t1?=");
    const std::string long_subject =
        "Saison 3 der Liga Großstadt Rom hat begonnen — " + std::string(40, 'x') + " — äöü";
    const std::string encoded = encoded_subject(long_subject);
    std::string joined;
    for (std::string line : lines_of(encoded)) {
        if (line.starts_with(" ")) line.erase(0, 1);
        CHECK(line.size() <= 75);
        REQUIRE(line.starts_with("=?utf-8?Q?"));
        REQUIRE(line.ends_with("?="));
        std::string word = line.substr(10, line.size() - 12);
        for (char& c : word)
            if (c == '_') c = ' ';
        joined += decoded(word);
    }
    CHECK(joined == long_subject);
}

TEST_CASE("mail addresses and senders are checked", "[mail]") {
    for (const char* good : {"ann@example.org", "a.b+c@mail.example.co.uk", "x_y-z@a-b.de"})
        CHECK(valid_mail_address(good));
    for (const char* bad :
         {"", "ann", "@example.org", "ann@", "ann@localhost", "a b@example.org", "ann@exa mple.org",
          "ann@example..org", "ann@.example.org", "a\r\nBcc: x@y.org@example.org",
          "<ann@example.org>", "ann@example.org,bob@example.org", "\"ann\"@example.org",
          "ann@ex_ample.org"})
        CHECK_FALSE(valid_mail_address(bad));
    CHECK_FALSE(valid_mail_address(std::string(250, 'a') + "@example.org"));

    auto sender = parse_mail_sender("The Great City <noreply@example.org>");
    REQUIRE(sender);
    CHECK(sender->name == "The Great City");
    CHECK(sender->address == "noreply@example.org");
    sender = parse_mail_sender("\"Rome\" <noreply@example.org>");
    REQUIRE(sender);
    CHECK(sender->name == "Rome");
    sender = parse_mail_sender("noreply@example.org");
    REQUIRE(sender);
    CHECK(sender->name.empty());
    for (const char* bad : {"Rome <noreply>", "Rome <noreply@example.org", "Ro\nme <a@example.org>",
                            "Rome", "Ro<me <a@example.org>"})
        CHECK_FALSE(parse_mail_sender(bad));
}

TEST_CASE("a composed mail has its headers, two parts and escaped HTML", "[mail]") {
    MailHeaders headers;
    headers.from = MailSender{"Große Stadt", "noreply@example.org"};
    headers.to = "ann@example.org";
    headers.date = 1'795'000'000'000;  // 2026-11-18
    headers.message_id = "0123@example.org";
    headers.unsubscribe = "http://example.org/api/email/unsubscribe?user=5&sig=ab";
    const MailTable table{
        "t42", "http://example.org/#/table/t42", {"<b>Ann</b>", "Bob"}, 1'795'000'000'000, true,
        {}};
    const std::string message = compose_mail(headers, turn_mail("<b>Ann</b>", table, Language::en));
    const auto lines = lines_of(message);
    for (const std::string& line : lines) {
        CHECK(line.size() <= 998);
        CHECK(line.find('\n') == std::string::npos);
    }
    CHECK(message.find("From: =?utf-8?Q?Gro=C3=9Fe_Stadt?= <noreply@example.org>\r\n") !=
          std::string::npos);
    CHECK(message.find("To: ann@example.org\r\n") != std::string::npos);
    CHECK(message.find("Date: " + mail_date(headers.date) + "\r\n") != std::string::npos);
    CHECK(mail_date(headers.date) == "Wed, 18 Nov 2026 11:06:40 +0000");
    CHECK(deadline_text(headers.date) == "Wed 18 Nov 2026, 11:06 UTC");
    CHECK(message.find("Message-ID: <0123@example.org>\r\n") != std::string::npos);
    CHECK(message.find("List-Unsubscribe: <" + headers.unsubscribe + ">\r\n") != std::string::npos);
    CHECK(message.find("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n") !=
          std::string::npos);
    CHECK(message.find("Content-Language: en\r\n") != std::string::npos);
    CHECK(message.find("Content-Type: text/plain; charset=utf-8") != std::string::npos);
    CHECK(message.find("Content-Type: text/html; charset=utf-8") != std::string::npos);
    // The parts, without the boundary lines and the parts' headers (not quoted-printable).
    std::string parts;
    for (const std::string& line : lines)
        if (!line.starts_with("--=_gcor_alternative") && !line.starts_with("Content-"))
            parts += line + "\r\n";
    const std::string body = decoded(parts.substr(parts.find("\r\n\r\n")));
    CHECK(body.find("&lt;b&gt;Ann&lt;/b&gt;") != std::string::npos);  // the HTML part
    CHECK(body.find("<b>Ann</b>") != std::string::npos);              // the text part, as is
    CHECK(body.find("<b>Ann</b> and Bob: your turn, to move by Wed 18 Nov 2026, "
                    "11:06 UTC") != std::string::npos);
    CHECK(body.find(headers.unsubscribe) != std::string::npos);  // the footer says how to stop

    headers.unsubscribe.clear();
    headers.from = MailSender{"Rome, the game", "noreply@example.org"};
    CHECK(compose_mail(headers, turn_mail("Ann", table, Language::en))
              .starts_with("From: \"Rome, the game\" <noreply@example.org>\r\n"));
    const std::string confirmation = compose_mail(
        headers,
        confirmation_mail("Ann", "ann@example.org", "http://example.org/c?token=1", Language::en));
    CHECK(confirmation.find("List-Unsubscribe") == std::string::npos);
}

TEST_CASE("mails in German: every kind, with German dates and no English left", "[mail]") {
    const MailTable table{
        "t42", "http://example.org/#/table/t42", {"Ann", "Bob"}, 1'795'000'000'000, true, {}};
    CHECK(deadline_text(table.deadline.value(), Language::de) == "18.11.2026, 11:06 UTC");
    const std::vector<MailContent> mails{
        confirmation_mail("Ann", "ann@example.org", "http://example.org/c?token=1", Language::de),
        turn_mail("Ann", table, Language::de), digest_mail("Ann", {table, table}, Language::de),
        reminder_mail("Ann", table, Language::de),
        season_mail("Ann", "Liga", 2, 1, {table}, Language::de)};
    for (const MailContent& mail : mails) {
        INFO(mail.subject << "\n" << mail.text);
        CHECK(mail.text.starts_with("Hallo Ann,\n"));
        CHECK(mail.html.find("<html lang=\"de\">") != std::string::npos);
        for (const char* english : {"Hello", "your turn", "Table ", " and ", "Season", "Confirm"})
            CHECK(mail.text.find(english) == std::string::npos);
    }
    CHECK(mails[1].subject == "Du bist am Zug: Ann und Bob — The Great City of Rome");
    CHECK(mails[1].text.find("Ann und Bob: du bist am Zug, Zug bis 18.11.2026, 11:06 UTC") !=
          std::string::npos);
    CHECK(mails[3].subject == "Weniger als ein Tag: Ann und Bob — The Great City of Rome");
    CHECK(mails[2].subject == "Am Zug an 2 Tischen — The Great City of Rome");
    for (const MailContent& mail : {mails[1], mails[3]})  // the id is only in the link
        CHECK(mail.text.find("t42") == mail.text.find("http://example.org/#/table/t42") + 27);

    MailHeaders headers;
    headers.from = MailSender{"", "noreply@example.org"};
    headers.to = "ann@example.org";
    headers.message_id = "1@example.org";
    headers.unsubscribe = "http://example.org/u";
    headers.language = Language::de;
    const std::string message = compose_mail(headers, mails[1]);
    CHECK(message.find("Content-Language: de\r\n") != std::string::npos);
    CHECK(message.find("Abbestellen") != std::string::npos);  // the footer in German
}

namespace gcor::server {

TEST_CASE("mails call a named table by its name, in either language", "[mail]") {
    MailTable table{"t42",          "http://example.org/#/table/t42",
                    {"Ann", "Bob"}, std::nullopt,
                    true,           "Freitagsrunde"};
    const MailContent english = turn_mail("Ann", table, Language::en);
    CHECK(english.subject == "Your turn: Freitagsrunde — The Great City of Rome");
    CHECK(english.text.find("* Freitagsrunde (Ann and Bob): your turn:\n") != std::string::npos);
    const MailContent german = reminder_mail("Ann", table, Language::de);
    CHECK(german.subject == "Weniger als ein Tag: Freitagsrunde — The Great City of Rome");
    CHECK(german.text.find("* Freitagsrunde (Ann und Bob): du bist am Zug:\n") !=
          std::string::npos);
    table.name.clear();
    CHECK(turn_mail("Ann", table, Language::en).subject ==
          "Your turn: Ann and Bob — The Great City of Rome");
}

}  // namespace gcor::server
