// The load generator's pieces that need no network: what it measures is only as good as these.
#include <catch2/catch.hpp>

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <ctime>
#include <thread>

#include "loadgen_support.hpp"

using gcor::bench::Histogram;
using gcor::bench::SizeCounts;

TEST_CASE("histogram: exact below 128 ns, within 1.6% above, percentiles by rank") {
    Histogram histogram;
    for (std::uint64_t ns = 1; ns <= 100; ++ns)
        histogram.record(ns);
    CHECK(histogram.count() == 100);
    CHECK(histogram.percentile(0.5) == 50);
    CHECK(histogram.percentile(0.99) == 99);
    CHECK(histogram.max() == 100);
    CHECK(histogram.mean() == Approx(50.5));

    for (const std::uint64_t value : {1'000ull, 123'456ull, 5'000'000ull, 987'654'321'000ull}) {
        const std::uint64_t middle = Histogram::middle(Histogram::index(value));
        CHECK(static_cast<double>(middle) == Approx(static_cast<double>(value)).epsilon(0.016));
    }
    // Indexes grow with the value and stay inside the table, even for the largest values.
    std::size_t last = 0;
    for (std::uint64_t value = 1; value < (std::uint64_t{1} << 50); value = value * 3 / 2 + 1) {
        const std::size_t index = Histogram::index(value);
        CHECK(index >= last);
        CHECK(index < Histogram::kBuckets);
        last = index;
    }
}

TEST_CASE("histogram: a merge counts both, and the tail is the slow values") {
    Histogram fast, slow;
    for (int i = 0; i < 990; ++i)
        fast.record(200'000);  // 0.2 ms
    for (int i = 0; i < 10; ++i)
        slow.record(8'000'000);  // 8 ms
    fast.merge(slow);
    CHECK(fast.count() == 1000);
    CHECK(fast.percentile(0.5) == Approx(200'000).epsilon(0.016));
    CHECK(fast.percentile(0.995) == Approx(8'000'000).epsilon(0.016));
    CHECK(fast.max() == 8'000'000);
    CHECK(Histogram().percentile(0.5) == 0);
}

TEST_CASE("size counts: exact median and p90, sizes over 64 KiB count as 64 KiB") {
    SizeCounts sizes;
    for (std::size_t bytes = 1; bytes <= 10; ++bytes)
        sizes.record(bytes * 100);
    CHECK(sizes.percentile(0.5) == 500);
    CHECK(sizes.percentile(0.9) == 900);
    CHECK(sizes.mean() == Approx(550));
    SizeCounts huge;
    huge.record(1 << 20);
    sizes.merge(huge);
    CHECK(sizes.count() == 11);
    CHECK(sizes.percentile(1.0) == SizeCounts::kExact);
}

TEST_CASE("message scans: type, numbers and strings of the first matching member") {
    const std::string_view patch =
        R"({"type":"patch","table":"t1","from":41,"to":42,"ops":[{"op":"replace","path":"/to","value":7}],"log":["x"],"move_id":"m9"})";
    CHECK(gcor::bench::message_type(patch) == "patch");
    CHECK(gcor::bench::message_type(R"({"id":1,"type":"patch"})").empty());
    CHECK(gcor::bench::message_type("").empty());
    CHECK(gcor::bench::number_member(patch, "from") == 41u);
    CHECK(gcor::bench::number_member(patch, "to") == 42u);  // not "/to" inside a path
    CHECK_FALSE(gcor::bench::number_member(patch, "version").has_value());
    CHECK_FALSE(gcor::bench::number_member(R"({"to":"x"})", "to").has_value());
    CHECK(gcor::bench::string_member(patch, "table") == "t1");
    CHECK(gcor::bench::string_member(patch, "move_id") == "m9");
    CHECK_FALSE(gcor::bench::string_member(patch, "from").has_value());
}

TEST_CASE("patched moves: a replaced list is read, element changes are applied, none is none") {
    const std::vector<std::string> before{"take 5", "take 31"};
    const auto replaced = gcor::bench::patched_moves(
        R"({"type":"patch","ops":[{"op":"replace","path":"/moves","value":["place 0","place 1"]}]})",
        before);
    REQUIRE(replaced.has_value());
    CHECK(*replaced == std::vector<std::string>{"place 0", "place 1"});

    const auto emptied = gcor::bench::patched_moves(
        R"({"type":"patch","ops":[{"op":"replace","path":"/moves","value":[]}]})", before);
    REQUIRE(emptied.has_value());
    CHECK(emptied->empty());

    const auto changed = gcor::bench::patched_moves(
        R"({"type":"patch","ops":[{"op":"remove","path":"/moves/0"},{"op":"add","path":"/moves/-","value":"end"}]})",
        before);
    REQUIRE(changed.has_value());
    CHECK(*changed == std::vector<std::string>{"take 31", "end"});

    CHECK_FALSE(
        gcor::bench::patched_moves(
            R"({"type":"patch","ops":[{"op":"replace","path":"/to_act","value":1}]})", before)
            .has_value());
    CHECK_THROWS(gcor::bench::patched_moves(R"({"ops":[{"path":"/moves","value":["a")", before));
    CHECK_THROWS(gcor::bench::patched_moves(R"({"ops":[{"path":"/moves","value":[1]}]})", before));
}

TEST_CASE("operations bytes: the ops array alone, strings with brackets and escapes skipped") {
    const std::string_view ops = R"([{"op":"add","path":"/log/0","value":"a ] \" } ["}])";
    const std::string patch =
        std::string(R"({"type":"patch","table":"t1","from":1,"to":2,"ops":)") + std::string(ops) +
        R"(,"log":["[x]"]})";
    CHECK(gcor::bench::operations_bytes(patch) == ops.size());
    CHECK(gcor::bench::operations_bytes(R"({"type":"patch","ops":[],"log":[]})") == 2);
    CHECK(gcor::bench::operations_bytes(R"({"type":"welcome"})") == 0);
    CHECK_THROWS(gcor::bench::operations_bytes(R"({"type":"patch","ops":[{"op":"add")"));
}

