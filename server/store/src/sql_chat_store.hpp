#pragma once
// Tables' chat and users' mutes, written once for both databases.
#include "gcor/store/chat_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlChatStore : public virtual ChatStore {
  public:
    explicit SqlChatStore(StoreAccess& access) : access_(access) {}

    void append_chat(const std::string& table, const StoredChatLine& line, Done done) override;
    void delete_chat(const std::string& table, std::uint64_t n, Done done) override;
    std::vector<StoredChatLine> chat_lines(const std::string& table,
                                           std::optional<std::uint64_t> before,
                                           std::size_t limit) override;
    std::vector<UserChatLine> chat_lines_of(std::uint64_t user, std::size_t limit) override;
    void set_muted(std::uint64_t user, std::uint64_t other, bool muted) override;
    std::vector<std::uint64_t> muted_by(std::uint64_t user) override;

  private:
    StoreAccess& access_;
};

// What loading a table reads of its chat, inside the load's snapshot.
std::vector<StoredChatLine> select_chat_lines(Sql& db, const std::string& table,
                                              std::optional<std::uint64_t> before,
                                              std::size_t limit);
// The highest line number given (deleted lines count); 0 for none.
std::uint64_t select_last_chat_line(Sql& db, const std::string& table);

}  // namespace gcor::server
