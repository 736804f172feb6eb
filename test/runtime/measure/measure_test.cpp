// PERF_MEASURE on one thread: counts, self time, recursion, exceptions.
#include <gtest/gtest.h>

#include <stdexcept>

#include "measure/probe_cost.hpp"
#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::stats_of;

const unsigned counted_line = __LINE__ + 1;
void counted() { PERF_MEASURE("measure_test.counted"); }

TEST(Measure, CountsEveryCall) {
  for (int i = 0; i < 1000; ++i) counted();
  const function_stats f = stats_of("measure_test.counted");
  EXPECT_EQ(f.calls, 1000u);
  EXPECT_EQ(f.line, counted_line);
  EXPECT_NE(f.file.find("measure_test.cpp"), std::string::npos);
  EXPECT_LE(f.min_ns, f.p50_ns);
  EXPECT_LE(f.p50_ns, f.p99_ns);
  EXPECT_LE(f.p99_ns, f.max_ns);
}

int nested_blocks(int n) {
  PERF_MEASURE("measure_test.whole");
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    PERF_MEASURE("measure_test.loop_body");
    {
      PERF_MEASURE("measure_test.innermost");
      sum += i;
    }
  }
  return sum;
}

TEST(Measure, MeasuresSeveralNestedBlocksOfOneFunction) {
  EXPECT_EQ(nested_blocks(5), 10);
  EXPECT_EQ(stats_of("measure_test.whole").calls, 1u);
  EXPECT_EQ(stats_of("measure_test.loop_body").calls, 5u);
  EXPECT_EQ(stats_of("measure_test.innermost").calls, 5u);
}

void callee() { PERF_MEASURE("measure_test.callee"); }
void caller() {
  PERF_MEASURE("measure_test.caller");
  for (int i = 0; i < 3; ++i) callee();
}

// Raw durations on the calling thread while it lives (compensation off), which nest
// exactly: compensated, a short call comes out either side of zero by the probe's
// error and the clock's granularity, records zero, and its caller's self time takes
// the signed figure instead (tested on given times: Compensation.*).
class raw_durations {
 public:
  raw_durations() : thread_(attached()) { runtime::set_compensation(thread_, {}, false); }
  ~raw_durations() {
    const runtime::compensation& process = runtime::current_compensation();
    runtime::set_compensation(thread_, process.cost, process.on);
  }
  raw_durations(const raw_durations&) = delete;
  raw_durations& operator=(const raw_durations&) = delete;

 private:
  static detail::thread_state& attached() {
    if (detail::current_thread == nullptr) detail::attach_thread();
    return *detail::current_thread;
  }
  detail::thread_state& thread_;
};

TEST(Measure, SelfTimeIsTotalMinusMeasuredCallees) {
  {
    const raw_durations raw;
    for (int i = 0; i < 10; ++i) caller();
  }
  const function_stats outer = stats_of("measure_test.caller");
  const function_stats inner = stats_of("measure_test.callee");
  EXPECT_EQ(outer.calls, 10u);
  EXPECT_EQ(inner.calls, 30u);
  // The callee's durations are exactly what the caller's self time leaves out.
  EXPECT_NEAR(outer.self_ns + inner.total_ns, outer.total_ns, outer.total_ns * 1e-9);
  EXPECT_EQ(inner.self_ns, inner.total_ns);
}

int depth(int n) {
  PERF_MEASURE("measure_test.depth");
  return n == 0 ? 0 : 1 + depth(n - 1);
}

TEST(Measure, RecursionCountsEveryActivationButTimeOnce) {
  {
    const raw_durations raw;
    EXPECT_EQ(depth(5), 5);
  }
  const function_stats f = stats_of("measure_test.depth");
  EXPECT_EQ(f.calls, 6u);
  // Total is the outermost activation, which is also the longest one.
  EXPECT_EQ(f.total_ns, f.max_ns);
  EXPECT_NEAR(f.self_ns, f.total_ns, f.total_ns * 1e-9);
}

void throws() {
  PERF_MEASURE("measure_test.throws");
  throw std::runtime_error("left by an exception");
}
void after_throw() { PERF_MEASURE("measure_test.after_throw"); }

TEST(Measure, AScopeLeftByAnExceptionStillCounts) {
  for (int i = 0; i < 3; ++i) EXPECT_THROW(throws(), std::runtime_error);
  after_throw();  // must not be taken for a callee of the unwound activations
  const function_stats f = stats_of("measure_test.throws");
  EXPECT_EQ(f.calls, 3u);
  EXPECT_EQ(f.self_ns, f.total_ns);
  EXPECT_EQ(stats_of("measure_test.after_throw").calls, 1u);
}

template <class T>
T twice(T value) {
  PERF_MEASURE("measure_test.twice");
  return value + value;
}

TEST(Measure, InstantiationsOfATemplateShareOneRow) {
  EXPECT_EQ(twice(2), 4);
  EXPECT_EQ(twice(2.5), 5.0);
  EXPECT_EQ(twice(1L), 2L);
  EXPECT_EQ(stats_of("measure_test.twice").calls, 3u);
}

#if __cplusplus >= 202002L
constexpr int square(int x) {
  PERF_MEASURE_CONSTEXPR("measure_test.square");
  return x * x;
}
static_assert(square(4) == 16, "still a constant expression");

TEST(Measure, ConstexprFunctionsAreMeasuredAtRunTimeOnly) {
  volatile int x = 3;
  EXPECT_EQ(square(x), 9);
  EXPECT_EQ(square(x + 1), 16);
  EXPECT_EQ(stats_of("measure_test.square").calls, 2u);
}
#endif

}  // namespace
}  // namespace perf