TEST_CASE("server histogram: read off /metrics, the difference of two readings, bounds") {
    const std::string before =
        "# TYPE gcor_move_seconds histogram\n"
        "gcor_move_seconds_bucket{le=\"0.001\"} 10\n"
        "gcor_move_seconds_bucket{le=\"0.002\"} 12\n"
        "gcor_move_seconds_bucket{le=\"+Inf\"} 12\n"
        "gcor_move_seconds_count 12\n"
        "gcor_store_commit_seconds_bucket{le=\"0.001\"} 99\n";
    const std::string after =
        "gcor_move_seconds_bucket{le=\"0.001\"} 990\n"
        "gcor_move_seconds_bucket{le=\"0.002\"} 1011\n"
        "gcor_move_seconds_bucket{le=\"+Inf\"} 1012\n";
    const auto earlier = gcor::bench::read_histogram(before, "gcor_move_seconds");
    REQUIRE(earlier.bounds.size() == 3);
    CHECK(earlier.bounds[1] == 0.002);
    CHECK(std::isinf(earlier.bounds[2]));
    CHECK(earlier.count() == 12);
    const auto measured = gcor::bench::read_histogram(after, "gcor_move_seconds").since(earlier);
    // 1000 moves: 980 within 1 ms, 19 more within 2 ms, one slower.
    CHECK(measured.count() == 1000);
    CHECK(measured.percentile_bound(0.5) == 0.001);
    CHECK(measured.percentile_bound(0.98) == 0.001);  // the 980th of 1000
    CHECK(measured.percentile_bound(0.985) == 0.002);
    CHECK(measured.percentile_bound(0.99) == 0.002);
    CHECK(std::isinf(measured.percentile_bound(1.0)));
    CHECK(gcor::bench::BucketCounts{}.percentile_bound(0.5) == 0);
    // Readings of different buckets do not subtract; a histogram that is not there is empty.
    CHECK(measured.since(gcor::bench::read_histogram(before, "gcor_store_commit_seconds"))
              .bounds.empty());
    CHECK(gcor::bench::read_histogram(before, "gcor_missing_seconds").count() == 0);
    CHECK_THROWS(
        gcor::bench::read_histogram("gcor_move_seconds_bucket{le=\"x\"} 1\n", "gcor_move_seconds"));
    CHECK_THROWS(
        gcor::bench::read_histogram("gcor_move_seconds_bucket{le=\"0.1\"}\n", "gcor_move_seconds"));
}

