#pragma once
// Hands one message to an SMTP relay, with libcurl (smtp:// with optional STARTTLS, or smtps://).
// Blocks for up to the timeout: call it on the mailer's own thread only.
#include <chrono>
#include <string>

namespace gcor::server {

struct SmtpSettings {
    std::string url;   // "smtp://host:port" (or smtps://); empty: no mail at all
    std::string from;  // the envelope sender's address
    std::string user;  // empty: no authentication
    std::string password;
    bool starttls = false;  // require STARTTLS on an smtp:// URL
    std::string ca_file;    // PEM certificates that vouch for the relay's; empty: the system's
    std::chrono::seconds timeout{30};
};

// Initialises libcurl once for the process (before any thread sends).
void init_smtp();

// Sends `message` to `recipient`: empty when the relay accepted it, otherwise why not (curl's
// reason and the relay's answer; never the password).
std::string send_smtp(const SmtpSettings& settings, const std::string& recipient,
                      const std::string& message);

}  // namespace gcor::server
