#pragma once
// Invitations to a table (docs/protocol.md, "Invitations"): who create_table's "invite" names,
// telling them, and GET /api/invitations. What a table does with its reserved seats is
// tables/table_invitations.hpp.
#include <string>
#include <vector>

#include "accounts/blocks.hpp"
#include "gcor/protocol/expected.hpp"
#include "gcor/protocol/requests.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"
#include "net/api_responder.hpp"
#include "services.hpp"

namespace gcor::server {

// The invited users, each a registered player other than `host`, each once; or cannot_invite
// (the same answer for every user who cannot be invited: unknown, a guest, one who blocked the
// host or whom the host blocked) or bad_field. Blocks on the store: the blocking pool only.
protocol::Expected<std::vector<User>> resolve_invitees(
    AccountStore& accounts, const Blocks& blocks, const User& host,
    const std::vector<protocol::requests::Invitee>& invitees);

// Tells each invited user of the new table `summary`: an `invitation` on every connection they
// have, and a mail (queued from the blocking pool) if they want invitations mailed.
void send_invitations(Services& services, const User& host, const std::vector<User>& invitees,
                      const protocol::Json& summary);

namespace api {

// GET /api/invitations: the signed-in user's own open invitations, newest first.
http::response<http::string_body> invitations_api(Services& services, Responder& respond,
                                                  const http::request<http::string_body>& request);

}  // namespace api
}  // namespace gcor::server
