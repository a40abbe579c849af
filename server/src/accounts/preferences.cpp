#include "accounts/preferences.hpp"

namespace gcor::server {

Preferences::Preferences(Store& store) : store_(store) {
    reload_all();
}

UserPreferences Preferences::of(std::uint64_t user) const {
    std::shared_lock lock(mutex_);
    const auto it = changed_.find(user);
    return it == changed_.end() ? UserPreferences{} : it->second;
}

void Preferences::set(std::uint64_t user, const UserPreferences& preferences) {
    // One change at a time: the store's order is the memory's.
    std::lock_guard changing(changing_);
    store_.set_preferences(user, preferences);
    // Stored first: what a table reads is never ahead of the store.
    keep(user, preferences);
}

void Preferences::reload(std::uint64_t user) {
    std::lock_guard changing(changing_);
    keep(user, store_.preferences_of(user));
}

void Preferences::reload_all() {
    std::unordered_map<std::uint64_t, UserPreferences> loaded;
    for (const UserPreferencesOf& changed : store_.changed_preferences())
        loaded[changed.user] = changed.preferences;
    std::unique_lock lock(mutex_);
    changed_ = std::move(loaded);
}

void Preferences::keep(std::uint64_t user, const UserPreferences& preferences) {
    std::unique_lock lock(mutex_);
    if (preferences == UserPreferences{})
        changed_.erase(user);
    else
        changed_[user] = preferences;
}

}  // namespace gcor::server
