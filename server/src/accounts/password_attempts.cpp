#include "accounts/password_attempts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace gcor::server {

PasswordAttempts::Ticket::~Ticket() {
    if (!owner_) return;
    std::lock_guard lock(owner_->mutex_);
    --owner_->queued_;
}

std::string PasswordAttempts::account_key(std::string_view account) {
    // Names are told apart without regard to case (the store's name_key), so are their limits.
    std::string key(account);
    std::ranges::transform(key, key.begin(),
                           [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return key;
}

PasswordAttempts::Bucket& PasswordAttempts::refill(Buckets& buckets, const std::string& key,
                                                   int burst, Clock::duration every,
                                                   Clock::time_point now) {
    const auto [it, added] = buckets.try_emplace(key, Bucket{static_cast<double>(burst), now});
    Bucket& bucket = it->second;
    if (!added) {
        const double earned = std::chrono::duration<double>(now - bucket.refilled) /
                              std::chrono::duration<double>(every);
        bucket.tokens = std::min<double>(burst, bucket.tokens + std::max(0.0, earned));
        bucket.refilled = now;
    }
    return bucket;
}

std::chrono::seconds PasswordAttempts::wait_for_one(const Bucket& bucket, Clock::duration every) {
    const double missing = std::max(0.0, 1.0 - bucket.tokens);
    const double seconds = missing * std::chrono::duration<double>(every).count();
    return std::chrono::seconds(std::max<long>(1, static_cast<long>(std::ceil(seconds))));
}

// Keeps a map below max_keys: first forgets the keys whose bucket has refilled (they behave as
// new ones), then, under a flood of distinct keys, the half used longest ago.
void PasswordAttempts::bound(Buckets& buckets, int burst, Clock::duration every,
                             Clock::time_point now) {
    if (buckets.size() < limits_.max_keys) return;
    std::erase_if(buckets, [&](const auto& entry) {
        return now - entry.second.refilled >= every * (burst - entry.second.tokens);
    });
    if (buckets.size() < limits_.max_keys) return;
    std::vector<Clock::time_point> times;
    times.reserve(buckets.size());
    for (const auto& [key, bucket] : buckets)
        times.push_back(bucket.refilled);
    auto middle = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
    std::ranges::nth_element(times, middle);
    const Clock::time_point cutoff = *middle;
    std::erase_if(buckets, [&](const auto& entry) { return entry.second.refilled <= cutoff; });
}

std::variant<PasswordAttempts::Ticket, PasswordAttempts::Refusal> PasswordAttempts::admit(
    const std::string& address, std::string_view account, Clock::time_point now) {
    std::lock_guard lock(mutex_);
    bound(by_address_, limits_.address_burst, limits_.address_every, now);
    Bucket& from = refill(by_address_, address, limits_.address_burst, limits_.address_every, now);
    if (from.tokens < 1.0)
        return Refusal{wait_for_one(from, limits_.address_every),
                       "too many password attempts from your address"};
    if (!account.empty()) {
        bound(by_account_, limits_.account_burst, limits_.account_every, now);
        const Bucket& on = refill(by_account_, account_key(account), limits_.account_burst,
                                  limits_.account_every, now);
        if (on.tokens < 1.0)
            return Refusal{wait_for_one(on, limits_.account_every),
                           "too many wrong passwords for this account"};
    }
    if (queued_ >= limits_.queued)
        return Refusal{std::chrono::seconds(1), "the server is busy checking passwords"};
    from.tokens -= 1.0;
    ++queued_;
    return Ticket(*this);
}

std::optional<PasswordAttempts::Refusal> PasswordAttempts::account_refusal(std::string_view account,
                                                                           Clock::time_point now) {
    std::lock_guard lock(mutex_);
    bound(by_account_, limits_.account_burst, limits_.account_every, now);
    const Bucket& on = refill(by_account_, account_key(account), limits_.account_burst,
                              limits_.account_every, now);
    if (on.tokens >= 1.0) return std::nullopt;
    return Refusal{wait_for_one(on, limits_.account_every),
                   "too many wrong passwords for this account"};
}

std::size_t PasswordAttempts::remembered() {
    std::lock_guard lock(mutex_);
    return by_address_.size() + by_account_.size();
}

void PasswordAttempts::failed(std::string_view account, Clock::time_point now) {
    std::lock_guard lock(mutex_);
    bound(by_account_, limits_.account_burst, limits_.account_every, now);
    Bucket& on = refill(by_account_, account_key(account), limits_.account_burst,
                        limits_.account_every, now);
    on.tokens = std::max(0.0, on.tokens - 1.0);
}

}  // namespace gcor::server
