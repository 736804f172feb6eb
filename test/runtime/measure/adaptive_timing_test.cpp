// Adaptive timing (PERF_TIMING, measure/adaptive_timing.hpp): every call counted
// exactly, a probe-dominated leaf timed on a random sample of its calls, an expensive
// function and a parent on every call, no aliasing with the program's own loop, the
// parent's self time kept right, PERF_TIMING=all and the _TIME_ALL forms timing
// every call. No figure is asserted against wall time: a sampled site's mean is
// judged against the same body timed on every call in the same process.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/settings.hpp"
#include "measure/adaptive_timing.hpp"
#include "measure/busy_loop.hpp"
#include "measure/fake_thread.hpp"
#include "measure/probe_cost.hpp"
#include "perf/perf.hpp"
#include "probe_runner.hpp"
#include "snapshot_lookup.hpp"

namespace perf::runtime {
namespace {

using perf::testing::stats_of;

uint64_t histogram_sum(const function_stats& f) {
  uint64_t sum = 0;
  for (const auto& [bucket, count] : f.histogram) sum += count;
  return sum;
}

// `iterations` turns of a loop the compiler keeps: about a cycle each.
__attribute__((noinline)) void spin(unsigned iterations) {
  for (unsigned k = 0; k < iterations; ++k) __asm__ __volatile__("" ::: "memory");
}

// The iterations of spin() that take about `ns`, measured on this machine.
unsigned spin_iterations_for(double ns) {
  constexpr unsigned measured = 1'000'000;
  double best = 1e300;
  for (int repetition = 0; repetition < 5; ++repetition) {
    const auto start = std::chrono::steady_clock::now();
    spin(measured);
    best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count());
  }
  return std::max(1u, static_cast<unsigned>(ns / (best / measured)));
}

// What a timed call costs its caller, in ns (measured at start-up).
double probe_ns() { return current_compensation().cost.outside / current_clock_rate().ticks_per_ns; }

__attribute__((noinline)) void empty_leaf() {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.empty_leaf");
  __asm__ __volatile__("");
}

TEST(AdaptiveTiming, EveryCallOfASampledLeafIsCountedAndASampleTimed) {
  constexpr uint64_t calls = 1'000'000;
  std::thread([] {
    for (uint64_t i = 0; i < calls; ++i) empty_leaf();
  }).join();
  const function_stats f = stats_of("adaptive_timing_test.empty_leaf");
  EXPECT_EQ(f.calls, calls);
  EXPECT_GE(f.timed_calls, first_review) << "every call is timed until the first review";
  EXPECT_LT(f.timed_calls, calls / 50) << "a probe-dominated leaf is timed on 1 call in 51 or fewer";
  EXPECT_EQ(f.timed_calls, histogram_sum(f)) << "percentiles come from the timed calls";
  EXPECT_LE(f.mean_ns_low, f.mean_ns);
  EXPECT_LE(f.mean_ns, f.mean_ns_high);
}

__attribute__((noinline)) void expensive_leaf(std::chrono::nanoseconds duration) {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.expensive_leaf");
  perf::testing::spin_for(duration);
}

TEST(AdaptiveTiming, AFunctionThatIsNotProbeDominatedIsTimedOnEveryCall) {
  constexpr uint64_t calls = 2'000;
  const auto duration = perf::testing::probe_costs(8, std::chrono::microseconds(2));
  std::thread([duration] {
    for (uint64_t i = 0; i < calls; ++i) expensive_leaf(duration);
  }).join();
  const function_stats f = stats_of("adaptive_timing_test.expensive_leaf");
  EXPECT_EQ(f.calls, calls);
  EXPECT_EQ(f.timed_calls, calls);
  EXPECT_EQ(f.mean_ns_low, f.mean_ns);
  EXPECT_EQ(f.mean_ns_high, f.mean_ns);
}

__attribute__((noinline)) void cheap_leaf(unsigned iterations) {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.cheap_leaf");
  spin(iterations);
}

__attribute__((noinline)) void parent_of_cheap_leaves(unsigned iterations) {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.parent");
  for (int k = 0; k < 100; ++k) cheap_leaf(iterations);
}

// The leaf's untimed calls add its estimated time to the parent's callees: the
// parent's self time is its total less the leaf's (estimated) self time, not the
// leaf's untimed time too. The parent, which has measured callees, is never sampled.
TEST(AdaptiveTiming, AParentsSelfTimeLeavesOutItsSampledLeavesEstimatedTime) {
  constexpr uint64_t parent_calls = 20'000;
  const unsigned iterations = spin_iterations_for(probe_ns() / 2);  // probe-dominated
  std::thread([&] {
    for (uint64_t i = 0; i < parent_calls; ++i) parent_of_cheap_leaves(iterations);
  }).join();
  const function_stats parent = stats_of("adaptive_timing_test.parent");
  const function_stats leaf = stats_of("adaptive_timing_test.cheap_leaf");
  EXPECT_EQ(parent.calls, parent_calls);
  EXPECT_EQ(parent.timed_calls, parent_calls) << "a parent is never sampled";
  EXPECT_EQ(leaf.calls, 100 * parent_calls);
  EXPECT_LT(leaf.timed_calls, leaf.calls / 4);
  const std::string figures =
      fmt::format("parent total {} ns, self {} ns; leaf {} timed, self {} ns, mean {} ns ({} to {})", parent.total_ns,
                  parent.self_ns, leaf.timed_calls, leaf.self_ns, leaf.mean_ns, leaf.mean_ns_low, leaf.mean_ns_high);
  // The leaf's self time is what its calls credited the parent: the timed calls'
  // signed durations (and a unit, 1/256 tick, each), the untimed ones' estimate. So
  // the parent's callee time is the leaf's self time, but for the parent's rounding
  // of its callee time to whole ticks (half a tick per call).
  const double tick_ns = 1 / current_clock_rate().ticks_per_ns;
  const double rounding_ns =
      (static_cast<double>(leaf.timed_calls) / 256 + static_cast<double>(parent_calls) / 2 + 1) * tick_ns;
  // A self time is read floored at zero: where the leaf's estimate exceeds the parent's
  // whole time (under ASan, whose timed calls of the leaf outlast its untimed ones by
  // more than the compensation takes out), the parent's self time reads 0 and the
  // leaf's self time is at least the parent's total.
  if (parent.self_ns > 0) EXPECT_NEAR(parent.total_ns - parent.self_ns, leaf.self_ns, rounding_ns) << figures;
  else EXPECT_GE(leaf.self_ns + rounding_ns, parent.total_ns) << figures;
  // And that self time holds the untimed calls' estimate: without it, it would be the
  // timed calls' share (a few percent) of the leaf's time. The leaf's mean, of its
  // durations raised to zero and estimated from the strata, is about its self time
  // per call; a tenth of its interval's low end leaves room for the compensation's
  // error on a body of half a probe and for a preempted timed call, which weighs on
  // the two estimates differently (and widens the interval: one of 10 ms made it
  // 1 to 690 ns).
  EXPECT_GT(leaf.self_ns, 0.1 * leaf.mean_ns_low * static_cast<double>(leaf.calls)) << figures;
}

__attribute__((noinline)) void leaf_beside_hogs(unsigned iterations) {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.leaf_beside_hogs");
  spin(iterations);
}

__attribute__((noinline)) void parent_beside_hogs(unsigned iterations) {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.parent_beside_hogs");
  for (int k = 0; k < 100; ++k) leaf_beside_hogs(iterations);
}

// Three threads that spin beside the measured one on a machine of two cores or more:
// its calls are preempted, some while timed. The figures keep their invariants: the
// leaf's total is its self time and never above its only caller's, no self time above
// its total, none negative.
TEST(AdaptiveTiming, ASampledLeafAndItsCallerKeepTheirInvariantsBesideThreeCpuHogs) {
  const unsigned iterations = spin_iterations_for(probe_ns() / 2);
  std::atomic<bool> stop{false};
  std::vector<std::thread> hogs;
  for (int i = 0; i < 3; ++i)
    hogs.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) __asm__ __volatile__("" ::: "memory");
    });
  std::thread([&] {
    for (int i = 0; i < 20'000; ++i) parent_beside_hogs(iterations);
  }).join();
  stop = true;
  for (std::thread& t : hogs) t.join();
  const function_stats parent = stats_of("adaptive_timing_test.parent_beside_hogs");
  const function_stats leaf = stats_of("adaptive_timing_test.leaf_beside_hogs");
  const std::string figures =
      fmt::format("parent total {} ns, self {} ns; leaf {} of {} timed, total {} ns, self {} ns", parent.total_ns,
                  parent.self_ns, leaf.timed_calls, leaf.calls, leaf.total_ns, leaf.self_ns);
  ASSERT_EQ(leaf.calls, 2'000'000u);
  ASSERT_LT(leaf.timed_calls, leaf.calls / 4) << figures;
  EXPECT_EQ(leaf.total_ns, leaf.self_ns) << figures;
  EXPECT_LE(leaf.total_ns, parent.total_ns) << figures;
  EXPECT_LE(parent.self_ns, parent.total_ns) << figures;
  for (const function_stats* f : {&parent, &leaf})
    for (double figure : {f->total_ns, f->self_ns, f->mean_ns, f->mean_ns_low, f->min_ns, f->p50_ns})
      EXPECT_GE(figure, 0) << figures;
  EXPECT_LE(leaf.min_ns, leaf.mean_ns) << figures;
  EXPECT_LE(leaf.mean_ns, leaf.max_ns) << figures;
}

