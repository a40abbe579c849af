#include "tables/followers.hpp"

#include <algorithm>
#include <string>

#include "gcor/protocol/events.hpp"
#include "gcor/protocol/json_text.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/view_json.hpp"

namespace gcor::server {

void Followers::follow(const std::shared_ptr<Peer>& peer, std::optional<engine::Seat> seat,
                       std::uint64_t user) {
    for (Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) {
            viewer.seat = seat;
            viewer.user = user;
            return;
        }
    viewers_.push_back({peer, seat, user});
}

void Followers::unfollow(const Peer* peer) {
    std::erase_if(viewers_, [&](const Viewer& viewer) {
        const auto locked = viewer.peer.lock();
        return !locked || locked.get() == peer;
    });
}

bool Followers::follows(const Peer& peer) const {
    return std::ranges::any_of(
        viewers_, [&](const Viewer& viewer) { return viewer.peer.lock().get() == &peer; });
}

std::optional<Followers::Viewer> Followers::viewer_of(const std::shared_ptr<Peer>& peer) const {
    for (const Viewer& viewer : viewers_)
        if (viewer.peer.lock() == peer) return viewer;
    return std::nullopt;
}

const std::vector<Followers::Viewer>& Followers::live() {
    std::erase_if(viewers_, [](const Viewer& viewer) { return viewer.peer.expired(); });
    return viewers_;
}

std::vector<Followers::Viewer> Followers::take() {
    return std::exchange(viewers_, {});
}

void Followers::send_to_all(const Message& message) {
    send(message, [](const Viewer&, const Peer&) { return true; });
}

void Followers::send_patches(const Patches& patches, const std::shared_ptr<Peer>& except) const {
    // patches_for dropped the closed viewers; one closed since is skipped by its lock().
    for (const Viewer& viewer : viewers_)
        if (const Message& patch = patches[slot_of(viewer.seat)])
            if (const auto peer = viewer.peer.lock(); peer && peer != except) peer->send(patch);
}

Followers::Patches Followers::patches_for(const engine::State& before,
                                          std::optional<engine::Seat> could_undo,
                                          const engine::Game& after,
                                          const std::vector<engine::Event>& events,
                                          std::string_view id_json, std::uint64_t version) {
    Patches patches;
    // The views after the previous move are this move's views before: kept, not built again.
    if (!views_) views_ = std::make_unique<std::array<std::optional<engine::View>, kSlots>>();
    std::array<std::optional<engine::View>, kSlots>& views = *views_;
    const bool cached = views_version_ == version - 1;
    std::array<bool, kSlots> fresh{};
    // Each view after the move is made in this thread's scratch view, which then trades places
    // with the slot's view before: the lists keep their storage, so views stop allocating.
    thread_local engine::View after_view;
    const engine::View* shared_after = nullptr;  // a view after already built, once there is one
    // Likewise the shared parts of the messages, written into this thread's strings.
    thread_local std::string public_ops;
    thread_local std::string log;
    public_ops.clear();
    bool public_written = false;
    // The events differ between viewers only where they name a card that some may not see.
    const bool log_for_all = std::ranges::all_of(
        events, [](const engine::Event& event) { return event.known_to == engine::kEveryone; });
    bool log_written = false;
    for (const Viewer& viewer : live()) {
        const std::size_t slot = slot_of(viewer.seat);
        Message& patch = patches[slot];
        if (patch) continue;
        // A view not kept from the last move is built again, into whatever storage it had.
        const bool kept = cached && views[slot];
        if (!views[slot]) views[slot].emplace();
        if (!kept) {
            engine::view_for(before, viewer.seat, *views[slot]);
            views[slot]->undo = viewer.seat && viewer.seat == could_undo;
        }
        // What every viewer sees alike is built for the first viewer, then copied.
        if (shared_after)
            engine::view_for(after, viewer.seat, *shared_after, after_view);
        else
            engine::view_for(after, viewer.seat, after_view);
        // What every viewer sees alike is the same text for all: written once.
        if (!public_written) {
            protocol::append_public_ops(public_ops, *views[slot], after_view);
            public_written = true;
        }
        if (!log_for_all || !log_written) {
            log.clear();
            protocol::append_events_json(log, events, viewer.seat);
            log_written = true;
        }
        // Written as text: no JSON tree to build and dump. The viewer's own operations (its
        // hand, and its moves when it is to act) are mostly under 256 bytes.
        std::string text;
        text.reserve(128 + public_ops.size() + log.size() + 256);
        protocol::open_patch_message(text, id_json, version);
        protocol::append_view_patch(text, public_ops, *views[slot], after_view);
        protocol::close_patch_message(text, log);
        patch = make_message(std::move(text));
        std::swap(*views[slot], after_view);
        shared_after = &*views[slot];
        fresh[slot] = true;
    }
    for (std::size_t slot = 0; slot < kSlots; ++slot)
        if (!fresh[slot]) views[slot].reset();
    views_version_ = version;
    return patches;
}

}  // namespace gcor::server
