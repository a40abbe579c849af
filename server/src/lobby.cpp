#include "lobby.hpp"

#include <algorithm>

namespace gcor::server {

using protocol::Json;

namespace {
constexpr std::size_t kMaxListed = 200;  // one reply stays small however many tables there are
}

std::variant<std::shared_ptr<Table>, protocol::ErrorCode> Lobby::create(
    const protocol::Request& request) {
    std::shared_ptr<Table> table;
    Json summary;
    {
        std::lock_guard lock(mutex_);
        if (tables_.size() >= services_.config.max_tables) return protocol::ErrorCode::table_full;
        const std::uint64_t order = next_order_++;
        const auto& test_seed = services_.config.test_seed;
        table = std::make_shared<Table>(io_, services_, "t" + random_hex(8), request,
                                        test_seed ? *test_seed + order : random_seed());
        summary = table->summary();
        tables_.emplace(table->id(), Entry{table, summary, request.is_public, order});
    }
    publish(table->id(), summary, request.is_public);
    return table;
}

std::shared_ptr<Table> Lobby::find(const std::string& id) const {
    std::lock_guard lock(mutex_);
    const auto it = tables_.find(id);
    return it == tables_.end() ? nullptr : it->second.table;
}

Json Lobby::list(const protocol::Request& filter) const {
    std::vector<const Entry*> found;
    std::lock_guard lock(mutex_);
    for (const auto& [id, entry] : tables_) {
        if (!entry.is_public) continue;
        const Json& summary = entry.summary;
        if (filter.players && summary["options"]["players"] != filter.players) continue;
        if (filter.rules && summary["options"]["rules"] != engine::variant_id(*filter.rules))
            continue;
        if (filter.open_only) {
            const Json& seats = summary["seats"];
            const bool open = summary["status"] == "waiting" &&
                              std::any_of(seats.begin(), seats.end(),
                                          [](const Json& seat) { return seat["kind"] == "open"; });
            if (!open) continue;
        }
        found.push_back(&entry);
    }
    std::sort(found.begin(), found.end(),
              [](const Entry* a, const Entry* b) { return a->order < b->order; });
    Json tables = Json::array();
    for (const Entry* entry : found) {
        if (tables.size() == kMaxListed) break;
        Json summary = entry->summary;  // published when seats or status change
        summary["version"] = entry->table->published_version();
        tables.push_back(std::move(summary));
    }
    return tables;
}

void Lobby::subscribe(const std::shared_ptr<Peer>& peer) {
    std::lock_guard lock(mutex_);
    std::erase_if(subscribers_, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
    subscribers_.push_back(peer);
}

void Lobby::unsubscribe(const Peer* peer) {
    std::lock_guard lock(mutex_);
    std::erase_if(subscribers_, [&](const std::weak_ptr<Peer>& p) {
        const auto locked = p.lock();
        return !locked || locked.get() == peer;
    });
}

void Lobby::publish(const std::string& id, Json summary, bool is_public) {
    std::vector<std::shared_ptr<Peer>> to_tell;
    Message message;
    {
        std::lock_guard lock(mutex_);
        const auto it = tables_.find(id);
        if (it == tables_.end()) return;
        it->second.summary = summary;
        if (!is_public) return;
        message =
            make_message(Json{{"type", "lobby_update"}, {"table", std::move(summary)}}.dump());
        for (const auto& subscriber : subscribers_)
            if (auto peer = subscriber.lock()) to_tell.push_back(std::move(peer));
    }
    for (const auto& peer : to_tell)
        peer->send(message);
}

}  // namespace gcor::server
