#pragma once
// Friends and blocks, written once for both databases.
#include "gcor/store/social_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlSocialStore : public virtual SocialStore {
  public:
    explicit SqlSocialStore(StoreAccess& access) : access_(access) {}

    bool add_listed(Relation list, std::uint64_t user, std::uint64_t other,
                    std::size_t limit) override;
    void remove_listed(Relation list, std::uint64_t user, std::uint64_t other) override;
    std::vector<ListedUser> listed_by(Relation list, std::uint64_t user) override;
    std::vector<StoredBlock> all_blocks() override;

  private:
    StoreAccess& access_;
};

}  // namespace gcor::server
