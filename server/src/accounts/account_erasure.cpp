#include "accounts/account_erasure.hpp"

#include <spdlog/spdlog.h>

#include "accounts/accounts.hpp"
#include "accounts/blocks.hpp"
#include "accounts/preferences.hpp"
#include "accounts/vacations.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/store/store.hpp"
#include "notify/mailer.hpp"
#include "notify/notifier.hpp"
#include "tables/lobby.hpp"

namespace gcor::server {
namespace {

using protocol::Json;

// Every {"id": user, "name": …} in a final table gets the new name.
bool rename_in(Json& json, std::uint64_t user, const std::string& name) {
    bool renamed = false;
    if (json.is_object()) {
        const auto id = json.find("id");
        if (id != json.end() && id->is_number_unsigned() && id->get<std::uint64_t>() == user &&
            json.contains("name")) {
            json["name"] = name;
            renamed = true;
        }
    }
    if (json.is_structured())
        for (Json& member : json)
            renamed = rename_in(member, user, name) || renamed;
    return renamed;
}

// The finished seasons' final tables that name the user, with the new name.
std::vector<SeasonFinalTable> renamed_final_tables(Store& store, std::uint64_t user,
                                                   const std::string& name) {
    constexpr std::size_t kSeasonsOfAPlayer = 10'000;
    std::vector<SeasonFinalTable> renamed;
    for (const UserSeason& joined : store.seasons_of(user, kSeasonsOfAPlayer)) {
        if (joined.status != "finished") continue;
        const auto season = store.season(joined.league.id, joined.season);
        if (!season) continue;
        Json final_table = Json::parse(season->final_table, nullptr, false);
        if (!final_table.is_discarded() && rename_in(final_table, user, name))
            renamed.push_back(
                SeasonFinalTable{joined.league.id, joined.season, final_table.dump()});
    }
    return renamed;
}

}  // namespace

std::string erased_name(std::uint64_t user) {
    return "deleted player " + std::to_string(user);
}

std::string erase_account(Services& services, const User& user) {
    AccountErasure erasure{user.id, erased_name(user.id), unix_now_ms(), {}};
    erasure.final_tables = renamed_final_tables(services.store, user.id, erasure.name);
    const std::vector<std::string> sessions = services.store.erase_user(erasure);
    spdlog::info("user {} erased their account", user.id);
    // What the server kept in memory of the user.
    services.mailer.choices().forget(user.id);
    services.notifier.set_webhook(user.id, "");
    services.vacations.reload(user.id);
    services.preferences.reload(user.id);
    // Their blocks and the blocks of them are gone from the store: everybody's are read again.
    services.blocks.reload_all();
    for (const std::string& hash : sessions)
        services.notifier.end_session(user.id, session_key_of_hash(hash));
    services.lobby.erase_player(user.id, erasure.name);
    return erasure.name;
}

}  // namespace gcor::server
