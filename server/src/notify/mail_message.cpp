#include "notify/mail_message.hpp"

#include <algorithm>
#include <array>
#include <ctime>

namespace gcor::server {

namespace {

constexpr std::string_view kHex = "0123456789ABCDEF";
constexpr std::string_view kBoundary = "=_gcor_alternative";  // "=_" never occurs in QP text
constexpr std::size_t kMaxQpLine = 76;

bool domain_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.';
}

std::string html_escaped(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// English or German: the same sentence in the mail's language.
struct Say {
    Language language;
    std::string operator()(std::string english, std::string german) const {
        return language == Language::de ? std::move(german) : std::move(english);
    }
};

std::string joined(const std::vector<std::string>& names, Say say) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) out += i + 1 == names.size() ? say(" and ", " und ") : ", ";
        out += names[i];
    }
    return out;
}

// What a mail calls a table: its given name, or its players.
std::string table_title(const MailTable& table, Say say) {
    if (!table.name.empty()) return table.name;
    if (!table.players.empty()) return joined(table.players, say);
    return say("Table ", "Tisch ") + table.id;  // nobody seated: only a league could mail that
}

// A mail's text: a greeting, paragraphs, and the sign-off; its HTML says the same.
struct Writer {
    Say say;
    std::string text;
    std::string html;

    Writer(const std::string& name, Language language) : say{language} {
        const std::string hello = say("Hello ", "Hallo ");
        text = hello + name + ",\n\n";
        html = "<!DOCTYPE html>\n<html lang=\"" + std::string(protocol::language_id(language)) +
               "\"><head><meta charset=\"utf-8\"></head><body "
               "style=\"font-family:sans-serif\">\n<p>" +
               hello + html_escaped(name) + ",</p>\n";
    }
    void paragraph(const std::string& line) {
        text += line + "\n\n";
        html += "<p>" + html_escaped(line) + "</p>\n";
    }
    void table(const MailTable& table) {
        std::string line = table_title(table, say);
        if (!table.name.empty() && !table.players.empty())
            line += " (" + joined(table.players, say) + ")";
        if (table.your_turn) line += say(": your turn", ": du bist am Zug");
        if (table.deadline)
            line +=
                say(", to move by ", ", Zug bis ") + deadline_text(*table.deadline, say.language);
        text += "* " + line + ":\n  " + table.link + "\n";
        html += "<li><a href=\"" + html_escaped(table.link) + "\">" + html_escaped(line) +
                "</a></li>\n";
    }
    void tables(const std::vector<MailTable>& list) {
        html += "<ul>\n";
        for (const MailTable& each : list)
            table(each);
        html += "</ul>\n";
        text += "\n";
    }
    MailContent done(std::string subject) {
        text += "-- \nThe Great City of Rome\n";
        html += "<p>The Great City of Rome</p>\n</body></html>\n";
        return MailContent{std::move(subject), std::move(text), std::move(html)};
    }
};

// The footer that says why the mail came and how to stop it.
void add_unsubscribe(MailContent& content, const std::string& link, Say say) {
    const std::string why = say("You get this mail because you asked for turn mails.",
                                "Du bekommst diese Mail, weil du Zug-Mails bestellt hast.");
    const std::string stop = say("Stop them", "Abbestellen");
    content.text += "\n" + why + " " + stop + ":\n" + link + "\n";
    const auto end = content.html.rfind("</body>");
    content.html.insert(end, "<p style=\"font-size:small;color:#666\">" + why + " <a href=\"" +
                                 html_escaped(link) + "\">" + stop + "</a>.</p>\n");
}

// `at` in UTC by strftime's `format`. Its names follow the locale; the server never sets one, so
// they are English (C).
std::string utc_text(UnixMs at, const char* format) {
    const std::time_t seconds = static_cast<std::time_t>(at / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::array<char, 64> buffer{};
    const std::size_t length = std::strftime(buffer.data(), buffer.size(), format, &utc);
    return std::string(buffer.data(), length);
}

std::string address_header(const MailSender& sender) {
    if (sender.name.empty()) return sender.address;
    // RFC 5322's specials make a display name a quoted string (parse_mail_sender refused '"').
    const bool special = sender.name.find_first_of("()<>[]:;@\\,.") != std::string::npos;
    const std::string encoded = encoded_subject(sender.name);
    const bool quote = special && encoded == sender.name;
    return (quote ? "\"" + encoded + "\"" : encoded) + " <" + sender.address + ">";
}

}  // namespace

