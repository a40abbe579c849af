// Mode game: whole 4-seat games on cor-server with random legal moves.
#include <cstdio>
#include <exception>

#include "loadgen/table_driver.hpp"

namespace gcor::loadgen {
namespace {

// Plays games on cor-server: hello, create_table, sit, start, moves until the end, sync to check
// the result, again.
class GameTable : public TableDriver {
  public:
    using TableDriver::TableDriver;

  private:
    enum class Phase { hello, creating, sitting, starting, playing, checking };

    struct Seat {
        std::vector<std::string> moves;
        std::uint64_t version = 0;
        bool welcomed = false;
        bool seated = false;
        bool has_snapshot = false;
        Json view;  // --verify: the view, patched
        Clock::time_point patched{};
    };

    void on_open() override {
        phase_ = Phase::hello;
        for (int s = 0; s < kSeats; ++s)
            seat(s).send(Out{{"type", "hello"},
                             {"name", "lg" + std::to_string(index_) + "-" + std::to_string(s)}}
                             .dump());
    }

    void new_game() {
        phase_ = Phase::creating;
        table_.clear();
        for (Seat& s : state_) {
            s.seated = false;
            s.has_snapshot = false;
            s.moves.clear();
        }
        seat(0).send(Out{
            {"type", "create_table"},
            {"id", "create"},
            {"options", {{"players", kSeats}, {"rules", options_.rules}, {"shrine", false}}},
            {"public", false},
            {"spectators", false},
            {"sit",
             true}}.dump());
    }

    void fail(int s, const std::string& what) {
        ++tally_.errors;
        tally_.problem("table " + std::to_string(index_) + " (" + table_ + ") seat " +
                       std::to_string(s) + ": " + what);
        // Start over with a new table: this one's state is unknown.
        if (!shared_.stopping) new_game();
    }

    void on_message(int s, std::string_view text, Clock::time_point at) override {
        Seat& me = state_[static_cast<std::size_t>(s)];
        const std::string_view type = gcor::bench::message_type(text);
        if (type == "patch") return on_patch(s, me, text, at);
        if (type == "table" || type == "started") return;
        if (type == "error") return fail(s, std::string(text));
        const Json message = Json::parse(text, nullptr, false);
        if (message.is_discarded()) return fail(s, "not JSON: " + std::string(text));
        if (type == "welcome") {
            me.welcomed = true;
            for (const Seat& other : state_)
                if (!other.welcomed) return;
            return new_game();
        }
        if (type == "table_created") {
            table_ = message["table"]["id"].get<std::string>();
            return;
        }
        if (type == "seated") {
            if (message.value("table", std::string()) != table_) return;
            me.seated = true;
            if (s == 0 && phase_ == Phase::creating) {
                phase_ = Phase::sitting;
                for (int other = 1; other < kSeats; ++other)
                    seat(other).send(Out{
                        {"type", "sit"},
                        {"id", "sit"},
                        {"table", table_},
                        {"seat", other}}.dump());
                return;
            }
            for (const Seat& other : state_)
                if (!other.seated) return;
            phase_ = Phase::starting;
            seat(0).send(Out{{"type", "start"}, {"id", "start"}, {"table", table_}}.dump());
            return;
        }
        if (type == "snapshot") return on_snapshot(s, me, message);
        fail(s, "unexpected message " + std::string(text.substr(0, 200)));
    }

    void on_snapshot(int s, Seat& me, const Json& message) {
        if (message.value("table", std::string()) != table_) return;
        const Json& view = message["view"];
        me.version = message["version"].get<std::uint64_t>();
        me.moves = view["moves"].get<std::vector<std::string>>();
        if (options_.verify) me.view = view;
        me.has_snapshot = true;
        if (phase_ == Phase::starting) {
            for (const Seat& other : state_)
                if (!other.has_snapshot) return;
            phase_ = Phase::playing;
            return next_move(true);
        }
        if (phase_ == Phase::checking) {
            const bool over = view["phase"] == "game_over" && !view["result"].is_null() &&
                              view["to_act"].is_null();
            bool same = true;
            if (options_.verify) same = me.view == view;  // the patched view is the server's
            if (!over || !same) {
                ++tally_.invalid_games;
                tally_.problem("table " + table_ + " seat " + std::to_string(s) +
                               (over ? ": patched view differs from the snapshot"
                                     : ": no moves left but the game is not over"));
            }
            if (--checks_left_ > 0) return;
            ++shared_.games;
            return new_game();
        }
    }

