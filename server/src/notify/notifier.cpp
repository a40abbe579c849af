#include "notify/notifier.hpp"

#include <algorithm>
#include <charconv>

#include "gcor/store/store.hpp"
#include "notify/mailer.hpp"
#include "notify/webhooks.hpp"

namespace gcor::server {

namespace {

// How long a user's webhook URL read from the store is used before it is read again.
constexpr auto kWebhookKept = std::chrono::minutes(1);

// What `tell_here` hears of a session ended elsewhere, before its key. Not JSON, so never a
// message for a client.
constexpr std::string_view kSessionEnded = "session-ended ";

}  // namespace

void Notifier::connect(std::uint64_t user, const std::shared_ptr<Peer>& peer) {
    std::lock_guard lock(mutex_);
    auto& peers = peers_[user];
    std::erase_if(peers, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
    // Other processes hear only of a user's first connection here and their last.
    if (peers.empty()) presence_.arrived(user);
    peers.push_back(peer);
}

void Notifier::disconnect(std::uint64_t user, const Peer* peer) {
    std::lock_guard lock(mutex_);
    const auto it = peers_.find(user);
    if (it == peers_.end()) return;
    std::erase_if(it->second, [&](const std::weak_ptr<Peer>& p) {
        const auto locked = p.lock();
        return !locked || locked.get() == peer;
    });
    if (it->second.empty()) {
        peers_.erase(it);
        presence_.left(user);
    }
}

void Notifier::set_webhook(std::uint64_t user, std::string url) {
    std::lock_guard lock(mutex_);
    webhooks_by_user_[user] = KnownWebhook{std::move(url), std::chrono::steady_clock::now()};
}

std::vector<std::shared_ptr<Peer>> Notifier::connections_of(std::uint64_t user,
                                                            std::span<const Peer* const> informed) {
    std::vector<std::shared_ptr<Peer>> peers;
    if (const auto it = peers_.find(user); it != peers_.end())
        for (const auto& weak : it->second)
            if (auto peer = weak.lock();
                peer && std::ranges::find(informed, peer.get()) == informed.end())
                peers.push_back(std::move(peer));
    return peers;
}

bool Notifier::online(std::uint64_t user) {
    {
        std::lock_guard lock(mutex_);
        if (!connections_of(user).empty()) return true;
    }
    return presence_.elsewhere(user);
}

void Notifier::tell(std::uint64_t user, const protocol::Json& message) {
    std::vector<std::shared_ptr<Peer>> peers;
    {
        std::lock_guard lock(mutex_);
        peers = connections_of(user);
    }
    // Sent to every other process sharing the store: one that the user just connected to may not
    // have said so yet.
    if (peers.empty() && !presence_.shared()) return;
    std::string text = message.dump();
    if (presence_.shared()) presence_.tell_elsewhere(user, text);
    send_each(peers, std::move(text));
}

void Notifier::tell_here(std::uint64_t user, const std::string& message) {
    if (message.starts_with(kSessionEnded)) {
        const std::string_view key = std::string_view(message).substr(kSessionEnded.size());
        std::uint64_t session_key = 0;
        const auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), session_key);
        if (error == std::errc{} && end == key.data() + key.size())
            end_session_here(user, session_key);
        return;
    }
    std::vector<std::shared_ptr<Peer>> peers;
    {
        std::lock_guard lock(mutex_);
        peers = connections_of(user);
    }
    send_each(peers, message);
}

void Notifier::send_each(const std::vector<std::shared_ptr<Peer>>& peers, std::string message) {
    if (peers.empty()) return;
    const Message shared = make_message(std::move(message));
    for (const auto& peer : peers)
        peer->send(shared);
}

void Notifier::end_session(std::uint64_t user, std::uint64_t session_key) {
    end_session_here(user, session_key);
    if (presence_.shared())
        presence_.tell_elsewhere(user, std::string(kSessionEnded) + std::to_string(session_key));
}

void Notifier::end_session_here(std::uint64_t user, std::uint64_t session_key) {
    std::vector<std::shared_ptr<Peer>> peers;
    {
        std::lock_guard lock(mutex_);
        peers = connections_of(user);
    }
    for (const auto& peer : peers)
        peer->end_session(session_key);
}

void Notifier::your_turn(std::uint64_t user, const std::function<protocol::Json()>& message,
                         std::span<const Peer* const> informed,
                         const std::function<TurnNotice()>& mail) {
    if (mail && informed.empty() && mailer_.wants_turn_mail(user)) mailer_.turn(mail());
    std::vector<std::shared_ptr<Peer>> peers;
    std::string webhook;
    bool webhook_known = false;
    const auto now = std::chrono::steady_clock::now();
    {
        std::lock_guard lock(mutex_);
        peers = connections_of(user, informed);
        if (const auto it = webhooks_by_user_.find(user);
            it != webhooks_by_user_.end() && now - it->second.read < kWebhookKept) {
            webhook = it->second.url;
            webhook_known = true;
        }
    }
    if (!webhook_known) {
        const auto stored = store_.user_by_id(user);
        webhook = stored ? stored->webhook : std::string();
        std::lock_guard lock(mutex_);
        webhooks_by_user_[user] = KnownWebhook{webhook, now};
    }
    if (peers.empty() && webhook.empty()) return;  // the usual case while everyone plays along
    std::string text = message().dump();
    if (!webhook.empty()) webhooks_.post(webhook, text);
    if (peers.empty()) return;
    const Message shared = make_message(std::move(text));
    for (const auto& peer : peers)
        peer->send(shared);
}

void Notifier::your_turn_here(std::uint64_t user, const std::function<protocol::Json()>& message,
                              std::span<const Peer* const> informed) {
    std::vector<std::shared_ptr<Peer>> peers;
    {
        std::lock_guard lock(mutex_);
        peers = connections_of(user, informed);
    }
    if (peers.empty()) return;
    const Message shared = make_message(message().dump());
    for (const auto& peer : peers)
        peer->send(shared);
}

}  // namespace gcor::server
