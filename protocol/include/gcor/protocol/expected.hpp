#pragma once
// An error value for untrusted input: a stable code (docs/protocol.md, "Errors") for programs
// and a message for people.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace gcor::protocol {

// Stable error codes: never renumber or rename one (clients match on the text).
enum class ErrorCode : std::uint8_t {
    bad_json,
    too_deep,
    unknown_type,
    bad_field,
    hello_first,
    bad_token,
    not_found,
    table_full,
    seat_taken,
    already_seated,
    not_seated,
    not_started,
    already_started,
    not_full,
    spectators_not_allowed,
    not_your_turn,
    illegal_move,
    stale_version,
    game_over,
    rate_limited,
    too_many_connections,
    internal,
    bad_credentials,
    name_taken,
    storage_failed,
    forbidden,         // only a league's organizer or an admin may do that
    registered_only,   // guests may not do that
    wrong_state,       // the league's season is not in the state the request needs
    cannot_undo,       // the move may not be taken back (the message says why)
    chat_not_allowed,  // the table's chat setting does not let this user write
    limit_reached,     // a per-user limit is reached (the message says which)
    mail_unavailable,  // this server sends no mail (it has no SMTP relay)
    token_expired,     // a password reset's link is older than its hour
    seat_reserved,     // the seat is kept for an invited player
    cannot_invite,     // no registered player who can be invited has that name or id
    not_finished,      // only a finished game may be reviewed
    analysis_busy,     // the user's review of another game is still running
};
constexpr ErrorCode kLastErrorCode = ErrorCode::analysis_busy;
std::string_view error_id(ErrorCode code);

// The one shape of an error, from a request parsed to the HTTP API and the leagues: a stable code
// for programs and a message for people.
struct Error {
    ErrorCode code;
    std::string message;
};

// A value or the Error that prevented it (std::expected arrives with C++23).
template <class T>
class Expected {
  public:
    Expected(T value) : value_(std::move(value)) {}
    Expected(Error error) : value_(std::move(error)) {}

    bool has_value() const { return value_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T& operator*() { return std::get<0>(value_); }
    const T& operator*() const { return std::get<0>(value_); }
    T* operator->() { return &std::get<0>(value_); }
    const T* operator->() const { return &std::get<0>(value_); }
    const Error& error() const { return std::get<1>(value_); }

  private:
    std::variant<T, Error> value_;
};

}  // namespace gcor::protocol