// Strictly alternating short and long bodies, the long one about a probe's cost so
// that the site is probe-dominated: a sample taken every N-th call for an even N
// would see one kind only. Which calls were timed is read inside the body: only a
// timed call makes its site the thread's innermost. Instance 0 runs on a thread that
// times every call (as PERF_TIMING=all does), instance 1 adaptively.
template <int Instance>
__attribute__((noinline)) void alternating(uint64_t i, unsigned iterations, uint64_t* timed_by_parity) {
  PERF_MEASURE_NO_TICKS(Instance == 0 ? "adaptive_timing_test.alternating_timed" : "adaptive_timing_test.alternating");
  const detail::thread_state& thread = *detail::current_thread;
  if (thread.chain[thread.depth - 1].site != 0) ++timed_by_parity[i & 1];
  if ((i & 1) != 0) spin(iterations);
}

TEST(AdaptiveTiming, AlternatingDurationsAreSampledWithoutAliasing) {
  constexpr uint64_t calls = 2'000'000;
  const unsigned iterations = spin_iterations_for(probe_ns());
  uint64_t timed_by_parity[2] = {0, 0}, timed_all[2] = {0, 0};
  std::thread([&] {
    alternating<0>(0, iterations, timed_all);  // attaches the thread
    detail::current_thread->sampling = 0;
    for (uint64_t i = 1; i < calls; ++i) alternating<0>(i, iterations, timed_all);
  }).join();
  std::thread([&] {
    for (uint64_t i = 0; i < calls; ++i) alternating<1>(i, iterations, timed_by_parity);
  }).join();
  const function_stats sampled = stats_of("adaptive_timing_test.alternating");
  const function_stats every = stats_of("adaptive_timing_test.alternating_timed");
  EXPECT_EQ(sampled.calls, calls);
  EXPECT_EQ(every.timed_calls, calls);
  EXPECT_EQ(timed_all[0] + timed_all[1], calls);
  ASSERT_LT(sampled.timed_calls, calls / 4);
  EXPECT_EQ(timed_by_parity[0] + timed_by_parity[1], sampled.timed_calls);
  // Half of the timed calls each way, within 10% (the binomial's spread is below 1%).
  const double even_share = static_cast<double>(timed_by_parity[0]) / static_cast<double>(sampled.timed_calls);
  EXPECT_NEAR(even_share, 0.5, 0.05);
}

