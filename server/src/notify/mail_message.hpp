#pragma once
// The mails the server writes: what each says (plain text and HTML, in the reader's language:
// English or German), and the whole
// message as an SMTP relay takes it (RFC 5322 with MIME: multipart/alternative, quoted-printable
// UTF-8, RFC 2047 subject, List-Unsubscribe with one-click unsubscribe, RFC 8058). Pure: no I/O.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gcor/protocol/events.hpp"
#include "gcor/store/store.hpp"

namespace gcor::server {

// "Name <address>" or a bare address, as `smtp-from` gives it.
struct MailSender {
    std::string name;  // may be empty
    std::string address;
};
std::optional<MailSender> parse_mail_sender(std::string_view text);

// Whether a user's address is one the server mails: local@domain in printable ASCII without
// spaces, quotes, angle brackets or commas, at most 254 characters, a domain of letters, digits,
// '-' and '.' with a dot in it.
bool valid_mail_address(std::string_view address);

// What one mail says.
struct MailContent {
    std::string subject;
    std::string text;  // plain text, lines ending in "\n"
    std::string html;  // an HTML document
};

// A table in a mail: its id, the link that opens it, the players, its deadline, whether the
// reader is to move there, and the name its creator gave it. A mail calls it by that name, or by
// its players ("Ann, Ben and Bot 3") in the reader's language; the id is only in the link.
struct MailTable {
    std::string id;
    std::string link;
    std::vector<std::string> players;  // everybody seated, by name
    std::optional<UnixMs> deadline;
    bool your_turn = false;
    std::string name;  // empty: none given
};

using protocol::Language;

MailContent confirmation_mail(const std::string& name, const std::string& address,
                              const std::string& link, Language language);
// The link of a forgotten password (docs/protocol.md, "HTTP API"), to the account `name`.
MailContent password_reset_mail(const std::string& name, const std::string& link,
                                Language language);
MailContent turn_mail(const std::string& name, const MailTable& table, Language language);
MailContent digest_mail(const std::string& name, const std::vector<MailTable>& tables,
                        Language language);
MailContent reminder_mail(const std::string& name, const MailTable& table, Language language);
MailContent season_mail(const std::string& name, const std::string& league, int season,
                        int division, const std::vector<MailTable>& tables, Language language);
// A tournament's round paired the reader at `table`.
MailContent tournament_round_mail(const std::string& name, const std::string& tournament, int round,
                                  const MailTable& table, Language language);
// `host` invites the reader to `table`.
MailContent invitation_mail(const std::string& name, const std::string& host,
                            const MailTable& table, Language language);

struct MailHeaders {
    MailSender from;
    std::string to;
    UnixMs date = 0;
    std::string message_id;            // without the angle brackets: "key@host"
    std::string unsubscribe;           // the one-click link; empty: none (the confirmation mail)
    Language language = Language::en;  // the content's (Content-Language, the footer)
};

// The whole message: headers, a blank line, the body; lines end in CRLF.
std::string compose_mail(const MailHeaders& headers, const MailContent& content);

// Pieces, for the tests.
std::string quoted_printable(std::string_view text);
std::string encoded_subject(std::string_view subject);
std::string mail_date(UnixMs at);  // "Wed, 25 Nov 2026 19:16:11 +0000"
// "Wed 25 Nov 2026, 19:16 UTC"; German "25.11.2026, 19:16 UTC".
std::string deadline_text(UnixMs at, Language language = Language::en);

}  // namespace gcor::server
