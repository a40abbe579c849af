#pragma once
// A table's chat as the table keeps it: its latest lines (for snapshots), the last number given,
// who may write, and what each reader may read (not the lines of users they muted). A value on
// the table's strand; the mutes are asked through ChatGuards (any thread).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gcor/engine/state.hpp"
#include "gcor/protocol/messages.hpp"
#include "gcor/protocol/table_settings.hpp"
#include "gcor/store/store.hpp"
#include "gcor/store/user.hpp"
#include "tables/table_services.hpp"

namespace gcor::server {

class ChatLines {
  public:
    using Refusal = std::pair<protocol::ErrorCode, const char*>;

    ChatLines(const protocol::TableSettings& settings, ChatGuards& guards)
        : setting_(settings.chat), spectators_(settings.spectators), guards_(guards) {}

    // The lines a restored table starts with, and the number of lines it ever had.
    void restore(std::vector<StoredChatLine> recent, std::uint64_t last_n);

    // Why a writer (at `seat`, or a spectator who `follows` the table or not) may not write;
    // nullopt: they may.
    std::optional<Refusal> refusal(std::optional<engine::Seat> seat, bool follows) const;
    // A spectator's refusal that a seat taken on another server may lift.
    bool refusal_may_lift(std::optional<engine::Seat> seat) const {
        return !seat && setting_ != protocol::ChatSetting::off;
    }
    // A new line, numbered after the last one.
    StoredChatLine new_line(const User& writer, std::optional<engine::Seat> seat, std::string text,
                            UnixMs at);
    // A line stored: kept among the latest.
    void keep(const StoredChatLine& line);
    // A line another server stored, in number order; false when it is known already.
    bool heard(const StoredChatLine& line);
    bool knows(std::uint64_t n) const;
    // A number given here or heard of: a deletion of a greater one is of a line unknown here.
    bool numbered(std::uint64_t n) const { return n <= last_n_; }
    void remove(std::uint64_t n);
    // Forgets the lines `writer` wrote (an erased account); returns their numbers.
    std::vector<std::uint64_t> remove_lines_of(std::uint64_t writer);

    // Whether `reader` reads `writer`'s lines (they did not mute them).
    bool reads(std::uint64_t reader, std::uint64_t writer) const {
        return !guards_.muted(reader, writer);
    }
    // The lines of `lines` that `reader` reads, as messages carry them.
    protocol::Json readable(std::uint64_t reader, const std::vector<StoredChatLine>& lines) const;
    // The latest lines that `reader` reads, for a snapshot.
    protocol::Json recent_for(std::uint64_t reader) const { return readable(reader, recent_); }

    // A line as every message carries it: {"n","from":{"user","name","seat"},"text","at"}.
    static protocol::Json line_json(const StoredChatLine& line);

  private:
    void bound();

    protocol::ChatSetting setting_;
    bool spectators_;
    ChatGuards& guards_;
    std::vector<StoredChatLine> recent_;  // at most kRecentChatLines, in number order
    std::uint64_t last_n_ = 0;
};

}  // namespace gcor::server