// `calls` calls of one site on `thread` (its countdowns drawn from `seed`) through the
// real fast path, countdowns and reviews, each timed one given its duration by hand:
// 1 tick for an even call, `long_ticks` for an odd one.
void alternate_by_hand(fake_thread& thread, uint64_t calls, uint64_t long_ticks, uint64_t seed) {
  thread.state.sampling = 1;
  thread.state.random = seed;
  const detail::site s = {"alternating", "", 0, detail::site_key(1, 1)};
  for (uint64_t i = 0; i < calls; ++i) {
    if (detail::untimed_call(&thread.state, s)) continue;
    if (thread.target.period != 0) thread.target.countdown = detail::next_countdown(thread.state, thread.target.period);
    const uint64_t duration = (i & 1) != 0 ? long_ticks : 1;
    thread.target.total += duration;
    thread.target.self += duration;
    thread.add(duration);
  }
}

// The same alternation on a thread block with durations given by hand (no clock:
// on a VM whose clock steps by 10 ns, a 1 ns body's timed figure is mostly the
// step's phase): the real countdowns, reviews and estimator, 1 tick and a probe's
// cost alternating, which is probe-dominated on every build. The estimated mean is
// within 5% of the true one (its standard error is below 1%).
TEST(AdaptiveTiming, AlternatingDurationsGiveTheTrueMeanWithinFivePercent) {
  constexpr uint64_t calls = 2'000'000;
  const uint64_t long_ticks = std::max<uint64_t>(4, static_cast<uint64_t>(current_compensation().cost.outside));
  fake_thread thread;
  alternate_by_hand(thread, calls, long_ticks, 0x9e3779b97f4a7c15u);
  const accumulator a = thread.read();
  const double true_mean = (1.0 + static_cast<double>(long_ticks)) / 2;
  EXPECT_EQ(a.calls, calls);
  ASSERT_LT(a.timed, calls / 16);
  EXPECT_NEAR(a.estimated.sum / static_cast<double>(calls), true_mean, 0.05 * true_mean);
  EXPECT_NEAR(a.estimated.total / static_cast<double>(calls), true_mean, 0.05 * true_mean);
  // A 95% interval about as wide as the binomial's spread says: half the difference
  // over the square root of the timed calls, doubled, within a factor of two.
  const double half_width = 1.96 * std::sqrt(a.estimated.variance) / static_cast<double>(calls);
  const double expected = 1.96 * (static_cast<double>(long_ticks) - 1) / 2 / std::sqrt(static_cast<double>(a.timed));
  EXPECT_GT(half_width, expected / 2);
  EXPECT_LT(half_width, expected * 2);
}

