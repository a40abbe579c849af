#pragma once
// The connections that follow a table (each as a seat or a spectator, and as a user whose mutes
// filter the chat it gets) and the patches a change sends them: one per distinct viewer, made
// from each viewer's view before and after, serialized once and shared by every connection of
// that viewer. The views after a move are kept as the next move's views before. Used on the
// table's strand only; followers are held weakly (a closed connection drops out by itself).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "gcor/engine/game.hpp"
#include "gcor/engine/view.hpp"
#include "net/peer.hpp"

namespace gcor::server {

class Followers {
  public:
    struct Viewer {
        std::weak_ptr<Peer> peer;
        std::optional<engine::Seat> seat;  // nullopt: a spectator
        std::uint64_t user = 0;            // whose mutes filter the chat it gets
    };
    static constexpr std::size_t kSlots = engine::kMaxPlayers + 1;  // the seats, the spectators
    // Per viewer slot (its seat's, then the spectators'), the patch of a change; null: no viewer.
    using Patches = std::array<Message, kSlots>;

    // Follows as `seat` (or a spectator), or changes how `peer` follows.
    void follow(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                std::uint64_t user);
    void unfollow(const Peer* peer);
    bool follows(const Peer& peer) const;
    // How `peer` follows, if it does.
    std::optional<Viewer> viewer_of(const std::shared_ptr<Peer>& peer) const;
    // The followers whose connection is open (the closed ones are dropped).
    const std::vector<Viewer>& live();
    // Every follower, who then follows nothing here (a retired table hands them over).
    std::vector<Viewer> take();

    // Sends `message` to each live follower for which `wants(viewer, peer)` holds.
    template <typename Wants>
    void send(const Message& message, Wants wants) {
        for (const Viewer& viewer : live())
            if (const auto peer = viewer.peer.lock(); peer && wants(viewer, *peer))
                peer->send(message);
    }
    void send_to_all(const Message& message);

    // The patches of the change from `before` to `after` (at `version`, one after the kept
    // views' when they are kept); `could_undo`: the seat whose view before offered an undo.
    Patches patches_for(const engine::State& before, std::optional<engine::Seat> could_undo,
                        const engine::Game& after, const std::vector<engine::Event>& events,
                        std::string_view id_json, std::uint64_t version);
    // Each follower's patch, but `except`'s (the mover's: its patch is its reply).
    void send_patches(const Patches& patches, const std::shared_ptr<Peer>& except = nullptr) const;
    // The state changed without a move (a forfeit): the kept views are no one's view before.
    void forget_views() { views_version_ = kNoViews; }

    static std::size_t slot_of(std::optional<engine::Seat> seat) {
        return seat ? *seat : engine::kMaxPlayers;
    }

  private:
    static constexpr std::uint64_t kNoViews = ~std::uint64_t{0};

    std::vector<Viewer> viewers_;
    // Each viewer slot's view after the change that made `views_version_` (the next patch's
    // "before"); kNoViews once the state changed otherwise. Made at the first move.
    std::unique_ptr<std::array<std::optional<engine::View>, kSlots>> views_;
    std::uint64_t views_version_ = kNoViews;
};

}  // namespace gcor::server