std::optional<MailSender> parse_mail_sender(std::string_view text) {
    MailSender sender;
    const auto open = text.find('<');
    if (open == std::string_view::npos) {
        sender.address = std::string(text);
    } else {
        if (!text.ends_with('>')) return std::nullopt;
        std::string_view name = text.substr(0, open);
        while (!name.empty() && name.back() == ' ')
            name.remove_suffix(1);
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
            name = name.substr(1, name.size() - 2);
        if (std::ranges::any_of(name, [](char c) {
                const auto byte = static_cast<unsigned char>(c);
                return byte < 0x20 || byte == 0x7f || c == '"' || c == '<' || c == '>';
            }))
            return std::nullopt;
        sender.name = std::string(name);
        sender.address = std::string(text.substr(open + 1, text.size() - open - 2));
    }
    if (!valid_mail_address(sender.address)) return std::nullopt;
    return sender;
}

bool valid_mail_address(std::string_view address) {
    if (address.empty() || address.size() > 254) return false;
    const auto at = address.rfind('@');
    if (at == std::string_view::npos || at == 0 || at > 64) return false;
    const std::string_view local = address.substr(0, at);
    const std::string_view domain = address.substr(at + 1);
    const bool local_ok = std::ranges::all_of(local, [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte > 0x20 && byte < 0x7f && c != '"' && c != '<' && c != '>' && c != ',' &&
               c != '@' && c != '(' && c != ')' && c != '\\' && c != ';' && c != ':' && c != '[' &&
               c != ']';
    });
    return local_ok && !domain.empty() && domain.find('.') != std::string_view::npos &&
           !domain.starts_with('.') && !domain.ends_with('.') &&
           domain.find("..") == std::string_view::npos && std::ranges::all_of(domain, domain_char);
}

MailContent confirmation_mail(const std::string& name, const std::string& address,
                              const std::string& link, Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    mail.paragraph(
        say("Somebody, probably you, asked The Great City of Rome to send mail about "
            "your games to " +
                address + ". To confirm this address, open:",
            "Jemand, wahrscheinlich du, hat The Great City of Rome gebeten, Mails zu "
            "deinen Spielen an " +
                address + " zu senden. Um diese Adresse zu bestätigen, öffne:"));
    mail.text += link + "\n\n";
    mail.html += "<p><a href=\"" + html_escaped(link) + "\">" + say("Confirm ", "Bestätige ") +
                 html_escaped(address) + "</a></p>\n";
    mail.paragraph(
        say("The link works once, for 24 hours. If you did not ask for this, ignore "
            "this mail: nothing more will be sent.",
            "Der Link gilt einmal, 24 Stunden lang. Wenn du das nicht wolltest, "
            "beachte diese Mail nicht: es kommt nichts mehr."));
    return mail.done(say("Confirm your address for The Great City of Rome",
                         "Bestätige deine Adresse für The Great City of Rome"));
}

MailContent password_reset_mail(const std::string& name, const std::string& link,
                                Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    mail.paragraph(say("Somebody, probably you, asked for a new password for the account " + name +
                           " at The Great City of Rome. To choose one, open:",
                       "Jemand, wahrscheinlich du, hat ein neues Passwort für das Konto " + name +
                           " bei The Great City of Rome verlangt. Um eines zu wählen, öffne:"));
    mail.text += link + "\n\n";
    mail.html += "<p><a href=\"" + html_escaped(link) + "\">" +
                 say("Choose a new password", "Neues Passwort wählen") + "</a></p>\n";
    mail.paragraph(
        say("The link works once, for one hour, and signs you out everywhere. If you did not ask "
            "for this, ignore this mail: your password stays as it is.",
            "Der Link gilt einmal, eine Stunde lang, und meldet dich überall ab. Wenn du das "
            "nicht wolltest, beachte diese Mail nicht: dein Passwort bleibt, wie es ist."));
    return mail.done(say("A new password for The Great City of Rome",
                         "Ein neues Passwort für The Great City of Rome"));
}