// The self time of a sampled leaf is what its calls credited their caller: the timed
// calls' own and, for each untimed call, the estimate of the review before it. Given
// by hand as above, the durations make it exact (untimed calls add to callee_time only)
// and, the estimate being the mean of earlier timed calls, within 5% of the true one.
TEST(AdaptiveTiming, ASampledLeafsSelfTimeIsWhatItsCallsCreditedTheirCaller) {
  constexpr uint64_t calls = 2'000'000;
  const uint64_t long_ticks = std::max<uint64_t>(4, static_cast<uint64_t>(current_compensation().cost.outside));
  fake_thread thread;
  alternate_by_hand(thread, calls, long_ticks, 0x2545f4914f6cdd1du);
  const accumulator a = thread.read();
  ASSERT_LT(a.timed, calls / 16);
  const double credited = static_cast<double>(thread.state.callee_time) / 256;
  EXPECT_EQ(a.estimated.self, static_cast<double>(thread.target.self) + credited);
  const double true_mean = (1.0 + static_cast<double>(long_ticks)) / 2;
  EXPECT_NEAR(a.estimated.self / static_cast<double>(calls), true_mean, 0.05 * true_mean);
}

__attribute__((noinline)) void time_all_measure() {
  PERF_MEASURE_TIME_ALL("adaptive_timing_test.time_all.measure");
  __asm__ __volatile__("");
}
__attribute__((noinline)) void time_all_instrument() {
  PERF_INSTRUMENT_TIME_ALL("adaptive_timing_test.time_all.instrument");
  __asm__ __volatile__("");
}
__attribute__((noinline)) void time_all_instrument_no_ticks() {
  PERF_INSTRUMENT_NO_TICKS_TIME_ALL("adaptive_timing_test.time_all.instrument_no_ticks");
  __asm__ __volatile__("");
}
__attribute__((noinline)) constexpr int time_all_constexpr(int x) {
  PERF_INSTRUMENT_CONSTEXPR_TIME_ALL("adaptive_timing_test.time_all.constexpr");
  return x + 1;
}
__attribute__((noinline)) constexpr int time_all_constexpr_no_ticks(int x) {
  PERF_INSTRUMENT_CONSTEXPR_NO_TICKS_TIME_ALL("adaptive_timing_test.time_all.constexpr_no_ticks");
  return x + 1;
}
__attribute__((noinline)) constexpr int adaptive_constexpr(int x) {
  PERF_MEASURE_CONSTEXPR("adaptive_timing_test.adaptive_constexpr");
  return x + 1;
}
static_assert(time_all_constexpr(1) == 2 && time_all_constexpr_no_ticks(1) == 2 && adaptive_constexpr(1) == 2);

