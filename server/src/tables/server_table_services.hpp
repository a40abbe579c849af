#pragma once
// The narrow interfaces a table uses (table_services.hpp), implemented over the server's
// Services: each call forwards to the part of the server that owns it.
#include "services.hpp"
#include "tables/table_services.hpp"

namespace gcor::server {

class ServerTableServices final : public TableStorage,
                                  public ChatStorage,
                                  public TurnNotices,
                                  public ChatGuards,
                                  public BlockedUsers,
                                  public PlayerPreferences,
                                  public GameRatings {
  public:
    explicit ServerTableServices(Services& services) : services_(services) {}

    // What a table is made with.
    TableServices services();

    void save_table(const StoredTable& table, TableDone done) override;
    void remove_table(const std::string& id, std::uint64_t revision, TableDone done) override;
    void append_move(const TableProgress& table, const StoredMove& move, TableDone done) override;
    void append_chat(const std::string& table, const StoredChatLine& line, Done done) override;
    void delete_chat(const std::string& table, std::uint64_t n, Done done) override;
    std::optional<LoadedTable> load_table(const std::string& id) override;
    std::optional<LoadedTable> load_table_since(const std::string& id,
                                                std::uint64_t after) override;
    std::vector<StoredChatLine> chat_lines(const std::string& table,
                                           std::optional<std::uint64_t> before,
                                           std::size_t limit) override;

    void your_turn(std::uint64_t user, const Message& message,
                   std::span<const Peer* const> informed,
                   const std::function<TurnNotice()>& mail) override;
    void your_turn_here(std::uint64_t user, const Message& message,
                        std::span<const Peer* const> informed) override;
    void tell(std::uint64_t user, const protocol::Json& message) override;

    bool is_admin(const User& user) const override;
    bool muted(std::uint64_t user, std::uint64_t other) const override;
    std::optional<std::chrono::milliseconds> take_line(std::uint64_t user,
                                                       Clock::time_point now) override;

    bool blocked(std::uint64_t blocker, std::uint64_t user) const override;

    UserPreferences preferences_of(std::uint64_t user) const override;

    void rate_pending() override;

  private:
    Services& services_;
};

}  // namespace gcor::server
