#include "tables/server_table_services.hpp"

#include "accounts/blocks.hpp"
#include "accounts/preferences.hpp"
#include "chat/chat_limits.hpp"
#include "gcor/store/store.hpp"
#include "leagues/leagues.hpp"
#include "notify/notifier.hpp"
#include "ratings/ratings.hpp"

namespace gcor::server {

TableServices ServerTableServices::services() {
    return TableServices{*this,
                         *this,
                         *this,
                         *this,
                         *this,
                         *this,
                         *this,
                         services_.vacations,
                         services_.metrics,
                         services_.blocking,
                         services_.bots,
                         services_.config.bot_delay,
                         services_.config.bot_time};
}

void ServerTableServices::save_table(const StoredTable& table, TableDone done) {
    services_.store.save_table(table, std::move(done));
}

void ServerTableServices::remove_table(const std::string& id, std::uint64_t revision,
                                       TableDone done) {
    services_.store.remove_table(id, revision, std::move(done));
}

void ServerTableServices::append_move(const TableProgress& table, const StoredMove& move,
                                      TableDone done) {
    services_.store.append_move(table, move, std::move(done));
}

void ServerTableServices::append_chat(const std::string& table, const StoredChatLine& line,
                                      Done done) {
    services_.store.append_chat(table, line, std::move(done));
}

void ServerTableServices::delete_chat(const std::string& table, std::uint64_t n, Done done) {
    services_.store.delete_chat(table, n, std::move(done));
}

std::optional<LoadedTable> ServerTableServices::load_table(const std::string& id) {
    return services_.store.load_table(id);
}

std::optional<LoadedTable> ServerTableServices::load_table_since(const std::string& id,
                                                                 std::uint64_t after) {
    return services_.store.load_table_since(id, after);
}

std::vector<StoredChatLine> ServerTableServices::chat_lines(const std::string& table,
                                                            std::optional<std::uint64_t> before,
                                                            std::size_t limit) {
    return services_.store.chat_lines(table, before, limit);
}

void ServerTableServices::your_turn(std::uint64_t user, const Message& message,
                                    std::span<const Peer* const> informed,
                                    const std::function<TurnNotice()>& mail) {
    services_.notifier.your_turn(user, message, informed, mail);
}

void ServerTableServices::your_turn_here(std::uint64_t user, const Message& message,
                                         std::span<const Peer* const> informed) {
    services_.notifier.your_turn_here(user, message, informed);
}

void ServerTableServices::tell(std::uint64_t user, const protocol::Json& message) {
    services_.notifier.tell(user, message);
}

bool ServerTableServices::is_admin(const User& user) const {
    return services_.leagues.is_admin(user);
}

bool ServerTableServices::muted(std::uint64_t user, std::uint64_t other) const {
    // A block hides the other's lines as a mute does, wherever the blocker reads.
    return services_.mutes.muted(user, other) || services_.blocks.blocked(user, other);
}

std::optional<std::chrono::milliseconds> ServerTableServices::take_line(std::uint64_t user,
                                                                        Clock::time_point now) {
    return services_.chat_limiter.take(user, now);
}

bool ServerTableServices::blocked(std::uint64_t blocker, std::uint64_t user) const {
    return services_.blocks.blocked(blocker, user);
}

UserPreferences ServerTableServices::preferences_of(std::uint64_t user) const {
    return services_.preferences.of(user);
}

void ServerTableServices::rate_pending() {
    services_.ratings.rate_pending();
}

}  // namespace gcor::server