MailContent turn_mail(const std::string& name, const MailTable& table, Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    mail.paragraph(say("It is your turn at this table:", "Du bist an diesem Tisch am Zug:"));
    mail.tables({table});
    return mail.done(say("Your turn: ", "Du bist am Zug: ") + table_title(table, say) +
                     " — The Great City of Rome");
}

MailContent digest_mail(const std::string& name, const std::vector<MailTable>& tables,
                        Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    const std::string count = std::to_string(tables.size());
    const bool one = tables.size() == 1;
    mail.paragraph(one ? say("It is your turn at one table:", "Du bist an einem Tisch am Zug:")
                       : say("It is your turn at " + count + " tables:",
                             "Du bist an " + count + " Tischen am Zug:"));
    mail.tables(tables);
    return mail.done(
        (one ? say("Your turn at 1 table", "Am Zug an 1 Tisch")
             : say("Your turn at " + count + " tables", "Am Zug an " + count + " Tischen")) +
        " — The Great City of Rome");
}

MailContent reminder_mail(const std::string& name, const MailTable& table, Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    mail.paragraph(say("Your time at this table runs out within a day:",
                       "Deine Zeit an diesem Tisch läuft in weniger als einem Tag ab:"));
    mail.tables({table});
    return mail.done(say("Less than a day left: ", "Weniger als ein Tag: ") +
                     table_title(table, say) + " — The Great City of Rome");
}

MailContent season_mail(const std::string& name, const std::string& league, int season,
                        int division, const std::vector<MailTable>& tables, Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    const std::string number = std::to_string(season);
    const std::string count = std::to_string(tables.size());
    const bool one = tables.size() == 1;
    mail.paragraph(
        say("Season " + number + " of the league " + league +
                " has started. You play in division " + std::to_string(division) + ", at " +
                (one ? std::string("this table:") : "these " + count + " tables:"),
            "Saison " + number + " der Liga " + league + " hat begonnen. Du spielst in Division " +
                std::to_string(division) + ", an " +
                (one ? std::string("diesem Tisch:") : "diesen " + count + " Tischen:")));
    mail.tables(tables);
    return mail.done(say("Season " + number + " of " + league + " has started",
                         "Saison " + number + " von " + league + " hat begonnen") +
                     " — The Great City of Rome");
}

MailContent tournament_round_mail(const std::string& name, const std::string& tournament, int round,
                                  const MailTable& table, Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    const std::string number = std::to_string(round);
    mail.paragraph(say("Round " + number + " of the tournament " + tournament +
                           " has been paired. You play at this table:",
                       "Runde " + number + " des Turniers " + tournament +
                           " ist ausgelost. Du spielst an diesem Tisch:"));
    mail.tables({table});
    return mail.done(say("Round " + number + " of " + tournament + " has started",
                         "Runde " + number + " von " + tournament + " hat begonnen") +
                     " — The Great City of Rome");
}

MailContent invitation_mail(const std::string& name, const std::string& host,
                            const MailTable& table, Language language) {
    Writer mail(name, language);
    const Say say = mail.say;
    mail.paragraph(say(host + " invites you to a game at this table:",
                       host + " lädt dich zu einer Partie an diesem Tisch ein:"));
    mail.tables({table});
    mail.paragraph(
        say("Open the table to take the seat kept for you, or decline in My games. "
            "The invitation expires in 7 days.",
            "Öffne den Tisch, um den für dich freigehaltenen Platz einzunehmen, oder "
            "lehne unter „Meine Spiele“ ab. Die Einladung verfällt nach 7 Tagen."));
    return mail.done(say(host + " invites you to a game", host + " lädt dich zu einer Partie ein") +
                     " — The Great City of Rome");
}

