// A function template's instantiations share one row (same name and location):
// a row's total counts the time spent in any of them once, however they nest.
#include <gtest/gtest.h>

#include <chrono>
#include <type_traits>

#include "measure/busy_loop.hpp"
#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::stats_of;

// Long enough that a row counting its nested instantiation twice exceeds its caller.
constexpr std::chrono::microseconds long_enough(20);

// The row's total is the time spent in it: no more than its caller's, and, with no
// measured callee outside the row, the sum of its activations' self times.
void expect_counted_once(const function_stats& row, const function_stats& caller) {
  EXPECT_LE(row.total_ns, caller.total_ns);
  EXPECT_NEAR(row.total_ns, row.self_ns, row.self_ns * 1e-9);
  EXPECT_NEAR(caller.self_ns + row.total_ns, caller.total_ns, caller.total_ns * 1e-9);
}

struct first {};
struct second {};

template <class T>
void nested_work() {
  PERF_MEASURE("template_rows_test.nested_work<T>");
  testing::spin_for(long_enough);
  if constexpr (std::is_same_v<T, first>) nested_work<second>();
}

TEST(TemplateRows, ANestedInstantiationCountsOnceInTheRowTotal) {
  for (int i = 0; i < 3; ++i) {
    PERF_MEASURE("template_rows_test.nested_caller");
    nested_work<first>();
  }
  const function_stats caller = stats_of("template_rows_test.nested_caller");
  const function_stats row = stats_of("template_rows_test.nested_work<T>");
  EXPECT_EQ(caller.calls, 3u);
  EXPECT_EQ(row.calls, 6u);
  expect_counted_once(row, caller);
}

template <class T>
void mutual_work(int depth) {
  PERF_MEASURE("template_rows_test.mutual_work<T>");
  testing::spin_for(long_enough);
  if (depth == 0) return;
  if constexpr (std::is_same_v<T, first>) mutual_work<second>(depth - 1);
  else mutual_work<first>(depth - 1);
}

TEST(TemplateRows, MutualRecursionThroughTwoInstantiationsCountsOnce) {
  for (int i = 0; i < 2; ++i) {
    PERF_MEASURE("template_rows_test.mutual_caller");
    mutual_work<first>(4);  // first, second, first, second, first
  }
  const function_stats caller = stats_of("template_rows_test.mutual_caller");
  const function_stats row = stats_of("template_rows_test.mutual_work<T>");
  EXPECT_EQ(caller.calls, 2u);
  EXPECT_EQ(row.calls, 10u);
  expect_counted_once(row, caller);
}

}  // namespace
}  // namespace perf
