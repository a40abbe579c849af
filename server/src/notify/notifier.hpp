#pragma once
// Tells users that it is their turn: on every connection they have open, and on their webhook.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "gcor/protocol/game_json.hpp"
#include "net/peer.hpp"
#include "notify/presence.hpp"

namespace gcor::server {

class Mailer;
class Store;
struct TurnNotice;
class Webhooks;

class Notifier {
  public:
    // `presence_beat`: how often this process tells others sharing the store that it lives.
    Notifier(Store& store, Webhooks& webhooks, Mailer& mailer,
             std::chrono::milliseconds presence_beat)
        : store_(store), webhooks_(webhooks), mailer_(mailer), presence_(store, presence_beat) {}

    void connect(std::uint64_t user, const std::shared_ptr<Peer>& peer);
    void disconnect(std::uint64_t user, const Peer* peer);
    // The user's webhook changed (empty: none).
    void set_webhook(std::uint64_t user, std::string url);
    // `message()` goes to the user's connections but those in `informed`; its JSON also to the
    // user's webhook, if any. It is made only when somebody is to be told: usually every
    // connection of the user follows the table already, and a turn then costs no message.
    // `mail()`, when given, is mailed if the user wants turn mails and no connection of theirs
    // follows the table (`informed` is empty).
    void your_turn(std::uint64_t user, const std::function<protocol::Json()>& message,
                   std::span<const Peer* const> informed = {},
                   const std::function<TurnNotice()>& mail = {});
    // As your_turn, for a turn that another server process sharing the database began: that
    // process told the webhook and the mail, so `message()` goes to this process's connections
    // of the user only (but those in `informed`), made only if there are any.
    void your_turn_here(std::uint64_t user, const std::function<protocol::Json()>& message,
                        std::span<const Peer* const> informed = {});
    // Whether the user has a connection open to this process or, with several processes
    // sharing the store, to another (as that process last told, at most a beat ago).
    bool online(std::uint64_t user);
    // `message` goes to the user's connections only, on every process sharing the store.
    void tell(std::uint64_t user, const protocol::Json& message);
    // A message that another process told (`tell`): to this process's connections of the user;
    // or a session that another process ended (`end_session`): its connections here close.
    void tell_here(std::uint64_t user, const std::string& message);
    // This process stops: the others sharing the store forget its users now.
    void leave() { presence_.leave(); }
    // The session with this key ended (a logout, a new password, an erased account): its
    // connections close, on every process sharing the store.
    void end_session(std::uint64_t user, std::uint64_t session_key);

  private:
    void end_session_here(std::uint64_t user, std::uint64_t session_key);
    static void send_each(const std::vector<std::shared_ptr<Peer>>& peers, std::string message);
    // The user's open connections but those in `informed`; mutex_ held.
    std::vector<std::shared_ptr<Peer>> connections_of(std::uint64_t user,
                                                      std::span<const Peer* const> informed = {});

    Store& store_;
    Webhooks& webhooks_;
    Mailer& mailer_;
    std::mutex mutex_;
    std::unordered_map<std::uint64_t, std::vector<std::weak_ptr<Peer>>> peers_;
    // Webhook URLs (empty: none) read from the store at most once a minute per user, so that a
    // turn costs no query, and a URL changed through another server on the database counts soon.
    struct KnownWebhook {
        std::string url;
        std::chrono::steady_clock::time_point read;
    };
    std::unordered_map<std::uint64_t, KnownWebhook> webhooks_by_user_;
    Presence presence_;  // last: its thread may use what comes before it
};

}  // namespace gcor::server
