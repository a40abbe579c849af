#include "sql_analysis_store.hpp"

namespace gcor::server {
namespace {

constexpr UnixMs kDayMs = 24 * 3600 * 1000;

constexpr const char* kSelectAnalysis =
    "SELECT user_id, claim, held_until, done, total, result FROM analyses WHERE table_id = $1";

std::optional<StoredAnalysis> analysis_of(Sql& db, const std::string& table) {
    const SqlRows rows = db.query(kSelectAnalysis, sql_params(table));
    if (rows.empty()) return std::nullopt;
    StoredAnalysis analysis;
    analysis.user = rows.uint64(0, 0);
    analysis.claim = rows.uint64(0, 1);
    analysis.held_until = rows.int64(0, 2);
    analysis.done = static_cast<std::size_t>(rows.int64(0, 3));
    analysis.total = static_cast<std::size_t>(rows.int64(0, 4));
    if (!rows.null(0, 5)) analysis.result = rows.text(0, 5);
    return analysis;
}

}  // namespace

std::optional<StoredAnalysis> SqlAnalysisStore::find_analysis(const std::string& table) {
    return access_.read_one([&](Sql& db) { return analysis_of(db, table); });
}

AnalysisClaim SqlAnalysisStore::claim_analysis(const std::string& table, std::uint64_t user,
                                               std::uint64_t claim, UnixMs now, UnixMs held_until,
                                               std::size_t per_day) {
    AnalysisClaim answer;
    access_.write_and_wait(
        [&](Sql& db) {
            answer = AnalysisClaim{};
            const auto existing = analysis_of(db, table);
            if (existing && (existing->result || existing->held_until >= now)) {
                answer.outcome = AnalysisClaim::Outcome::exists;
                answer.analysis = *existing;
                return;
            }
            const SqlRows running = db.query(
                "SELECT count(*) FROM analyses WHERE user_id = $1 AND result IS NULL AND "
                "held_until >= $2",
                sql_params(user, now));
            if (running.int64(0, 0) > 0) {
                answer.outcome = AnalysisClaim::Outcome::busy;
                return;
            }
            // A user's starts are kept for a day, then forgotten.
            db.query("DELETE FROM analysis_starts WHERE user_id = $1 AND started <= $2",
                     sql_params(user, now - kDayMs));
            const SqlRows started = db.query(
                "SELECT count(*) FROM analysis_starts WHERE user_id = $1", sql_params(user));
            if (static_cast<std::size_t>(started.int64(0, 0)) >= per_day) {
                answer.outcome = AnalysisClaim::Outcome::limit_reached;
                return;
            }
            // One statement takes the row, so that of two processes claiming it at once (the
            // read above seeing it free in both) one gets it: the other's update matches nothing.
            const SqlRows taken = db.query(
                "INSERT INTO analyses (table_id, user_id, claim, started, held_until, done, total) "
                "VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (table_id) DO UPDATE SET "
                "user_id = excluded.user_id, claim = excluded.claim, started = excluded.started, "
                "held_until = excluded.held_until, done = 0, total = 0 "
                "WHERE analyses.result IS NULL AND analyses.held_until < $4 RETURNING claim",
                sql_params(table, user, claim, now, held_until));
            if (taken.empty()) {
                answer.outcome = AnalysisClaim::Outcome::exists;
                answer.analysis = analysis_of(db, table).value_or(StoredAnalysis{});
                return;
            }
            db.query("INSERT INTO analysis_starts (user_id, started) VALUES ($1, $2)",
                     sql_params(user, now));
            answer.analysis = StoredAnalysis{user, claim, held_until, 0, 0, std::nullopt};
        },
        "claim a game review");
    return answer;
}

bool SqlAnalysisStore::hold_analysis(const std::string& table, std::uint64_t claim,
                                     std::size_t done, std::size_t total, UnixMs held_until) {
    bool held = false;
    access_.write_and_wait(
        [&](Sql& db) {
            held = db.query(
                         "UPDATE analyses SET done = $3, total = $4, held_until = $5 WHERE "
                         "table_id = $1 AND claim = $2 AND result IS NULL",
                         sql_params(table, claim, done, total, held_until))
                       .affected() == 1;
        },
        "keep a game review");
    return held;
}

bool SqlAnalysisStore::finish_analysis(const std::string& table, std::uint64_t claim,
                                       const std::string& result) {
    bool kept = false;
    access_.write_and_wait(
        [&](Sql& db) {
            kept = db.query(
                         "UPDATE analyses SET result = $3, done = total WHERE table_id = $1 "
                         "AND claim = $2 AND result IS NULL",
                         sql_params(table, claim, result))
                       .affected() == 1;
        },
        "keep a game review");
    return kept;
}

bool SqlAnalysisStore::drop_analysis(const std::string& table, std::uint64_t claim) {
    bool dropped = false;
    access_.write_and_wait(
        [&](Sql& db) {
            dropped = db.query(
                            "DELETE FROM analyses WHERE table_id = $1 AND claim = $2 AND "
                            "result IS NULL",
                            sql_params(table, claim))
                          .affected() == 1;
        },
        "cancel a game review");
    return dropped;
}

std::vector<AskedAnalysis> SqlAnalysisStore::analyses_asked_by(std::uint64_t user,
                                                               std::size_t limit) {
    return access_.read_one([&](Sql& db) {
        const SqlRows rows = db.query(
            "SELECT table_id, started, result IS NOT NULL FROM analyses WHERE user_id = $1 "
            "ORDER BY started DESC, table_id LIMIT $2",
            sql_params(user, limit));
        std::vector<AskedAnalysis> asked;
        for (int i = 0; i < rows.rows(); ++i)
            asked.push_back(AskedAnalysis{rows.text(i, 0), rows.int64(i, 1), rows.boolean(i, 2)});
        return asked;
    });
}

}  // namespace gcor::server