// The fast path (untimed_call: assembly on x86-64, C++ elsewhere) writes exactly what its
// contract says, and nothing when the call is to be timed.
TEST(AdaptiveTiming, TheFastPathCountsAnUntimedCallCreditsItsCallerAndWritesNothingElse) {
  fake_thread thread;
  thread.slots.resize(300);  // an id above 255: the id is read in 16 bits, not 8
  thread.state.slots = thread.slots.data();
  constexpr unsigned id = 258, row = 7;
  const detail::site s = {"site", "", 1, detail::site_key(id, row)};
  detail::slot& target = thread.slots[id];
  target.countdown = 3;
  target.untimed = 40;
  target.untimed_estimate = 1234;
  thread.state.callee_time = 1000;
  thread.state.credited = 2000;
  thread.state.credit_site = 5;
  thread.state.probes_finished = 3000;
  thread.state.probe_untimed = 77;
  const std::vector<detail::slot> slots_before = thread.slots;

  ASSERT_TRUE(detail::untimed_call(&thread.state, s));
  EXPECT_EQ(target.countdown, 2u);
  EXPECT_EQ(target.untimed, 41u);
  EXPECT_EQ(thread.state.callee_time, 2234u);
  EXPECT_EQ(thread.state.credited, 3234u);
  EXPECT_EQ(thread.state.credit_site, id);
  EXPECT_EQ(thread.state.probes_finished, 3077u);
  for (unsigned other = 0; other < thread.slots.size(); ++other) {
    if (other == id) continue;
    EXPECT_EQ(std::memcmp(&thread.slots[other], &slots_before[other], sizeof(detail::slot)), 0) << "slot " << other;
  }

  // A countdown of 1 (this call is timed), a busy thread, an unregistered site, no block:
  // the call goes on to begin_timed, nothing written.
  ASSERT_TRUE(detail::untimed_call(&thread.state, s));
  EXPECT_EQ(target.countdown, 1u);
  const detail::thread_state state_before = thread.state;
  const detail::slot target_before = target;
  EXPECT_FALSE(detail::untimed_call(&thread.state, s));
  target.countdown = 9;
  thread.state.busy = 1;
  EXPECT_FALSE(detail::untimed_call(&thread.state, s));
  thread.state.busy = 0;
  const detail::site unregistered = {"unregistered", "", 2, 0};
  EXPECT_FALSE(detail::untimed_call(&thread.state, unregistered));
  EXPECT_FALSE(detail::untimed_call(nullptr, s));
  target.countdown = target_before.countdown;
  EXPECT_EQ(std::memcmp(&target, &target_before, sizeof(detail::slot)), 0);
  EXPECT_EQ(std::memcmp(&thread.state, &state_before, sizeof(detail::thread_state)), 0);
}

