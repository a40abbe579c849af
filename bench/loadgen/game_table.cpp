// Mode game: whole 4-seat games on cor-server with random legal moves.
#include <cstdio>
#include <exception>

#include "loadgen/table_driver.hpp"

namespace gcor::loadgen {
namespace {

// Plays games on cor-server: hello, create_table, sit, start, moves until the end, sync to check
// the result, again. With several nodes, a seat whose node closes its connection says hello with
// its token on the next node; a game in play then goes on from every seat's snapshot (`sync`), a
// game being set up starts over.
class GameTable : public TableDriver {
  public:
    using TableDriver::TableDriver;

  private:
    // resyncing: every seat asked for a snapshot (a node died, or a move was stale); the moves
    // go on once all four views are at one version.
    enum class Phase { hello, creating, sitting, starting, playing, checking, resyncing };

    struct Seat {
        std::vector<std::string> moves;
        std::uint64_t version = 0;
        bool welcomed = false;
        bool seated = false;
        bool has_snapshot = false;
        std::string token;  // the guest's session: hello with it after a reconnection
        Json view;          // --verify: the view, patched
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
        ++creates_;
        setup_retries_ = 0;
        table_.clear();
        for (Seat& s : state_) {
            s.seated = false;
            s.has_snapshot = false;
            s.moves.clear();
        }
        seat(0).send(Out{
            {"type", "create_table"},
            {"id", create_id()},
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
        // While a seat reconnects the others' news wait: what follows starts from snapshots.
        if (reconnecting_ != 0 && type != "welcome") return;
        if (type == "patch") return on_patch(s, me, text, at);
        if (type == "table" || type == "started" || type == "your_turn") return;
        if (type == "error") return on_error(s, text);
        const Json message = Json::parse(text, nullptr, false);
        if (message.is_discarded()) return fail(s, "not JSON: " + std::string(text));
        if (type == "welcome") {
            me.token = message.value("token", std::string());
            me.welcomed = true;
            if ((reconnecting_ & (1u << s)) != 0) return reconnected(s);
            if (phase_ != Phase::hello) return;
            for (const Seat& other : state_)
                if (!other.welcomed) return;
            return new_game();
        }
        if (type == "table_created") {
            if (message.value("id", std::string()) != create_id()) return;  // one given up
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
            return send_start();
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
        if (phase_ == Phase::resyncing) return resume();
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
        // Resyncing: what came before this seat's snapshot is in it.
        if (phase_ == Phase::resyncing && !me.has_snapshot) return;
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
        if (phase_ == Phase::resyncing) return resume();
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
    std::string create_id() const { return "create" + std::to_string(creates_); }

    void on_error(int s, std::string_view text) {
        const auto code = gcor::bench::string_member(text, "code");
        const auto id = gcor::bench::string_member(text, "id");
        // Setting up on several nodes: the creator's node has not yet heard of a sit made on
        // another node (not_full), or two sits on two nodes raced (stale_version): again, soon.
        const bool racing = code == "not_full" || code == "stale_version";
        if (racing && phase_ == Phase::starting && id == "start")
            return again(s, Out{{"type", "start"}, {"id", "start"}, {"table", table_}}.dump());
        if (racing && phase_ == Phase::sitting && id == "sit")
            return again(
                s, Out{{"type", "sit"}, {"id", "sit"}, {"table", table_}, {"seat", s}}.dump());
        // Another node stored a move at this version first (or the table reloaded): go on from
        // snapshots.
        if (code == "stale_version" && phase_ == Phase::playing) return resync();
        if (code == "stale_version" && phase_ == Phase::resyncing) return;
        fail(s, std::string(text));
    }

    // Sends `request` from seat s again after a short backoff (2 to 50 ms, about 2 s in all).
    void again(int s, std::string request) {
        if (++setup_retries_ > 40 * kSeats) return fail(s, "still refused: " + request);
        auto timer = std::make_shared<net::steady_timer>(io_);
        timer->expires_after(std::min(2ms * (1 << std::min(setup_retries_, 5)), 50ms));
        timer->async_wait(
            [this, s, request = std::move(request), timer, game = creates_](beast::error_code ec) {
                if (!ec && !shared_.stopping && game == creates_ && reconnecting_ == 0)
                    seat(s).send(request);
            });
    }

    void send_start() {
        seat(0).send(Out{{"type", "start"}, {"id", "start"}, {"table", table_}}.dump());
    }

    // Seat s's node closed its connection: hello with its token on the next node. A game in play
    // resyncs once every closed seat is back; one being set up starts over.
    void on_closed(int s) override {
        if (shared_.stopping) return;
        if (phase_ == Phase::playing || phase_ == Phase::resyncing) {
            phase_ = Phase::resyncing;
        } else if (phase_ != Phase::hello) {
            phase_ = Phase::creating;  // abandoned; a new game once everybody is back
            table_.clear();
        }
        waiting_for_ = 0;
        reconnecting_ |= 1u << s;
        reconnect(s, [this, s] {
            const std::string& token = state_[static_cast<std::size_t>(s)].token;
            seat(s).send((token.empty()
                              ? Out{{"type", "hello"}, {"name", "lg" + std::to_string(index_)}}
                              : Out{{"type", "hello"}, {"token", token}})
                             .dump());
        });
    }

    void reconnected(int s) {
        reconnecting_ &= ~(1u << s);
        shared_.reconnects.fetch_add(1, std::memory_order_relaxed);
        if (reconnecting_ != 0) return;
        if (phase_ == Phase::resyncing) return resync();
        for (const Seat& other : state_)
            if (!other.welcomed) return;  // still saying hello the first time
        new_game();
    }

    void resync() {
        shared_.resyncs.fetch_add(1, std::memory_order_relaxed);
        phase_ = Phase::resyncing;
        waiting_for_ = 0;
        for (int s = 0; s < kSeats; ++s) {
            state_[static_cast<std::size_t>(s)].has_snapshot = false;
            seat(s).send(Out{{"type", "sync"}, {"id", "resync"}, {"table", table_}}.dump());
        }
    }

    // Resyncing: play on once every seat has its snapshot and all are at one version.
    void resume() {
        for (const Seat& other : state_)
            if (!other.has_snapshot || other.version != state_[0].version) return;
        phase_ = Phase::playing;
        next_move(true);
    }

    Phase phase_ = Phase::hello;
    std::array<Seat, kSeats> state_;
    std::string table_;
    int mover_ = -1;
    std::uint64_t waiting_for_ = 0;
    unsigned patched_ = 0;
    int checks_left_ = 0;
    std::uint64_t move_ids_ = 0;
    std::uint64_t creates_ = 0;
    int setup_retries_ = 0;      // of this game's sits and start
    unsigned reconnecting_ = 0;  // seats whose connection is being opened again
    int printed_ = 0;
};

}  // namespace

std::unique_ptr<TableDriver> make_game_table(net::io_context& io, Shared& shared, Tally& tally,
                                             const Options& options, Pacing pacing,
                                             std::uint64_t index) {
    return std::make_unique<GameTable>(io, shared, tally, options, pacing, index);
}

}  // namespace gcor::loadgen