TEST_CASE("server histogram: the readings of several nodes add up, other buckets are left out") {
    const auto one = gcor::bench::read_histogram(
        "gcor_move_seconds_bucket{le=\"0.001\"} 90\n"
        "gcor_move_seconds_bucket{le=\"+Inf\"} 100\n",
        "gcor_move_seconds");
    const auto two = gcor::bench::read_histogram(
        "gcor_move_seconds_bucket{le=\"0.001\"} 10\n"
        "gcor_move_seconds_bucket{le=\"+Inf\"} 100\n",
        "gcor_move_seconds");
    gcor::bench::BucketCounts sum;
    sum.add(one);  // an empty sum takes the first
    sum.add(two);
    sum.add(gcor::bench::BucketCounts{});  // a node that did not answer
    CHECK(sum.count() == 200);
    CHECK(sum.cumulative[0] == 100);
    CHECK(sum.percentile_bound(0.49) == 0.001);
    CHECK(std::isinf(sum.percentile_bound(0.51)));
}

TEST_CASE("process sample: this process has CPU time and memory, a missing one none") {
    // Busy for 50 ms of CPU time: /proc counts it in ticks of 10 ms.
    const std::clock_t start = std::clock();
    while (std::clock() - start < CLOCKS_PER_SEC / 20) {
    }
    const auto self = gcor::bench::sample_process(getpid());
    CHECK(self.ok);
    CHECK(self.cpu_seconds >= 0.03);
    CHECK(self.rss_kb > 0);
    CHECK_FALSE(gcor::bench::sample_process(-1).ok);
}

TEST_CASE("process sample: CPU time thread by thread, under the threads' names") {
    // A thread named as the server names its store's writer, busy for 50 ms of its own CPU time,
    // sampled while it is alive (a thread that ended leaves /proc).
    std::atomic<bool> busy_done{false};
    std::atomic<bool> may_end{false};
    std::thread busy([&] {
        pthread_setname_np(pthread_self(), "gcor-test-busy");
        timespec start{}, now{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
        do {
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
        } while ((now.tv_sec - start.tv_sec) * 1'000'000'000L + (now.tv_nsec - start.tv_nsec) <
                 50'000'000L);
        busy_done = true;
        busy_done.notify_one();
        may_end.wait(false);  // asleep, not counting, while sampled
    });
    busy_done.wait(false);
    const auto sample = gcor::bench::sample_process(getpid());
    may_end = true;
    may_end.notify_one();
    busy.join();
    REQUIRE(sample.ok);
    REQUIRE(sample.cpu_seconds_by_thread.count("gcor-test-busy") == 1);
    const double busy_seconds = sample.cpu_seconds_by_thread.at("gcor-test-busy");
    CHECK(busy_seconds >= 0.03);
    // The living threads' times add up to the process's (which also counts ended ones), give or
    // take the ticks counted while the threads were read after it.
    double threads = 0;
    for (const auto& [name, seconds] : sample.cpu_seconds_by_thread)
        threads += seconds;
    CHECK(threads <= sample.cpu_seconds + 0.02);
    CHECK(threads >= busy_seconds);
}