// Where a caller's untimed callees were credited more than the call took, the excess is
// charged to the last of its own untimed callees, never to an untimed call nested in one
// of its timed callees (which came later on the thread: charged there, it drained a
// leaf's total to nothing in a generated call tree, under TSan's calibration).
TEST(AdaptiveTiming, ACallersExcessCreditIsChargedToItsOwnUntimedCalleeNotToOneNestedDeeper) {
  fake_thread thread;
  thread.slots.resize(5);  // 1: the caller, 2: its sampled callee, 3: a timed callee, 4: that one's sampled callee
  thread.state.slots = thread.slots.data();
  std::vector<detail::site> sites;
  for (unsigned id = 0; id < 5; ++id) sites.push_back({"site", "", id, detail::site_key(id, id)});
  constexpr uint64_t units = uint64_t{1} << detail::probe_fraction_bits;
  for (unsigned sampled : {2u, 4u}) thread.slots[sampled].countdown = 100;
  thread.slots[2].untimed_estimate = 500 * units;  // credited far more than it took
  thread.slots[4].untimed_estimate = 10 * units;
  auto open = [&](unsigned id, uintptr_t stack, uint64_t start, detail::frame& f) {
    detail::open<false>(thread.state, detail::site_key(id, id), f, stack, thread.state.probe_offset);
    f.start = start;
  };
  detail::frame caller, timed_callee;
  open(1, UINTPTR_MAX, 1000, caller);
  ASSERT_TRUE(detail::untimed_call(&thread.state, sites[2]));
  open(3, 1, 1100, timed_callee);  // from below the caller: inside it
  ASSERT_TRUE(detail::untimed_call(&thread.state, sites[4]));
  detail::finish(thread.state, timed_callee, 1200);
  detail::finish(thread.state, caller, 1300);
  // The caller took 300 ticks; its callees came to 500 (credited) + 100 (timed).
  EXPECT_EQ(thread.slots[2].over_credited, 300u);
  EXPECT_EQ(thread.slots[4].over_credited, 0u);
  EXPECT_EQ(static_cast<int64_t>(thread.slots[1].self), 0) << "the excess is no negative self time";
}

TEST(AdaptiveTiming, TheTimeAllFormsTimeEveryCall) {
  constexpr uint64_t calls = 200'000;
  std::thread([] {
    int x = 0;
    for (uint64_t i = 0; i < calls; ++i) {
      time_all_measure();
      time_all_instrument();
      time_all_instrument_no_ticks();
      x = time_all_constexpr(x);
      x = time_all_constexpr_no_ticks(x);
      x = adaptive_constexpr(x);
    }
    EXPECT_EQ(x, static_cast<int>(3 * calls));
  }).join();
  for (const char* name : {"measure", "instrument", "instrument_no_ticks", "constexpr", "constexpr_no_ticks"}) {
    const function_stats f = stats_of(std::string("adaptive_timing_test.time_all.") + name);
    EXPECT_EQ(f.calls, calls) << name;
    EXPECT_EQ(f.timed_calls, calls) << name;
  }
  const function_stats adaptive = stats_of("adaptive_timing_test.adaptive_constexpr");
  EXPECT_EQ(adaptive.calls, calls);
  EXPECT_LT(adaptive.timed_calls, calls / 4) << "the constexpr form samples too";
}

__attribute__((noinline)) void leaf_on_a_thread_timing_all() {
  PERF_MEASURE_NO_TICKS("adaptive_timing_test.leaf_timing_all");
  __asm__ __volatile__("");
}

// PERF_TIMING=all leaves a thread's `sampling` at 0 when it attaches: then no site of
// it is ever sampled.
TEST(AdaptiveTiming, AThreadThatTimesAllTimesEveryCall) {
  constexpr uint64_t calls = 200'000;
  std::thread([] {
    leaf_on_a_thread_timing_all();  // attaches the thread
    detail::current_thread->sampling = 0;
    for (uint64_t i = 1; i < calls; ++i) leaf_on_a_thread_timing_all();
  }).join();
  const function_stats f = stats_of("adaptive_timing_test.leaf_timing_all");
  EXPECT_EQ(f.calls, calls);
  EXPECT_EQ(f.timed_calls, calls);
}

