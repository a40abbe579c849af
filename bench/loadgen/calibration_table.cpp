// Mode calibration: the game's traffic against cor-calibrate, which plays no game.
#include "loadgen/table_driver.hpp"

namespace gcor::loadgen {
namespace {

// The same traffic against the calibration server: one message in, four of `patch_bytes` out.
class CalibrationTable : public TableDriver {
  public:
    using TableDriver::TableDriver;

  private:
    void on_open() override {
        for (int s = 0; s < kSeats; ++s)
            seat(s).send(Out{{"type", "join"}, {"group", index_}, {"seat", s}}.dump());
    }

    void on_message(int s, std::string_view text, Clock::time_point at) override {
        const std::string_view type = gcor::bench::message_type(text);
        if (type == "joined") {
            if (++joined_ == kSeats) next_move(true);
            return;
        }
        if (type != "patch") {
            ++tally_.errors;
            tally_.problem("calibration: unexpected " + std::string(text.substr(0, 100)));
            return;
        }
        record_patch(text.size());
        last_ = std::max(last_, at);
        if ((patched_ |= 1u << s) == (1u << kSeats) - 1) {
            move_completed(last_);
            next_move(false);
        }
    }

    void send_move() override {
        patched_ = 0;
        last_ = {};
        std::uniform_int_distribution<int> pick(0, kSeats - 1);
        // The size of a real move request (about 100 bytes).
        seat(pick(rng_))
            .send(Out{{"type", "move"},
                      {"group", index_},
                      {"bytes", options_.patch_bytes},
                      {"move_id", "m" + std::to_string(++move_ids_)},
                      {"move", "build 17 1,0"},
                      {"pad", "t0123456789abcdef"}}
                      .dump());
    }

    int joined_ = 0;
    unsigned patched_ = 0;
    Clock::time_point last_{};
    std::uint64_t move_ids_ = 0;
};

}  // namespace

std::unique_ptr<TableDriver> make_calibration_table(net::io_context& io, Shared& shared,
                                                    Tally& tally, const Options& options,
                                                    Pacing pacing, std::uint64_t index) {
    return std::make_unique<CalibrationTable>(io, shared, tally, options, pacing, index);
}

}  // namespace gcor::loadgen
