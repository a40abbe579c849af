#pragma once
// The reviews of finished games, written once for both databases.
#include "gcor/store/analysis_store.hpp"
#include "store_access.hpp"

namespace gcor::server {

class SqlAnalysisStore : public virtual AnalysisStore {
  public:
    explicit SqlAnalysisStore(StoreAccess& access) : access_(access) {}

    std::optional<StoredAnalysis> find_analysis(const std::string& table) override;
    AnalysisClaim claim_analysis(const std::string& table, std::uint64_t user, std::uint64_t claim,
                                 UnixMs now, UnixMs held_until, std::size_t per_day) override;
    bool hold_analysis(const std::string& table, std::uint64_t claim, std::size_t done,
                       std::size_t total, UnixMs held_until) override;
    bool finish_analysis(const std::string& table, std::uint64_t claim,
                         const std::string& result) override;
    bool drop_analysis(const std::string& table, std::uint64_t claim) override;
    std::vector<AskedAnalysis> analyses_asked_by(std::uint64_t user, std::size_t limit) override;

  private:
    StoreAccess& access_;
};

}  // namespace gcor::server