struct timing_probe_test : ::testing::Test {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("adaptive_timing_test_" + std::to_string(getpid()));
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }

  // The probe's leaf row (calls, timed_calls) under `environment`, and its stderr.
  std::pair<nlohmann::json, std::string> run(const std::string& environment) {
    const std::filesystem::path report = dir / "report.json";
    const perf::testing::probe_result result =
        perf::testing::run_probe_program(PERF_TIMING_PROBE, environment + " PERF_REPORT=" + report.string());
    EXPECT_TRUE(WIFEXITED(result.status) && WEXITSTATUS(result.status) == 0) << result.output;
    const nlohmann::json parsed = nlohmann::json::parse(perf::testing::read_file(report));
    for (const nlohmann::json& f : parsed.at("functions"))
      if (f.at("name") == "timing_probe.leaf") return {f, result.output};
    ADD_FAILURE() << "no row timing_probe.leaf";
    return {};
  }
};

TEST_F(timing_probe_test, PerfTimingAllTimesEveryCall) {
  const auto [row, output] = run("PERF_TIMING=all");
  EXPECT_EQ(row.at("calls"), 200'000);
  EXPECT_EQ(row.at("timed_calls"), 200'000);
  EXPECT_EQ(row.at("mean_ns_low"), row.at("mean_ns"));
  EXPECT_EQ(output, "");
}

// Raw figures mean raw on every row: no call left untimed, nothing estimated.
TEST_F(timing_probe_test, PerfCompensateOffTimesEveryCall) {
  const auto [row, output] = run("PERF_COMPENSATE=off");
  EXPECT_EQ(row.at("calls"), 200'000);
  EXPECT_EQ(row.at("timed_calls"), 200'000);
  EXPECT_EQ(row.at("mean_ns_low"), row.at("mean_ns"));
  EXPECT_EQ(output, "");
}

TEST_F(timing_probe_test, AdaptiveIsTheDefaultAndABadValueIsNamedInAWarning) {
  for (const std::string environment : {"", "PERF_TIMING=adaptive"}) {
    const auto [row, output] = run(environment);
    EXPECT_EQ(row.at("calls"), 200'000) << environment;
    EXPECT_LT(row.at("timed_calls").get<uint64_t>(), 200'000u / 16) << environment;
    EXPECT_EQ(output, "") << environment;
  }
  const auto [row, output] = run("PERF_TIMING=sometimes");
  EXPECT_LT(row.at("timed_calls").get<uint64_t>(), 200'000u / 16);
  EXPECT_EQ(output, "perf: PERF_TIMING='sometimes' is neither adaptive nor all; timing adaptively\n");
}

TEST(TimingConfig, ParsesAdaptiveAndAll) {
  const auto parse = [](const char* value) {
    return parse_timing_config([&](const char* name) { return std::string(name) == "PERF_TIMING" ? value : nullptr; });
  };
  EXPECT_TRUE(parse(nullptr).adaptive);
  EXPECT_TRUE(parse("").adaptive);
  EXPECT_TRUE(parse("adaptive").adaptive);
  EXPECT_FALSE(parse("all").adaptive);
  EXPECT_TRUE(parse("all").warnings.empty());
  const timing_config bad = parse("ALL");
  EXPECT_TRUE(bad.adaptive);
  EXPECT_EQ(bad.warnings, std::vector<std::string>{"PERF_TIMING='ALL' is neither adaptive nor all; timing adaptively"});
}

// A period keeps timing within 1% of the function's time, from 50 (a mean just below
// two probes) to 1024 (an empty function); 0 above two probes.
TEST(SamplingPeriod, KeepsTimingWithinOnePercentOfTheFunctionsTime) {
  EXPECT_EQ(sampling_period(0, 0, 20), max_period);
  EXPECT_EQ(sampling_period(0.5, 0, 20), max_period);
  EXPECT_EQ(sampling_period(20, 0, 20), 100u);   // 1 / 0.01
  EXPECT_EQ(sampling_period(39.9, 0, 20), 51u);  // 50.1, rounded up
  EXPECT_EQ(sampling_period(40, 0, 20), 0u);
  EXPECT_EQ(sampling_period(48, 8, 20), 0u) << "less the probe's inside part when it was not subtracted";
  EXPECT_EQ(sampling_period(47.9, 8, 20), 51u);
  EXPECT_EQ(sampling_period(10, 0, 0), 0u) << "no probe cost, no sampling";
}

}  // namespace
}  // namespace perf::runtime