    void on_patch(int s, Seat& me, std::string_view text, Clock::time_point at) {
        const auto table = gcor::bench::string_member(text, "table");
        if (!table || *table != table_) return;  // a table left behind
        const auto from = gcor::bench::number_member(text, "from");
        const auto to = gcor::bench::number_member(text, "to");
        if (!from || !to || *from != me.version || *to != me.version + 1)
            return fail(s, "patch from " + std::to_string(from.value_or(0)) + " at version " +
                               std::to_string(me.version));
        me.version = *to;
        me.patched = at;
        record_patch(text.size());
        if (s == 0 && index_ == 0 && printed_ < options_.print_patches) {
            ++printed_;
            std::fprintf(stderr, "%.*s\n", static_cast<int>(text.size()), text.data());
        }
        try {
            record_operations(text);
            if (auto moves = gcor::bench::patched_moves(text, me.moves))
                me.moves = std::move(*moves);
        } catch (const std::exception& error) {
            return fail(s, error.what());
        }
        if (options_.verify) {
            const Json patch = Json::parse(text, nullptr, false);
            me.view = me.view.patch(patch["ops"]);
            if (me.view["moves"].get<std::vector<std::string>>() != me.moves)
                return fail(s, "the moves read from a patch differ from the patched view");
            ++tally_.verified_patches;
        }
        if (*to != waiting_for_) return;
        // The mover's patch acknowledges its move.
        if (s == mover_ && gcor::bench::string_member(text, "move_id") != move_id()) return;
        patched_ |= 1u << s;
        if (patched_ != (1u << kSeats) - 1) return;
        Clock::time_point last{};
        for (const Seat& other : state_)
            last = std::max(last, other.patched);
        move_completed(last);
        waiting_for_ = 0;
        next_move(false);
    }

    void send_move() override {
        if (phase_ != Phase::playing) return;
        int to_act = -1;
        for (int s = 0; s < kSeats; ++s)
            if (!state_[static_cast<std::size_t>(s)].moves.empty()) {
                if (to_act >= 0) return fail(s, "two seats have legal moves");
                to_act = s;
            }
        if (to_act < 0) {
            // No seat may move: the game should be over; every seat checks with a snapshot.
            phase_ = Phase::checking;
            checks_left_ = options_.verify ? kSeats : 1;
            for (int s = 0; s < checks_left_; ++s)
                seat(s).send(Out{{"type", "sync"}, {"id", "check"}, {"table", table_}}.dump());
            return;
        }
        Seat& me = state_[static_cast<std::size_t>(to_act)];
        std::uniform_int_distribution<std::size_t> pick(0, me.moves.size() - 1);
        mover_ = to_act;
        waiting_for_ = me.version + 1;
        patched_ = 0;
        ++move_ids_;
        seat(to_act).send(Out{{"type", "move"},
                              {"table", table_},
                              {"version", me.version},
                              {"move_id", move_id()},
                              {"move", me.moves[pick(rng_)]}}
                              .dump());
    }

    std::string move_id() const { return "m" + std::to_string(move_ids_); }

    Phase phase_ = Phase::hello;
    std::array<Seat, kSeats> state_;
    std::string table_;
    int mover_ = -1;
    std::uint64_t waiting_for_ = 0;
    unsigned patched_ = 0;
    int checks_left_ = 0;
    std::uint64_t move_ids_ = 0;
    int printed_ = 0;
};

}  // namespace

std::unique_ptr<TableDriver> make_game_table(net::io_context& io, Shared& shared, Tally& tally,
                                             const Options& options, Pacing pacing,
                                             std::uint64_t index) {
    return std::make_unique<GameTable>(io, shared, tally, options, pacing, index);
}

}  // namespace gcor::loadgen
