#pragma once
// An SMTP relay for the tests of mails (Debian's python3-aiosmtpd on a loopback port, keeping each
// mail it receives as a file of a Maildir), and the mails it received, parsed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gcor/support/child_process.hpp"

namespace gcor::testing {

using namespace std::chrono_literals;

inline bool relay_accepts(std::uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    const bool connected =
        ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return connected;
}

inline std::string decode_quoted_printable(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '=') {
            if (text[i] != '\r') out += text[i];
            continue;
        }
        if (i + 1 < text.size() && (text[i + 1] == '\r' || text[i + 1] == '\n')) {
            i += text[i + 1] == '\r' ? 2 : 1;  // a soft line break
            continue;
        }
        out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
        i += 2;
    }
    return out;
}

// A mail as the relay received it.
struct Mail {
    std::map<std::string, std::string> headers;  // the first of each name
    std::string text;                            // the plain-text part, decoded
    std::string html;                            // the HTML part, decoded
    std::string raw;

    std::string header(const std::string& name) const {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

inline Mail parse_mail(const std::string& raw) {
    Mail mail;
    mail.raw = raw;
    std::istringstream in(raw);
    std::string line;
    std::string last;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) break;
        if ((line[0] == ' ' || line[0] == '\t') && !last.empty()) {
            mail.headers[last] += line;  // folded
            continue;
        }
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        last = line.substr(0, colon);
        const std::string value = line.substr(std::min(line.size(), colon + 2));
        if (!mail.headers.contains(last))
            mail.headers[last] = value;
        else
            last.clear();
    }
    // The parts: what follows each part's own blank line, up to the next boundary.
    for (const auto& [type, target] :
         {std::pair<std::string, std::string*>{"text/plain", &mail.text},
          {"text/html", &mail.html}}) {
        const auto part = raw.find("Content-Type: " + type);
        if (part == std::string::npos) continue;
        auto start = raw.find("\n\n", part);
        const auto crlf = raw.find("\r\n\r\n", part);
        start = crlf != std::string::npos && (start == std::string::npos || crlf < start)
                    ? crlf + 4
                    : start + 2;
        const auto end = raw.find("\n--=_gcor_alternative", start);
        *target = decode_quoted_printable(raw.substr(start, end - start));
    }
    return mail;
}

// aiosmtpd on a loopback port, keeping mails in a Maildir; it can stop and start again on the
// same port (a relay that goes down and comes back).
class SmtpRelay {
  public:
    // `tls`: STARTTLS with a self-signed certificate for 127.0.0.1 (cert_file()), required
    // before any mail.
    explicit SmtpRelay(bool running = true, bool tls = false)
        : port_(gcor::support::free_loopback_port()), tls_(tls) {
        char pattern[] = "/tmp/cor-smtp-test-XXXXXX";
        dir_ = mkdtemp(pattern);
        if (tls_) {
            const std::string command =
                "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "
                "/CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout '" +
                dir_ + "/key.pem' -out '" + cert_file() + "' 2>/dev/null";
            REQUIRE(std::system(command.c_str()) == 0);
        }
        if (running) start();
    }
    std::string cert_file() const { return dir_ + "/cert.pem"; }
    ~SmtpRelay() {
        stop();
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
    void start() {
        std::vector<std::string> argv{GCOR_PYTHON, "-m", "aiosmtpd",
                                      "-n",        "-l", "127.0.0.1:" + std::to_string(port_)};
        if (tls_)
            argv.insert(argv.end(), {"--tlscert", cert_file(), "--tlskey", dir_ + "/key.pem"});
        argv.insert(argv.end(), {"-c", "aiosmtpd.handlers.Mailbox", dir_ + "/box"});
        process_ = std::make_unique<gcor::support::ChildProcess>(std::move(argv));
        for (int i = 0; i < 500 && !relay_accepts(port_); ++i)
            std::this_thread::sleep_for(10ms);
        REQUIRE(relay_accepts(port_));
    }
    void stop() {
        if (process_) process_->stop(5s);
        process_.reset();
    }
    std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }
    // Every mail received so far, oldest first.
    std::vector<Mail> mails() const {
        std::vector<std::pair<std::filesystem::file_time_type, std::string>> files;
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir_ + "/box/new", ec))
            files.emplace_back(entry.last_write_time(), entry.path().string());
        std::sort(files.begin(), files.end());
        std::vector<Mail> mails;
        for (const auto& [time, path] : files) {
            std::ifstream in(path, std::ios::binary);
            mails.push_back(parse_mail(std::string(std::istreambuf_iterator<char>(in), {})));
        }
        return mails;
    }
    // Waits until `count` mails arrived, and returns them all.
    std::vector<Mail> wait_for(std::size_t count, std::chrono::milliseconds timeout = 10s) const {
        const auto until = std::chrono::steady_clock::now() + timeout;
        while (mails().size() < count && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(20ms);
        return mails();
    }

  private:
    std::uint16_t port_;
    bool tls_;
    std::string dir_;
    std::unique_ptr<gcor::support::ChildProcess> process_;
};

// The path and query of the first link in `text` that starts with `prefix`.
inline std::string link_in(const std::string& text, const std::string& prefix) {
    const auto at = text.find(prefix);
    REQUIRE(at != std::string::npos);
    const auto end = text.find_first_of(" \n\r\"<>", at);
    return text.substr(at, end - at);
}

}  // namespace gcor::testing
