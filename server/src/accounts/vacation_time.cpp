#include "accounts/vacation_time.hpp"

#include <algorithm>
#include <chrono>
#include <ranges>

namespace gcor::server {

int year_of(UnixMs time) {
    using namespace std::chrono;
    const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(time)));
    return static_cast<int>(year_month_day(day).year());
}

UnixMs year_start(int year) {
    using namespace std::chrono;
    const sys_days day = std::chrono::year(year) / January / 1;
    return duration_cast<milliseconds>(day.time_since_epoch()).count();
}

int days_in_year(const StoredVacation& vacation, int year) {
    const UnixMs from = std::max(vacation.starts, year_start(year));
    const UnixMs to = std::min(vacation.ends, year_start(year + 1));
    if (to <= from) return 0;
    return static_cast<int>((to - from + kDayMs - 1) / kDayMs);
}

UnixMs deadline_after(UnixMs start, UnixMs per_move, std::span<const StoredVacation> away) {
    UnixMs cursor = start;
    UnixMs left = per_move;
    for (const StoredVacation& vacation : away) {
        if (vacation.ends <= cursor) continue;
        if (vacation.starts > cursor) {
            if (left <= vacation.starts - cursor) break;
            left -= vacation.starts - cursor;
        }
        cursor = vacation.ends;
    }
    return cursor + left;
}

UnixMs turn_start_before(UnixMs deadline, UnixMs per_move, std::span<const StoredVacation> away) {
    UnixMs cursor = deadline;
    UnixMs left = per_move;
    for (const StoredVacation& vacation : std::views::reverse(away)) {
        if (vacation.starts >= cursor) continue;
        if (vacation.ends < cursor) {
            if (left <= cursor - vacation.ends) break;
            left -= cursor - vacation.ends;
        }
        cursor = vacation.starts;
    }
    return cursor - left;
}

}  // namespace gcor::server