std::string compose_mail(const MailHeaders& headers, const MailContent& content) {
    MailContent body = content;
    if (!headers.unsubscribe.empty())
        add_unsubscribe(body, headers.unsubscribe, Say{headers.language});
    std::string out;
    out.reserve(512 + body.text.size() * 2 + body.html.size() * 2);
    auto header = [&](std::string_view name, std::string_view value) {
        out.append(name).append(": ").append(value).append("\r\n");
    };
    header("From", address_header(headers.from));
    header("To", headers.to);
    header("Subject", encoded_subject(body.subject));
    header("Date", mail_date(headers.date));
    header("Message-ID", "<" + headers.message_id + ">");
    header("MIME-Version", "1.0");
    // Not a person's mail: auto-responders stay quiet (RFC 3834).
    header("Auto-Submitted", "auto-generated");
    if (!headers.unsubscribe.empty()) {
        header("List-Unsubscribe", "<" + headers.unsubscribe + ">");
        header("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
    }
    header("Content-Language", std::string(protocol::language_id(headers.language)));
    header("Content-Type", "multipart/alternative; boundary=\"" + std::string(kBoundary) + "\"");
    out += "\r\n";
    for (const auto& [type, part] :
         {std::pair<std::string_view, const std::string&>{"text/plain", body.text},
          {"text/html", body.html}}) {
        out.append("--").append(kBoundary).append("\r\n");
        header("Content-Type", std::string(type) + "; charset=utf-8");
        header("Content-Transfer-Encoding", "quoted-printable");
        out += "\r\n";
        out += quoted_printable(part);
        out += "\r\n";
    }
    out.append("--").append(kBoundary).append("--\r\n");
    return out;
}

std::string quoted_printable(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    std::size_t line_length = 0;
    auto put = [&](std::string_view piece) {
        // A soft line break keeps each line within 76 characters, the '=' included.
        if (line_length + piece.size() > kMaxQpLine - 1) {
            out += "=\r\n";
            line_length = 0;
        }
        out += piece;
        line_length += piece.size();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\r\n";
            line_length = 0;
            continue;
        }
        const bool line_end = i + 1 == text.size() || text[i + 1] == '\n';
        // A space or tab before a line's end would be lost in transport; a dot alone at the
        // start of a line would end the SMTP data.
        const bool plain =
            (byte >= 33 && byte <= 126 && c != '=' && !(c == '.' && line_length == 0)) ||
            ((c == ' ' || c == '\t') && !line_end);
        if (plain) {
            put(std::string_view(&c, 1));
        } else {
            const char encoded[3] = {'=', kHex[byte >> 4], kHex[byte & 15]};
            put(std::string_view(encoded, 3));
        }
    }
    return out;
}

std::string encoded_subject(std::string_view subject) {
    const bool ascii = std::ranges::all_of(subject, [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte >= 0x20 && byte < 0x7f;
    });
    if (ascii) return std::string(subject);
    // RFC 2047 "Q" words of at most 75 characters, split between whole UTF-8 characters.
    std::string out;
    std::string word;
    auto flush = [&] {
        if (!out.empty()) out += "\r\n ";
        out += "=?utf-8?Q?" + word + "?=";
        word.clear();
    };
    for (std::size_t i = 0; i < subject.size();) {
        const auto lead = static_cast<unsigned char>(subject[i]);
        const std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
        std::string piece;
        for (std::size_t k = i; k < std::min(i + length, subject.size()); ++k) {
            const char c = subject[k];
            const auto byte = static_cast<unsigned char>(c);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                piece += c;
            else if (c == ' ')
                piece += '_';
            else
                piece += {'=', kHex[byte >> 4], kHex[byte & 15]};
        }
        if (word.size() + piece.size() > 75 - 12) flush();
        word += piece;
        i += length;
    }
    flush();
    return out;
}

std::string mail_date(UnixMs at) {
    return utc_text(at, "%a, %d %b %Y %H:%M:%S +0000");
}

std::string deadline_text(UnixMs at, Language language) {
    return utc_text(at,
                    language == Language::de ? "%d.%m.%Y, %H:%M UTC" : "%a %d %b %Y, %H:%M UTC");
}

}  // namespace gcor::server
