// Probe compensation: the arithmetic on a thread block with a set probe cost and
// times given by hand, PERF_COMPENSATE, the calibration, and the probe's figures
// in a snapshot.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "core/settings.hpp"
#include "core/sites.hpp"
#include "measure/fake_thread.hpp"
#include "measure/probe_cost.hpp"
#include "perf/measure.hpp"

namespace perf::runtime {
namespace {

// Opens an activation of site `id` (its own row) as the probe does, but at `start`,
// as its row's outermost (from a stack pointer above every frame).
void open_at(fake_thread& thread, unsigned id, uint64_t start, detail::frame& f) {
  detail::open<false>(thread.state, detail::site_key(id, id), f, UINTPTR_MAX, thread.state.probe_offset);
  f.start = start;
}

// Site 0 stands for the caller, site 1 (fake_thread::target) for its callees.
struct nested_calls : fake_thread {
  detail::slot& caller = slots[0];

  // The caller from 1000 to `caller_end`, and inside it one callee from 1100 to `callee_end`.
  void one_call_inside(uint64_t callee_end, uint64_t caller_end) {
    detail::frame outer, inner;
    open_at(*this, 0, 1000, outer);
    open_at(*this, 1, 1100, inner);
    detail::finish(state, inner, callee_end);
    detail::finish(state, outer, caller_end);
  }
};

TEST(Compensation, EachDurationLosesItsOwnProbeAndTheWholeProbeOfEveryMeasuredCallInside) {
  nested_calls thread;
  set_compensation(thread.state, {30, 10}, true);  // in ticks: 30 per call seen from outside, 10 of it inside
  detail::frame caller, first, second;
  open_at(thread, 0, 1000, caller);
  open_at(thread, 1, 1100, first);
  detail::finish(thread.state, first, 1150);  // 50 ticks recorded, 40 without the probe
  open_at(thread, 1, 1200, second);
  detail::finish(thread.state, second, 1260);  // 60, 50 without the probe
  detail::finish(thread.state, caller, 1500);  // 500, less its own 10 and 2 x 30 for the callees
  thread.drain();
  EXPECT_EQ(thread.target.timed, 2u);
  EXPECT_EQ(thread.target.total, 90u);
  EXPECT_EQ(thread.target.self, 90u);
  EXPECT_EQ(thread.target.min, 40u);
  EXPECT_EQ(thread.target.max, 50u);
  EXPECT_EQ(thread.caller.total, 430u);
  EXPECT_EQ(thread.caller.self, 340u);  // 430 - (40 + 50)
  EXPECT_EQ(thread.caller.max, 430u);
}

// Recursion is nesting like any other: each recursive call costs the activations
// around it the whole probe, and the outermost activation alone adds to the total.
TEST(Compensation, ARecursiveCallCostsEveryActivationAroundItTheWholeProbeLikeAnyNestedCall) {
  nested_calls thread;
  set_compensation(thread.state, {30, 10}, true);
  detail::frame caller, outermost, first, second;
  open_at(thread, 0, 0, caller);
  open_at(thread, 1, 1000, outermost);
  // Inner activations of row 1, opened from below the outermost one (stack pointer 0).
  detail::open<false>(thread.state, detail::site_key(1, 1), first, 0, thread.state.probe_offset);
  first.start = 1100;
  detail::open<false>(thread.state, detail::site_key(1, 1), second, 0, thread.state.probe_offset);  // inside first
  second.start = 1150;
  detail::finish(thread.state, second, 1200);     // 50, less its own 10
  detail::finish(thread.state, first, 1300);      // 200, less its own 10 and 30 for second
  detail::finish(thread.state, outermost, 2000);  // 1000, less its own 10 and 2 x 30
  detail::finish(thread.state, caller, 3000);     // 3000, less its own 10 and 3 x 30
  thread.drain();
  EXPECT_EQ(thread.target.timed, 3u);
  EXPECT_EQ(thread.target.min, 40u);
  EXPECT_EQ(thread.target.max, 930u);
  EXPECT_EQ(thread.target.total, 930u) << "the outermost activation only";
  EXPECT_EQ(thread.target.self, 40u + (160u - 40u) + (930u - 160u));
  EXPECT_EQ(thread.caller.total, 2900u);
  EXPECT_EQ(thread.caller.self, 2900u - 930u);
}

// The callee, 4 ticks less its probe's inside part of 10, records 0; its caller counts
// it as -6 ticks of callee time, so that the 6 come back in the caller's self time.
TEST(Compensation, ADurationShorterThanTheProbeIsZeroAndItsCallerStillLosesTheWholeProbe) {
  nested_calls thread;
  set_compensation(thread.state, {30, 10}, true);
  thread.one_call_inside(1104, 1200);
  EXPECT_EQ(thread.target.total, 0u);
  EXPECT_EQ(thread.target.max, 0u);
  EXPECT_EQ(static_cast<int64_t>(thread.target.self), -6);
  EXPECT_EQ(thread.caller.total, 160u);  // 200 - 10 - 30
  EXPECT_EQ(thread.caller.self, 166u);
}

// A recursion whose calls the compensation takes below zero or below their callees'
// time: each is raised to zero only, not to its callees' time, so that the outermost
// total is its own compensated time, not raised by the roundings up inside it.
TEST(Compensation, CallsCompensatedBelowZeroDoNotRaiseTheTotalOfTheRecursionAroundThem) {
  nested_calls thread;
  set_compensation(thread.state, {30, 10}, true);
  detail::frame outermost, longer, shorter;
  open_at(thread, 1, 1000, outermost);
  detail::open<false>(thread.state, detail::site_key(1, 1), longer, 0, thread.state.probe_offset);  // inner: from below
  longer.start = 1010;
  detail::finish(thread.state, longer, 1040);  // 30, less its own 10: 20
  detail::open<false>(thread.state, detail::site_key(1, 1), shorter, 0, thread.state.probe_offset);
  shorter.start = 1050;
  detail::finish(thread.state, shorter, 1052);    // 2, less its own 10: -8, recorded as 0
  detail::finish(thread.state, outermost, 1080);  // 80, less its own 10 and 2 x 30: 10
  thread.drain();
  EXPECT_EQ(thread.target.timed, 3u);
  EXPECT_EQ(thread.target.min, 0u);
  EXPECT_EQ(thread.target.max, 20u);
  EXPECT_EQ(thread.target.total, 10u) << "not raised to its callees' 20 + 0";
  EXPECT_EQ(thread.target.self, 10u) << "20 - 8 + (10 - 12): the signed parts add up to the total";
}

TEST(Compensation, FractionsOfATickAddUpOverTheCallsInsideInsteadOfRoundingEach) {
  nested_calls thread;
  set_compensation(thread.state, {1.5, 0.75}, true);
  detail::frame caller;
  open_at(thread, 0, 1000, caller);
  for (uint64_t start = 1010; start < 1050; start += 10) {
    detail::frame callee;
    open_at(thread, 1, start, callee);
    detail::finish(thread.state, callee, start + 5);  // 5 less 0.75 is 4.25: 4
  }
  // 100 less 0.75 + 4 x 1.5 is 93.25: 93 (rounding each callee's 1.5 to 2 would give 91)
  detail::finish(thread.state, caller, 1100);
  EXPECT_EQ(thread.target.total, 16u);
  EXPECT_EQ(thread.caller.total, 93u);
  EXPECT_EQ(thread.caller.self, 77u);
}

TEST(Compensation, OffRecordsTheRawDurations) {
  nested_calls thread;
  set_compensation(thread.state, {30, 10}, false);
  thread.one_call_inside(1150, 1500);
  EXPECT_EQ(thread.target.total, 50u);
  EXPECT_EQ(thread.caller.total, 500u);
  EXPECT_EQ(thread.caller.self, 450u);
}

compensation_config parse(const char* value) {
  return parse_compensation_config(
      [value](const char* name) { return std::string(name) == "PERF_COMPENSATE" ? value : nullptr; });
}

TEST(CompensationConfig, OnUnlessOff) {
  EXPECT_TRUE(parse(nullptr).on);
  EXPECT_TRUE(parse("").on);
  EXPECT_TRUE(parse("on").on);
  EXPECT_FALSE(parse("off").on);
  EXPECT_TRUE(parse(nullptr).warnings.empty());
  EXPECT_TRUE(parse("off").warnings.empty());
}

TEST(CompensationConfig, AnythingElseWarnsAndStaysOn) {
  const compensation_config config = parse("no");
  EXPECT_TRUE(config.on);
  ASSERT_EQ(config.warnings.size(), 1u);
  EXPECT_EQ(config.warnings[0], "PERF_COMPENSATE='no' is neither on nor off; the probe's cost is subtracted");
}

TEST(ProbeCalibration, MeasuresACostAndLeavesTheProgramsStatisticsAlone) {
  const unsigned sites_before = site_count();
  detail::thread_state* const thread_before = detail::current_thread;
  const probe_cost cost = measure_probe_cost(current_settings().clock, true);
  EXPECT_GT(cost.outside, 0.0);  // two clock reads at least
  EXPECT_GE(cost.inside, 0.0);
  EXPECT_EQ(site_count(), sites_before);
  EXPECT_EQ(detail::current_thread, thread_before);
}

// A measurement that gives `outside` figures in turn, counting its calls.
std::function<probe_cost()> measurements(std::vector<double> outside, int& calls) {
  return [outside = std::move(outside), &calls] {
    const double figure = outside[std::min(static_cast<size_t>(calls), outside.size() - 1)];
    ++calls;
    return probe_cost{figure, figure / 2};
  };
}

TEST(ProbeCalibration, ThreeMeasurementsTheLowestConfirmedSettleIt) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(measurements({21.0, 21.5, 21.2, 99}, calls));
  EXPECT_EQ(settled.cost.outside, 21.0);
  EXPECT_EQ(settled.highest_outside, 21.5);
  EXPECT_EQ(settled.measurements, 3);
  EXPECT_TRUE(settled.confirmed);
  EXPECT_EQ(calls, 3);
}

TEST(ProbeCalibration, AnInflatedMeasurementIsRepeatedAndTheLowestKept) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(measurements({30.0, 21.0, 40.0, 21.3}, calls));
  EXPECT_EQ(settled.cost.outside, 21.0);
  EXPECT_EQ(settled.cost.inside, 10.5);  // the lowest measurement's own inside part
  EXPECT_EQ(settled.highest_outside, 40.0);
  EXPECT_EQ(calls, 4);
}

