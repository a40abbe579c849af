#include "net/social_api.hpp"

#include "accounts/blocks.hpp"
#include "notify/notifier.hpp"

namespace gcor::server::api {
namespace {

constexpr std::string_view kFriends = "/api/friends";
constexpr std::string_view kBlocks = "/api/blocks";

// The user's friends. A friend who blocked the user shows offline: that is all anybody may be,
// so it tells nothing of the block.
Json friends_json(Services& services, std::uint64_t user) {
    Json friends = Json::array();
    for (const ListedUser& listed : services.store.listed_by(Relation::friend_of, user))
        friends.push_back(Json{{"user", listed.user},
                               {"name", listed.name},
                               {"added", listed.added},
                               {"online", services.notifier.online(listed.user) &&
                                              !services.blocks.blocked(listed.user, user)}});
    return Json{{"friends", std::move(friends)}};
}

Json blocks_json(Services& services, std::uint64_t user) {
    Json blocks = Json::array();
    for (const ListedUser& listed : services.store.listed_by(Relation::blocks, user))
        blocks.push_back(
            Json{{"user", listed.user}, {"name", listed.name}, {"added", listed.added}});
    return Json{{"blocks", std::move(blocks)}};
}

// Puts a registered user on the user's friends, or takes them off.
Expected<bool> set_friend(Services& services, std::uint64_t user, std::uint64_t other,
                          bool listed) {
    if (other == user)
        return protocol::Error{ErrorCode::bad_field, "you cannot be your own friend"};
    if (!listed) {
        services.store.remove_listed(Relation::friend_of, user, other);
        return false;
    }
    const auto found = services.store.user_by_id(other);
    if (!found || found->guest)
        return protocol::Error{ErrorCode::not_found, "no player " + std::to_string(other)};
    if (!services.store.add_listed(Relation::friend_of, user, other, kMaxFriends))
        return protocol::Error{
            ErrorCode::limit_reached,
            "you have " + std::to_string(kMaxFriends) + " friends, the most: remove one first"};
    return true;
}

// The registered user the request's token names; bad_token or registered_only.
Expected<User> registered_user(Services& services, const Responder& respond, bool friends) {
    const auto user = services.accounts.resume(respond.bearer_token());
    if (!user)
        return protocol::Error{ErrorCode::bad_token,
                               "send \"Authorization: Bearer <token>\" with a live session token"};
    if (user->guest)
        return protocol::Error{ErrorCode::registered_only,
                               friends ? "only registered players keep friends"
                                       : "only registered players block others"};
    return *user;
}

}  // namespace

bool is_social_target(std::string_view path) {
    return path == kFriends || path.starts_with("/api/friends/") || path == kBlocks ||
           path.starts_with("/api/blocks/");
}

http::response<http::string_body> social_api(Services& services, Responder& respond,
                                             const http::request<http::string_body>& request,
                                             std::string_view path) {
    const bool friends = path.starts_with(kFriends);
    const std::string_view list = friends ? kFriends : kBlocks;
    const http::verb method = request.method();
    const auto answer = [&](std::uint64_t user) {
        return respond.json(http::status::ok,
                            friends ? friends_json(services, user) : blocks_json(services, user));
    };
    if (path == list) {
        if (method != http::verb::get) return respond.error(ErrorCode::bad_field, "GET the list");
        const auto user = registered_user(services, respond, friends);
        if (!user) return respond.error(user.error());
        return answer(user->id);
    }
    const auto other = number_of(path.substr(list.size() + 1));
    if (!other)
        return respond.error(ErrorCode::not_found, "no such resource: " + std::string(path));
    if (method != http::verb::put && method != http::verb::delete_)
        return respond.error(ErrorCode::bad_field, "PUT or DELETE one player of the list");
    const auto user = registered_user(services, respond, friends);
    if (!user) return respond.error(user.error());
    const auto body = respond.object_body();
    if (!body) return respond.error(body.error());
    if (!body->empty()) return respond.error(ErrorCode::bad_field, "this request takes no fields");
    const bool listed = method == http::verb::put;
    const auto changed = friends ? set_friend(services, user->id, *other, listed)
                                 : services.blocks.set(user->id, *other, listed);
    if (!changed) return respond.error(changed.error());
    return answer(user->id);
}

}  // namespace gcor::server::api
