#pragma once
// Limits on password attempts (register, login), which cost a tenth of a second of a core each:
// per client address, per account name, and on how many may wait for the hashing threads.
// Decided on the I/O thread before any hashing, so a refused attempt costs almost nothing.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>

namespace gcor::server {

class PasswordAttempts {
  public:
    using Clock = std::chrono::steady_clock;

    struct Limits {
        // Every attempt from an address: a burst, then one per `address_every`.
        int address_burst = 10;
        Clock::duration address_every = std::chrono::seconds(6);
        // Failed logins on an account, from any address: a burst, then one per `account_every`.
        // Attempts on an account that has none left are refused before the password is read.
        int account_burst = 5;
        Clock::duration account_every = std::chrono::seconds(30);
        // Attempts admitted and not yet finished, across all clients.
        int queued = 64;
        // Remembered addresses and names, each; past it the fullest buckets are forgotten.
        std::size_t max_keys = 65536;
    };

    // A place in the hashing queue, given back when destroyed.
    class Ticket {
      public:
        explicit Ticket(PasswordAttempts& owner) : owner_(&owner) {}
        Ticket(Ticket&& other) noexcept : owner_(std::exchange(other.owner_, nullptr)) {}
        Ticket(const Ticket&) = delete;
        Ticket& operator=(const Ticket&) = delete;
        Ticket& operator=(Ticket&&) = delete;
        ~Ticket();

      private:
        PasswordAttempts* owner_;
    };

    struct Refusal {
        std::chrono::seconds retry_after;  // for the Retry-After header, at least 1
        const char* reason;
    };

    PasswordAttempts() : PasswordAttempts(Limits{}) {}
    explicit PasswordAttempts(Limits limits) : limits_(limits) {}

    // One attempt from `address` on `account` (empty for a registration): a ticket when it may
    // go on (spending one of the address's attempts), or why not and for how long.
    std::variant<Ticket, Refusal> admit(const std::string& address, std::string_view account,
                                        Clock::time_point now);
    // Why an attempt on `account` would be refused now by the account's limit alone, without
    // spending anything: for requests whose account is known only once their session is read
    // (a password change), after admit gave them their place.
    std::optional<Refusal> account_refusal(std::string_view account, Clock::time_point now);
    // The attempt on `account` had a wrong password (or an unknown name).
    void failed(std::string_view account, Clock::time_point now);
    // Addresses and account names remembered now (each kind stays below Limits::max_keys).
    std::size_t remembered();

  private:
    struct Bucket {
        double tokens;
        Clock::time_point refilled;
    };
    using Buckets = std::unordered_map<std::string, Bucket>;

    // The bucket's tokens now (refilled since its last use); a new key starts full.
    static Bucket& refill(Buckets& buckets, const std::string& key, int burst,
                          Clock::duration every, Clock::time_point now);
    static std::chrono::seconds wait_for_one(const Bucket& bucket, Clock::duration every);
    void bound(Buckets& buckets, int burst, Clock::duration every, Clock::time_point now);
    static std::string account_key(std::string_view account);

    const Limits limits_;
    std::mutex mutex_;
    Buckets by_address_;
    Buckets by_account_;
    int queued_ = 0;
};

}  // namespace gcor::server