// A busy spell of the host at start-up: two measurements that agree with each other
// at half as much again as the probe's cost do not settle it before the third; the
// floor found then does, once confirmed.
TEST(ProbeCalibration, AgreeingMeasurementsOfABusySpellGiveWayToTheFloorAfterIt) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(measurements({35.0, 35.5, 23.0, 23.4}, calls));
  EXPECT_EQ(settled.cost.outside, 23.0);
  EXPECT_TRUE(settled.confirmed);
  EXPECT_EQ(calls, 4);
}

TEST(ProbeCalibration, WithoutAgreementTheLowestOfTwelveIsKept) {
  int calls = 0;
  const settled_probe_cost settled =
      settle_probe_cost(measurements({30, 24, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 10}, calls));
  EXPECT_EQ(settled.cost.outside, 24.0);
  EXPECT_FALSE(settled.confirmed);
  EXPECT_EQ(calls, 12);
}

TEST(ProbeCalibration, AMeasurementThatAgreesWithTheKnownFloorSettlesItAtOnce) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(measurements({23.4}, calls), probe_cost{23.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 23.0);
  EXPECT_EQ(settled.cost.inside, 9.0);
  EXPECT_EQ(settled.highest_outside, 23.4);
  EXPECT_FALSE(settled.new_floor);
  EXPECT_EQ(calls, 1);
}

