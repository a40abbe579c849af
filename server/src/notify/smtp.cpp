#include "notify/smtp.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>

namespace gcor::server {

namespace {

struct Upload {
    std::string_view rest;
};

std::size_t read_message(char* buffer, std::size_t size, std::size_t count, void* data) {
    auto& upload = *static_cast<Upload*>(data);
    const std::size_t length = std::min(size * count, upload.rest.size());
    std::memcpy(buffer, upload.rest.data(), length);
    upload.rest.remove_prefix(length);
    return length;
}

}  // namespace

void init_smtp() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string send_smtp(const SmtpSettings& settings, const std::string& recipient,
                      const std::string& message) {
    init_smtp();
    const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                                   &curl_easy_cleanup);
    if (!curl) return "libcurl could not start";
    const std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> recipients(
        curl_slist_append(nullptr, ("<" + recipient + ">").c_str()), &curl_slist_free_all);
    Upload upload{message};
    std::array<char, CURL_ERROR_SIZE> error{};
    CURL* handle = curl.get();
    curl_easy_setopt(handle, CURLOPT_URL, settings.url.c_str());
    curl_easy_setopt(handle, CURLOPT_MAIL_FROM, ("<" + settings.from + ">").c_str());
    curl_easy_setopt(handle, CURLOPT_MAIL_RCPT, recipients.get());
    curl_easy_setopt(handle, CURLOPT_READFUNCTION, &read_message);
    curl_easy_setopt(handle, CURLOPT_READDATA, &upload);
    curl_easy_setopt(handle, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(handle, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error.data());
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for timeouts
    curl_easy_setopt(handle, CURLOPT_TIMEOUT, static_cast<long>(settings.timeout.count()));
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT,
                     static_cast<long>(std::min<std::int64_t>(settings.timeout.count(), 10)));
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    if (settings.starttls) curl_easy_setopt(handle, CURLOPT_USE_SSL, CURLUSESSL_ALL);
    if (!settings.ca_file.empty())
        curl_easy_setopt(handle, CURLOPT_CAINFO, settings.ca_file.c_str());
    if (!settings.user.empty()) {
        curl_easy_setopt(handle, CURLOPT_USERNAME, settings.user.c_str());
        curl_easy_setopt(handle, CURLOPT_PASSWORD, settings.password.c_str());
    }
    const CURLcode result = curl_easy_perform(handle);
    if (result == CURLE_OK) return {};
    std::string why = curl_easy_strerror(result);
    if (error[0] != '\0') why += std::string(": ") + error.data();
    return why;
}

}  // namespace gcor::server
