#include "postgres_news.hpp"

#include <poll.h>
#include <pthread.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

#include "postgres_connection.hpp"
#include "store_texts.hpp"

namespace gcor::server {

namespace {

// How often the listener looks whether its store is closing, while nothing arrives.
constexpr int kPollMs = 250;
constexpr auto kReconnectEvery = std::chrono::seconds(1);

// The payload's words, split at single spaces; the last word takes the rest (a table's id).
std::vector<std::string_view> words(std::string_view payload, std::size_t count) {
    std::vector<std::string_view> out;
    while (out.size() + 1 < count) {
        const auto space = payload.find(' ');
        if (space == std::string_view::npos) return {};
        out.push_back(payload.substr(0, space));
        payload.remove_prefix(space + 1);
    }
    out.push_back(payload);
    return out;
}

template <typename Number>
bool read_number(std::string_view text, Number& number) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    return error == std::errc() && end == text.data() + text.size();
}

template <typename Number>
bool read_optional(std::string_view text, std::optional<Number>& number) {
    if (text == "-") return true;
    Number value{};
    if (!read_number(text, value)) return false;
    number = value;
    return true;
}

}  // namespace

ParsedNews parse_news(std::string_view payload, std::string_view own_node) {
    ParsedNews parsed;
    StoreNews news;
    if (payload.starts_with("t ")) {
        // t node revision version status public listed turn to_act to_act_user deadline id, and
        // after a newline the move when the row changed by one (kept unread: see StoreNews)
        const std::size_t newline = payload.find('\n');
        const std::string_view move =
            newline == std::string_view::npos ? std::string_view() : payload.substr(newline + 1);
        const auto w = words(payload.substr(0, newline), 12);
        if (w.empty()) return parsed;
        if (w[1] == own_node) return ParsedNews{true, std::nullopt};
        if (newline != std::string_view::npos && move.empty()) return parsed;
        news.move = std::string(move);
        news.kind = StoreNews::Kind::table;
        std::optional<TableStatus> status;
        for (std::size_t i = 0; i < store_texts::kStatuses.size(); ++i)
            if (store_texts::kStatuses[i] == w[4]) status = static_cast<TableStatus>(i);
        const auto flag = [](std::string_view word, bool& value) {
            value = word == "1";
            return word == "0" || word == "1";
        };
        news.removed = w[4] == "removed";
        if ((!status && !news.removed) || !read_number(w[2], news.revision) ||
            !read_number(w[3], news.version) || !flag(w[5], news.is_public) ||
            !flag(w[6], news.listing_changed) || !flag(w[7], news.turn_changed) ||
            !read_optional(w[8], news.to_act) || !read_number(w[9], news.to_act_user) ||
            !read_optional(w[10], news.deadline) || w[11].empty())
            return parsed;
        news.status = status.value_or(TableStatus::waiting);
        news.table = std::string(w[11]);
    } else if (payload.starts_with("c ")) {
        // c node n deleted id
        const auto w = words(payload, 5);
        if (w.empty()) return parsed;
        if (w[1] == own_node) return ParsedNews{true, std::nullopt};
        news.kind = StoreNews::Kind::chat;
        if (!read_number(w[2], news.chat_line) || (w[3] != "0" && w[3] != "1") || w[4].empty())
            return parsed;
        news.chat_deleted = w[3] == "1";
        news.table = std::string(w[4]);
    } else if (payload.starts_with("v ") || payload.starts_with("b ") ||
               payload.starts_with("p ")) {
        // v|b|p node user: the user's vacations, blocks or preferences
        const auto w = words(payload, 3);
        if (w.empty()) return parsed;
        if (w[1] == own_node) return ParsedNews{true, std::nullopt};
        news.kind = payload[0] == 'v'   ? StoreNews::Kind::vacation
                    : payload[0] == 'b' ? StoreNews::Kind::blocks
                                        : StoreNews::Kind::preferences;
        if (!read_number(w[2], news.user)) return parsed;
    } else {
        return parsed;
    }
    parsed.news = std::move(news);
    return parsed;
}

std::optional<StoredMove> read_move_news(std::string_view move) {
    // {"seq","seat","move","move_id","at","by"} (postgres_schema.cpp, version 9)
    const auto json = nlohmann::json::parse(move, nullptr, false);
    if (!json.is_object() || json.size() != 6) return std::nullopt;
    const auto text = [&](const char* key) -> const std::string* {
        const auto it = json.find(key);
        return it != json.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
    };
    const auto number = [&](const char* key, auto& value) {
        const auto it = json.find(key);
        if (it == json.end() || !it->is_number_integer()) return false;
        value = it->get<std::remove_reference_t<decltype(value)>>();
        return true;
    };
    StoredMove stored;
    const std::string* text_form = text("move");
    const std::string* move_id = text("move_id");
    const std::string* by = text("by");
    std::optional<MovedBy> mover;
    for (std::size_t i = 0; by && i < store_texts::kMovers.size(); ++i)
        if (store_texts::kMovers[i] == *by) mover = static_cast<MovedBy>(i);
    if (!text_form || !move_id || !mover || !number("seq", stored.seq) ||
        !number("seat", stored.seat) || !number("at", stored.at))
        return std::nullopt;
    stored.move = *text_form;
    stored.move_id = *move_id;
    stored.by = *mover;
    return stored;
}

NewsListener::NewsListener(std::string url, std::string own_node,
                           std::function<void(const StoreNews&)> on_news)
    : url_(std::move(url)),
      own_node_(std::move(own_node)),
      on_news_(std::move(on_news)),
      thread_([this] { run(); }) {
    tried_.get_future().wait();
}

NewsListener::~NewsListener() {
    stopping_ = true;
    thread_.join();
}

void NewsListener::run() {
    pthread_setname_np(pthread_self(), "gcor-news");
    std::unique_ptr<pg::Connection> connection;
    bool tried = false;
    bool heard_before = false;  // a connection listened before this one: news may be missed
    auto next_try = std::chrono::steady_clock::now();
    while (!stopping_) {
        if (!connection) {
            if (std::chrono::steady_clock::now() < next_try) {
                ::poll(nullptr, 0, kPollMs);
                continue;
            }
            next_try = std::chrono::steady_clock::now() + kReconnectEvery;
            try {
                connection = std::make_unique<pg::Connection>(url_);
                connection->execute(std::string("LISTEN ") + kNewsChannel);
            } catch (const std::exception& error) {
                connection.reset();
                spdlog::warn("store: cannot listen to other servers' changes: {}", error.what());
            }
            if (!tried) tried_.set_value();
            tried = true;
            if (!connection) continue;
            if (heard_before) {
                spdlog::info("store: listening to other servers' changes again");
                StoreNews missed;
                missed.kind = StoreNews::Kind::missed;
                on_news_(missed);
            }
            heard_before = true;
        }
        pollfd socket{connection->socket(), POLLIN, 0};
        if (::poll(&socket, 1, kPollMs) <= 0) continue;
        if (!connection->consume_input()) {
            spdlog::warn("store: the connection that hears other servers' changes was lost");
            connection.reset();
            continue;
        }
        for (const std::string& payload : connection->notifications()) {
            const ParsedNews parsed = parse_news(payload, own_node_);
            if (parsed.news) {
                on_news_(*parsed.news);
            } else if (!parsed.own) {
                spdlog::warn("store: a notification not understood: {:.80}", payload);
            }
        }
    }
}

}  // namespace gcor::server