// A first measurement more than 5% above the known floor: the process settles its own
// figure too (a busy spell, or a machine whose probe now costs more), keeps the known
// floor, and says how far above it was (probe_floor.hpp counts such processes).
TEST(ProbeCalibration, AMeasurementAboveTheKnownFloorKeepsItAndSettlesTheProcesssOwnFigureAsAbove) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(measurements({35.0, 36.0}, calls), probe_cost{23.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 23.0);
  EXPECT_EQ(settled.highest_outside, 36.0);
  EXPECT_FALSE(settled.new_floor);
  ASSERT_TRUE(settled.above.has_value());
  EXPECT_EQ(settled.above->outside, 36.0);
  EXPECT_FALSE(settled.undecided);
  EXPECT_EQ(settled.measurements, 4);
  EXPECT_EQ(calls, 4);
}

// The spell over by the process's own settling: the known floor, nothing above it.
TEST(ProbeCalibration, ASpellAtStartUpThatEndsNearTheKnownFloorIsNotAbove) {
  int calls = 0;
  const settled_probe_cost settled =
      settle_probe_cost(measurements({35.0, 23.5, 23.2, 23.3}, calls), probe_cost{23.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 23.0);
  EXPECT_FALSE(settled.above.has_value());
  EXPECT_FALSE(settled.undecided);
  EXPECT_FALSE(settled.new_floor);
  EXPECT_EQ(calls, 4);
}

TEST(ProbeCalibration, ALowerFigureTheProcessSettlesAfterASpellIsANewFloor) {
  int calls = 0;
  const settled_probe_cost settled =
      settle_probe_cost(measurements({35.0, 21.0, 21.1, 21.2}, calls), probe_cost{23.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 21.0);
  EXPECT_TRUE(settled.new_floor);
  EXPECT_EQ(calls, 4);
}

TEST(ProbeCalibration, AnOwnFigureNeverConfirmedAboveTheKnownFloorIsUndecided) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(
      measurements({35, 40, 30, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150}, calls), probe_cost{23.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 23.0);
  EXPECT_FALSE(settled.above.has_value());
  EXPECT_TRUE(settled.undecided);
  EXPECT_EQ(calls, 13);
}

TEST(ProbeCalibration, ALowerFloorConfirmedBySecondMeasurementReplacesTheKnownOne) {
  int calls = 0;
  const settled_probe_cost settled = settle_probe_cost(measurements({21.0, 21.2}, calls), probe_cost{30.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 21.0);
  EXPECT_TRUE(settled.confirmed);
  EXPECT_TRUE(settled.new_floor);
  EXPECT_EQ(calls, 2);
}

TEST(ProbeCalibration, ALowerMeasurementNeverConfirmedIsKeptButNotWritten) {
  int calls = 0;
  const settled_probe_cost settled =
      settle_probe_cost(measurements({21.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0}, calls),
                        probe_cost{30.0, 9.0});
  EXPECT_EQ(settled.cost.outside, 21.0);
  EXPECT_FALSE(settled.new_floor);
  EXPECT_EQ(calls, 12);
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

// Threads that keep every core busy while they live, in this process as a busy
// machine's other work would be.
class cpu_hogs {
 public:
  cpu_hogs() {
    for (unsigned i = 0; i < std::max(2u, std::thread::hardware_concurrency()); ++i)
      threads_.emplace_back([this] {
        uint64_t spins = 0;
        while (!stop_.load(std::memory_order_relaxed)) ++spins;
        done_ += spins;
      });
  }
  ~cpu_hogs() {
    stop_ = true;
    for (std::thread& t : threads_) t.join();
  }
  cpu_hogs(const cpu_hogs&) = delete;
  cpu_hogs& operator=(const cpu_hogs&) = delete;

 private:
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> done_{0};
  std::vector<std::thread> threads_;
};

// Beside a busy thread on every core, settled calibrations stay near the floor: their
// median at most twice the lowest settled figure of the test, quiet or busy. A busy
// spell of the host makes the probe up to 1.65 times dearer for milliseconds
// (docs/performance.md, "Calibration"), whatever the process does; a calibration that
// load inflated without bound (a single batch's figure, a mean) would not keep to it.
TEST(ProbeCalibration, BesideACpuHogOnEveryCoreSettledFiguresKeepNearTheFloor) {
  if (sanitized) GTEST_SKIP() << "a sanitizer's instrumentation makes the probe's cost its own";
  const detail::clock_source clock = current_settings().clock;
  const auto settled = [clock] { return settle_probe_cost([clock] { return measure_probe_cost(clock, true); }); };
  double floor = std::numeric_limits<double>::max();
  for (int i = 0; i < 10; ++i) floor = std::min(floor, settled().cost.outside);
  std::vector<double> busy;
  {
    const cpu_hogs hogs;
    for (int i = 0; i < 50; ++i) busy.push_back(settled().cost.outside);
  }
  floor = std::min(floor, *std::min_element(busy.begin(), busy.end()));
  std::nth_element(busy.begin(), busy.begin() + busy.size() / 2, busy.end());
  EXPECT_LE(busy[busy.size() / 2], 2 * floor) << "the median of 50 settled calibrations; the floor " << floor;
}

// Two functions either side of the line, at 2 ticks per ns: a probe of 20 ticks is
// 10 ns, so probe-dominated means a median below 20 ns, without the probe's inside
// part of 4 ns where it was not subtracted. Each has a mean far above its median (a
// few long calls), which does not decide it.
snapshot two_functions(double below_ns, double above_ns) {
  snapshot s;
  s.functions.resize(2);
  s.functions[0].name = "small";
  s.functions[0].calls = s.functions[0].timed_calls = 5;
  s.functions[0].p50_ns = below_ns;
  s.functions[0].mean_ns = 10 * below_ns;
  s.functions[1].name = "large";
  s.functions[1].calls = s.functions[1].timed_calls = 7;
  s.functions[1].p50_ns = above_ns;
  s.functions[1].mean_ns = 10 * above_ns;
  return s;
}

TEST(ProbeFigures, NoCompensatedCallIsShownShorterThanAnEmptyCallAndRawFiguresStayRaw) {
  EXPECT_EQ(least_call_ns({{20, 8, 3}, true}, 2.0), 1.5);  // an empty call: 3 ticks
  EXPECT_EQ(least_call_ns({{20, 8, 3}, false}, 2.0), 0.0);
}

TEST(ProbeFigures, MarkFunctionsWhoseMedianIsBelowTwoProbeCostsAndSumWhatTheProbeCost) {
  snapshot s = two_functions(19.9, 20.0);
  add_probe_figures(s, {{20, 8}, true}, 2.0);
  EXPECT_EQ(s.clock.probe_ns, 10.0);
  EXPECT_EQ(s.clock.probe_inside_ns, 4.0);
  EXPECT_TRUE(s.clock.compensated);
  EXPECT_TRUE(s.functions[0].probe_dominated);
  EXPECT_FALSE(s.functions[1].probe_dominated);
  EXPECT_EQ(s.overhead.calls, 12u);
  EXPECT_EQ(s.overhead.ns, 120.0);
  EXPECT_EQ(s.overhead.dominated_functions, 1u);
  EXPECT_EQ(s.overhead.dominated_calls, 5u);
  EXPECT_EQ(s.overhead.dominated_ns, 50.0);
  EXPECT_GT(s.overhead.process_cpu_ns, 0.0);
}

TEST(ProbeFigures, WithoutCompensationTheInsidePartComesOffTheMeanFirst) {
  snapshot s = two_functions(23.9, 24.0);
  add_probe_figures(s, {{20, 8}, false}, 2.0);
  EXPECT_FALSE(s.clock.compensated);
  EXPECT_TRUE(s.functions[0].probe_dominated);
  EXPECT_FALSE(s.functions[1].probe_dominated);
}

}  // namespace
}  // namespace perf::runtime
