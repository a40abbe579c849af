// A table's chat lines on their own: who may write, the numbering, the latest lines kept in order
// and bounded, lines heard from another server, deletions and what each reader's mutes hide.
#include <catch2/catch.hpp>
#include <set>
#include <utility>

#include "tables/chat_lines.hpp"

namespace gcor::server {
namespace {

using protocol::ChatSetting;
using protocol::ErrorCode;

// Mutes of the test's own: (reader, writer) pairs.
class Mutes final : public ChatGuards {
  public:
    std::set<std::pair<std::uint64_t, std::uint64_t>> muted_pairs;
    bool is_admin(const User&) const override { return false; }
    bool muted(std::uint64_t user, std::uint64_t other) const override {
        return muted_pairs.contains({user, other});
    }
    std::optional<std::chrono::milliseconds> take_line(std::uint64_t, Clock::time_point) override {
        return std::nullopt;
    }
};

protocol::TableSettings with_chat(ChatSetting chat, bool spectators = true) {
    protocol::TableSettings settings;
    settings.chat = chat;
    settings.spectators = spectators;
    return settings;
}

std::optional<ErrorCode> refused(const ChatLines& chat, std::optional<engine::Seat> seat,
                                 bool follows) {
    const auto refusal = chat.refusal(seat, follows);
    return refusal ? std::optional(refusal->first) : std::nullopt;
}

}  // namespace

TEST_CASE("table chat: who may write", "[server]") {
    Mutes mutes;
    const ChatLines all(with_chat(ChatSetting::all), mutes);
    CHECK_FALSE(refused(all, 0, false));
    CHECK_FALSE(refused(all, std::nullopt, true));
    CHECK(refused(all, std::nullopt, false) == ErrorCode::chat_not_allowed);  // watch first
    CHECK(all.refusal_may_lift(std::nullopt));
    CHECK_FALSE(all.refusal_may_lift(0));

    const ChatLines players(with_chat(ChatSetting::players), mutes);
    CHECK_FALSE(refused(players, 1, false));
    CHECK(refused(players, std::nullopt, true) == ErrorCode::chat_not_allowed);

    const ChatLines off(with_chat(ChatSetting::off), mutes);
    CHECK(refused(off, 0, true) == ErrorCode::chat_not_allowed);
    CHECK_FALSE(off.refusal_may_lift(std::nullopt));

    const ChatLines closed(with_chat(ChatSetting::all, false), mutes);
    CHECK(refused(closed, std::nullopt, true) == ErrorCode::spectators_not_allowed);
}

TEST_CASE("table chat: numbered lines, the latest kept in order, the mutes hide", "[server]") {
    Mutes mutes;
    ChatLines chat(with_chat(ChatSetting::all), mutes);
    chat.restore({}, 4);  // four lines before, none kept (deleted, say)
    const StoredChatLine first = chat.new_line(User{7, "ann"}, 0, "hi", 1000);
    CHECK(first.n == 5);
    CHECK(first.seat == 0);
    CHECK_FALSE(chat.knows(5));  // not stored yet
    chat.keep(first);
    CHECK(chat.knows(5));
    CHECK(chat.numbered(5));
    CHECK_FALSE(chat.numbered(6));

    // Heard from another server, out of order: kept in number order, the numbering follows.
    const StoredChatLine later{8, 9, "cy", std::nullopt, "late", 3000};
    const StoredChatLine earlier{7, 8, "bob", 1, "early", 2000};
    CHECK(chat.heard(later));
    CHECK(chat.heard(earlier));
    CHECK_FALSE(chat.heard(earlier));
    CHECK(chat.new_line(User{7, "ann"}, 0, "again", 4000).n == 9);
    const protocol::Json recent = chat.recent_for(7);
    REQUIRE(recent.size() == 3);
    CHECK(recent[0]["n"] == 5);
    CHECK(recent[1]["n"] == 7);
    CHECK(recent[2]["from"]["seat"].is_null());
    CHECK(recent[1] == ChatLines::line_json(earlier));

    mutes.muted_pairs.insert({7, 8});
    CHECK_FALSE(chat.reads(7, 8));
    CHECK(chat.reads(8, 7));
    CHECK(chat.recent_for(7).size() == 2);
    CHECK(chat.recent_for(8).size() == 3);

    chat.remove(7);
    CHECK_FALSE(chat.knows(7));
    CHECK(chat.numbered(7));  // its number stays taken
    CHECK(chat.recent_for(8).size() == 2);
}

TEST_CASE("table chat: at most the latest kRecentChatLines are kept", "[server]") {
    Mutes mutes;
    ChatLines chat(with_chat(ChatSetting::all), mutes);
    for (std::size_t i = 0; i < kRecentChatLines + 5; ++i)
        chat.keep(chat.new_line(User{7, "ann"}, 0, "line", 0));
    const protocol::Json recent = chat.recent_for(1);
    REQUIRE(recent.size() == kRecentChatLines);
    CHECK(recent.front()["n"] == 6);
    CHECK_FALSE(chat.knows(5));
}

}  // namespace gcor::server
