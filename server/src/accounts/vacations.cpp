#include "accounts/vacations.hpp"

#include <algorithm>
#include <string>

#include "accounts/vacation_time.hpp"

namespace gcor::server {

namespace {

using protocol::ErrorCode;

// Vacations that ended this long ago no longer matter: neither to this year's count of days nor
// to a turn (at most 60 days plus its player's vacations).
constexpr UnixMs kKeptMs = 400 * kDayMs;

}  // namespace

Vacations::Vacations(Store& store, int days_per_year)
    : store_(store), days_per_year_(days_per_year) {
    for (const UserVacation& row : store_.vacations_ending_after(unix_now_ms() - kKeptMs))
        users_[row.user].push_back(row.vacation);
}

std::optional<StoredVacation> Vacations::current(const std::vector<StoredVacation>& list,
                                                 UnixMs now) {
    const auto it = std::ranges::find_if(
        list, [now](const StoredVacation& vacation) { return vacation.ends > now; });
    if (it == list.end()) return std::nullopt;
    return *it;
}

int Vacations::days_used(const std::vector<StoredVacation>& list, int year) const {
    int days = 0;
    for (const StoredVacation& vacation : list)
        days += days_in_year(vacation, year);
    return days;
}

std::vector<StoredVacation> Vacations::list_of(std::uint64_t user) const {
    std::shared_lock lock(mutex_);
    const auto it = users_.find(user);
    return it == users_.end() ? std::vector<StoredVacation>() : it->second;
}

VacationState Vacations::state_of(const std::vector<StoredVacation>& list, UnixMs now) const {
    return VacationState{current(list, now),
                         std::max(0, days_per_year_ - days_used(list, year_of(now))),
                         days_per_year_};
}

VacationState Vacations::state(std::uint64_t user, UnixMs now) const {
    return state_of(list_of(user), now);
}

protocol::Expected<VacationState> Vacations::declare(std::uint64_t user, std::optional<UnixMs> from,
                                                     UnixMs to, UnixMs now) {
    auto refuse = [](ErrorCode code, std::string message) {
        return protocol::Error{code, std::move(message)};
    };
    if (days_per_year_ == 0)
        return refuse(ErrorCode::forbidden, "vacations are off on this server");
    const UnixMs starts = std::max(from.value_or(now), now);
    if (from && *from < now - kLeewayMs)
        return refuse(ErrorCode::bad_field, "\"from\" is in the past");
    if (starts > now + kMaxAheadMs)
        return refuse(ErrorCode::bad_field, "\"from\" is more than 366 days ahead");
    if (to <= starts) return refuse(ErrorCode::bad_field, "\"to\" must be after \"from\"");
    if (to - starts > kMaxLengthMs)
        return refuse(ErrorCode::bad_field, "a vacation lasts at most 732 days");

    std::lock_guard change(changes_);
    std::vector<StoredVacation> list = list_of(user);
    const auto running = current(list, now);
    std::vector<StoredVacation> replacing;
    if (running && running->starts <= now && starts == now) {
        replacing.push_back({running->starts, to});  // a new end for the running one
    } else {
        if (running && running->starts <= now) replacing.push_back({running->starts, now});
        replacing.push_back({starts, to});
    }
    std::erase_if(list, [now](const StoredVacation& vacation) { return vacation.ends > now; });
    list.insert(list.end(), replacing.begin(), replacing.end());
    for (int year = year_of(replacing.back().starts); year <= year_of(to - 1); ++year)
        if (const int used = days_used(list, year); used > days_per_year_)
            return refuse(ErrorCode::limit_reached,
                          "that is " + std::to_string(used) + " days of vacation in " +
                              std::to_string(year) + ", more than the " +
                              std::to_string(days_per_year_) + " a year allows");
    replace(user, now, replacing);
    return state(user, now);
}

VacationState Vacations::end(std::uint64_t user, UnixMs now) {
    std::lock_guard change(changes_);
    const auto running = current(list_of(user), now);
    if (running) {
        std::vector<StoredVacation> replacing;
        if (running->starts < now) replacing.push_back({running->starts, now});
        replace(user, now, replacing);
    }
    return state(user, now);
}

void Vacations::replace(std::uint64_t user, UnixMs now,
                        const std::vector<StoredVacation>& replacing) {
    store_.replace_vacations(user, now, replacing);
    std::unique_lock lock(mutex_);
    std::vector<StoredVacation>& list = users_[user];
    std::erase_if(list, [now](const StoredVacation& vacation) {
        return vacation.ends > now || vacation.ends < now - kKeptMs;
    });
    list.insert(list.end(), replacing.begin(), replacing.end());
    if (list.empty()) users_.erase(user);
}

void Vacations::reload(std::uint64_t user) {
    std::vector<StoredVacation> list;
    for (const UserVacation& row : store_.vacations_ending_after(unix_now_ms() - kKeptMs))
        if (row.user == user) list.push_back(row.vacation);
    std::unique_lock lock(mutex_);
    if (list.empty()) {
        users_.erase(user);
    } else {
        users_[user] = std::move(list);
    }
}

std::optional<UnixMs> Vacations::away_until(std::uint64_t user, UnixMs now) const {
    std::shared_lock lock(mutex_);
    const auto it = users_.find(user);
    if (it == users_.end()) return std::nullopt;
    for (const StoredVacation& vacation : it->second)
        if (vacation.starts <= now && now < vacation.ends) return vacation.ends;
    return std::nullopt;
}

SeatsAway Vacations::seats_away(const std::vector<StoredSeat>& seats, UnixMs now) const {
    SeatsAway away{};
    for (std::size_t seat = 0; seat < seats.size() && seat < away.size(); ++seat)
        if (seats[seat].kind == SeatKind::human) away[seat] = away_until(seats[seat].user, now);
    return away;
}

UnixMs Vacations::deadline(std::uint64_t user, UnixMs start, UnixMs per_move) const {
    std::shared_lock lock(mutex_);
    const auto it = users_.find(user);
    if (it == users_.end()) return start + per_move;
    return deadline_after(start, per_move, it->second);
}

UnixMs Vacations::turn_start(std::uint64_t user, UnixMs deadline, UnixMs per_move) const {
    std::shared_lock lock(mutex_);
    const auto it = users_.find(user);
    if (it == users_.end()) return deadline - per_move;
    return turn_start_before(deadline, per_move, it->second);
}

}  // namespace gcor::server
