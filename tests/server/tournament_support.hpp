#pragma once
// Players of tournaments through the real server (docs/tournaments.md): registered users and
// guests who registered, their tables played out, and the tournament's detail awaited.
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "table_support.hpp"

namespace gcor::testing {

inline constexpr const char* kTourneyPassword = "round after round";

inline std::int64_t tourney_now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

struct TourneyPlayer {
    std::string name;
    std::uint64_t id = 0;
    std::string token;
    std::unique_ptr<Client> client;
};

inline void tourney_connect(const ServerProcess& server, TourneyPlayer& player) {
    player.client = std::make_unique<Client>(server.port());
    const auto welcome = player.client->request(Json{{"type", "hello"}, {"token", player.token}});
    REQUIRE(welcome);
    REQUIRE(type_of(*welcome) == "welcome");
}

// A registered user; `was_guest`: a guest first, who registers with its guest token (and keeps
// its user id).
inline TourneyPlayer tourney_player(const ServerProcess& server, const std::string& name,
                                    bool was_guest) {
    std::string guest_token;
    std::optional<std::uint64_t> guest_id;
    if (was_guest) {
        Client guest(server.port());
        const auto welcome = guest.request(Json{{"type", "hello"}, {"name", name}});
        REQUIRE(welcome);
        REQUIRE((*welcome)["user"]["guest"] == true);
        guest_token = (*welcome)["token"];
        guest_id = (*welcome)["user"]["id"].get<std::uint64_t>();
    }
    const auto made = server.post(
        "/api/register", Json{{"name", name}, {"password", kTourneyPassword}}.dump(), guest_token);
    REQUIRE(made.first == 201);
    const Json body = api_body(made);
    TourneyPlayer player{name, body["user"]["id"].get<std::uint64_t>(), body["token"], nullptr};
    if (guest_id) CHECK(player.id == *guest_id);
    tourney_connect(server, player);
    return player;
}

// Plays a tournament table (as GET /api/tournaments/{id} lists it) to its end, each seat by its
// player's client.
inline void tourney_play(const std::map<std::uint64_t, TourneyPlayer*>& players, const Json& table,
                         engine::Rng& rng) {
    std::vector<Client*> seats;
    for (const Json& seat : table["seats"])
        seats.push_back(players.at(seat["user"].get<std::uint64_t>())->client.get());
    play_table_to_the_end(table["table"], seats, rng);
}

// The tournament's detail once `ready` holds (the sweeps pair rounds by themselves).
inline Json tourney_detail_when(const ServerProcess& server, const std::string& path,
                                const std::function<bool(const Json&)>& ready) {
    for (int tries = 0; tries < 600; ++tries) {
        const Json detail = api_body(server.get(path));
        if (ready(detail)) return detail;
        std::this_thread::sleep_for(50ms);
    }
    FAIL("the tournament did not get there: " << api_body(server.get(path)).dump());
    return {};
}

}  // namespace gcor::testing
