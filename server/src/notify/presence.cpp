#include "notify/presence.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>

namespace gcor::server {

namespace {

// A process that missed this many beats is taken for dead, and its users for gone.
constexpr int kBeatsMissed = 3;

}  // namespace

Presence::Presence(Store& store, std::chrono::milliseconds beat)
    : store_(presence_store_of(store)), beat_(beat) {
    if (store_) thread_ = std::thread([this] { run(); });
}

Presence::~Presence() {
    leave();
}

void Presence::change(std::uint64_t user, bool present) {
    if (!store_) return;
    {
        std::lock_guard lock(mutex_);
        if (present) {
            here_.insert(user);
        } else {
            here_.erase(user);
        }
        changes_[user] = present;
    }
    wake_.notify_one();
}

void Presence::tell_elsewhere(std::uint64_t user, std::string message) {
    if (!store_) return;
    {
        std::lock_guard lock(mutex_);
        messages_.emplace_back(user, std::move(message));
    }
    wake_.notify_one();
}

bool Presence::elsewhere(std::uint64_t user) {
    if (!store_) return false;
    std::lock_guard lock(elsewhere_mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now - elsewhere_read_ >= beat_) {
        try {
            const std::vector<std::uint64_t> users = store_->users_elsewhere(kBeatsMissed * beat_);
            elsewhere_ = std::unordered_set<std::uint64_t>(users.begin(), users.end());
        } catch (const std::exception& failure) {
            spdlog::warn("cannot read who is connected to the other servers: {}", failure.what());
            elsewhere_.clear();
        }
        elsewhere_read_ = now;
    }
    return elsewhere_.contains(user);
}

void Presence::leave() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
    try {
        store_->leave();
    } catch (const std::exception& failure) {
        spdlog::warn("the other servers forget this one's users {} beats late: {}", kBeatsMissed,
                     failure.what());
    }
}

void Presence::run() {
    pthread_setname_np(pthread_self(), "gcor-presence");
    // Whether the store holds this process's users as here_ holds them, but for changes_.
    bool marked = false;
    auto next_beat = std::chrono::steady_clock::now();
    for (;;) {
        std::vector<std::uint64_t> all;  // to mark anew, when not marked
        std::vector<std::uint64_t> arrived;
        std::vector<std::uint64_t> gone;
        std::vector<std::pair<std::uint64_t, std::string>> messages;
        const bool beat = [&] {
            std::unique_lock lock(mutex_);
            wake_.wait_until(lock, next_beat, [&] {
                return stopping_ || !messages_.empty() || (marked && !changes_.empty());
            });
            messages.swap(messages_);
            for (const auto& [user, present] : changes_)
                (present ? arrived : gone).push_back(user);
            changes_.clear();
            return std::chrono::steady_clock::now() >= next_beat || !marked;
        }();
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return;
        }
        try {
            if (beat) {
                next_beat = std::chrono::steady_clock::now() + beat_;
                // Made anew, the row forgot this process's users (it was taken for dead).
                if (marked && store_->beat(kBeatsMissed * beat_)) marked = false;
                if (!marked) {
                    store_->leave();  // and with it the users who left while the store failed
                    store_->beat(kBeatsMissed * beat_);
                    {
                        std::lock_guard lock(mutex_);
                        all.assign(here_.begin(), here_.end());
                        changes_.clear();
                    }
                    arrived.clear();
                    gone.clear();
                    store_->mark_present(all, true);
                    marked = true;
                }
            }
            store_->mark_present(arrived, true);
            store_->mark_present(gone, false);
        } catch (const std::exception& failure) {
            spdlog::warn("cannot tell the other servers who is connected here: {}", failure.what());
            marked = false;
        }
        for (const auto& [user, message] : messages) {
            try {
                store_->tell_elsewhere(user, message);
            } catch (const std::exception& failure) {
                spdlog::warn("a message for user {} did not reach the other servers: {}", user,
                             failure.what());
            }
        }
    }
}

}  // namespace gcor::server
